"""The heuristic's reaction cards (agents/heuristic/v2/agent.py documents the strategy): the first
heuristic's values (`heuristic.v1.reactions`) with two changes that follow the table.

- **Softening a Hideout before the kill.** In its own Attack step, a Drive-by or a Police
  kidnap on the business covering an opponent's Hideout is worth the elimination it makes
  more likely: a kidnap takes that business's gangsters out of the defense (R5.4), a
  Drive-by kills some and may raze the business with its income (R5.6), and the attack the
  agent can send then breaches and eliminates more often (R3.6, R3.8). The card goes at
  the target (`prep_values`) when that beats the first heuristic's use of it.
- **The last Police guards the Hideout.** While a Police in hand cancels most of the
  elimination hazard (`heuristic.v2.economy.hazard`), spending the last one on anything but an
  attack on the Hideout costs what that cover is worth.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import available_power, elimination_odds, holds
from agents.heuristic.v1 import reactions as v1
from agents.heuristic.v1.attack import W_REACT_MIN, elim_value
from agents.heuristic.v2.economy import W2_ELIM, W2_SHIELD, hazard
from agents.heuristic.view import (
    DICE_AT_LEAST,
    F_DICE,
    F_G1,
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_ITOP,
    I_MONEY,
    I_TOP,
    P,
    S,
    destroys,
    killed_power,
    my_turn,
    one_hot,
    slot,
    slot_power,
    target_action,
)
from agents.obs_layout import O_RTKIND, O_STEP
from noir_env.core import constants as C
from noir_env.engine.jit import kernel


@kernel(inline="always")
def in_attack_step(o):
    """True during the observer's own Attack step (R4.3), where softening pays at once."""
    return my_turn(o) and o[O_STEP + C.ST_ATTACK] > 0.5


@kernel
def prep_values(o, info, w, avail, kind, out):
    """out[rel, t]: what a Drive-by (kind PLAY_DRIVEBY) or a Police kidnap (PLAY_POLICE) on
    the business t covering rel's Hideout adds to the elimination the agent can attempt now
    with all its attack power; -1 elsewhere."""
    out[:] = -1.0
    if not in_attack_step(o):
        return
    attack = available_power(avail)
    for rel in range(1, P):
        t = int(info[rel, I_TOP])
        if info[rel, I_ALIVE] < 0.5 or t < 0:
            continue
        k = slot(rel, t)
        inc, g = o[k + F_INCOME], slot_power(o, rel, t)
        v, money = info[rel, I_DEF], info[rel, I_MONEY]
        now = elimination_odds(attack, v, info[rel, I_ITOP], money)
        if kind == C.PLAY_POLICE:
            after = elimination_odds(attack, v - g, inc, money)
        else:
            dice = int(o[k + F_DICE]) + 1
            after = 0.0
            for d in range(dice, 6 * dice + 1):
                p = DICE_AT_LEAST[dice, d] - (DICE_AT_LEAST[dice, d + 1] if d < 6 * dice else 0.0)
                if destroys(o, d, g + inc):
                    after += p * elimination_odds(attack, v - g - inc, 0.0, money)
                else:
                    dead = killed_power(o[k + F_G1 : k + F_G1 + 4], d)
                    after += p * elimination_odds(attack, v - dead, inc, money)
        if after > now:
            out[rel, t] = (after - now) * elim_value(o, info, 0, rel, w)


@kernel(inline="always")
def police_cover(o, info, w):
    """What the last Police in hand is worth as cover of the Hideout (0 with two or more)."""
    if holds(o, C.POLICE) > 1.5:
        return 0.0
    without = hazard(o, info, w, 0.0, 0.0, 0.0) / w[W2_SHIELD]
    return w[W2_ELIM] * (without - hazard(o, info, w, 0.0, 0.0, 0.0))


@kernel
def reactions(o, info, mask, sc, w, avail, in_window):
    """Score each playable reaction: the first heuristic's values, softening before a kill,
    and the last Police kept for the Hideout."""
    v1.reactions(o, info, mask, sc, w, in_window)
    prep = np.zeros((P, S))
    for kind in (C.PLAY_DRIVEBY, C.PLAY_POLICE):
        a = C.A_PLAY + kind
        if mask[a]:
            prep_values(o, info, w, avail, kind, prep)
            sc[a] = max(sc[a], prep.max() - w[W_REACT_MIN])
    cover = police_cover(o, info, w)
    a = C.A_PLAY + C.PLAY_POLICE_CANCEL
    q, t = v1.pending_attack(o)
    if mask[a] and not (q == 0 and t == C.TGT_HIDEOUT):
        sc[a] -= cover
    a = C.A_PLAY + C.PLAY_POLICE
    if mask[a]:
        sc[a] -= cover


@kernel
def reaction_target(o, info, mask, sc, w, avail):
    """The target of the reaction just played, by the same values that chose to play it."""
    v1.reaction_target(o, info, mask, sc, w)
    kind = one_hot(o, O_RTKIND, 6)
    if kind != C.PLAY_DRIVEBY and kind != C.PLAY_POLICE:
        return
    prep = np.zeros((P, S))
    prep_values(o, info, w, avail, kind, prep)
    for rel in range(1, P):
        for t in range(S):
            a = target_action(rel, t)
            if mask[a] and prep[rel, t] > 0.0:
                sc[a] = max(sc[a], prep[rel, t])
