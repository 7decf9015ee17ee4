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
