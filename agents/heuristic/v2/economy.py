"""The heuristic's turn-step choices that spend money or move gangsters: Deploy, placing a
gangster, Move Gangsters and Draw (agents/heuristic/v2/agent.py documents the strategy).

Every option is valued in coins: what it brings (income to come, attack power, cards) minus
what it costs, minus the change it makes to the chance of being eliminated before the next
turn (`hazard`, from `_table.hideout_hazard`) times what elimination costs (`W2_ELIM`). Money
kept back and gangsters on the Hideout stack both lower that chance, so the reserve and
the guard follow from the threats at the table instead of from fixed margins.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import (
    hand_size,
    hidden_power,
    hideout_hazard,
    holds,
    smoothed_odds,
    stack_room,
)
from agents.heuristic.v1.attack import W_ECON, W_HOARD, elim_value
from agents.heuristic.v1.policy import turns_left
from agents.heuristic.view import (
    F_COVERS,
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_FREE,
    I_GTOP,
    I_INCOME,
    I_ITOP,
    I_MONEY,
    I_NBIZ,
    I_THREAT,
    I_TOP,
    R_HO_ATTACKERS,
    R_PREP_FIRST,
    P,
    S,
    holding_money_win,
    money_threshold,
    one_hot,
    rule,
    slot,
    slot_power,
)
from agents.obs_layout import O_SELPOW
from noir_env.core import constants as C
from noir_env.core.rules import RULE_FIELDS
from noir_env.engine.jit import kernel

R_FIRST_ON_HIDEOUT = RULE_FIELDS.index("first_business_on_hideout")

# --- the heuristic's own weights, after the first heuristic's (agents.heuristic.v1.agent.Style)
W2_ELIM = 15  # what being eliminated costs, in coins (the game, the table, the hand)
W2_GANG = 16  # worth of one point of gangster power on the table, beyond guarding
W2_CARD = 17  # worth of one card drawn
W2_SHIELD = 18  # share of the elimination risk left while holding a Police (it can cancel)
W2_REACH = 19  # attack power added to every opponent's threat (reactions, unseen cards)
W2_STACK = 20  # value of a point of power on the Hideout stack beyond the risk it removes
W2_SPREAD = 21  # uncertainty of an opponent's attack power (+-, in points)
W2_AIM = 22  # chance that an opponent able to attack the observer does
W2_ARMS = 23  # share of an elimination's worth that brings a gangster bringing it in reach
W2_AWAY = 24  # cost of a point of power away from its place until the next turn (attackers hide)
W2_BUDGET = 25  # worth of a coin the Deploy step still to come this turn needs (prep_first)
W2_IDLE = 26  # worth per power of being able to attack, lost on a Hideout whose guards may not
W2_RAID = 27  # coins counted as stolen before the next turn per coin of unguarded income
NUM_WEIGHTS2 = 28


@kernel(inline="always")
def exposed_income(o):
    """Income of the observer's businesses nobody guards: a raid destroys one with any
    gangster and steals its income (R3.4), coins then missing to pay a breach (R3.8)."""
    total = 0.0
    for t in range(S):
        inc = o[slot(0, t) + F_INCOME]
        if inc > 0.5 and slot_power(o, 0, t) < 0.5:
            total += inc
    return total


@kernel
def hazard(o, info, w, d_defense, d_top, d_money):
    """The observer's hazard of elimination before its next turn (`_table.hideout_hazard`)
    with its Hideout defense, covering income and money changed by the given amounts, less
    the coins raids on its unguarded businesses would steal first (`W2_RAID`); a Police in
    hand (a cancel) covers part of it (`W2_SHIELD`)."""
    d_money -= w[W2_RAID] * exposed_income(o)
    r = hideout_hazard(info, 0, d_defense, d_top, d_money, w[W2_REACH], w[W2_SPREAD], w[W2_AIM])
    if holds(o, C.POLICE) > 0.5:
        r *= w[W2_SHIELD]
    return r


@kernel
def hazard_cost(o, info, w, d_defense, d_top, d_money):
    """What a change of defense, covering income and money costs (negative: saves) in the
    elimination risk it adds."""
    before = hazard(o, info, w, 0.0, 0.0, 0.0)
    return w[W2_ELIM] * (hazard(o, info, w, d_defense, d_top, d_money) - before)


@kernel
def elimination_reach(o, info, w, attack):
    """The best elimination the observer could try next turn with `attack` power: the
    largest (smoothed) chance of it times its worth (`elim_value`), over the opponents."""
    best = 0.0
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5:
            odds = smoothed_odds(attack, info[rel, I_DEF], info[rel, I_ITOP], info[rel, I_MONEY],
                                 w[W2_SPREAD])  # fmt: skip
            best = max(best, odds * elim_value(o, info, 0, rel, w))
    return best


@kernel
def deploy(o, info, mask, sc, w):
    """R4.5: each card by income to come or power, its cost and the risk it moves; nothing
    that puts off a money win one tribute away (R6.2)."""
    money = info[0, I_MONEY]
    thr = money_threshold(o)
    sc[C.A_END] = 0.0
    if holding_money_win(o, info):
        return  # spend nothing (R6.2)
    room = stack_room(o, info)
    horizon = min(w[W_ECON], turns_left(o))
    tribute = C.HIDEOUT_INCOME + info[0, I_INCOME]
    covers = info[0, I_NBIZ] < 0.5 and rule(o, R_FIRST_ON_HIDEOUT) > 0.5
    mine = info[0, I_THREAT]
    reach_now = elimination_reach(o, info, w, mine)
    hidden, free = hidden_power(o, 0), info[0, I_FREE]  # the HIDDEN need room to come back
    for card in range(C.G1, C.B4 + 1):
        a = C.A_DEPLOY + card
        if not mask[a]:
            continue
        if card >= C.B1:
            inc = card - C.B1 + 1.0
            cost = inc - 1.0
            value = inc * horizon - cost
            dv = inc if covers else 0.0
            value -= hazard_cost(o, info, w, dv, dv, -cost)
        else:
            p = card + 1.0
            cost = p - 1.0
            value = w[W2_GANG] * p - cost
            value += w[W2_ARMS] * (elimination_reach(o, info, w, mine + p) - reach_now)
            value -= (w[W2_GANG] + 1.0) * (max(0.0, hidden - free + p) - max(0.0, hidden - free))
            if p <= room:
                value += w[W2_STACK] * p - hazard_cost(o, info, w, p, 0.0, -cost)
            else:
                value -= hazard_cost(o, info, w, 0.0, 0.0, -cost)
        if money - cost + tribute < thr <= money + tribute:
            value -= w[W_HOARD]  # the money win is a tribute away: keep the coins
        sc[a] = value


@kernel
def idle_cost(o, w, p):
    """What a power-p gangster loses on the Hideout where the Hideout's gangsters may not
    attack (`noirbrough`, R3.1); 0 elsewhere."""
    return 0.0 if rule(o, R_HO_ATTACKERS) > 0.5 else w[W2_IDLE] * p


@kernel
def place(o, info, mask, sc, w):
    """Where a gangster goes (deploy_to, move_gangsters_to): onto the Hideout stack while
    that lowers the hazard (the Hideout itself first: no Drive-by, kidnap or Turncoat reaches
    it, R5.4-R5.7, unless its gangsters may not attack, R3.1), else onto the business with
    the most income to protect."""
    p = one_hot(o, O_SELPOW, 4) + 1.0
    guard = w[W2_STACK] * p - hazard_cost(o, info, w, p, 0.0, 0.0)
    idle = idle_cost(o, w, p)
    top = int(info[0, I_TOP])
    for dst in range(C.NUM_PLACES):
        a = C.A_TO + dst
        if not mask[a]:
            continue
        if dst == C.PLACE_HIDEOUT:
            sc[a] = guard + 0.3 - idle
            continue
        k = slot(0, dst)
        inc = o[k + F_INCOME]
        room = inc - slot_power(o, 0, dst)
        sc[a] = 0.1 * inc + 0.05 * (room == p)
        if dst == top and o[k + F_COVERS] > 0.5:
            sc[a] += guard
    if mask[C.A_TO + C.PLACE_ASIDE]:
        sc[C.A_TO + C.PLACE_ASIDE] = -5.0


@kernel
def move_gangsters(o, info, mask, sc, w):
    """R4.2: bring HIDDEN gangsters back (strongest first), then move gangsters from
    businesses off the stack onto it while that lowers the risk."""
    sc[C.A_END] = 0.0
    room = stack_room(o, info)
    top = int(info[0, I_TOP])
    for pw in range(4):
        p = pw + 1.0
        a = C.A_FROM + pw * C.NUM_SOURCES + C.PLACE_HIDDEN
        if mask[a]:
            sc[a] = 10.0 + pw
        if p > room:
            continue
        gain = w[W2_STACK] * p - hazard_cost(o, info, w, p, 0.0, 0.0) - 1.0
        if top < 0 or info[0, I_ITOP] - info[0, I_GTOP] < p:
            gain -= idle_cost(o, w, p)  # it would go onto the Hideout
        if gain <= 0.0:
            continue
        for t in range(C.NUM_SLOTS):
            a = C.A_FROM + pw * C.NUM_SOURCES + t
            if mask[a] and t != top:
                sc[a] = gain


# what a card drawn costs to deploy on average: the deck's gangsters and businesses (R1.1)
DRAWN_COST = float((C.DECK_COUNTS[: C.B4 + 1] * (np.arange(C.B4 + 1) % 4)).sum() / C.DECK_SIZE)


@kernel(inline="always")
def deploy_budget(o):
    """Coins that deploying every gangster and business in hand would cost (R4.5)."""
    total = 0.0
    for card in range(C.G1, C.B4 + 1):
        total += holds(o, card) * (card % 4)
    return total


@kernel
def draw(o, info, mask, sc, w):
    """R4.8: the first card is free; more while a card is worth its coin and the risk the
    coin leaves; none a tribute away from the money win. Where Draw comes before Deploy
    (`prep_first`, R2.1) a coin the hand's cards need for this turn's deploys costs more."""
    money = info[0, I_MONEY]
    near_win = money + info[0, I_INCOME] + C.HIDEOUT_INCOME >= money_threshold(o) - 2.0
    worth = w[W2_CARD] * min(1.0, max(0.0, turns_left(o) - 1.0) / 2.0)
    room = C.HAND_SIZE - hand_size(o)
    budget = deploy_budget(o) if rule(o, R_PREP_FIRST) > 0.5 else 0.0
    sc[C.A_END] = 0.0
    for n in range(1, C.HAND_SIZE + 1):
        a = C.A_DRAW + n - 1
        if not mask[a] or n > room:
            continue
        extra = n - 1.0
        if extra > 0.0 and near_win:
            continue
        need = budget + (DRAWN_COST * extra if budget > 0.0 else 0.0)  # the new cards too
        short = max(0.0, need - money + extra) - max(0.0, budget - money)
        value = 1.0 + (worth - 1.0) * extra - w[W2_BUDGET] * short
        sc[a] = value - hazard_cost(o, info, w, 0.0, 0.0, -extra)
