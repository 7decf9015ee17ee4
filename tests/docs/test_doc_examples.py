"""Every Python code block of README.md and of the documentation (docs/**/*.md) runs as
pasted: each block on its own, in a fresh interpreter, in an empty folder (what it writes,
such as runs/, stays there), and fails the test if it raises or runs too long.

A docs block that is a fragment (an excerpt of a module, a signature) says so on the line
right above its fence: `<!-- not run: why -->`. README blocks may not: each must run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")
FENCE = re.compile(r"^(\s*)```(\S*)")
TIMEOUT_S = 600  # a block's budget: the first call may compile kernels not yet cached


def code_blocks(path: Path) -> list[tuple[int, str, str, str | None]]:
    """The fenced blocks of a Markdown file: (line of the fence, language, code, the reason
    given in a `not run` comment right above it or None)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        start = i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"{path}:{start + 1}: a code fence that is never closed")
        above = SKIP.search(lines[start - 1]) if start > 0 else None
        blocks.append((start + 1, lang, "\n".join(body) + "\n", above and above.group(1)))
        i += 1
    return blocks


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_blocks() -> list:
    params = []
    for path in documents():
        for line, lang, code, reason in code_blocks(path):
            if lang not in ("python", "py"):
                continue
            name = f"{path.relative_to(ROOT)}:{line}"
            marks = [pytest.mark.skip(reason=f"marked not run: {reason}")] if reason else []
            params.append(pytest.param(path, code, reason, id=name, marks=marks))
    return params


def test_readme_blocks_are_all_run():
    readme = code_blocks(ROOT / "README.md")
    assert [line for line, lang, _, reason in readme if reason] == []
    assert sum(lang == "python" for _, lang, _, _ in readme) >= 4


@pytest.mark.parametrize(("path", "code", "reason"), python_blocks())
def test_code_block_runs(path, code, reason, tmp_path):
    env = dict(os.environ)
    # small batches on a shared machine: one thread each for numba, OpenMP and torch
    env.setdefault("NUMBA_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    env["MPLBACKEND"] = "Agg"  # a block that plots must not open a window
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert proc.returncode == 0, f"{path.name} block failed:\n{code}\n{proc.stderr[-4000:]}"
