"""What the heuristic agent reads from one observation row, and its combat arithmetic.

Everything here is a numba kernel over a float32 observation row `o` (noir_env.core.observe
layout: global fields, then one block per seat, seat-relative, block 0 = the observer). The
agent never sees the core state: these functions only decode the public table, the own hand
and the pending decision, and estimate what an attack, a Drive-by or a Poker Night is worth
by the rules in docs/RULES.md (R3.2-R3.8, R5.6, R5.8).

Seat summaries (`summarize`) are rows of `SEAT_INFO` floats per relative seat; rule values
come from the observation's rules row (`rule`), so one agent plays every preset.
"""

from __future__ import annotations

import math

import numpy as np

from agents.obs_layout import (
    GLOBAL_SIZE,
    O_ACTIVE,
    O_ATK,
    O_ATK_G,
    O_ATK_HO,
    O_ATK_SEAT,
    O_NP,
    O_PHASE,
    O_RULES,
    O_WIN,
    S_ALIVE,
    S_BIZ,
    S_HAND,
    S_HIDDEN,
    S_HO_G,
    S_KILLS,
    S_MONEY,
    S_PRESENT,
    S_TROPH,
    SEAT_SIZE,
    SF,
    SLOT_FEATURES,
)
from noir_env.core import constants as C
from noir_env.core.rules import RULE_FIELDS
from noir_env.engine.jit import kernel

S = C.NUM_SLOTS
P = C.MAX_PLAYERS

# --- rule values in the observation's rules row (R7.1) ---------------------------------------
R_PREP_FIRST = RULE_FIELDS.index("prep_first")
R_DESTROY_STRICT = RULE_FIELDS.index("destroy_strict")
R_RAZE_FIRST = RULE_FIELDS.index("raze_first")
R_WAR_WIN = RULE_FIELDS.index("war_win")
R_TROPHY = RULE_FIELDS.index("trophy_points")
R_HO_ATTACKERS = RULE_FIELDS.index("hideout_attackers")
R_TC_CASINO = RULE_FIELDS.index("turncoat_casino_for_4")
R_POKER_ALL_IN = RULE_FIELDS.index("poker_all_in")
R_MONEY_WIN = RULE_FIELDS.index("money_win")
R_MONEY_THR_3 = RULE_FIELDS.index("money_thr_3")

# --- a business slot's features (observe.SLOT_FEATURES, by name: the layout may grow) --------
F_INCOME = SLOT_FEATURES.index("income")
F_G1 = SLOT_FEATURES.index("gangsters_1")  # gangsters_1..4 follow in order
F_COVERS = SLOT_FEATURES.index("covers_hideout")
F_ATTACKED = SLOT_FEATURES.index("attacked_this_turn")
F_TARGET = SLOT_FEATURES.index("attack_target")
F_KIDNAPS = SLOT_FEATURES.index("police_kidnaps")
F_DICE = SLOT_FEATURES.index("drivebys")
F_TURNCOAT = SLOT_FEATURES.index("turncoat_target")

# --- a seat summary row ----------------------------------------------------------------------
(
    I_ALIVE,  # present and alive
    I_MONEY,
    I_HAND,  # cards in hand
    I_DEF,  # Hideout defense V = 3 + Hideout gangsters + covering business and its gangsters
    I_TOP,  # slot of the business covering the Hideout, -1 in the open
    I_GH,  # power on the Hideout
    I_GTOP,  # power on the covering business
    I_ITOP,  # income of the covering business
    I_THREAT,  # power that can attack next turn (table + HIDDEN, which come back first)
    I_INCOME,  # total business income
    I_TABLE,  # printed value on the table: incomes + gangster powers (R6.4)
    I_SCORE,  # score estimate: trophies + table + money (R6.4)
    I_KILLS,
    I_NBIZ,
    I_FREE,  # free gangster capacity on own places
) = range(15)
SEAT_INFO = 15


@kernel
def rule(o, k):
    """Value of rules field k (`R_*`) of the game being observed."""
    return o[O_RULES + k]


@kernel
def one_hot(o, start, size):
    """Index of the set entry of a one-hot field (-1 if none is set)."""
    for k in range(size):
        if o[start + k] > 0.5:
            return k
    return -1


@kernel
def num_players(o):
    return one_hot(o, O_NP, 4) + 3


@kernel(inline="always")
def phase_of(o):
    return one_hot(o, O_PHASE, C.NUM_PHASES)


@kernel
def window_of(o):
    return one_hot(o, O_WIN, C.NUM_WINDOWS)


