"""The project's one threading choice (noir_env.threads): one thread unless NOIR_THREADS."""

import subprocess
import sys

import pytest

from noir_env.threads import default_threads, set_threads


def run(code: str, **env: str) -> str:
    import os

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_importing_agents_changes_no_thread_count():
    """A library leaves the process's threads to its user: importing the agents (and loading
    one) keeps torch's and numba's counts."""
    code = """
import numba, torch
numba.get_num_threads()  # starts numba's threading layer, whose OpenMP resets torch's count
torch.set_num_threads(3)
before = (torch.get_num_threads(), numba.get_num_threads())
import agents
agents.load("heuristic")
print(before, (torch.get_num_threads(), numba.get_num_threads()))
"""
    assert run(code, NUMBA_NUM_THREADS="2", NOIR_THREADS="1") == "(3, 2) (3, 2)"


# each command line's work stubbed out: what matters is the thread count it runs with
CLI_MAINS = {
    "train.evaluate": ("run_tournament", ["--agents", "random", "random", "random"]),
    "train.play": ("play", ["--opponents", "random"]),
    "train.demo": ("warm_up", []),
}


@pytest.mark.parametrize("module", sorted(CLI_MAINS))
def test_the_command_lines_take_one_thread_unless_noir_threads_says(module):
    work, argv = CLI_MAINS[module]
    code = f"""
import importlib, sys, numba
cli = importlib.import_module({module!r})
def report(*args, **kwargs):
    print("threads", numba.get_num_threads())
    sys.exit(0)
cli.{work} = report
cli.main({argv!r})
"""

    def threads(**env: str) -> str:
        return run(code, **env).splitlines()[-1]  # after what the command prints first

    assert threads(NUMBA_NUM_THREADS="2", NOIR_THREADS="1") == "threads 1"
    assert threads(NUMBA_NUM_THREADS="2", NOIR_THREADS="2") == "threads 2"
    assert threads(NUMBA_NUM_THREADS="1", NOIR_THREADS="4") == "threads 1"  # numba's ceiling


@pytest.mark.parametrize("module", sorted(CLI_MAINS))
def test_the_command_lines_refuse_a_bad_noir_threads_in_one_line(module):
    import os

    argv = CLI_MAINS[module][1]
    done = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True, text=True,
                          env={**os.environ, "NOIR_THREADS": "many"}, timeout=300)  # fmt: skip
    assert done.returncode == 2, done.stderr[-2000:]
    assert "NOIR_THREADS" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_sb3_ppo_keeps_its_thread_count_while_it_builds_the_env():
    """train.sb3_ppo --threads N: torch and numba still run N threads once the vector env
    (and with it the opponents' agents) is built."""
    pytest.importorskip("sb3_contrib")
    code = """
import sys, numba, torch, sb3_contrib
def report(*args, **kwargs):
    print(torch.get_num_threads(), numba.get_num_threads())
    sys.exit(0)
sb3_contrib.MaskablePPO = report
from train.sb3_ppo import main
main(["--threads", "2", "--num-envs", "1"])
"""
    assert run(code, NUMBA_NUM_THREADS="2", NOIR_THREADS="1") == "2 2"


def test_set_threads_sets_torch_and_numba_together():
    code = ("import torch, numba; from noir_env.threads import set_threads; "
            "set_threads(2); print(torch.get_num_threads(), numba.get_num_threads())")  # fmt: skip
    assert run(code, NUMBA_NUM_THREADS="2") == "2 2"


def test_bad_thread_counts_are_refused(monkeypatch):
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="positive int"):
            set_threads(bad)
    monkeypatch.setenv("NOIR_THREADS", "many")
    with pytest.raises(ValueError, match="NOIR_THREADS"):
        default_threads()
    monkeypatch.setenv("NOIR_THREADS", "3")
    assert default_threads() == 3
