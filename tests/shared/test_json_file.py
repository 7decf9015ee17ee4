"""Every JSON file read from outside goes through one bounded reader (noir_env/_json_file.py):
a game's history (`train.replay`, `noir_v2.load_history`), a policy table, a run's settings
(`train.ppo --resume`) and a tournament's results. Deeply nested, huge, non-UTF-8, NaN-laden
or truncated files are a ValueError naming the file (one line and exit 2 on the command
line), never a RecursionError traceback."""

from __future__ import annotations

import json

import pytest

import agents
from noir_env import noir_v2
from noir_env._json_file import MAX_DEPTH, nesting, parse_json, read_json_file
from train import replay as replay_cli
from train.ppo_args import parse_args
from train.tournament.report import load_results

DEEP = "[" * 100_000 + "]" * 100_000  # past Python's recursion limit, and the parser's

# content -> what the error says
HOSTILE = {
    "deep list": (DEEP, "nested deeper than 32 levels"),
    "deep object": ('{"a":' * 5000 + "1" + "}" * 5000, "nested deeper than 32 levels"),
    "deep, under the parser's limit": ("[" * 500 + "]" * 500, "nested 500 levels, at most 32"),
    "NaN": ('{"seed": NaN, "actions": []}', "NaN is not a JSON number"),
    "Infinity": ('{"seed": 1, "actions": [-Infinity]}', "-Infinity is not a JSON number"),
    "truncated": ('{"seed": 1, "actions": [1, 2', "not JSON"),
    "5000 digits": ('{"seed": ' + "9" * 5000 + "}", "Exceeds the limit"),
}


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_history_is_one_line_and_exit_2_in_train_replay(kind, tmp_path, capsys):
    text, says = HOSTILE[kind]
    path = tmp_path / "game.json"
    path.write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        replay_cli.main([str(path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err and says in err, err


def test_bytes_that_are_not_utf8_or_too_many(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b'{"seed": "\xff"}')
    with pytest.raises(ValueError, match="game.json: not a game history: not UTF-8 text"):
        noir_v2.load_history(path)
    path.write_text("[" + "1," * 20 + "1]")
    with pytest.raises(ValueError, match="game history: 43 bytes, a game history is at most 16"):
        read_json_file(path, "game history", 16)
    with pytest.raises(ValueError, match="no game history there"):
        noir_v2.load_history(tmp_path / "none.json")


@pytest.mark.parametrize("text", ["[" * 10_000 + "]" * 10_000, "[" * 40 + "]" * 40])
def test_every_reader_of_json_files_refuses_deep_nesting(text, tmp_path, monkeypatch, capsys):
    (tmp_path / "table.json").write_text(text)
    with pytest.raises(ValueError, match="table.json: not a policy table: not JSON it can read"):
        agents.load(str(tmp_path / "table.json"))
    (tmp_path / "results.json").write_text(text)
    with pytest.raises(ValueError, match="results.json: not a tournament's results: not JSON"):
        load_results(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "r").mkdir(parents=True)
    (tmp_path / "runs" / "r" / "config.json").write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--run-name", "r", "--resume"])
    assert exit_info.value.code == 2 and "config.json: not a run's settings file" in (
        capsys.readouterr().err
    )


def test_a_settings_file_that_is_not_an_object(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "r").mkdir(parents=True)
    (tmp_path / "runs" / "r" / "config.json").write_text("[1, 2]")
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--run-name", "r", "--resume"])
    assert exit_info.value.code == 2 and "a JSON object is needed, got list" in (
        capsys.readouterr().err
    )


def test_sound_json_reads_as_json_does():
    value = {"a": [1, 2.5, {"b": None, "c": [True, "x"]}], "d": []}
    assert parse_json(json.dumps(value)) == value and nesting(value) == 4
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH  # the deepest that reads
    assert nesting(parse_json(nested)) == MAX_DEPTH
    assert parse_json('{"x": NaN}', nan=True)["x"] != 0  # NaN, where a file is written with it
