"""A bad value from outside is named in a message of bounded size, whatever the value: a
string of megabytes, a list of a million entries or one nested past Python's recursion limit
(`noir_env._shown`); every reader reports it as its ValueError, never as a RecursionError."""

from __future__ import annotations

import pytest

from noir_env._shown import shown
from noir_env.game import get_game
from noir_env.history import play_back
from noir_env.hostile.values import deep_dict, deep_list, replaced


def test_shown_is_repr_for_small_values_and_bounded_for_others():
    for value in (None, 1, "x", [1, 2], {"a": 1}, 1.5):
        assert shown(value) == repr(value)
    assert len(shown("A" * 1_000_000)) <= 80
    assert len(shown([0] * 1_000_000)) <= 80
    assert shown(deep_list()).startswith("[[[")
    assert len(shown(deep_dict("a"), 40)) <= 40


@pytest.mark.parametrize("name", ["noir", "district_noir"])
@pytest.mark.parametrize("make", [deep_list, lambda: deep_dict("a"), lambda: "A" * 1_000_000],
                         ids=["deep list", "deep dict", "huge string"])  # fmt: skip
def test_a_state_dict_field_of_any_size_is_a_short_value_error(name, make):
    game = get_game(name)
    real = game.state_to_dict(game.init(1, seeds=3))
    for key in ("steps", "players", "rng"):
        with pytest.raises(ValueError) as info:
            game.state_from_dict(replaced(real, (key,), make()))
        assert len(str(info.value)) < 1000


def test_a_history_with_a_huge_or_deep_value_is_a_short_value_error():
    history = {"env": "district_noir_v0", "seed": 1, "actions": []}
    for key, value in (("env", "A" * 1_000_000), ("seed", deep_dict("a")),
                       ("actions", [deep_list()])):  # fmt: skip
        with pytest.raises(ValueError) as info:
            play_back({**history, key: value}, game="district_noir")
        assert len(str(info.value)) < 1000