@kernel
def my_turn(o):
    """True while it is the observer's own turn."""
    return o[O_ACTIVE] > 0.5


@kernel
def target_action(rel, t):
    """The id of `target:+rel:<t>` (an attack or reaction target, R8)."""
    return C.A_TARGET + (rel - 1) * C.NUM_TARGETS + t


@kernel
def seat(rel):
    """Start of seat block `rel` (0 = the observer)."""
    return GLOBAL_SIZE + rel * SEAT_SIZE


@kernel
def slot(rel, t):
    """Start of business slot t's features in seat block `rel`."""
    return GLOBAL_SIZE + rel * SEAT_SIZE + S_BIZ + t * SF


@kernel
def power(counts4):
    """Total power of a per-power count vector (index 0..3 = power 1..4)."""
    return counts4[0] + 2.0 * counts4[1] + 3.0 * counts4[2] + 4.0 * counts4[3]


@kernel
def slot_power(o, rel, t):
    k = slot(rel, t) + F_G1
    return o[k] + 2.0 * o[k + 1] + 3.0 * o[k + 2] + 4.0 * o[k + 3]


@kernel
def money_threshold(o):
    """Coins that win at the end of one's own turn (R6.2); a huge number if switched off."""
    if rule(o, R_MONEY_WIN) < 0.5:
        return 1e9
    return rule(o, R_MONEY_THR_3 + num_players(o) - 3)


@kernel
def holding_money_win(o, info):
    """True during the observer's own turn while it holds the money win (R6.2): the coins
    must stay until the turn ends."""
    return my_turn(o) and info[0, I_MONEY] >= money_threshold(o)


@kernel
def summarize(o, info):
    """Fill info[rel, I_*] for every seat (zeros for absent or eliminated seats)."""
    info[:] = 0.0
    ho_attack = rule(o, R_HO_ATTACKERS) > 0.5
    trophy = rule(o, R_TROPHY)
    for rel in range(P):
        b = seat(rel)
        if o[b + S_PRESENT] < 0.5 or o[b + S_ALIVE] < 0.5:
            info[rel, I_TOP] = -1.0
            continue
        info[rel, I_ALIVE] = 1.0
        info[rel, I_MONEY] = o[b + S_MONEY]
        info[rel, I_HAND] = o[b + S_HAND]
        info[rel, I_KILLS] = o[b + S_KILLS]
        gh = power(o[b + S_HO_G : b + S_HO_G + 4])
        hidden = power(o[b + S_HIDDEN : b + S_HIDDEN + 4])
        info[rel, I_GH] = gh
        top, table, threat, income, nbiz, free = -1, gh + hidden, hidden, 0.0, 0.0, 3.0 - gh
        if ho_attack:
            threat += gh
        for t in range(S):
            k = slot(rel, t)
            inc = o[k + F_INCOME]
            if inc < 0.5:
                continue
            g = slot_power(o, rel, t)
            nbiz += 1.0
            income += inc
            table += inc + g
            threat += g
            free += inc - g
            if o[k + F_COVERS] > 0.5:
                top = t
                info[rel, I_GTOP] = g
                info[rel, I_ITOP] = inc
        info[rel, I_TOP] = top
        info[rel, I_DEF] = C.HIDEOUT_DEFENSE + gh + info[rel, I_GTOP] + info[rel, I_ITOP]
        info[rel, I_THREAT] = threat
        info[rel, I_INCOME] = income
        info[rel, I_TABLE] = table
        info[rel, I_SCORE] = trophy * o[b + S_TROPH] + table + info[rel, I_MONEY]
        info[rel, I_NBIZ] = nbiz
        info[rel, I_FREE] = free


@kernel(inline="always")
def sure_elimination_power(info, rel):
    """Attack power on relative seat `rel`'s Hideout that eliminates it whatever the die: a
    breach owes (A - V) + d6 + the covering income, so A >= V + money - that income always
    takes more than it has (R3.6, R3.8)."""
    return info[rel, I_DEF] + max(0.0, info[rel, I_MONEY] - info[rel, I_ITOP])


@kernel
def max_threat(info, skip):
    """The largest attack power among living opponents of the observer, except relative
    seat `skip` (-1: none skipped)."""
    best = 0.0
    for rel in range(1, P):
        if rel != skip and info[rel, I_ALIVE] > 0.5:
            best = max(best, info[rel, I_THREAT])
    return best


@kernel
def leader(info):
    """Relative seat with the best score estimate among living opponents (-1 if none)."""
    best, who = -1e9, -1
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5 and info[rel, I_SCORE] > best:
            best, who = info[rel, I_SCORE], rel
    return who


