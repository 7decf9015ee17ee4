"""The game protocol (`noir_env.game`) on every game (NOIR, District Noir and the test suite's
Race): the API test the package ships (`noir_env.testing.check_game`, in the manner of pgx's
api_test), the registry's errors, weighted player counts."""

from __future__ import annotations

import numpy as np
import pytest

from noir_env.game import game_names, get_game
from noir_env.testing import check_game
from noir_env.vector import SingleSeatGames
from tests.race.game import RACE  # registers "race"

GAMES = ["noir", "district_noir", RACE.name]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_the_shipped_api_test(name):
    check_game(get_game(name))


def test_registry_and_bad_names():
    assert {"noir", "district_noir", "race"} <= set(game_names())
    assert get_game(RACE) is RACE and get_game("race") is RACE
    with pytest.raises(ValueError, match="unknown game 'chess'; games: "):
        get_game("chess")
    with pytest.raises(ValueError, match="NOIR: num_players must be in 3..6, got 2"):
        get_game("noir").player_counts(2)
    with pytest.raises(ValueError, match="no rule presets"):
        get_game("district_noir").check_rules("noirburg")
    with pytest.raises(ValueError, match="Race: unknown action name 'fly'"):
        RACE.action_id("fly")


def test_a_count_listed_twice_is_drawn_twice_as_often():
    noir = get_game("noir")
    assert noir.player_counts([4, 3, 3]).tolist() == [3, 3, 4]
    assert noir.player_counts((3, 4, 5, 6)).tolist() == [3, 4, 5, 6]
    games = SingleSeatGames(2000, num_players=(3, 3, 3, 6), seed=0)
    games.reset()
    counts = np.bincount(games.state["num_players"].astype(np.int64), minlength=7)
    assert counts[3] + counts[6] == 2000 and 1350 < counts[3] < 1650  # 3/4 of the games
