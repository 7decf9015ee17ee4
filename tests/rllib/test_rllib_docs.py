"""The Python blocks of docs/rllib.md, which the main suite cannot run (it has no ray:
they are marked `not run` there), run here as tests/docs/test_doc_examples.py runs the others:
each on its own, in a fresh interpreter, in an empty folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.test_doc_examples import ROOT, code_blocks

DOC = ROOT / "docs" / "rllib.md"
BLOCKS = [(line, code) for line, lang, code, reason in code_blocks(DOC)
          if lang == "python" and reason and "rllib" in reason]  # fmt: skip


def test_the_page_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"rllib.md:{n}" for n, _ in BLOCKS])
def test_block_runs(line: int, code: str, tmp_path: Path):
    env = dict(os.environ, NOIR_THREADS="1", OMP_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, f"docs/rllib.md:{line} failed:\n{proc.stderr[-4000:]}"
