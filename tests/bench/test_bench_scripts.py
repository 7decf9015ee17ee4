"""Every benchmark script starts as `make bench` runs it (`python bench/<name>.py`, the
script's folder first on sys.path, so a script named like a package would shadow it)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = sorted((Path(__file__).resolve().parents[2] / "bench").glob("*.py"))


def test_bench_scripts_exist():
    assert {p.stem for p in BENCH} >= {"core", "aec", "vector", "tournament", "training"}


@pytest.mark.parametrize("script", BENCH, ids=lambda p: p.name)
def test_bench_script_starts(script):
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout
    # the description is the docstring's whole first paragraph, not a line cut mid-sentence
    paragraph = ast.get_docstring(ast.parse(script.read_text())).split("\n\n")[0]
    assert " ".join(paragraph.split()) in " ".join(done.stdout.split())
