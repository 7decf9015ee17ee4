"""Race's `state_from_dict` (the walkthrough game of docs/ADDING_A_GAME.md) checks every
value before a kernel reads it: a value of the wrong type, outside its field's range or
inconsistent with the others is a ValueError naming it, never a numpy conversion error or a
state that makes the compiled kernels index out of bounds."""

from __future__ import annotations

import pytest

import tests.race.game  # noqa: F401 - registers "race"
from noir_env.game import get_game
from noir_env.hostile.games import plays

RACE = get_game("race")


def _real():
    state = RACE.init(1, num_players=3, seeds=5)
    RACE.random_playout(state, seed=1, max_steps=2)
    return RACE.state_to_dict(state)


@pytest.mark.parametrize("key, value, words", [
    ("actor", 127, "actor=127"), ("actor", 1.5, "must be an int"), ("actor", "x", "must be an int"),
    ("pos", 255, "pos=255"), ("pos", -5, "pos=-5"), ("length", 0, "length=0"),
    ("length", False, "must be an int"), ("num_players", 2**31, "num_players"),
    ("rng", -1, "rng"), ("winner", 3, "winner=3"), ("mask", [1, 1, 1, 1], "mask"),
    ("moved", [0, 0, 0, 99], "moved[3]"), ("steps", float("nan"), "steps"),
])  # fmt: skip
def test_a_bad_value_is_a_value_error_naming_it(key, value, words):
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        RACE.state_from_dict({**_real(), key: value})


def test_parts_that_disagree_are_refused():
    real = _real()
    with pytest.raises(ValueError, match="inconsistent position"):
        RACE.state_from_dict({**real, "pos": real["pos"] + 1})
    with pytest.raises(ValueError, match="the legal moves are"):
        RACE.state_from_dict({**real, "mask": [0, 0, 0]})


def test_a_real_position_loads_and_plays():
    plays(RACE, RACE.state_from_dict(_real()))
