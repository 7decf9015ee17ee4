"""Scripted style `bully`: always hits the leader (agents/styles/agent.py).

Its victim is the living opponent with the best score estimate (R6.4: trophies, the table and
money). Every attack goes at the victim: its Hideout with everything when that breaches it
(R3.6), else the richest of its businesses it can destroy (R3.3), else none. Every Drive-by,
Police kidnap and Turncoat goes at the victim's table too (the first chance it gets), and it
cancels an attack on its own Hideout and bribes a Police against it. It buys businesses for
room and income, then gangsters kept on businesses (they attack in every preset, R3.1).
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.view import F_INCOME, I_FREE, I_NBIZ, P, S, leader, slot, slot_power
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

CARD_WORTH = np.array([3.0, 3.5, 4.0, 4.5, 3.0, 3.5, 4.0, 4.5, 0.5, 4.0, 2.0, 5.0, 4.0])


@kernel
def targets(o, info, mask, avail, out):
    """out[rel, t]: only the victim's places."""
    out[:] = 0.0
    victim = leader(info)
    if victim < 0:
        return
    if sc_.can_take(o, info, victim, C.TGT_HIDEOUT, avail, True):
        out[victim, C.TGT_HIDEOUT] = 100.0
    for t in range(S):
        if sc_.can_take(o, info, victim, t, avail, True):
            out[victim, t] = 10.0 + o[slot(victim, t) + F_INCOME]


@kernel
def reactions(o, info, mask, sc, ph, in_window):
    """Everything at the victim; defend only the Hideout."""
    play = np.zeros(6)
    if leader(info) > 0:
        play[C.PLAY_DRIVEBY] = 3.0
        play[C.PLAY_POLICE] = 2.5
        play[C.PLAY_TURNCOAT] = 2.0
    if sc_.attacked_me(o) == C.TGT_HIDEOUT:
        play[C.PLAY_POLICE_CANCEL] = 5.0
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    sc_.play_by(mask, sc, play, in_window)


@kernel
def phase(o, info, avail, mask, sc, ph):
    """Score the legal actions of one decision (`agents/styles/agent.py` runs it)."""
    victim = leader(info)
    if sc_.standard_phase(o, info, mask, sc, ph, CARD_WORTH, 2.5, False):
        return
    if ph == C.PH_ATTACK:
        target = np.zeros((P, C.NUM_TARGETS))
        targets(o, info, mask, avail, target)
        sc_.attack_by(mask, sc, target, 0.0)
    elif ph == C.PH_ATTACKERS:
        sc_.add_attackers(o, info, mask, sc, avail, True, False)
    elif ph == C.PH_DEPLOY:
        worth = np.zeros(C.NUM_CARD_TYPES)
        room_short = info[0, I_FREE] < 2.0 or info[0, I_NBIZ] < 1.0
        for card in range(C.B1, C.B4 + 1):
            worth[card] = (8.0 if room_short else 3.0) + 0.1 * card
        for card in range(C.G1, C.G4 + 1):
            worth[card] = 5.0 + card
        sc_.deploy_by(o, info, mask, sc, worth, 1.0)
    elif ph == C.PH_DRAW:
        sc_.draw_up_to(o, info, mask, sc, 2, 2.0)
    elif ph == C.PH_REACT_TARGET:
        target = np.zeros((P, C.NUM_TARGETS))
        if victim > 0:
            for t in range(S):
                target[victim, t] = o[slot(victim, t) + F_INCOME] + slot_power(o, victim, t)
        sc_.react_targets(o, mask, sc, target, victim)
