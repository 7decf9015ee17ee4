"""Scripted style `turtle`: never attacks (agents/styles/agent.py).

It builds businesses (the richest first), keeps its Hideout stack full (the Hideout, then
the business covering it, the Hideout buried under the strongest business, R4.6) and keeps
back the coins a breach by the strongest opponent would cost (R3.6), so it can only lose by
the money or the countdown (R6.2-R6.4). Its reactions defend: a Police cancels any attack on
it, a Turncoat takes an attacker of it, a Bribe answers a Police against it.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import stack_room
from agents.heuristic.view import I_DEF, I_ITOP, I_MONEY, P, max_threat
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

CARD_WORTH = np.array([3.0, 3.5, 3.5, 3.0, 4.0, 5.0, 6.0, 7.0, 0.5, 6.0, 3.0, 0.5, 3.0])


@kernel
def reserve(info):
    """Coins that pay the worst breach by the strongest opponent (R3.6: (A - V) + d6 + I)."""
    over = max_threat(info, -1) - info[0, I_DEF]
    return 0.0 if over < 0.0 else min(12.0, over + 6.0 + info[0, I_ITOP])


@kernel
def deploy(o, info, mask, sc):
    """Guards while the stack has room, then businesses, the reserve kept."""
    worth = np.zeros(C.NUM_CARD_TYPES)
    room = stack_room(o, info)
    for card in range(C.G1, C.G4 + 1):
        worth[card] = 8.0 + card if card + 1.0 <= room else 0.0
    for card in range(C.B1, C.B4 + 1):
        worth[card] = 4.0 + card
    sc_.deploy_by(o, info, mask, sc, worth, min(reserve(info), info[0, I_MONEY]))


@kernel
def reactions(o, info, mask, sc, ph, in_window):
    """Only in its own defense."""
    play = np.zeros(6)
    if sc_.attacked_me(o) >= 0:
        play[C.PLAY_POLICE_CANCEL] = 5.0
        play[C.PLAY_TURNCOAT] = 4.0
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    sc_.play_by(mask, sc, play, in_window)


@kernel
def phase(o, info, avail, mask, sc, ph):
    """Score the legal actions of one decision (`agents/styles/agent.py` runs it)."""
    if sc_.standard_phase(o, info, mask, sc, ph, CARD_WORTH, 2.0, True):
        return
    if ph == C.PH_ATTACK:
        sc[C.A_END] = 1.0
    elif ph == C.PH_DEPLOY:
        deploy(o, info, mask, sc)
    elif ph == C.PH_DRAW:
        extra = 1 if info[0, I_MONEY] >= reserve(info) + 3.0 else 0
        sc_.draw_up_to(o, info, mask, sc, extra, 0.0)
    elif ph == C.PH_REACT_TARGET:
        sc_.react_targets(o, mask, sc, np.zeros((P, C.NUM_TARGETS)), -1)
