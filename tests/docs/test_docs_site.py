"""The documentation site builds with `mkdocs build --strict` (what `make docs` runs): no
broken link, no page missing from the navigation, every `:::` reference resolved. Needs the
`docs` extra; `make test` installs it. The site is built into a temporary folder, so the
checkout stays clean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
    pytest.importorskip(
        module, reason=f"{module} missing: the docs extra (pip install -e '.[docs]')"
    )


def test_the_site_builds_strict_without_a_warning(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's banner, not a warning
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-4000:]
    page = (tmp_path / "site" / "environments" / "noir_v2" / "index.html").read_text()
    assert "Reaction windows" in page and "Version History" in page  # the docstring rendered
    assert (tmp_path / "site" / "api" / "index.html").read_text().count("make_vector_env") > 1
