"""`python -m noir_env.precompile`: its progress lines and its command line."""

import subprocess
import sys
import time

import pytest

from noir_env import precompile
from noir_env.precompile import Group, compile_groups


def test_each_group_gets_a_line_and_a_ticker_while_it_runs(capsys):
    groups = [
        Group("slow", "a slow group", lambda: time.sleep(0.3), 10.0),
        Group("quick", "a quick group", lambda: "it said this", 30.0),
    ]
    compile_groups(groups, every=0.05)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("[1/2] a slow group (about ") and "s left" in lines[0]
    ticks = [line for line in lines if "compiling" in line and "s left" in line]
    assert len(ticks) >= 3  # a long group never looks hung
    quick = lines.index(next(line for line in lines if line.startswith("[2/2]")))
    assert "done in" in lines[quick + 1] and lines[quick + 1].endswith("it said this")
    assert lines[-1].startswith("ready in")
    time.sleep(0.15)
    assert capsys.readouterr().out == ""  # the ticker stopped with its group


def test_the_estimate_follows_the_pace_of_the_groups_done():
    groups = [Group(n, n, lambda: None, s) for n, s in (("a", 10.0), ("b", 20.0), ("c", 30.0))]
    assert precompile._pace(0.0, 0.0, busy=3.0) == 3.0  # nothing done yet: the machine's load
    assert precompile._pace(5.0, 10.0, busy=3.0) == 0.5  # twice as fast as usual so far
    assert precompile._estimate(groups, 0, 0.0, 1.0) == "about 60 s left"
    assert precompile._estimate(groups, 1, 5.0, 0.5) == "about 20 s left"
    assert precompile._estimate(groups, 1, 15.0, 0.5) == (
        "longer than usual here, then about 15 s for the rest"
    )


def test_an_unknown_group_is_one_line_and_exit_2():
    proc = subprocess.run([sys.executable, "-m", "noir_env.precompile", "--groups", "nope"],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "python -m noir_env.precompile: error: unknown group 'nope'; choose from aec, district, "
        "vector, district_vector, arena"
    ]


@pytest.mark.parametrize("name", [g.name for g in precompile.GROUPS])
def test_every_group_is_listed_in_the_help(name):
    proc = subprocess.run([sys.executable, "-m", "noir_env.precompile", "--help"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert name in proc.stdout


def test_the_cache_settings_are_those_of_the_process(monkeypatch):
    for name in precompile.CACHE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert precompile.cache_settings() == {}
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/shared/numba")
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    assert precompile.cache_settings() == {"NUMBA_CACHE_DIR": "/shared/numba",
                                           "NUMBA_CPU_NAME": "generic"}  # fmt: skip
