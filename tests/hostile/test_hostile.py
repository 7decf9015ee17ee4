"""The hostile-input suite (noir_env.hostile) on a small sample of every reader: NOIR,
District Noir and the toy game Race, the policy files, tables, checkpoints and histories,
and the train.* command lines. No probe may crash its reader or run a payload's code;
`bench/hostile.py` runs the full count."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import tests.race.game  # noqa: F401 - registers "race"
from noir_env.game import get_game
from noir_env.hostile import ACCEPTED, CLEAR, CODE_RUN, CRASH, Tally, check_hostile_inputs
from noir_env.hostile.isolate import run_child
from noir_env.hostile.outcomes import Probe

SAMPLE = 40  # probes per game: seconds in the child processes


@pytest.mark.parametrize("name", ["noir", "district_noir", "race"])
def test_every_reader_of_a_game_refuses_hostile_input_cleanly(name):
    tally = check_hostile_inputs(get_game(name), sample=SAMPLE, seed=7)
    tally.assert_clean()
    assert sum(tally.tried(r) for r in tally.counts) == SAMPLE
    assert any(row[CLEAR] for row in tally.counts.values())


def _probe(read, check=lambda r: None, make=lambda: "x", marker="/nonexistent/marker"):
    return Probe("reader", "label", make, read, check).run(marker)


def test_the_classification_tells_each_outcome(tmp_path):
    def internal(_):
        return [][1]

    def unclear(_):
        raise ValueError("invalid literal for int() with base 10: 'x'")

    def writes_marker(_):
        (tmp_path / "m").touch()

    def fails_check(_):
        raise AssertionError("does not play")

    assert _probe(lambda x: (_ for _ in ()).throw(ValueError("x: must be an int"))).outcome == CLEAR
    assert _probe(lambda x: x).outcome == ACCEPTED
    assert _probe(internal).outcome == CRASH
    assert _probe(unclear).outcome == CRASH
    assert _probe(lambda x: x, check=fails_check).outcome == CRASH
    assert _probe(writes_marker, marker=str(tmp_path / "m")).outcome == CODE_RUN


def test_a_reader_that_changes_its_input_is_a_crash():
    def edits(d):
        d.append(1)
        raise ValueError("bad list")

    assert _probe(edits, make=lambda: [0]).outcome == CRASH


def test_a_probe_that_kills_its_process_is_counted_not_fatal():
    code = ("import json, os, signal\n"
            "print('B reader\\tfirst', flush=True)\n"
            "print('R ' + json.dumps(dict(reader='reader', label='first', outcome='clear error')),"
            " flush=True)\n"
            "print('B reader\\tsecond', flush=True)\n"
            "os.kill(os.getpid(), signal.SIGSEGV)\n")  # fmt: skip
    results = []
    done = run_child([sys.executable, "-c", code], 3, results)
    assert done == 2
    assert [(r.label, r.outcome) for r in results] == [("first", CLEAR), ("second", CRASH)]
    assert "died" in results[1].detail


def test_the_tally_table_names_every_outcome():
    t = Tally()
    t.add(_probe(lambda x: x))
    assert "tried" in t.table() and "code run" in t.table() and "reader" in t.table()


def test_a_sample_of_hostile_files_is_refused_cleanly(tmp_path):
    """Policy files and tables (train.hostile_files; the bench adds checkpoints and saved
    histories): the payload pickles always, and a sample of the rest."""
    from train.hostile_files import policy_probes, table_probes

    marker = str(tmp_path / "payload-ran")
    probes = policy_probes(tmp_path, marker) + table_probes(tmp_path, marker)
    rng = np.random.default_rng(3)
    picked = [p for p in probes if "payload" in p.label]
    picked += [probes[k] for k in rng.choice(len(probes), 30, replace=False)]
    tally = Tally()
    for p in picked:
        tally.add(p.run(marker))
    tally.assert_clean()
    assert tally.counts["policy file (load_policy)"][CLEAR] > 0


@pytest.mark.parametrize("cli", ["play", "demo", "replay", "soup", "curves"])
def test_hostile_flags_of_a_cli_are_one_line_errors(cli, tmp_path, monkeypatch):
    """A sample of each CLI's hostile flags (train.hostile_cli): none may crash or run code."""
    from train.hostile_cli import cli_probes

    monkeypatch.chdir(tmp_path)
    marker = str(tmp_path / "payload-ran")
    probes = cli_probes(marker, [cli])
    rng = np.random.default_rng(5)
    tally = Tally()
    for k in rng.choice(len(probes), min(12, len(probes)), replace=False):
        tally.add(probes[k].run(marker))
    tally.assert_clean()
    assert not tally.counts[f"CLI train.{cli}"][ACCEPTED]
