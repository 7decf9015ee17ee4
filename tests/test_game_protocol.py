"""One API test of the game protocol (`noir_env.game`), run on every game (NOIR, District Noir
and the test suite's Race), at N=1 and N=64, in the manner of pgx's api_test: shapes and
dtypes, legal actions while a game goes on, zero-sum outcomes, all-or-nothing strict steps,
clones and dict round trips, the compiled random playout, the registry's errors."""

from __future__ import annotations

import numpy as np
import pytest
from race.game import RACE  # registers "race"

from noir_env.game import Game, game_names, get_game
from noir_env.vector import SingleSeatGames

GAMES = ["noir", "district_noir", RACE.name]


def random_actions(game: Game, state, rng: np.random.Generator) -> np.ndarray:
    """A uniformly chosen legal action per game (0 in a finished one)."""
    mask = game.legal_action_mask(state)
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


@pytest.mark.parametrize("n", [1, 64])
@pytest.mark.parametrize("name", GAMES)
def test_api_contract(name, n):
    game = get_game(name)
    rng = np.random.default_rng(0)
    state = game.init(n, seeds=3)
    total = np.zeros((n, game.max_players))
    for _ in range(5_000):
        actor = game.current_player(state)
        mask = game.legal_action_mask(state)
        obs = game.observe(state)
        assert actor.dtype == np.int8 and mask.dtype == np.bool_ and obs.dtype == np.float32
        assert mask.shape == (n, game.num_actions) and obs.shape == (n, game.obs_size)
        assert (mask[actor >= 0].any(1)).all() and not mask[actor < 0].any()
        if (actor < 0).all():
            break
        rewards, done, illegal = game.step(state, random_actions(game, state, rng))
        assert rewards.shape == (n, game.max_players) and not illegal.any()
        total += rewards
    assert (game.current_player(state) < 0).all(), "every game ends"
    np.testing.assert_allclose(total.sum(1), 0.0, atol=1e-5)  # zero-sum
    np.testing.assert_allclose(total, game.outcome(state), atol=1e-6)
    winners = game.winners(state)
    assert winners.shape == (n, game.max_players)
    reasons = np.array(game.win_reasons, object)[game.win_reason(state)]
    assert all((r != "") == w.any() for r, w in zip(reasons, winners, strict=True))
    assert game.scores(state).shape == (n, game.max_players)
    assert (game.turns(state) >= 1).all()


@pytest.mark.parametrize("name", GAMES)
def test_strict_step_clone_dict_and_playout(name):
    game = get_game(name)
    state = game.init(4, seeds=11)
    copy = game.clone(state)
    illegal = np.where(game.legal_action_mask(state), -1, np.arange(game.num_actions)).max(1)
    illegal[illegal < 0] = game.num_actions  # out of range where every action is legal
    with pytest.raises(ValueError, match="illegal action"):
        game.step(state, illegal)
    assert state.tobytes() == copy.tobytes(), "a refused step changes nothing"
    again = game.state_from_dict(game.state_to_dict(state, 2))
    np.testing.assert_array_equal(game.observe(again), game.observe(state)[2:3])
    played = game.random_playout(state, seed=1)
    assert played.done.all() and (played.steps > 0).all()
    assert (game.current_player(copy) >= 0).all(), "the clone is independent"
    assert game.action_id(game.action_name(1)) == 1


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
