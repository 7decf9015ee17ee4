"""A third game costs one package: Race (tests/race/game.py, written against the game
protocol only) runs unchanged through every layer above the cores: the single-seat engine
and its VectorEnv, SB3 VecEnv and single env, the self-play API, the arena and the
tournament, train.ppo, train.play and the generic PettingZoo AEC env."""

from __future__ import annotations

import io

import numpy as np
import pytest
from pettingzoo.test import api_test

import agents
from noir_env.aec import GameAECEnv
from noir_env.vector import (
    SingleSeatEnv,
    make_sb3_vec_env,
    make_selfplay_env,
    make_vector_env,
)
from noir_env.vector.arena import ArenaPolicy, play_games
from train.ppo import Args, train
from train.tournament import run_tournament

from .game import LONGEST, RACE


def finisher(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Finish when the last square is within reach, else move 1: beats random play."""
    left = obs[:, : LONGEST + 1].argmax(1)
    return np.where(left <= 3, left - 1, 0)


def test_vector_env_sb3_and_single_env_play_race():
    env = make_vector_env(32, num_players=(2, 3, 4), opponents="random", seed=0, game="race")
    obs, infos = env.reset()
    assert obs.shape == (32, RACE.obs_size) and env.single_action_space.n == 3
    ended = 0
    for _ in range(60):
        obs, rew, term, trunc, infos = env.step(finisher(obs, infos["action_mask"]))
        assert infos["action_mask"].any(1).all() and not trunc.any()
        if term.any():
            fi = infos["final_info"]
            n = fi["num_players"][term]
            won = fi["learner_won"][term]
            np.testing.assert_allclose(rew[term], np.where(won, 1.0, -1.0 / (n - 1)))
            assert (fi["winner"][term] >= 0).all() and set(fi["result"][term]) == {"game_over"}
            ended += int(term.sum())
    assert ended > 50
    sb3 = make_sb3_vec_env(4, opponents="random", seed=1, game="race")
    sb3.reset()
    sb3.step_async(finisher(np.zeros((4, RACE.obs_size)), sb3.action_masks()) * 0)
    assert len(sb3.step_wait()[3]) == 4 and sb3.action_masks().shape == (4, 3)
    single = SingleSeatEnv(game="race", opponents="random", render_mode="ansi")
    obs, info = single.reset(seed=5)
    assert single.render().startswith("Race ") and info["action_mask"].shape == (3,)


def test_selfplay_returns_are_zero_sum():
    env = make_selfplay_env(16, num_players=3, seed=0, game="race")
    obs, infos = env.reset()
    finals = 0
    for _ in range(40):
        obs, rewards, term, trunc, infos = env.step(finisher(obs, infos["action_mask"]))
        if "final_info" in infos:
            returns = infos["final_info"]["returns"][infos["_final_info"]]
            np.testing.assert_allclose(returns.sum(1), 0.0, atol=1e-6)
            finals += len(returns)
    assert finals > 20


def test_arena_and_tournament_rank_the_finisher_first():
    seeds = np.arange(40)
    lineups = np.tile([[0, 1, -1, -1], [1, 0, -1, -1]], (20, 1))  # 2 of the 4 seats
    records = play_games(seeds, lineups, [ArenaPolicy("random"), ArenaPolicy("f", finisher)],
                         game="race", slots=7)  # fmt: skip
    assert records.winners.sum() == 40 and (records.turns >= 1).all()
    result = run_tournament([finisher, "random"], game="race", games=400, seed=2)
    first = {r["agent"]: r for r in result.summary}
    assert first["finisher"]["win_rate"] > 0.6 > first["random"]["win_rate"]
    assert "Race tournament: 400 games" in result.table()
    with pytest.raises(ValueError, match="Race: players per table must be 2..4, got 5"):
        run_tournament(["random"] * 5, game="race", num_players=5, games=2)


def test_train_ppo_trains_on_race_and_its_policy_plays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = Args(run_name="race", game="race", total_steps=6 * 32 * 16, num_envs=32,
                num_steps=16, num_minibatches=2, league="random:1", eval_games=64,
                eval_interval=0, checkpoint_interval=3, progress=False, hidden="32",
                seed=3)  # fmt: skip
    policy = train(args)
    agent = agents.load(str(policy))
    assert agent.game == "race"
    env = make_vector_env(8, game="race", seed=9)
    obs, infos = env.reset()
    actions = agent.act(obs, infos["action_mask"])
    assert infos["action_mask"][np.arange(8), actions].all()


def test_a_human_plays_race_in_the_terminal_and_the_aec_env_passes_pettingzoo():
    from train.play import play

    out = io.StringIO()
    assert play(game="race", opponents=["random"], seed=4, stdin=io.StringIO("1\n" * 20),
                stdout=out)  # fmt: skip
    text = out.getvalue()
    assert (
        "Race " in text and "your choice> " in text and ("You won!" in text or "You lost." in text)
    )
    api_test(GameAECEnv(RACE, num_players=3), num_cycles=20)
