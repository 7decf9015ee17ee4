"""Scripted style `rusher`: goes for Hideouts (agents/styles/agent.py).

Its prey is the living opponent with the weakest Hideout (the lowest defense V, R3.6; the
poorer one on a tie). It buys gangsters before businesses and keeps them on businesses, where
they attack in every preset (R3.1), spends every coin, and each turn sends everything at the
prey's Hideout when that breaches it, else destroys the richest business it can, the prey's
first. Before attacking it fires a Drive-by or a Police kidnap at the business covering the
prey's Hideout (R5.4, R5.6); it turns the prey's gangsters with a Turncoat (R5.7), cancels an
attack on its own Hideout, and plays every Poker Night.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.view import (
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_FREE,
    I_MONEY,
    I_NBIZ,
    I_TOP,
    P,
    S,
    slot,
)
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

# worth of keeping each card type (gangsters 1-4, businesses 1-4, Poker, Police, Bribe,
# Drive-by, Turncoat): muscle first
CARD_WORTH = np.array([3.0, 4.0, 5.0, 6.0, 2.0, 2.5, 3.0, 3.5, 1.0, 3.0, 1.5, 4.0, 3.5])


@kernel
def prey(info):
    """The living opponent with the weakest Hideout (then the poorest), -1 if none."""
    best, who = 1e9, -1
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5:
            key = info[rel, I_DEF] + 0.01 * info[rel, I_MONEY]
            if key < best:
                best, who = key, rel
    return who


@kernel
def targets(o, info, mask, avail, out):
    """out[rel, t]: the prey's Hideout if everything breaches it, else destroyable businesses
    by income, the prey's first."""
    out[:] = 0.0
    victim = prey(info)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        a = sc_.target_action(rel, C.TGT_HIDEOUT)
        if rel == victim and mask[a] and sc_.can_take(o, info, rel, C.TGT_HIDEOUT, avail, True):
            out[rel, C.TGT_HIDEOUT] = 100.0
        for t in range(S):
            a = sc_.target_action(rel, t)
            if mask[a] and sc_.can_take(o, info, rel, t, avail, True):
                out[rel, t] = o[slot(rel, t) + F_INCOME] + (5.0 if rel == victim else 0.0)


@kernel
def prep(o, info, out):
    """out[rel, t]: the business covering the prey's Hideout, for a Drive-by or a kidnap."""
    out[:] = 0.0
    victim = prey(info)
    if victim > 0 and info[victim, I_TOP] >= 0.0:
        out[victim, int(info[victim, I_TOP])] = 1.0


@kernel
def deploy(o, info, mask, sc):
    """Gangsters while they have room (the strongest first), businesses for room and income."""
    worth = np.zeros(C.NUM_CARD_TYPES)
    for card in range(C.G1, C.G4 + 1):
        worth[card] = 5.0 + card
    room_short = info[0, I_FREE] < 2.0 or info[0, I_NBIZ] < 1.0
    for card in range(C.B1, C.B4 + 1):
        worth[card] = (6.0 if room_short else 1.0) + 0.1 * card
    sc_.deploy_by(o, info, mask, sc, worth, 0.0)


@kernel
def reactions(o, info, mask, sc, ph, in_window):
    """Cancel an attack on the own Hideout, soften the prey before attacking it, turn
    gangsters, host Poker Nights, bribe a Police that hurts it."""
    play = np.zeros(6)
    play[C.PLAY_POKER] = 1.0
    play[C.PLAY_TURNCOAT] = 2.0
    if sc_.attacked_me(o) == C.TGT_HIDEOUT:
        play[C.PLAY_POLICE_CANCEL] = 5.0
    if not in_window and ph == C.PH_ATTACK and prey(info) > 0 and info[prey(info), I_TOP] >= 0:
        play[C.PLAY_DRIVEBY] = 3.0
        play[C.PLAY_POLICE] = 3.0
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    sc_.play_by(mask, sc, play, in_window)


@kernel
def phase(o, info, avail, mask, sc, ph):
    """Score the legal actions of one decision (`agents/styles/agent.py` runs it)."""
    if sc_.standard_phase(o, info, mask, sc, ph, CARD_WORTH, 2.5, False):
        return
    if ph == C.PH_ATTACK:
        target = np.zeros((P, C.NUM_TARGETS))
        targets(o, info, mask, avail, target)
        sc_.attack_by(mask, sc, target, 0.0)
    elif ph == C.PH_ATTACKERS:
        sc_.add_attackers(o, info, mask, sc, avail, True, False)
    elif ph == C.PH_DEPLOY:
        deploy(o, info, mask, sc)
    elif ph == C.PH_DRAW:
        sc_.draw_up_to(o, info, mask, sc, 5, 0.0)
    elif ph == C.PH_REACT_TARGET:
        target = np.zeros((P, C.NUM_TARGETS))
        prep(o, info, target)
        sc_.react_targets(o, mask, sc, target, prey(info))
