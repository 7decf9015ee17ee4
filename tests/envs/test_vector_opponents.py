"""The single-seat vector envs' opponents (noir_env/vector/opponents.py): a mix's
probabilities are real numbers (not the string "0.5", not a bool, not None), finite, >= 0,
with a positive finite sum, anything else a ValueError naming them; search agents
(`uses_state`) are called through their hook on a copy of the games, seated by name or as a
league entry of train.ppo ("ismcts:budget=8:0.5")."""

from __future__ import annotations

import math

import numpy as np
import pytest

import agents
from agents import RandomAgent
from noir_env.vector import make_vector_env
from noir_env.vector.opponents import resolve
from tests.hook_agents import LowestLegalOnState
from train.league import NamedAgent, league_mix, parse_league


@pytest.mark.parametrize(
    "probs, says",
    [
        (["0.5", 0.5], "must be numbers"),
        ([True, 0.5], "must be numbers"),
        ([None, 1.0], "must be numbers"),
        ([b"1", 1.0], "must be numbers"),
        ([1j, 1.0], "must be numbers"),
        ([math.nan, 1.0], "finite numbers >= 0"),
        ([math.inf, 1.0], "finite numbers >= 0"),
        ([-0.5, 1.0], "finite numbers >= 0"),
        ([0, 0.0], "a positive, finite sum"),
        ([1e308, 1e308], "a positive, finite sum"),
    ],
)
def test_probabilities_that_are_not_real_numbers_are_refused(probs, says):
    with pytest.raises(ValueError, match=says):
        resolve(dict(zip(["random", "heuristic"], probs, strict=True)))
    with pytest.raises(ValueError, match=says):
        resolve(list(zip(["random", "heuristic"], probs, strict=True)))


def test_an_env_refuses_them_too():
    with pytest.raises(ValueError, match="must be numbers"):
        make_vector_env(2, opponents={"random": "0.5"}, seed=0)


def test_numbers_of_every_kind_are_shares():
    mix = resolve({"random": np.float32(1), "heuristic": np.int64(3)})
    assert mix.probs.tolist() == [0.25, 0.75]
    assert resolve([("random", 2), ("heuristic", 0)]).probs.tolist() == [1.0, 0.0]


def first_legal(obs, mask):
    return np.argmax(mask, axis=1)


class FirstLegalOnState(LowestLegalOnState):
    """The same choices as `first_legal`, made through the state hook (named, so the env's
    `final_info` reports it by that name)."""

    name = "first-legal-on-state"


def play(opponent, steps: int = 300, num_players: int = 3):
    """The learner's observations, rewards and ended games' opponents over `steps` steps of
    8 games with a seeded random learner."""
    env = make_vector_env(8, num_players=num_players, opponents=opponent, seed=5)
    obs, info = env.reset(seed=5)
    learner, seen, rewards, names = RandomAgent(1), [obs.copy()], [], []
    for _ in range(steps):
        obs, reward, _, _, info = env.step(learner.act(obs, info["action_mask"]))
        seen.append(obs.copy())
        rewards.append(reward.copy())
        if "final_info" in info:
            names += info["final_info"]["opponent"][info["_final_info"]].tolist()
    env.close()
    return np.stack(seen), np.stack(rewards), names


def test_a_search_opponent_plays_through_its_hook_on_a_copy():
    """The hook's choices play the same games as the same choices through act(obs, mask),
    also when the agent wrecks the state it was handed; it was asked in batches."""
    base_obs, base_rewards, _ = play(first_legal)
    for agent in (FirstLegalOnState(), FirstLegalOnState(wreck=True)):
        obs, rewards, names = play(agent)
        np.testing.assert_array_equal(obs, base_obs)
        np.testing.assert_array_equal(rewards, base_rewards)
        assert agent.asked > 0 and set(names) == {"first-legal-on-state"}


def test_a_hookless_search_agent_is_refused_and_changes_nothing():
    env = make_vector_env(4, num_players=3, opponents="random", seed=0)
    env.reset(seed=0)
    hookless = type("NoHook", (), {"uses_state": True, "name": "nohook"})()
    mix_before = env.games._mix
    with pytest.raises(ValueError, match="'nohook' declares uses_state but has no act_on_state"):
        env.set_opponents({hookless: 1.0})
    assert env.games._mix is mix_before


def test_ismcts_as_a_league_entry_plays_whole_games():
    """ "ismcts:budget=4" from a league spec: loaded once with its options, drawn beside a
    scripted entry, searching its seats' decisions until its games end."""
    weights = parse_league("ismcts:budget=4:0.5,heuristic:0.5")
    members = {name: NamedAgent(name, seed=3) for name in weights}
    search = members["ismcts:budget=4"].agent
    assert search.config.budget == 4 and search.stats.decisions == 0
    _, _, names = play(league_mix(weights, [], seed=3, members=members), steps=400)
    assert {"ismcts:budget=4", "heuristic"} <= set(names)
    assert search.stats.searched > 0


def test_ismcts_opponent_by_object_at_every_player_count():
    for n in (4, 6):
        search = agents.load("ismcts", seed=0, budget=2, horizon=2)
        _, _, names = play(search, steps=250, num_players=n)
        assert names and set(names) == {"ismcts"} and search.stats.decisions > 0
