"""Consistency checks of a state: money and cards conserved (R1.1, R1.2), no negative
count, capacities respected (R4.5), Hideout covers a real business, players out of the
game hold nothing. One compiled kernel (`first_violation`) serves the random-game tests
(millions of checks) and `state_from_dict` (one check with a message)."""

from __future__ import annotations

import numpy as np

from noir_env.engine.jit import kernel

from . import constants as C
from .rules import total_money
from .state import State, kernel_view

(
    OK,
    BAD_PLAYERS,
    NEGATIVE,
    MONEY,
    CARDS,
    CAPACITY,
    HIDEOUT_CAPACITY,
    HIDEOUT_TOP,
    OUT_HOLDS,
    KNOWN,
) = range(10)
MESSAGES = {
    BAD_PLAYERS: "num_players is not in 3..6",
    NEGATIVE: "a count is negative (cards, money, gangsters, deck size) or a card id is unknown",
    MONEY: "money is not conserved: players + bank != the money in play (R1.2)",
    CARDS: "cards are not conserved: the game does not hold exactly the 83-card deck",
    CAPACITY: "a business holds more gangster power than its income",
    HIDEOUT_CAPACITY: "a Hideout holds more than 3 gangster power",
    HIDEOUT_TOP: "the Hideout is covered by a slot without a business",
    OUT_HOLDS: "a player out of the game still holds cards or money",
    KNOWN: "a hand is publicly known to hold cards it does not hold (known > hand)",
}


@kernel
def _negative(s, i):
    g = s[i]
    if g.deck_n < 0 or g.deck_n > C.DECK_SIZE or g.bank < 0:
        return True
    for t in range(C.NUM_CARD_TYPES):
        if g.discard[t] < 0 or g.removed[t] < 0:
            return True
    for k in range(g.deck_n):
        if g.deck[k] < 0 or g.deck[k] >= C.NUM_CARD_TYPES:
            return True
    for pw in range(4):
        if g.atk_g[pw] < 0:
            return True
    for q in range(C.MAX_PLAYERS):
        if g.money[q] < 0 or g.trophies[q] < 0 or g.kills[q] < 0:
            return True
        for t in range(C.NUM_CARD_TYPES):
            if g.hand[q, t] < 0 or g.known[q, t] < 0:
                return True
        for pw in range(4):
            if g.ho_g[q, pw] < 0 or g.hidden[q, pw] < 0:
                return True
        for t in range(C.NUM_SLOTS):
            if g.biz[q, t] < 0 or g.biz[q, t] > 4:
                return True
            for pw in range(4):
                if g.biz_g[q, t, pw] < 0:
                    return True
    return False


@kernel
def _cards_conserved(s, i):
    g = s[i]
    n = np.zeros(C.NUM_CARD_TYPES, np.int64)
    for k in range(g.deck_n):
        n[g.deck[k]] += 1
    for t in range(C.NUM_CARD_TYPES):
        n[t] += g.discard[t] + g.removed[t]
    for q in range(C.MAX_PLAYERS):
        for t in range(C.NUM_CARD_TYPES):
            n[t] += g.hand[q, t]
        for pw in range(4):
            n[pw] += g.ho_g[q, pw] + g.hidden[q, pw]
        for t in range(C.NUM_SLOTS):
            if g.biz[q, t] > 0:
                n[C.B1 + g.biz[q, t] - 1] += 1
            for pw in range(4):
                n[pw] += g.biz_g[q, t, pw]
    for pw in range(4):
        n[pw] += g.atk_g[pw]
    if g.phase == C.PH_MOVE_TO:  # a gangster picked up in Move Gangsters, not yet put down
        n[g.sel_a] += 1
    for t in range(C.NUM_CARD_TYPES):
        if n[t] != C.DECK_COUNTS[t]:
            return False
    return True


@kernel
def _power(c):
    return c[0] + 2 * c[1] + 3 * c[2] + 4 * c[3]


@kernel
def first_violation(s, i):
    """(code, seat) of the first broken invariant of game i; (OK, -1) if none."""
    g = s[i]
    n = g.num_players
    if n < C.MIN_PLAYERS or n > C.MAX_PLAYERS:
        return BAD_PLAYERS, -1
    if _negative(s, i):
        return NEGATIVE, -1
    money = np.int64(g.bank)
    for q in range(n):
        money += g.money[q]
    if money != total_money(n):
        return MONEY, -1
    if not _cards_conserved(s, i):
        return CARDS, -1
    for q in range(C.MAX_PLAYERS):
        if q >= n or not g.alive[q]:
            held = np.int64(g.money[q])
            for t in range(C.NUM_CARD_TYPES):
                held += g.hand[q, t]
            for pw in range(4):
                held += g.ho_g[q, pw] + g.hidden[q, pw]
            for t in range(C.NUM_SLOTS):
                held += g.biz[q, t]
            if held:
                return OUT_HOLDS, q
            continue
        for t in range(C.NUM_CARD_TYPES):
            if g.known[q, t] > g.hand[q, t]:
                return KNOWN, q
        for t in range(C.NUM_SLOTS):
            if _power(g.biz_g[q, t]) > g.biz[q, t]:
                return CAPACITY, q
        if _power(g.ho_g[q]) > C.HIDEOUT_CAPACITY:
            return HIDEOUT_CAPACITY, q
        top = g.ho_top[q]
        if top != -1 and (top < 0 or top >= C.NUM_SLOTS or g.biz[q, top] == 0):
            return HIDEOUT_TOP, q
    return OK, -1


def game_problems(state: State, i: int) -> list[str]:
    """What is inconsistent about game i ([] if nothing; the first problem found)."""
    code, seat = first_violation(kernel_view(state), i)
    if code == OK:
        return []
    return [MESSAGES[code] + (f" (seat {seat})" if seat >= 0 else "")]


def check_invariants(state: State) -> list[str]:
    """Problems of every game in the batch, each prefixed with its game index."""
    return [f"game {i}: {p}" for i in range(state.shape[0]) for p in game_problems(state, i)]
