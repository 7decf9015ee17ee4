"""Consistency checks of a District Noir state: the 45 cards conserved (DN1.1), hand sizes
(DN3.2), one take per seat per round (DN3.3), strict alternation (DN3.1), the draw pile
matching the round (DN3.6, DN3.7), no unclaimed building win (DN4.1), a coherent result.
One compiled kernel (`first_violation`) serves the random-game tests (one check after every
step) and `state_from_dict` (one check, with a message)."""

from __future__ import annotations

import numpy as np

from noir_env.engine.jit import kernel

from . import constants as C
from .score import holds_all_buildings
from .state import State, kernel_view

OK, NEGATIVE, CARDS, HAND_SIZE, TAKES, TURN, DECK, BUILDINGS, RESULT, STUCK = range(10)
MESSAGES = {
    NEGATIVE: "a count is negative or too large, or a card id is unknown",
    CARDS: "cards are not conserved: the game does not hold exactly the 45 cards (DN1.1)",
    HAND_SIZE: "a hand does not hold 5 cards minus the cards played this round (DN3.2)",
    TAKES: "a seat has not taken exactly once in each finished round (DN3.3)",
    TURN: "the turn is inconsistent: actions 0..6, alternating from the start player (DN3.1)",
    DECK: "the draw pile does not hold 10 cards per round still to deal (DN3.6, DN3.7)",
    BUILDINGS: "a seat holds all three buildings but the game is not over (DN4.1)",
    RESULT: "the result is inconsistent (winner, reason, actor)",
    STUCK: "the player to act has no legal action: an empty hand and no take left (A8)",
}


@kernel
def _negative(s, i):
    g = s[i]
    if g.deck_n < 0 or g.deck_n > C.NUM_CARDS or g.line_n < 0 or g.line_n > C.LINE_CAP:
        return True
    if g.round_no < 0 or g.round_no >= C.NUM_ROUNDS:
        return True
    for k in range(g.deck_n):
        if g.deck[k] < 0 or g.deck[k] >= C.NUM_CARD_TYPES:
            return True
    for k in range(g.line_n):
        if g.line[k] < 0 or g.line[k] >= C.NUM_CARD_TYPES:
            return True
    for t in range(C.NUM_CARD_TYPES):
        if g.removed[t] < 0:
            return True
        for p in range(C.NUM_PLAYERS):
            if g.hand[p, t] < 0 or g.coll[p, t] < 0:
                return True
    return False


@kernel
def _cards_conserved(s, i):
    g = s[i]
    count = np.zeros(C.NUM_CARD_TYPES, np.int64)
    for k in range(g.deck_n):
        count[g.deck[k]] += 1
    for k in range(g.line_n):
        count[g.line[k]] += 1
    for t in range(C.NUM_CARD_TYPES):
        total = count[t] + g.removed[t] + g.hand[0, t] + g.hand[1, t] + g.coll[0, t] + g.coll[1, t]
        if total != C.CARD_COUNTS[t]:
            return False
    return True


@kernel(inline="always")
def _turn_ok(s, i):
    g = s[i]
    sp = g.start_player
    if sp != 0 and sp != 1:
        return False
    for p in range(C.NUM_PLAYERS):
        if g.acts[p] < 0 or g.acts[p] > C.ACTIONS_PER_ROUND:
            return False
        if g.taken[p] != 0 and g.taken[p] != 1:
            return False
        if g.acts[p] == C.ACTIONS_PER_ROUND and g.taken[p] == 0:
            return False
        if g.taken[p] > g.acts[p]:
            return False
    lead = g.acts[sp] - g.acts[1 - sp]
    if lead != 0 and lead != 1:
        return False
    if g.acts[sp] == C.ACTIONS_PER_ROUND and g.acts[1 - sp] == C.ACTIONS_PER_ROUND:
        return False  # the round would have ended (DN3.5)
    return g.actor == (sp if lead == 0 else 1 - sp)


@kernel(inline="always")
def _hands_ok(s, i):
    g = s[i]
    for p in range(C.NUM_PLAYERS):
        n = 0
        for t in range(C.NUM_CARD_TYPES):
            n += g.hand[p, t]
        if n != C.HAND_SIZE - (g.acts[p] - g.taken[p]):
            return False
    return True


@kernel(inline="always")
def _result_ok(s, i):
    g = s[i]
    if g.actor != -1 or g.winner < -1 or g.winner > 1:
        return False
    if g.win_reason == C.WIN_DRAW:
        return g.winner == -1
    if g.win_reason == C.WIN_BUILDINGS:
        return g.winner >= 0 and holds_all_buildings(s, i, g.winner)
    return g.winner >= 0 and (g.win_reason == C.WIN_POINTS or g.win_reason == C.WIN_TIEBREAK)


@kernel
def first_violation(s, i):
    """The code of the first broken invariant of game i (OK = 0 if none)."""
    g = s[i]
    if _negative(s, i):
        return NEGATIVE
    if not _cards_conserved(s, i):
        return CARDS
    if g.phase == C.PH_GAME_OVER:
        return OK if _result_ok(s, i) else RESULT
    if g.phase != C.PH_PLAY or g.winner != -1 or g.win_reason != C.WIN_NONE:
        return RESULT
    if not _turn_ok(s, i):
        return TURN
    if not _hands_ok(s, i):
        return HAND_SIZE
    for p in range(C.NUM_PLAYERS):
        if g.takes[p] != g.round_no + g.taken[p]:
            return TAKES
        if holds_all_buildings(s, i, p):
            return BUILDINGS
    if g.deck_n != 2 * C.HAND_SIZE * (C.NUM_ROUNDS - 1 - g.round_no):
        return DECK
    p = g.actor
    if g.acts[p] - g.taken[p] == C.PLAYS_PER_ROUND and (g.taken[p] or g.line_n == 0):
        return STUCK
    return OK


@kernel
def _violations(s, out):
    for i in range(s.shape[0]):
        out[i] = first_violation(s, i)


def check_invariants(state: State) -> list[str]:
    """'game i: <what is broken>' for every inconsistent game of the batch ([] if none)."""
    out = np.zeros(state.shape[0], np.int8)
    _violations(kernel_view(state), out)
    return [f"game {i}: {MESSAGES[int(c)]}" for i, c in enumerate(out) if c]
