"""Scripted style `racer`: races for the money win (agents/styles/agent.py).

It buys businesses only, the richest first (gangsters only when they are free, power 1),
draws only the free card unless its hand holds no business, and once its next tribute would
carry it to the money win (R6.2) spends nothing at all. It attacks only businesses nobody
guards, with gangsters off its Hideout stack, for the income it steals (R3.4). It hosts a
Poker Night whenever it can stake (the host's edge, R5.8), cancels an attack on its Hideout
or a business worth 3 or more, bribes a Police against it, and fires a Drive-by at an
opponent about to win on money.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import holds, near_money_win, richest
from agents.heuristic.view import F_INCOME, I_INCOME, I_MONEY, P, S, money_threshold, slot
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

CARD_WORTH = np.array([2.0, 1.0, 0.8, 0.6, 5.0, 7.0, 9.0, 11.0, 4.0, 3.5, 2.0, 1.5, 0.5])


@kernel
def keep(o, info):
    """Coins it will not spend: all of them once the next tribute reaches the money win."""
    tribute = C.HIDEOUT_INCOME + info[0, I_INCOME]
    if info[0, I_MONEY] + tribute >= money_threshold(o):
        return info[0, I_MONEY]
    return 0.0


@kernel(inline="always")
def has_business_card(o):
    found = False
    for card in range(C.B1, C.B4 + 1):
        found = found or holds(o, card) > 0.5
    return found


@kernel
def reactions(o, info, mask, sc, ph, in_window):
    """Poker for the host's edge; defend the Hideout and the rich businesses; stop a rival's
    money win."""
    play = np.zeros(6)
    if info[0, I_MONEY] >= 2.0:
        play[C.PLAY_POKER] = 2.0
    t = sc_.attacked_me(o)
    if t == C.TGT_HIDEOUT or (0 <= t < S and o[slot(0, t) + F_INCOME] >= 3.0):
        play[C.PLAY_POLICE_CANCEL] = 5.0
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    rival = richest(info)
    if rival > 0 and near_money_win(o, info, rival):
        play[C.PLAY_DRIVEBY] = 3.0
    sc_.play_by(mask, sc, play, in_window)


@kernel
def phase(o, info, avail, mask, sc, ph):
    """Score the legal actions of one decision (`agents/styles/agent.py` runs it)."""
    if sc_.standard_phase(o, info, mask, sc, ph, CARD_WORTH, 3.0, True):
        return
    if ph == C.PH_ATTACK:
        sc_.pick_off_unguarded(o, info, mask, sc, avail)
    elif ph == C.PH_ATTACKERS:
        sc_.add_attackers(o, info, mask, sc, avail, False, True)
    elif ph == C.PH_DEPLOY:
        worth = np.zeros(C.NUM_CARD_TYPES)
        worth[C.G1] = 1.0
        for card in range(C.B1, C.B4 + 1):
            worth[card] = 5.0 + card
        sc_.deploy_by(o, info, mask, sc, worth, keep(o, info))
    elif ph == C.PH_DRAW:
        extra = 0 if has_business_card(o) else 2
        sc_.draw_up_to(o, info, mask, sc, extra, max(4.0, keep(o, info)))
    elif ph == C.PH_REACT_TARGET:
        target = np.zeros((P, C.NUM_TARGETS))
        rival = richest(info)
        for t in range(S):
            target[rival, t] = o[slot(rival, t) + F_INCOME]
        sc_.react_targets(o, mask, sc, target, rival)
