"""Shimmy's OpenSpiel -> PettingZoo wrapper on our games: the seed of `reset` draws the deal
(at the game's chance nodes), parameters reach the game, episodes run to the game's end
with its returns; and `noir_env.openspiel.shimmy_env.OpenSpielEnv`, which sets right what
the wrapper gets wrong for every OpenSpiel game (parameters of a game given as `env=`,
rewards counted again, pickling), passes PettingZoo's API test."""

import pickle
import warnings

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="pyspiel is not installed: pip install -e '.[openspiel]'"
)
shimmy = pytest.importorskip(
    "shimmy", reason="shimmy is not installed: pip install -e '.[openspiel]'"
)

import noir_env.openspiel  # noqa: E402, F401 - registers the games
from noir_env.openspiel.shimmy_env import OpenSpielEnv  # noqa: E402

Shimmy = shimmy.OpenSpielCompatibilityV0


@pytest.fixture(autouse=True)
def _quiet():
    """Gymnasium warns that Shimmy's float64 Box is unbounded: not ours to change."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def deal_of(env, seed):
    """What the first seat to act sees after `reset(seed)`, and the deal's chance outcomes."""
    env.reset(seed=seed)
    return env.observe(env.agent_selection).tobytes(), env.game_state.history()[:4]


@pytest.mark.parametrize(("name", "config"), [("noir", {"players": 3}), ("district_noir", None)])
def test_each_seed_deals_another_game(name, config):
    env = Shimmy(game_name=name, config=config)
    first, second, again = deal_of(env, 1), deal_of(env, 2), deal_of(env, 1)
    assert first[1] != second[1] and first[0] != second[0]
    assert first == again  # the same seed, the same deal
    assert len({tuple(deal_of(env, s)[1]) for s in range(10)}) == 10


def play(env, seed, max_steps=5000):
    """A random legal game; returns each agent's sum of the rewards `last()` gives and the
    rewards of the step that ended the game."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    final = None
    for agent in env.agent_iter(max_steps):
        _, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            final = final or dict(env.rewards)  # the first agent told: the game just ended
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return total, final


def test_three_seats_play_to_the_real_end():
    env = Shimmy(game_name="noir", config={"players": 3})
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    total, final = play(env, 4)
    state = env.game_state
    assert state.get_game().num_players() == 3
    core = state.core_state
    # ended by the rules (not by a cut), every decision of the episode is a step of the core
    assert core.actor[0] < 0 and int(core.steps[0]) == len(state.history()) - 4
    returns = state.returns()
    assert sorted(final) == env.possible_agents
    assert [final[a] for a in env.possible_agents] == returns
    assert sum(returns) == 0 and max(returns) > 0
    # Shimmy's own accounting adds a finished game's rewards again at every agent removed
    # (docs/openspiel.md): only the first agent's sum is its return
    assert total["player_0"] == returns[0]
    assert [total[a] for a in env.possible_agents] != returns


@pytest.mark.parametrize(("name", "config"), [("noir", {"players": 3}), ("district_noir", None)])
def test_openspiel_env_sums_each_return_once(name, config):
    env = OpenSpielEnv(game_name=name, config=config)
    for seed in (5, 6):
        total, final = play(env, seed)
        returns = env.game_state.returns()
        assert [total[a] for a in env.possible_agents] == returns == [final[a] for a in total]


def test_openspiel_env_keeps_the_parameters_of_a_game_given_as_env():
    game = pyspiel.load_game("noir", {"players": 3, "rules": "original"})
    plain = Shimmy(env=game)
    plain.reset(seed=0)
    assert plain.game_state.get_game().num_players() == 4  # Shimmy reloads "noir" bare
    env = OpenSpielEnv(env=game)
    for target in (env, pickle.loads(pickle.dumps(env))):
        target.reset(seed=0)
        assert str(target.game_state.get_game()) == str(game)
    named = pickle.loads(pickle.dumps(OpenSpielEnv(game_name="noir", config={"players": 5})))
    named.reset(seed=0)
    assert named.game_state.get_game().num_players() == 5


@pytest.mark.parametrize(("name", "config"), [("noir", {"players": 3}), ("district_noir", None)])
def test_openspiel_env_passes_pettingzoo_api_test(name, config):
    from pettingzoo.test import api_test

    api_test(OpenSpielEnv(game_name=name, config=config), num_cycles=200)
