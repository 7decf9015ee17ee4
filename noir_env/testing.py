"""The API test every game of the protocol passes, shipped with the package (as pgx ships
its `api_test`), so a game written outside this repository can run it too:

    from noir_env.testing import check_game
    check_game(get_game("my_game"))            # raises AssertionError naming what broke

It plays random games at a batch of one and of many and checks what the layers above rely
on: shapes and dtypes, a legal action in every unfinished game and none in a finished one,
zero-sum outcomes equal to the step rewards, winners and reasons that agree, argument checks
(a fractional number of games, a bad seat), the strict step refusing an illegal action and
a read-only state while changing nothing, determinism whatever the batch size, clones, the
JSON round trip, the compiled random playout, and belief sampling that keeps what the seat
sees (for games that have it).
"""

from __future__ import annotations

import numpy as np

from .engine.protocol import Game


def random_actions(game: Game, state, rng: np.random.Generator) -> np.ndarray:
    """A uniformly chosen legal action per game (0 in a finished one)."""
    mask = game.legal_action_mask(state)
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


def _raises(error: type[Exception], call, what: str) -> None:
    try:
        call()
    except error:
        return
    raise AssertionError(f"{what}: expected {error.__name__}")


def check_contract(game: Game, n: int, seed: int = 3, max_decisions: int = 5_000) -> None:
    """Play n random games to their ends, checking every decision's outputs."""
    rng = np.random.default_rng(seed)
    state = game.init(n, seeds=seed)
    total = np.zeros((n, game.max_players))
    for _ in range(max_decisions):
        actor = game.current_player(state)
        mask = game.legal_action_mask(state)
        obs = game.observe(state)
        assert actor.dtype == np.int8 and mask.dtype == np.bool_ and obs.dtype == np.float32
        assert mask.shape == (n, game.num_actions) and obs.shape == (n, game.obs_size)
        assert mask[actor >= 0].any(1).all(), "a game goes on with no legal action"
        assert not mask[actor < 0].any(), "a finished game has a legal action"
        if (actor < 0).all():
            break
        rewards, done, illegal = game.step(state, random_actions(game, state, rng))
        assert rewards.shape == (n, game.max_players) and rewards.dtype == np.float32
        assert done.shape == (n,) and not illegal.any()
        assert (done == (game.current_player(state) < 0)).all()
        total += rewards
    assert (game.current_player(state) < 0).all(), "every game ends"
    np.testing.assert_allclose(total.sum(1), 0.0, atol=1e-5, err_msg="outcomes are zero-sum")
    np.testing.assert_allclose(total, game.outcome(state), atol=1e-6)
    winners = game.winners(state)
    assert winners.shape == (n, game.max_players) and winners.dtype == np.bool_
    reasons = np.array(game.win_reasons, object)[game.win_reason(state)]
    assert all((r != "") == w.any() for r, w in zip(reasons, winners, strict=True))
    assert game.scores(state).shape == (n, game.max_players)
    assert (game.turns(state) >= 1).all()
    assert game.alive(state).shape == (n, game.max_players)


def check_arguments(game: Game) -> None:
    """Bad arguments are refused with a clear error and change nothing."""
    _raises(ValueError, lambda: game.init(2.7), "init(2.7 games)")  # type: ignore[arg-type]
    _raises(ValueError, lambda: game.init(0), "init(0 games)")
    _raises(ValueError, lambda: game.init(1, num_players=game.max_players + 1), "too many seats")
    _raises(ValueError, lambda: game.init(1, seeds=[1, 2]), "two seeds for one game")
    state = game.init(2, seeds=5)
    _raises(ValueError, lambda: game.observe(state, seats=game.max_players), "a seat too far")
    _raises(ValueError, lambda: game.step(state, np.zeros(3, np.int64)), "3 actions, 2 games")
    _raises(ValueError, lambda: game.step(state, np.zeros(2)), "float actions")


def check_strict_step(game: Game, seed: int = 11) -> None:
    """An illegal action and a read-only state are refused, and nothing changes."""
    state = game.init(4, seeds=seed)
    before = state.tobytes()
    legal = game.legal_action_mask(state)
    illegal = np.where(legal, -1, np.arange(game.num_actions)).max(1)
    illegal[illegal < 0] = game.num_actions  # out of range where every action is legal
    _raises(ValueError, lambda: game.step(state, illegal), "an illegal action")
    assert state.tobytes() == before, "a refused step changed the state"
    frozen = game.clone(state)
    frozen.flags.writeable = False
    first = np.array([np.flatnonzero(m)[0] for m in legal])
    _raises(ValueError, lambda: game.step(frozen, first), "a read-only state")
    _, _, flagged = game.step(state, np.where(np.arange(4) == 0, illegal, first), strict=False)
    assert flagged.tolist() == [True, False, False, False], "strict=False flags the illegal one"


def check_determinism(game: Game, seed: int = 21, n: int = 8) -> None:
    """Game i is a function of its seed and its actions, whatever the batch size; clones
    are independent; the JSON form round-trips what a seat observes."""
    rng = np.random.default_rng(seed)
    many = game.init(n, seeds=seed)
    ones = [game.init(1, seeds=seed + i) for i in range(n)]
    for _ in range(30):
        actions = random_actions(game, many, rng)
        game.step(many, actions)
        for i, one in enumerate(ones):
            game.step(one, actions[i : i + 1])
    for i, one in enumerate(ones):
        assert one.tobytes() == many[i : i + 1].tobytes(), f"game {i} depends on the batch"
    copy = game.clone(many)
    game.random_playout(many, seed=1)
    assert copy.tobytes() != many.tobytes() or (game.current_player(copy) < 0).all()
    again = game.state_from_dict(game.state_to_dict(copy, 2))
    np.testing.assert_array_equal(game.observe(again), game.observe(copy)[2:3])
    assert game.action_id(game.action_name(1)) == 1


def check_playout(game: Game, seed: int = 1) -> None:
    """The compiled random playout ends every game without breaking an invariant."""
    state = game.init(16, seeds=seed)
    played = game.random_playout(state, seed=seed, check=True)
    assert played.done.all() and (played.steps > 0).all()
    assert not played.problems(), played.problems()
    np.testing.assert_allclose(played.rewards, game.outcome(state), atol=1e-6)


def check_belief(game: Game, seed: int = 4) -> None:
    """A re-deal keeps what the seat observes (games with belief sampling)."""
    state = game.init(6, seeds=seed)
    game.random_playout(state, seed=seed, max_steps=7)
    for seat in range(game.min_players):
        try:
            worlds = game.sample_hidden(state, seat, seeds=seed)
        except NotImplementedError:
            return
        np.testing.assert_array_equal(game.observe(worlds, seat), game.observe(state, seat))


def check_game(game: Game) -> None:
    """Every check of this module on `game` (module docstring)."""
    for n in (1, 64):
        check_contract(game, n)
    check_arguments(game)
    check_strict_step(game)
    check_determinism(game)
    check_playout(game)
    check_belief(game)
