"""OpenSpiel's own search bots play our games: `ISMCTSBot` (information-set MCTS over
`resample_from_infostate`, i.e. the core's belief sampling) and `MCTSBot` (plain MCTS on the
true state: it sees the hidden cards, so it only checks that the game runs under it)."""

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="pyspiel is not installed: pip install -e '.[openspiel]'"
)

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import noir_env.openspiel as nos  # noqa: E402


def bots(game, sims, seed):
    """An ISMCTSBot and an MCTSBot with random rollouts, seeded."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    search = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(seed))
    rng = np.random.RandomState(seed + 1)
    # the bot's own resampler would draw from an unseeded sampler: seed it for a repeatable test
    search.set_resampler(lambda s, p: s.resample_from_infostate(p, lambda: rng.uniform()))
    plain = mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=np.random.RandomState(seed))
    return search, plain


def play(game, state, seats, max_decisions):
    """Play until the end or max_decisions; returns the decisions taken by each bot."""
    taken = [0] * len(seats)
    for _ in range(max_decisions):
        if state.is_terminal():
            break
        seat = state.current_player()
        legal = state.legal_actions()
        action = seats[seat].step(state)
        assert action in legal
        if len(legal) > 1:
            taken[seat] += 1
        state.apply_action(action)
    return taken


def test_ismcts_and_mcts_play_a_whole_district_noir_game():
    game = pyspiel.load_game("district_noir")
    for k in range(2):  # each bot in each seat
        search, plain = bots(game, 24, seed=k)
        state = nos.deal(game, 100 + k)
        seats = [search, plain] if k == 0 else [plain, search]
        taken = play(game, state, seats, 100)
        assert state.is_terminal() and min(taken) > 0
        assert sum(state.returns()) == 0 and max(state.returns()) <= 1


def test_ismcts_and_mcts_play_noir():
    """A 3-player NOIR game, one seat each and a random seat, for 40 decisions (a whole game
    with rollouts to the end takes minutes here)."""
    game = pyspiel.load_game("noir", {"players": 3})
    search, plain = bots(game, 4, seed=0)
    rng = np.random.RandomState(9)

    class Uniform:
        @staticmethod
        def step(state):
            return int(rng.choice(state.legal_actions()))

    state = nos.deal(game, 3)
    taken = play(game, state, [search, plain, Uniform], 40)
    assert taken[0] > 0 and taken[1] > 0


def test_evaluate_bots_with_search_bots_deals_by_its_rng():
    """OpenSpiel's `evaluate_bots` restarts every bot and samples the deal's chance nodes
    with its rng: our `ISMCTSBot` (OpenSpiel's, restartable and seeded) and `MCTSBot` play
    whole District Noir games, another rng deals another game, the same rng the same."""
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = pyspiel.load_game("district_noir")

    def match(seed):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        search = nos.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(seed))
        plain = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(seed))
        state = game.new_initial_state()
        returns = evaluate_bots(state, [search, plain], np.random.RandomState(seed))
        assert state.is_terminal() and returns == state.returns() and sum(returns) == 0
        return state.history()

    first = match(1)
    assert match(1) == first and match(2)[:4] != first[:4]
