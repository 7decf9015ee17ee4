"""Invariants over 12,000 random games, checked after every agent step in a compiled
rollout (validate.py: the 45 cards conserved, hand sizes, one take per seat per round,
alternation, the draw pile matching the round), and every game ends within 48 actions."""

from __future__ import annotations

import numpy as np
import pytest

from noir_env import district
from noir_env.district import constants as C
from noir_env.district import random_playout
from noir_env.district.spaces import MAX_GAME_LENGTH
from noir_env.district.validate import check_invariants

GAMES = 12_000


@pytest.fixture(scope="module")
def finished():
    s = district.init(GAMES, seeds=100_000)
    res = random_playout(s, seed=7, max_steps=1_000, check=True)
    return s, res


def test_no_invariant_breaks_after_any_step_and_every_game_ends(finished):
    s, res = finished
    assert res.problems() == []
    assert res.done.all() and (s.phase == C.PH_GAME_OVER).all()
    assert res.steps.max() <= MAX_GAME_LENGTH
    assert check_invariants(s) == []
    assert (s.removed.sum(1) == C.BOXED).all(), "three cards boxed, for the whole game"


def test_each_seat_takes_once_per_round_and_games_last_four_rounds(finished):
    """DN3.3 (one take per round), DN3.5-DN3.7 (four rounds of six actions each, the draw
    pile empty at the end), DN4.1 (a building win may end the game earlier)."""
    s, _ = finished
    by_points = s.win_reason != C.WIN_BUILDINGS
    assert (s.takes[by_points] == C.NUM_ROUNDS).all()
    assert (s.round_no[by_points] == C.NUM_ROUNDS - 1).all()
    assert (s.deck_n[by_points] == 0).all() and (s.hand[by_points] == 0).all()
    assert (s.acts[by_points] == C.ACTIONS_PER_ROUND).all()
    early = ~by_points
    assert (s.takes[early] <= s.round_no[early, None] + 1).all()
    assert early.any(), "random play sometimes collects the three buildings"


def test_outcomes_are_zero_sum_and_match_the_result(finished):
    """DN5.2 (+1 / -1, 0 each in a draw), DN4.6 (the winner on points has more points)."""
    s, res = finished
    assert (res.rewards.sum(1) == 0).all()
    draw = s.win_reason == C.WIN_DRAW
    assert (res.rewards[draw] == 0).all() and (s.winner[draw] == -1).all()
    won = ~draw
    assert (res.rewards[won, s.winner[won]] == 1).all()
    reasons = np.bincount(s.win_reason, minlength=5)
    assert reasons[C.WIN_POINTS] > 0.8 * GAMES and reasons[C.WIN_TIEBREAK] > 0
    sc = district.scores(s)
    decided = s.win_reason == C.WIN_POINTS
    assert (sc[decided, s.winner[decided]] > sc[decided, 1 - s.winner[decided]]).all()
