"""`python -m train.<tool> --help` describes the tool with its docstring's whole first
paragraph (the first line alone stopped mid-sentence: "... scores, ranks, game")."""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from train.cli import first_paragraph

TOOLS = ["train.evaluate", "train.compare", "train.curves", "train.replay", "train.play",
         "train.export_policy", "train.soup", "train.demo", "train.rllib.export",
         "train.dataset", "train.rate"]  # fmt: skip


def test_first_paragraph_joins_the_lines_of_the_first_paragraph():
    assert first_paragraph("Evaluate agents: win rates,\n  ranks, game\nlengths.\n\nMore.") == (
        "Evaluate agents: win rates, ranks, game lengths."
    )
    assert first_paragraph(None) == ""


@pytest.mark.parametrize("module", TOOLS)
def test_help_shows_the_whole_first_paragraph(module):
    source = Path(importlib.util.find_spec(module).origin).read_text()
    expected = first_paragraph(ast.get_docstring(ast.parse(source)))
    done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected and expected in " ".join(done.stdout.split())
