"""Copies of the AEC envs continue the game, and closed envs refuse to be used (issue 20,
defects 7 and 11). Every AEC env of noir_env derives from `noir_env.aec.AECBase`: District
Noir's used to lose its game in a copy (Gymnasium's EzPickle rebuilt it from the constructor's
arguments), NOIR's did not; now one mechanism serves both, and the generic env too."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from race.game import RACE  # registers the test game "race" (tests/race)

from noir_env import district_noir_v0, noir_v2
from noir_env.aec import GameAECEnv

ENVS = {
    "noir_v2": lambda: noir_v2.raw_env(num_players=3, max_steps=400),
    "noir_v2 wrapped": lambda: noir_v2.env(num_players=5, max_steps=400),
    "district_noir_v0": district_noir_v0.raw_env,
    "district_noir_v0 wrapped": district_noir_v0.env,
    "race (GameAECEnv)": lambda: GameAECEnv(RACE, num_players=3),
}
COPIES = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
}


def snapshot(env) -> tuple:
    """Everything an agent and an observer can read of the env now."""
    agent = env.agent_selection
    obs = env.observe(agent)
    return (
        agent,
        list(env.agents),
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        dict(env.rewards),
        dict(env.unwrapped._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        repr(env.infos),
        list(env.unwrapped.game_log),
    )


def advance(env, rng: np.random.Generator, steps: int) -> list[tuple]:
    """Up to `steps` random steps (dead steps included); the snapshot after each."""
    seen = []
    for _ in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        if env.agents:
            seen.append(snapshot(env))
    return seen


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("name", ENVS)
def test_a_copy_mid_game_continues_as_the_original(name, how):
    env = ENVS[name]()
    env.reset(seed=11)
    advance(env, np.random.default_rng(0), 9)
    before = snapshot(env)
    twin = COPIES[how](env)
    assert type(twin) is type(env)
    assert snapshot(twin) == before
    # the same actions from here: the same game to its end (or 1000 steps)
    assert advance(twin, np.random.default_rng(1), 1000) == advance(
        env, np.random.default_rng(1), 1000
    )
    assert not env.agents or len(env.unwrapped.game_log) > len(before[-1])
    if hasattr(env.unwrapped, "history"):
        assert twin.unwrapped.history == env.unwrapped.history
    # the copy also took the seeds of the games to come
    env.reset()
    twin.reset()
    assert snapshot(twin) == snapshot(env)


@pytest.mark.parametrize("name", ENVS)
def test_a_copy_before_reset_and_of_a_finished_game(name):
    env = ENVS[name]()
    fresh = copy.deepcopy(env)  # no game yet: the copy deals as the original does
    fresh.reset(seed=3)
    env.reset(seed=3)
    assert snapshot(fresh) == snapshot(env)
    advance(env, np.random.default_rng(2), 5000)
    assert not env.agents
    done = pickle.loads(pickle.dumps(env))
    assert done.agents == [] and done.unwrapped.game_log == env.unwrapped.game_log


@pytest.mark.parametrize("name", ENVS)
def test_a_closed_env_refuses_reset_step_and_observe(name):
    env = ENVS[name]()
    env.reset(seed=1)
    agent = env.agent_selection
    action = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    env.close()
    env.close()  # closing twice is fine
    state = copy.deepcopy(env.unwrapped.state)
    for call in (lambda: env.step(action), lambda: env.reset(seed=2),
                 lambda: env.observe(agent)):  # fmt: skip
        with pytest.raises(ValueError, match="closed env"):
            call()
    np.testing.assert_array_equal(env.unwrapped.state, state)  # nothing changed
