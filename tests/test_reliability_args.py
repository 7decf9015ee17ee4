"""Integers are integers, closed envs stay closed, histories name what they lack (issue 20,
defect 11): a float, string or bool where an int is meant is a ValueError naming the argument
(numpy integers are fine); `reset`/`step` after `close()` raise; a history without `seed` or
with an action id "12" is a ValueError naming the key. (The AEC envs' closing is tested with
their copies, tests/test_reliability_copy.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from noir_env import noir_v2
from noir_env.aec import GameAECEnv
from noir_env.vector import SingleSeatEnv, make_sb3_vec_env, make_selfplay_env, make_vector_env
from noir_env.vector.arena import RANDOM, play_games

NOT_INTS = (2.7, "3", True, np.float64(3.0), np.bool_(True), None)

MAKERS = {
    "make_vector_env": lambda **kw: make_vector_env(**{"num_envs": 2, **kw}),
    "make_sb3_vec_env": lambda **kw: make_sb3_vec_env(**{"num_envs": 2, **kw}),
    "SingleSeatEnv": lambda **kw: SingleSeatEnv(**kw),
    "make_selfplay_env": lambda **kw: make_selfplay_env(**{"num_envs": 2, **kw}),
    "noir_v2.raw_env": lambda **kw: noir_v2.raw_env(**kw),
    "GameAECEnv": lambda **kw: GameAECEnv("district_noir", **kw),
}
INT_ARGS = {  # the int arguments each maker takes
    "make_vector_env": ("num_envs", "learner_seat", "max_steps", "seed"),
    "make_sb3_vec_env": ("num_envs", "learner_seat", "max_steps", "seed"),
    "SingleSeatEnv": ("learner_seat", "max_steps"),
    "make_selfplay_env": ("num_envs", "max_steps", "seed"),
    "noir_v2.raw_env": ("num_players", "max_steps"),
    "GameAECEnv": ("max_steps",),
}
CASES = [(maker, arg) for maker, args in INT_ARGS.items() for arg in args]


@pytest.mark.parametrize(("maker", "arg"), CASES)
def test_an_int_argument_refuses_floats_strings_and_bools(maker, arg):
    for value in NOT_INTS:
        if value is None and arg == "seed":
            continue  # None is a seed's "fresh entropy"
        with pytest.raises(ValueError, match=arg):
            MAKERS[maker](**{arg: value})
    MAKERS[maker](**{arg: np.int64(3 if arg in ("num_players", "max_steps") else 1)})


def test_play_games_refuses_a_float_slot_count():
    for arg in ("slots", "max_steps"):
        with pytest.raises(ValueError, match=arg):
            play_games(np.array([0]), np.array([[0, 0, 0, 0]]), [RANDOM], **{arg: 2.5})


@pytest.mark.parametrize("seed", ["3", 1.5, True, np.float32(2.0), -1])
def test_a_selfplay_reset_with_a_bad_seed_changes_nothing(seed):
    env, twin = make_selfplay_env(3, seed=4), make_selfplay_env(3, seed=4)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)
    obs, info = env.reset()  # the constructor's seed still applies
    twin_obs, twin_info = twin.reset()
    np.testing.assert_array_equal(obs, twin_obs)
    np.testing.assert_array_equal(info["seat"], twin_info["seat"])


def step_args(env, obs_info):
    """A legal action for every slot of `env` (its own API)."""
    if isinstance(env, SingleSeatEnv):
        return int(np.flatnonzero(env.action_masks())[0])
    return np.argmax(env.action_masks() if hasattr(env, "action_masks") else
                     obs_info[1]["action_mask"], axis=1)  # fmt: skip


@pytest.mark.parametrize("maker", ["make_vector_env", "make_sb3_vec_env", "SingleSeatEnv",
                                   "make_selfplay_env"])  # fmt: skip
def test_a_closed_vector_env_refuses_reset_and_step(maker):
    env = MAKERS[maker](seed=2) if maker != "SingleSeatEnv" else SingleSeatEnv()
    first = env.reset() if maker != "SingleSeatEnv" else env.reset(seed=2)
    action = step_args(env, first)
    env.close()
    env.close()  # twice is fine
    games = env if maker == "make_selfplay_env" else env.games
    before = games.state.copy()
    with pytest.raises(ValueError, match="closed environment"):
        env.step(action)
    with pytest.raises(ValueError, match="closed environment"):
        env.reset()
    assert (games.state == before).all()  # nothing was played


def played_history(num_players: int = 3) -> dict:
    e = noir_v2.raw_env(num_players=num_players)
    e.reset(seed=9)
    for _ in range(12):
        e.step(int(np.flatnonzero(e.action_mask())[0]))
    return e.history


@pytest.mark.parametrize("key", ["seed", "actions"])
def test_a_history_without_seed_or_actions_names_the_key(key):
    history = {k: v for k, v in played_history().items() if k != key}
    with pytest.raises(ValueError, match=f"the history has no '{key}'"):
        noir_v2.replay(history)
    with pytest.raises(ValueError, match=f"the history has no '{key}'"):
        noir_v2.play_back(history)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"seed": "9"}, "history 'seed'"),
        ({"seed": 9.0}, "history 'seed'"),
        ({"num_players": "3"}, "history 'num_players'"),
        ({"max_steps": 1.5}, "history 'max_steps'"),
        ({"ask_all": "yes"}, "history 'ask_all'"),
        ({"actions": "0 1 2"}, "history 'actions'"),
        ({"rules": {"no_such_rule": 1}}, "history 'rules'"),
        ({"env": "district_noir_v0"}, "history 'env'"),
    ],
)
def test_a_history_with_a_bad_value_names_the_key(change, named):
    with pytest.raises(ValueError, match=named):
        noir_v2.replay({**played_history(), **change})


@pytest.mark.parametrize("bad", ["12", 12.0, True, None])
def test_an_action_id_must_be_an_integer(bad):
    history = played_history()
    actions = list(history["actions"])
    where = 5
    actions[where] = bad
    with pytest.raises(ValueError, match=rf"history 'actions'\[{where}\]"):
        noir_v2.replay({**history, "actions": actions})
    with pytest.raises(ValueError, match=r"history 'actions'\[0\]"):
        noir_v2.replay(9, [bad], num_players=3)
    # numpy integers are ids: the game plays as with Python ints
    as_numpy = {**history, "actions": np.array(history["actions"], np.int16)}
    assert noir_v2.play_back(as_numpy).history == noir_v2.play_back(history).history


def test_a_history_action_that_is_not_legal_names_its_place():
    history = played_history()
    e = noir_v2.play_back({**history, "actions": history["actions"][:7]})
    illegal = int(np.flatnonzero(e.action_mask() == 0)[0])
    actions = [*history["actions"][:7], illegal]
    with pytest.raises(ValueError, match="illegal") as err:
        noir_v2.play_back({**history, "actions": actions})
    assert err.value.__notes__ == ["history 'actions'[7] is not legal where the history plays it"]
    with pytest.raises(ValueError, match=r"history 'actions'\[12\]: the game ended before it"):
        noir_v2.play_back({**history, "max_steps": 12, "actions": [*history["actions"], 0]})
