"""Reading the table for the rule agents: who can hit whose Hideout before the observer's
next turn, what a breach would cost, and the plain facts the scripted styles decide on.

Shared by the heuristic (`agents/heuristic/v2/agent.py`) and the scripted styles
(`agents/styles/agent.py`); built on the seat summaries of `heuristic.view.summarize` (rows
`info[rel, I_*]`, rel 0 = the observer). Every function is a numba kernel over one
observation row `o` or its summaries.

The threat model (docs/RULES.md R3.6, R3.8, R4.2): before the observer's next turn every
living opponent has one turn, and in it attacks with at most its `I_THREAT` power (its
gangsters on businesses, its HIDDEN ones, which come back first, and the Hideout's where
R3.1 lets them attack): gangsters deployed in a turn come after its Attack step in every
preset, so that is all it can send. A breach of a Hideout of defense V by power A costs
(A - V) + d6 + I, where I is the covering business's income; a defender who cannot pay is
out of the game.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.view import (
    I_ALIVE,
    I_DEF,
    I_GH,
    I_GTOP,
    I_INCOME,
    I_ITOP,
    I_MONEY,
    I_THREAT,
    I_TOP,
    P,
    money_threshold,
    power,
    seat,
)
from agents.obs_layout import O_HAND, S_HIDDEN
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

SURVIVAL_FLOOR = 0.02  # a certain elimination still counts as this chance to survive: finite


@kernel
def elimination_odds(attack, defense, top_income, money):
    """P(an attack of power `attack` on a Hideout of defense `defense`, covered by a business
    of income `top_income`, eliminates a defender holding `money`) (R3.6, R3.8): the breach
    needs attack >= defense, and the defender is out when (attack - defense) + d6 +
    top_income exceeds its money."""
    if attack < defense:
        return 0.0
    survivable = np.floor(money - (attack - defense) - top_income)  # die faces paid in full
    if survivable >= 6.0:
        return 0.0
    if survivable < 1.0:
        return 1.0
    return (6.0 - survivable) / 6.0


@kernel
def smoothed_odds(attack, defense, top_income, money, spread):
    """`elimination_odds` averaged over the attack powers within `spread` of `attack`
    (uniform over the integers): an attack seen a turn ahead may come weaker (gangsters held
    back or lost first) or meet a weaker defense (a Drive-by or a kidnap first), and so
    every point of defense or coin counts, however strong the threat."""
    k = int(spread)
    odds = 0.0
    for u in range(-k, k + 1):
        odds += elimination_odds(attack + u, defense, top_income, money)
    return odds / (2 * k + 1)


@kernel(inline="always")
def hideout_hazard(info, q, d_defense, d_top, d_money, extra_attack, spread, aim):
    """-log P(relative seat q survives until the observer's next turn) if its Hideout defense
    changes by `d_defense`, the covering business's income by `d_top` and its money by
    `d_money`. Each other living player r, attacking with its threat + `extra_attack`
    (`smoothed_odds` with `spread`), goes for q's Hideout with probability `aim` times q's
    share of the eliminations r could try (an attacker takes the easiest prey, so a Hideout
    stronger than the others' is left alone). A sum over the attackers, so lowering one
    threat counts even while another is certain (about the chance of elimination while
    that is small)."""
    defense = info[q, I_DEF] + d_defense
    top_income = info[q, I_ITOP] + d_top
    money = info[q, I_MONEY] + d_money
    hazard = 0.0
    for rel in range(P):
        if rel == q or info[rel, I_ALIVE] < 0.5:
            continue
        attack = info[rel, I_THREAT] + extra_attack
        mine = smoothed_odds(attack, defense, top_income, money, spread)
        if mine <= 0.0:
            continue
        others = 0.0
        for x in range(P):
            if x != q and x != rel and info[x, I_ALIVE] > 0.5:
                others += smoothed_odds(attack, info[x, I_DEF], info[x, I_ITOP], info[x, I_MONEY],
                                        spread)  # fmt: skip
        odds = aim * mine * mine / (mine + others)
        hazard -= np.log(max(1.0 - odds, SURVIVAL_FLOOR))
    return hazard


@kernel
def stack_room(o, info):
    """Free capacity (power) on the observer's Hideout stack: the Hideout (3) and the
    business covering it (its income, R4.5)."""
    room = C.HIDEOUT_CAPACITY - info[0, I_GH]
    if info[0, I_TOP] >= 0.0:
        room += info[0, I_ITOP] - info[0, I_GTOP]
    return room


@kernel(inline="always")
def hidden_power(o, rel):
    """Power of seat rel's HIDDEN gangsters: they come back in its next Move Gangsters step
    and are discarded if no place has room for them then (R3.5, R4.2)."""
    return power(o[seat(rel) + S_HIDDEN : seat(rel) + S_HIDDEN + 4])


@kernel
def holds(o, card):
    """Cards of type `card` in the observer's hand."""
    return o[O_HAND + card]


@kernel
def hand_size(o):
    total = 0.0
    for card in range(C.NUM_CARD_TYPES):
        total += o[O_HAND + card]
    return total


@kernel
def richest(info):
    """Relative seat of the living opponent holding the most money (-1 if none)."""
    best, who = -1.0, -1
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5 and info[rel, I_MONEY] > best:
            best, who = info[rel, I_MONEY], rel
    return who


@kernel
def near_money_win(o, info, q):
    """True if seat q's next tribute (3 + its income) would carry it to the money win (R6.2)."""
    return info[q, I_MONEY] + C.HIDEOUT_INCOME + info[q, I_INCOME] >= money_threshold(o)


@kernel
def available_power(avail):
    """Total power of the gangsters in `avail[rank, pw]` (`heuristic.v1.attack.available`)."""
    total = 0.0
    for r in range(avail.shape[0]):
        total += power(avail[r])
    return total
