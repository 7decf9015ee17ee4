"""Consistency checks of a state: conservation of money and cards, no negative counts,
capacities respected (R1.1, R1.2, R4.5). Used by tests over many random games and by
`state_from_dict` to reject malformed hand-written positions."""

from __future__ import annotations

import numpy as np

from . import constants as C
from .rules import total_money
from .state import State

_POWERS = np.arange(1, 5)


def card_counts(state: State, i: int) -> np.ndarray:
    """Cards of each type anywhere in game i (draw pile, discards, out of the game, hands,
    tables, hidden, pending attack)."""
    g = state[i]
    n = np.zeros(C.NUM_CARD_TYPES, np.int64)
    n += np.bincount(g.deck[: g.deck_n], minlength=C.NUM_CARD_TYPES)
    n += g.discard + g.removed + g.hand.sum(axis=0)
    for inc in range(1, 5):
        n[C.B1 + inc - 1] += int((g.biz == inc).sum())
    n[C.G1 : C.G4 + 1] += g.biz_g.sum(axis=(0, 1)) + g.ho_g.sum(axis=0) + g.hidden.sum(axis=0)
    n[C.G1 : C.G4 + 1] += g.atk_g
    if g.phase == C.PH_MOVE_TO:  # a gangster picked up in Move Gangsters, not yet put down
        n[C.G1 + g.sel_a] += 1
    return n


def game_problems(state: State, i: int) -> list[str]:
    """Everything inconsistent about game i (an empty list if nothing is)."""
    g = state[i]
    out: list[str] = []
    n = int(g.num_players)
    if not C.MIN_PLAYERS <= n <= C.MAX_PLAYERS:
        return [f"num_players={n} is not in 3..6"]
    for name in ("deck_n", "discard", "removed", "hand", "money", "bank", "biz", "biz_g",
                 "ho_g", "hidden", "atk_g", "trophies", "kills", "db"):
        if (np.asarray(g[name]) < 0).any():
            out.append(f"{name} has a negative entry")
    if not 0 <= g.deck_n <= C.DECK_SIZE:
        out.append(f"deck_n={g.deck_n} is not in 0..{C.DECK_SIZE}")
    money = int(g.money[:n].sum()) + int(g.bank)
    if money != total_money(n):
        out.append(f"money: players + bank = {money}, expected {total_money(n)}")
    cards = card_counts(state, i)
    if not (cards == C.DECK_COUNTS).all():
        diff = {C.CARD_NAMES[t]: int(cards[t] - C.DECK_COUNTS[t])
                for t in range(C.NUM_CARD_TYPES) if cards[t] != C.DECK_COUNTS[t]}
        out.append(f"cards not conserved (found - expected): {diff}")
    if (g.deck[: g.deck_n] >= C.NUM_CARD_TYPES).any():
        out.append("deck holds an unknown card type")
    for q in range(C.MAX_PLAYERS):
        out += _seat_problems(g, q, n)
    return out


def _seat_problems(g, q: int, n: int) -> list[str]:
    out: list[str] = []
    biz_power = (g.biz_g[q] * _POWERS).sum(axis=1)
    if q >= n or not g.alive[q]:
        holds = g.hand[q].sum() + (g.biz[q] > 0).sum() + g.ho_g[q].sum() + g.hidden[q].sum()
        if holds or (q >= n and g.money[q]):
            out.append(f"seat {q} is out of the game but holds cards or money")
        return out
    if ((g.biz[q] < 0) | (g.biz[q] > 4)).any():
        out.append(f"seat {q}: a business income outside 0..4")
    over = np.flatnonzero(biz_power > g.biz[q])
    if over.size:
        t = int(over[0])
        out.append(f"seat {q}: slot {t} holds {biz_power[t]} power on income {g.biz[q, t]}")
    if (g.ho_g[q] * _POWERS).sum() > C.HIDEOUT_CAPACITY:
        out.append(f"seat {q}: Hideout holds more than {C.HIDEOUT_CAPACITY} power")
    top = int(g.ho_top[q])
    if top != -1 and not (0 <= top < C.NUM_SLOTS and g.biz[q, top] > 0):
        out.append(f"seat {q}: ho_top={top} is not one of its businesses")
    return out


def check_invariants(state: State) -> list[str]:
    """Problems of every game in the batch, each prefixed with its game index."""
    return [f"game {i}: {p}" for i in range(state.shape[0]) for p in game_problems(state, i)]
