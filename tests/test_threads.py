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


def test_importing_agents_uses_one_numba_thread_unless_noir_threads_says():
    code = "import numba, agents; print(numba.get_num_threads())"
    assert run(code, NUMBA_NUM_THREADS="2", NOIR_THREADS="1") == "1"
    assert run(code, NUMBA_NUM_THREADS="2", NOIR_THREADS="2") == "2"
    assert run(code, NUMBA_NUM_THREADS="1", NOIR_THREADS="4") == "1"  # numba's own ceiling


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