# --- combat arithmetic (R3.2) ----------------------------------------------------------------
@kernel
def killed_power(counts4, damage):
    """Power of the gangsters that `damage` kills, assigned weakest first (R3.2)."""
    dead = 0.0
    for pw in range(4):
        for _ in range(int(counts4[pw] + 0.5)):
            if damage < pw + 1:
                return dead
            damage -= pw + 1
            dead += pw + 1
    return dead


@kernel
def destroys(o, damage, toughness):
    """R3.3: damage reaches (strict presets: exceeds) the building's total."""
    if rule(o, R_DESTROY_STRICT) > 0.5:
        return damage > toughness
    return damage >= toughness


@kernel
def expected_payment(owed_base, money):
    """E[min(owed_base + d6, money)] and P(owed_base + d6 > money): a breach's payment and
    the chance that it eliminates (R3.6, R3.8)."""
    paid, p_out = 0.0, 0.0
    for d in range(1, 7):
        owed = owed_base + d
        if owed > money:
            paid += money
            p_out += 1.0
        else:
            paid += owed
    return paid / 6.0, p_out / 6.0


def _dice_table(max_dice: int, max_sum: int) -> np.ndarray:
    """table[k, x] = P(sum of k d6 >= x), for Drive-bys rolled together (R5.6)."""
    dist = np.zeros((max_dice + 1, 6 * max_dice + 1))
    dist[0, 0] = 1.0
    for k in range(1, max_dice + 1):
        for face in range(1, 7):
            dist[k, face:] += dist[k - 1, : dist.shape[1] - face] / 6.0
    tail = dist[:, ::-1].cumsum(1)[:, ::-1]
    out = np.zeros((max_dice + 1, max_sum + 1))
    width = min(max_sum + 1, tail.shape[1])
    out[:, :width] = tail[:, :width]
    return out


DICE_AT_LEAST = _dice_table(6, 40)


@kernel(inline="always")
def p_dice_at_least(k, x):
    """P(the sum of k d6 >= x)."""
    if x <= 0:
        return 1.0
    if x >= DICE_AT_LEAST.shape[1]:
        return 0.0
    return DICE_AT_LEAST[min(k, DICE_AT_LEAST.shape[0] - 1), int(np.ceil(x))]


def _poker_table() -> np.ndarray:
    """table[k] = P(the host wins a Poker Night against k other stakers) (R5.8): the host
    keeps the better of 2d6, the others roll 1d6, the tied highest re-roll 1d6 each (a fair
    share among the tied)."""
    host = np.array([(2 * v - 1) / 36 for v in range(1, 7)])
    other = np.full(6, 1 / 6)
    out = np.zeros(P)
    for k in range(1, P):
        win = 0.0
        for h in range(6):
            below = other[:h].sum()
            for ties in range(k + 1):  # others who rolled the host's value, the rest lower
                comb = float(math.comb(k, ties))
                win += host[h] * comb * other[h] ** ties * below ** (k - ties) / (ties + 1)
        out[k] = win
    out[0] = 1.0
    return out


POKER_WIN = _poker_table()


@kernel
def poker_value(o, info):
    """Expected coins a Poker Night hosted now gains the observer (R5.8, D17)."""
    all_in = rule(o, R_POKER_ALL_IN) > 0.5
    need = 1.0 if all_in else 2.0
    if info[0, I_MONEY] < need:
        return -1.0  # no stake, no gain
    pot, others = min(2.0, info[0, I_MONEY]), 0
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5 and info[rel, I_MONEY] >= need:
            others += 1
            pot += min(2.0, info[rel, I_MONEY])
    if others == 0:
        return -1.0
    return pot * POKER_WIN[others] - min(2.0, info[0, I_MONEY])


# --- the pending attack, as every seat sees it (R7.1) ----------------------------------------
@kernel
def pending_attack(o):
    """(defender's relative seat, target slot or TGT_HIDEOUT) of the pending attack, or
    (-1, -1) if there is none."""
    if o[O_ATK] < 0.5:
        return -1, -1
    q = one_hot(o, O_ATK_SEAT, P)
    if o[O_ATK_HO] > 0.5:
        return q, C.TGT_HIDEOUT
    for t in range(S):
        if o[slot(q, t) + F_TARGET] > 0.5:
            return q, t
    return q, -1


@kernel
def attackers(o, out4):
    """The pending attackers per power."""
    for pw in range(4):
        out4[pw] = o[O_ATK_G + pw]
