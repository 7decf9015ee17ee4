"""The single-seat Gymnasium env (`noir_env.vector.single`) under the frameworks' own checks:
Gymnasium's and SB3's `check_env` pass on both registered ids with
`illegal_action="terminate"`, the observation bounds are finite and hold, and an illegal
action either raises (the default) or ends the episode with a penalty, the game unchanged."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

IDS = ["noir_env:noir_env/Noir-v2", "noir_env:noir_env/DistrictNoir-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_and_sb3_check_env_pass(env_id):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gymnasium_check_env(gym.make(env_id, illegal_action="terminate").unwrapped)
        sb3_check_env(gym.make(env_id, illegal_action="terminate"))
    assert not [str(w.message) for w in caught], "the checkers warn about nothing"


@pytest.mark.parametrize("env_id", IDS)
def test_bounds_are_finite_and_hold_over_random_games(env_id):
    env = gym.make(env_id, opponents="random")
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    rng = np.random.default_rng(0)
    for game in range(4):
        obs, info = env.reset(seed=game)
        done = False
        while not done:
            assert space.contains(obs), "an observation outside the declared bounds"
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, _, term, trunc, info = env.step(action)
            done = term or trunc


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_changes_nothing():
    env = gym.make(IDS[0], illegal_action="terminate", illegal_reward=-2.5).unwrapped
    obs, info = env.reset(seed=3)
    before = env.games.state.tobytes()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs2, reward, term, trunc, info2 = env.step(illegal)
    assert (reward, term, trunc, info2["illegal_action"]) == (-2.5, True, False, True)
    np.testing.assert_array_equal(obs2, obs)
    assert env.games.state.tobytes() == before, "the game is unchanged"
    assert not env.action_masks().any()
    with pytest.raises(ValueError, match="call reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for bad in (env.action_space.n, -1, True, 2.0, "3"):
        env.reset(seed=3)
        assert env.step(bad)[2], f"{bad!r} ends the episode"
    env.reset(seed=4)
    assert not env.step(int(np.flatnonzero(env.action_masks())[0]))[4].get("illegal_action")


def test_the_default_raises_and_bad_options_are_refused():
    env = gym.make(IDS[0]).unwrapped
    _, info = env.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(int(np.flatnonzero(~info["action_mask"])[0]))
    for kwargs, named in (
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"illegal_action": "terminate", "illegal_reward": float("nan")}, "illegal_reward"),
        ({"illegal_action": "terminate", "illegal_reward": "-1"}, "illegal_reward"),
    ):
        with pytest.raises(ValueError, match=named):
            gym.make(IDS[0], **kwargs)
