"""A policy table (agents/ppo/by_players.py): each row plays the network of its player count,
the shipped `ppo` is one, and a damaged table is refused with the file and the fault named.
A table names policy files in its own folder (or below it) only: `../x.pt`, an absolute
path, a link leading out of the folder, a name with a NUL byte or of 10 kB is refused with
a ValueError naming the table, before any file outside is read."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.policies import PPO_V2_POLICY, SHIPPED_PPO_POLICY
from agents.ppo.agent import PPOAgent
from agents.ppo.by_players import FORMAT, PPOByPlayers, read_policy_table
from agents.ppo.file import save_policy
from agents.ppo.net import PolicyNet
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from noir_env.vector import make_vector_env


def observations(n: int, games: int = 32, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of `games` n-player games a few decisions in."""
    env = make_vector_env(games, num_players=n, opponents="heuristic", seed=seed)
    obs, info = env.reset()
    player = agents.load("random", seed=seed)
    for _ in range(5):
        obs, *_, info = env.step(player.act(obs, info["action_mask"]))
    env.close()
    return obs, info["action_mask"]


def write_table(folder, policies: dict) -> str:
    path = folder / "table.json"
    path.write_text(json.dumps({"format": FORMAT, "policies": policies}))
    return str(path)


@pytest.fixture()
def two_nets(tmp_path):
    """A table whose 3-player net and 4-6 player net are two different random nets."""
    for name, seed in (("small.pt", 1), ("big.pt", 2)):
        save_policy(_net(seed), tmp_path / name)
    return write_table(tmp_path, {"3": "small.pt", "4": "big.pt", "5": "big.pt", "6": "big.pt"})


def _net(seed: int) -> PolicyNet:
    import torch

    torch.manual_seed(seed)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (32,))
    with torch.no_grad():
        net.pi.weight.mul_(300.0)  # far from uniform: the two nets disagree often
    return net


def test_each_row_plays_the_network_of_its_player_count(two_nets, tmp_path):
    table = agents.load(two_nets)
    assert isinstance(table, PPOByPlayers)
    assert table.by_players[4] is table.by_players[6]  # one file, loaded once
    small, big = PPOAgent(tmp_path / "small.pt"), PPOAgent(tmp_path / "big.pt")
    parts = {n: observations(n, seed=n) for n in (3, 4, 5, 6)}
    obs = np.concatenate([o for o, _ in parts.values()])
    mask = np.concatenate([m for _, m in parts.values()])
    order = np.random.default_rng(0).permutation(len(obs))  # counts mixed in one batch
    got = table.act(obs[order], mask[order])
    want = np.concatenate([(small if n == 3 else big).act(o, m) for n, (o, m) in parts.items()])
    np.testing.assert_array_equal(got, want[order])
    o3, m3 = parts[3]
    assert (small.act(o3, m3) != big.act(o3, m3)).any(), "the two nets must differ to test this"
    assert table.act(o3[0], m3[0]) == small.act(o3[:1], m3[:1])[0]  # one row, one action


def test_the_shipped_policy_is_a_table_with_ppo_v2_at_5_and_6_players():
    table = agents.load("ppo")
    assert isinstance(table, PPOByPlayers)
    files = read_policy_table(SHIPPED_PPO_POLICY)
    assert {files[n] for n in (5, 6)} == {PPO_V2_POLICY}
    own = {files[3], files[4]}  # networks of their own, each small enough to ship
    assert len(own) == 2 and PPO_V2_POLICY not in own
    assert all(path.stat().st_size < 5_000_000 for path in own)
    v2 = agents.load("ppo-v2")
    assert type(v2) is PPOAgent
    obs, mask = observations(5)
    np.testing.assert_array_equal(table.act(obs, mask), v2.act(obs, mask))


def test_sampling_is_seeded(two_nets):
    obs, mask = observations(3)
    runs = [agents.load(two_nets, greedy=False, seed=4).act(obs, mask) for _ in range(2)]
    np.testing.assert_array_equal(*runs)
    assert mask[np.arange(len(obs)), runs[0]].all()


@pytest.mark.parametrize(
    "content, fault",
    [
        ("not json", "not JSON"),
        (json.dumps({"format": "other/1", "policies": {}}), "not a NOIR PPO policy table"),
        (
            json.dumps({"format": FORMAT, "policies": {"3": "a.pt", "4": "a.pt", "5": "a.pt"}}),
            r"player counts missing \['6'\]",
        ),
        (
            json.dumps({"format": FORMAT, "policies": dict.fromkeys("234567", "a.pt")}),
            r"unknown \['2', '7'\]",
        ),
        (
            json.dumps({"format": FORMAT, "policies": dict.fromkeys("3456", "gone.pt")}),
            "'gone.pt', is not a file",
        ),
        (
            json.dumps({"format": FORMAT, "policies": dict.fromkeys("3456", "/abs/a.pt")}),
            "relative to the table's folder",
        ),
        (
            json.dumps({"format": FORMAT, "policies": dict.fromkeys("3456", 3)}),
            "relative to the table's folder",
        ),
        (json.dumps({"format": FORMAT, "policies": ["a.pt"]}), "'policies' must map"),
        (json.dumps({"format": FORMAT, "policies": {}, "code": "x"}), r"unknown keys \['code'\]"),
    ],
)
def test_a_damaged_table_is_refused_naming_the_file_and_the_fault(tmp_path, content, fault):
    save_policy(_net(0), tmp_path / "a.pt")
    path = tmp_path / "table.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=fault) as err:
        agents.load(str(path))
    assert str(path) in str(err.value)


def test_a_table_naming_a_damaged_policy_file_names_both(tmp_path):
    (tmp_path / "bad.pt").write_text("not a torch archive")
    path = write_table(tmp_path, dict.fromkeys("3456", "bad.pt"))
    with pytest.raises(ValueError, match=r"table\.json: .*bad\.pt: not a readable policy file"):
        PPOByPlayers(path)


def test_bad_input_is_refused(two_nets):
    table = agents.load(two_nets)
    obs, mask = observations(4, games=4)
    with pytest.raises(ValueError, match="NOIR observations of size"):
        table.act(obs[:, :100], mask)
    with pytest.raises(ValueError, match="do not match"):
        table.act(obs, mask[:2])
    with pytest.raises(ValueError, match="no player count"):
        table.act(np.zeros_like(obs), mask)


def test_a_copied_table_moves_with_its_files(tmp_path):
    """Names are relative to the table's folder: a folder copied elsewhere still loads."""
    names = {path.name for path in read_policy_table(SHIPPED_PPO_POLICY).values()}
    for name in names | {SHIPPED_PPO_POLICY.name}:
        shutil.copy(SHIPPED_PPO_POLICY.parent / name, tmp_path / name)
    assert isinstance(agents.load(str(tmp_path / SHIPPED_PPO_POLICY.name)), PPOByPlayers)


def test_an_installed_package_ships_the_table_and_every_file_it_names():
    """pyproject's package data for `agents` covers the shipped table and each policy file it
    names: an install from a wheel has only the files those patterns match."""
    root = Path(agents.__file__).resolve().parent
    pyproject = tomllib.loads((root.parent / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["agents"]
    shipped = [SHIPPED_PPO_POLICY, *read_policy_table(SHIPPED_PPO_POLICY).values()]
    for path in shipped:
        relative = path.resolve().relative_to(root).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative


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
