"""train.dataset: Minari datasets of played games, read back with `minari.load_dataset`; each
episode is what the game's single-seat env shows that seat; the CLI's errors are one line
(exit 2) and an interrupted write leaves nothing.

Needs the `dataset` extra (Minari); `make test` installs it and sets NOIR_REQUIRE_MINARI=1,
so there a missing Minari fails these tests instead of skipping them."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

if importlib.util.find_spec("minari") is None:
    if os.environ.get("NOIR_REQUIRE_MINARI") == "1":
        raise RuntimeError(
            'NOIR_REQUIRE_MINARI=1 but minari is missing: pip install -e ".[dataset]"'
        )
    pytest.skip(
        'minari missing: the dataset extra (pip install -e ".[dataset]")', allow_module_level=True
    )

import minari  # noqa: E402

import train.dataset as ds  # noqa: E402
from agents import HeuristicAgent, load  # noqa: E402
from noir_env.game import get_game  # noqa: E402
from noir_env.vector.arena import RANDOM, policy_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, out: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MINARI_DATASETS_PATH": str(out)}
    return subprocess.run([sys.executable, "-m", "train.dataset", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def load_from(root: Path, dataset_id: str):
    os.environ["MINARI_DATASETS_PATH"] = str(root)
    try:
        return minari.load_dataset(dataset_id)
    finally:
        del os.environ["MINARI_DATASETS_PATH"]


def test_the_cli_writes_a_dataset_minari_loads(tmp_path):
    out = tmp_path / "datasets"
    argv = ["--dataset-id", "noir/mixed-v0", "--agents", "heuristic", "random", "random",
            "--players", "3", "--games", "5", "--seed", "4", "--batch", "2"]  # fmt: skip
    proc = run_cli(*argv, out=out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"wrote {out / 'noir/mixed-v0'}"
    assert "5/5" in proc.stderr and "game/s" in proc.stderr  # the progress bar
    data = load_from(out, "noir/mixed-v0")
    game = get_game("noir")
    assert data.total_episodes == 15  # every seat of every game
    assert (
        data.observation_space.shape == (game.obs_size,) and data.action_space.n == game.num_actions
    )
    returns: dict[int, list[float]] = {}
    for episode in data.iterate_episodes():
        steps = len(episode.actions)
        mask = episode.infos["action_mask"]
        assert episode.observations.shape == (steps + 1, game.obs_size)
        assert mask.shape == (steps + 1, game.num_actions) and mask.dtype == np.bool_
        assert mask[np.arange(steps), episode.actions].all() and not mask[-1].any()
        assert episode.terminations[-1] and not episode.terminations[:-1].any()
        assert not episode.truncations.any() and not episode.rewards[:-1].any()
        seed = int(episode.infos["game_seed"][0])
        returns.setdefault(seed, []).append(float(episode.rewards.sum()))
        assert int(episode.infos["num_players"][0]) == 3
    assert sorted(returns) == [4, 5, 6, 7, 8]
    for seed, rewards in returns.items():  # the outcome, zero-sum, one winner at least
        assert len(rewards) == 3 and abs(sum(rewards)) < 1e-5 and max(rewards) > 0, seed
    assert not list(out.glob("**/*.partial")) and not list(out.glob(".dataset-*"))


def test_an_episode_is_what_the_single_seat_env_shows(tmp_path):
    """One seat against heuristics: the env of the dataset replays each episode exactly,
    observation, reward, ends and masks."""
    game = get_game("noir")
    agent = HeuristicAgent(seed=3)
    policies = [policy_of("h", agent)] * 4
    episodes = ds.play_episodes(game, policies, 4, None, games=3, seed=20, seats=[2])
    kwargs = {"num_players": 4, "learner_seat": 2, "opponents": agent}
    env = gymnasium.make("noir_env/Noir-v2", **kwargs)
    results = []
    for episode in episodes:
        obs, info = env.reset(seed=episode.game_seed)
        assert info["learner_seat"] == 2 and np.array_equal(obs, episode.observations[0])
        for t, action in enumerate(episode.actions):
            obs, reward, terminated, truncated, info = env.step(action)
            assert np.array_equal(obs, episode.observations[t + 1]), t
            assert reward == pytest.approx(episode.rewards[t]), t
            assert np.array_equal(info["action_mask"].view(np.bool_), episode.masks[t + 1])
        assert terminated and not truncated and episode.terminated
        results.append(info["result"])
    assert "eliminated" in results  # an episode that ends while its game goes on (seed 20)


def test_a_game_is_the_same_in_any_batch():
    game = get_game("noir")
    by_batch = [
        list(ds.play_episodes(game, [RANDOM] * 3, 3, None, 5, seed=9, seats=[0, 1, 2], batch=b))
        for b in (1, 2, 5)
    ]
    for other in by_batch[1:]:
        assert len(other) == len(by_batch[0]) == 15
        for a, b in zip(by_batch[0], other, strict=True):
            assert (a.seat, a.game_seed, a.actions, a.rewards) == (b.seat, b.game_seed, b.actions,
                                                                   b.rewards)  # fmt: skip
            assert np.array_equal(np.stack(a.observations), np.stack(b.observations))


def test_district_noir_and_chosen_seats_and_truncation(tmp_path, monkeypatch):
    monkeypatch.setattr(ds, "FLUSH_STEPS", 30)  # written in several chunks
    game = get_game("district_noir")
    policies = [policy_of("d", load("district-heuristic")), policy_of("r", load("random", seed=1))]
    episodes = ds.play_episodes(game, policies, 2, None, games=4, seed=0, seats=[1])
    path = ds.write_dataset("district/seat1-v0", episodes, game, tmp_path, {"num_players": 2},
                            "test", author="tests")  # fmt: skip
    data = load_from(tmp_path, "district/seat1-v0")
    assert path == tmp_path / "district/seat1-v0" and data.total_episodes == 4
    assert all((e.infos["learner_seat"] == 1).all() for e in data.iterate_episodes())
    assert (
        data.storage.metadata["author"] == {"tests"} or data.storage.metadata["author"] == "tests"
    )
    # stopped after 30 decisions: truncated, no reward
    players = [policy_of("r", load("random", seed=2))] * 3
    episodes = ds.play_episodes(get_game("noir"), players, 3, "original", games=2, seed=0,
                                seats=[0, 1, 2], max_steps=30)  # fmt: skip
    for episode in episodes:
        assert not episode.terminated and sum(episode.rewards) == 0


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--dataset-id", "no version"], "Malformed dataset ID"),
        (["--agents", "nobody"], "unknown agent 'nobody'"),
        (["--agents", "random", "random"], "one agent for every seat or one per seat (4), got 2"),
        (["--games", "0"], "--games must be in 1..10000000, got 0"),
        (["--seats", "4"], "--seats: 'all' or seats in 0..3, got '4'"),
        (["--players", "9"], "num_players must be in 3..6"),
        (["--rules", "chess"], "unknown rules"),
    ],
)
def test_cli_errors_are_one_line_and_write_nothing(tmp_path, args, why):
    base = {"--dataset-id": "noir/x-v0", "--agents": "random", "--games": "2"}
    given = dict.fromkeys(a for a in args if a.startswith("--"))
    argv = [x for k, v in base.items() if k not in given for x in (k, v)] + args
    proc = run_cli(*argv, "--out", str(tmp_path / "d"), out=tmp_path / "d")
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line and line.startswith("python -m train.dataset: error: "), line
    assert why in line, line
    assert not (tmp_path / "d" / "noir" / "x-v0").exists()


def test_an_existing_dataset_is_refused_and_kept(tmp_path):
    argv = ["--dataset-id", "k-v0", "--agents", "random", "--games", "1", "--no-progress"]
    assert run_cli(*argv, "--out", str(tmp_path), out=tmp_path).returncode == 0
    before = sorted(p.stat().st_mtime_ns for p in tmp_path.rglob("*"))
    proc = run_cli(*argv, "--out", str(tmp_path), out=tmp_path)
    assert proc.returncode == 2 and "exists already" in proc.stderr
    assert sorted(p.stat().st_mtime_ns for p in tmp_path.rglob("*")) == before


def test_an_interrupted_write_leaves_nothing(tmp_path, monkeypatch):
    """An agent that fails after some games, when chunks were written already: no
    dataset, no temporary folder."""
    calls, flushes = [0], []

    def failing(obs, mask):
        calls[0] += 1
        if calls[0] > 1500:
            raise RuntimeError("the agent crashed")
        return mask.argmax(axis=1)

    flush = ds._flush
    monkeypatch.setattr(ds, "_flush", lambda *args: flushes.append(1) or flush(*args))
    monkeypatch.setattr(ds, "FLUSH_STEPS", 50)
    game = get_game("noir")
    episodes = ds.play_episodes(game, [policy_of("f", failing)] * 4, 4, None, 50, 0, [0, 1],
                                batch=2)  # fmt: skip
    with pytest.raises(RuntimeError, match="the agent crashed"):
        ds.write_dataset("noir/broken-v0", episodes, game, tmp_path, {}, "test")
    assert len(flushes) >= 2  # written, then interrupted
    assert list(tmp_path.iterdir()) == []


def test_without_minari_the_cli_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['minari'] = None\n"
            "from train.dataset import main\n"
            "sys.exit(main(['--dataset-id', 'a-v0', '--agents', 'random']))\n")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        'python -m train.dataset: error: needs Minari: pip install "noir_env[dataset]"'
    )
