"""Scripted style `hoarder`: plays the reaction cards (agents/styles/agent.py).

It keeps reactions and throws back gangsters (mulligan, discards), pays for every card it
can while 3 coins stay, and plays each reaction where the rulebook's use for it comes up: a
Police cancels any attack on it and kidnaps the gangsters of an opponent about to attack it
(the window before its Attack step, R5.2d, R5.4); Drive-bys hit the leader's best business
when the leader nears a money win or it holds two (R5.6); a Turncoat takes the leader's
strongest gangster (R5.7); a Bribe answers a Police against it; it hosts a Poker Night when
two others stake (R5.8). Its own attacks only pick off unguarded businesses, without the
Hideout's guards. Businesses pay for it all; gangsters only guard the Hideout stack.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import holds, near_money_win, stack_room
from agents.heuristic.view import (
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_MONEY,
    I_THREAT,
    P,
    S,
    leader,
    slot,
    slot_power,
    window_of,
)
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

CARD_WORTH = np.array([1.0, 1.5, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0, 7.5, 8.0, 8.0])


@kernel
def threatened(o, info):
    """The active opponent, if it is about to attack (R5.2d) with power that breaches the
    observer's Hideout (-1 otherwise)."""
    active = sc_.attacker_seat(o)
    if active > 0 and window_of(o) == C.WIN_STEP and info[active, I_THREAT] >= info[0, I_DEF]:
        return active
    return -1


@kernel(inline="always")
def stakers(info):
    """Opponents who would stake in a Poker Night (2 coins or more, R5.8)."""
    k = 0
    for rel in range(1, P):
        k += info[rel, I_ALIVE] > 0.5 and info[rel, I_MONEY] >= 2.0
    return k


@kernel
def reactions(o, info, mask, sc, ph, in_window):
    """Each card where its use comes up (module docstring)."""
    play = np.zeros(6)
    lead = leader(info)
    if sc_.attacked_me(o) >= 0:
        play[C.PLAY_POLICE_CANCEL] = 5.0
    if threatened(o, info) > 0:
        play[C.PLAY_POLICE] = 4.0
    if lead > 0 and (near_money_win(o, info, lead) or holds(o, C.DRIVEBY) > 1.5):
        play[C.PLAY_DRIVEBY] = 3.0
    if lead > 0:
        play[C.PLAY_TURNCOAT] = 2.5
    if stakers(info) >= 2 and info[0, I_MONEY] >= 2.0:
        play[C.PLAY_POKER] = 2.0
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    sc_.play_by(mask, sc, play, in_window)


@kernel
def react_targets(o, info, mask, sc):
    """A kidnap on the threat's most guarded business, a Drive-by on the leader's richest,
    a Turncoat on the leader."""
    target = np.zeros((P, C.NUM_TARGETS))
    lead = leader(info)
    active = threatened(o, info)
    for rel in range(1, P):
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc < 0.5:
                continue
            if sc_.rt_kind(o) == C.PLAY_POLICE:
                target[rel, t] = slot_power(o, rel, t) + (10.0 if rel == active else 0.0)
            else:
                target[rel, t] = inc + slot_power(o, rel, t) + (10.0 if rel == lead else 0.0)
    sc_.react_targets(o, mask, sc, target, lead)


@kernel
def phase(o, info, avail, mask, sc, ph):
    """Score the legal actions of one decision (`agents/styles/agent.py` runs it)."""
    if sc_.standard_phase(o, info, mask, sc, ph, CARD_WORTH, 2.5, True):
        return
    if ph == C.PH_ATTACK:
        sc_.pick_off_unguarded(o, info, mask, sc, avail)
    elif ph == C.PH_ATTACKERS:
        sc_.add_attackers(o, info, mask, sc, avail, False, True)
    elif ph == C.PH_DEPLOY:
        worth = np.zeros(C.NUM_CARD_TYPES)
        for card in range(C.G1, C.G4 + 1):
            worth[card] = 3.0 - card if card + 1.0 <= stack_room(o, info) else 0.0
        for card in range(C.B1, C.B4 + 1):
            worth[card] = 4.0 + card
        sc_.deploy_by(o, info, mask, sc, worth, 3.0)
    elif ph == C.PH_DRAW:
        sc_.draw_up_to(o, info, mask, sc, 5, 3.0)
    elif ph == C.PH_REACT_TARGET:
        react_targets(o, info, mask, sc)
