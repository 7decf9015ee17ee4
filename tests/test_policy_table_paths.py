"""A policy table names policy files in its own folder (or below it) only: `../x.pt`, an
absolute path, a link leading out of the folder, a name with a NUL byte or of 10 kB is refused
with a ValueError naming the table, before any file outside is read
(agents/ppo/by_players.py)."""

from __future__ import annotations

import json
import os

import pytest

from agents.ppo.by_players import FORMAT, read_policy_table
from agents.ppo.file import save_policy
from agents.ppo.net import PolicyNet


def _table(folder, name: str):
    path = folder / "table.json"
    path.write_text(json.dumps({"format": FORMAT, "policies": dict.fromkeys("3456", name)}))
    return path


@pytest.fixture
def layout(tmp_path):
    """tmp/outside.pt, tmp/tables/ (the table's folder) with inside.pt, sub/below.pt, and
    links: in.pt (to inside.pt), out.pt and outdir/ (leading out)."""
    save_policy(PolicyNet(8, 4, (4,)), tmp_path / "outside.pt")
    folder = tmp_path / "tables"
    (folder / "sub").mkdir(parents=True)
    for name in ("inside.pt", "sub/below.pt"):
        save_policy(PolicyNet(8, 4, (4,)), folder / name)
    os.symlink(folder / "inside.pt", folder / "in.pt")
    os.symlink(tmp_path / "outside.pt", folder / "out.pt")
    os.symlink(tmp_path, folder / "outdir")
    return folder


@pytest.mark.parametrize("name", ["../outside.pt", "sub/../../outside.pt", "out.pt",
                                  "outdir/outside.pt"])  # fmt: skip
def test_a_name_leading_out_of_the_folder_is_refused(layout, name):
    with pytest.raises(ValueError, match="is outside the table's folder") as err:
        read_policy_table(_table(layout, name))
    assert "table.json" in str(err.value)


@pytest.mark.parametrize("name", ["/etc/passwd", "a\x00b.pt", "x" * 10_000, ""])
def test_a_name_that_is_no_file_name_is_refused(layout, name):
    with pytest.raises(ValueError, match="must be a file name relative to the table's folder"):
        read_policy_table(_table(layout, name))


def test_a_name_the_file_system_cannot_resolve_is_refused(layout):
    os.symlink(layout / "loop_b", layout / "loop_a")
    os.symlink(layout / "loop_a", layout / "loop_b")
    for name, why in [("in.pt" * 200, "File name too long"), ("loop_a", "loop")]:
        with pytest.raises(ValueError, match=f"cannot be read .*{why}"):
            read_policy_table(_table(layout, name))


# outdir/tables/inside.pt leaves through a link and comes back: it is the file inside
@pytest.mark.parametrize("name", ["inside.pt", "sub/below.pt", "in.pt", "./sub/../inside.pt",
                                  "outdir/tables/inside.pt"])  # fmt: skip
def test_names_inside_the_folder_still_load(layout, name):
    files = read_policy_table(_table(layout, name))
    assert all(f.is_file() and f.name == os.path.basename(name) for f in files.values())
