"""`train.replay --html PATH` that cannot write PATH (a missing folder, a folder)
is one line and exit 2 naming PATH and the reason, never the temporary file the page is
written to first (noir_env/_atomic.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from noir_env._atomic import TEMP_SUFFIX
from train.replay import main as replay_main

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "replay_example.json"


@pytest.mark.parametrize(
    "where, why",
    [
        (lambda tmp: tmp / "missing" / "game.html", "No such file or directory"),
        (lambda tmp: tmp, "Is a directory"),
    ],
    ids=["missing folder", "a folder"],
)
def test_an_html_path_that_cannot_be_written_is_named(tmp_path, capsys, where, why):
    target = where(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        replay_main([str(EXAMPLE), "--html", str(target)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and len(err.strip().splitlines()) == 1
    assert err.strip() == f"python -m train.replay: error: could not write {target}: {why}"
    assert TEMP_SUFFIX not in err and not list(tmp_path.rglob(f"*{TEMP_SUFFIX}"))
