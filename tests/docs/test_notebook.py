"""notebooks/quickstart.ipynb runs from top to bottom (small sizes) the way its first cell and
the docs tell a user to run it, with the `dev` extra alone (`jupyter execute`, which nbclient
provides), and is stored without outputs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "quickstart.ipynb"


def test_quickstart_is_stored_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_quickstart_runs_with_jupyter_execute(tmp_path):
    copy = tmp_path / NOTEBOOK.name  # its runs/ folder lands beside it, in tmp_path
    shutil.copy(NOTEBOOK, copy)
    jupyter = Path(sys.executable).with_name("jupyter")  # the venv's, as a user's shell finds it
    done = subprocess.run(
        [str(jupyter), "execute", str(copy), "--output=quickstart_run", "--timeout=900"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-4000:]  # a failing cell's traceback
    nb = nbformat.read(tmp_path / "quickstart_run.ipynb", as_version=4)
    printed = "".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )
    assert "heuristic" in printed and "policy.pt" in printed
    assert (tmp_path / "runs" / "eval" / "quickstart" / "win_rates.png").is_file()
