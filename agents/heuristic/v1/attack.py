"""The heuristic agent's attack arithmetic: which gangsters to send, and what an attack is
worth to the attacker and costs the defender (R3.2-R3.8), from the observation only.

An attack plan is a per-power count of the observer's gangsters, picked greedily from its
places in a fixed order of preference (`source_rank`: businesses off the Hideout first, the
business covering the Hideout next, the Hideout last) until the target's defense is reached.
The same rule picks the next attacker in the `attackers` phase (`attacker_score`), so the
agent adds exactly the gangsters it planned for when it chose the target.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.view import (
    F_COVERS,
    F_G1,
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_GH,
    I_GTOP,
    I_HAND,
    I_ITOP,
    I_KILLS,
    I_MONEY,
    I_TABLE,
    R_DESTROY_STRICT,
    R_HO_ATTACKERS,
    R_RAZE_FIRST,
    R_TROPHY,
    R_WAR_WIN,
    destroys,
    expected_payment,
    killed_power,
    leader,
    max_threat,
    money_threshold,
    power,
    rule,
    seat,
    slot,
    slot_power,
)
from agents.obs_layout import S_HO_G
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

S = C.NUM_SLOTS
P = C.MAX_PLAYERS
WIN_VALUE = 100.0  # a won game, in score points: dwarfs every other term

# --- style weights: indices into the float64 array built by agents.heuristic.v1.agent.Style ---
(
    W_ATTACK_MIN,  # an attack must be worth at least this much
    W_HARM,  # value of one point of damage to an opponent, relative to one point of own gain
    W_LEADER,  # extra harm weight on the leading opponent (and one close to a win)
    W_LOSS,  # cost of one point of own gangster power lost
    W_GUARD,  # what a breach of the own Hideout costs beyond the money (the game at risk)
    W_MARGIN,  # defense wanted above the strongest opponent's attack power
    W_ELIM,  # value of eliminating a player (beyond the trophy and the cards)
    W_REACT_MIN,  # a reaction card must be worth at least this much to be played
    W_POKER_MIN,  # expected coins a Poker Night must bring
    W_DRAW_KEEP,  # coins kept back when paying for extra draws
    W_ECON,  # tributes a new business is expected to pay
    W_NOISE,  # random tie-break amplitude
    W_ARMS,  # worth of a deployed gangster per power when a rich Hideout comes within reach
    W_HOARD,  # cost of a deploy that puts the money win off by a turn
    W_STOP,  # extra harm weight on a player close to a money or war win
) = range(15)
NUM_WEIGHTS = 15


@kernel
def source_rank(o, t):
    """Preference for taking an attacker from own place t (slot, or PLACE_HIDEOUT): lower
    is sent first. Gangsters guarding the Hideout stack stay home as long as possible."""
    if t == C.PLACE_HIDEOUT:
        return 2
    if o[slot(0, t) + F_COVERS] > 0.5:
        return 1
    return 0


@kernel(inline="always")
def available(o, avail):
    """avail[rank, pw]: the observer's gangsters that may attack now, by source rank."""
    avail[:] = 0.0
    for t in range(S):
        k = slot(0, t)
        if o[k + F_INCOME] < 0.5:
            continue
        r = source_rank(o, t)
        for pw in range(4):
            avail[r, pw] += o[k + F_G1 + pw]
    if rule(o, R_HO_ATTACKERS) > 0.5:
        b = seat(0) + S_HO_G
        for pw in range(4):
            avail[2, pw] += o[b + pw]


@kernel
def attacker_score(rank, pw, missing):
    """How much the greedy plan wants a power-(pw+1) gangster of source `rank` when
    `missing` attack power is still needed: the weakest that closes the gap, else the
    strongest; lower ranks always first."""
    p = pw + 1.0
    base = 20.0 - p if p >= missing else p
    return base - 30.0 * rank


@kernel
def plan(avail, need, have, atk):
    """atk[pw] += the gangsters the greedy rule adds to `have` committed power until `need`
    is reached; returns (power added, power taken from the Hideout stack)."""
    left = avail.copy()
    added, from_stack = 0.0, 0.0
    while have + added < need:
        best, br, bp = -1e9, -1, -1
        for r in range(3):
            for pw in range(4):
                if left[r, pw] > 0.5:
                    sc = attacker_score(r, pw, need - have - added)
                    if sc > best:
                        best, br, bp = sc, r, pw
        if br < 0:
            break
        left[br, bp] -= 1.0
        atk[bp] += 1.0
        added += bp + 1.0
        if br > 0:
            from_stack += bp + 1.0
    return added, from_stack


@kernel
def target_need(o, info, q, t):
    """Attack power the plan aims for against (q, t): enough to destroy a business; for a
    Hideout, to breach with an even chance to eliminate (R3.6-R3.8)."""
    strict = 1.0 if rule(o, R_DESTROY_STRICT) > 0.5 else 0.0
    if t < S:
        return slot_power(o, q, t) + o[slot(q, t) + F_INCOME] + strict
    money = info[q, I_MONEY]
    if rule(o, R_RAZE_FIRST) > 0.5 and info[q, I_ITOP] > 0.5:
        gtop, itop = info[q, I_GTOP], info[q, I_ITOP]
        breach = gtop + C.HIDEOUT_DEFENSE + info[q, I_GH]
        return max(gtop + itop + strict, breach + max(0.0, money - 3.0))
    return info[q, I_DEF] + max(0.0, money - info[q, I_ITOP] - 3.0)


@kernel(inline="always")
def survivors(atk, damage, out):
    """out = attackers left after `damage` kills weakest first (R3.2)."""
    out[:] = atk
    for pw in range(4):
        while out[pw] > 0.5 and damage >= pw + 1:
            damage -= pw + 1
            out[pw] -= 1.0


@kernel
def elim_value(o, info, att, q, w):
    """What eliminating relative seat q is worth to the attacker at relative seat att:
    trophy, the table and hand taken (R3.8), and the game itself on a war win or when q is
    the last opponent (R6.1)."""
    value = w[W_ELIM] + rule(o, R_TROPHY) + 0.5 * (info[q, I_TABLE] + info[q, I_HAND])
    alive = 0
    for rel in range(P):
        alive += info[rel, I_ALIVE] > 0.5
    war = rule(o, R_WAR_WIN) > 0.5 and info[att, I_KILLS] >= 1.0
    if war or alive <= 2:
        value += WIN_VALUE
    return value


@kernel
def outcome(o, info, att, q, t, atk, w):
    """(attacker's gain, defender's loss, attacker's power lost, chance to eliminate) of
    the attack of `att` with gangsters `atk` on (q, t) (relative seats; R3.2-R3.8). Losses
    count score points (R6.4) plus `W_ECON` tributes of a destroyed business."""
    a = power(atk)
    money = info[q, I_MONEY]
    if t < S:
        k = slot(q, t)
        inc, d = o[k + F_INCOME], slot_power(o, q, t)
        lost = killed_power(atk, d)
        if destroys(o, a, d + inc):
            steal = min(inc, money)
            return steal, d + inc * (1.0 + w[W_ECON]) + steal, lost, 0.0
        return 0.0, killed_power(o[k + F_G1 : k + F_G1 + 4], a), lost, 0.0
    itop, gtop, gh = info[q, I_ITOP], info[q, I_GTOP], info[q, I_GH]
    if rule(o, R_RAZE_FIRST) > 0.5:
        return _raze_first(o, info, q, atk, w)
    v = info[q, I_DEF]
    if a >= v:  # breached (R3.6): the stack dies, the defender pays or is out
        lost = killed_power(atk, C.HIDEOUT_DEFENSE + gh + gtop)
        pay, p_out = expected_payment(a - v + itop, money)
        harm = gh + gtop + itop * (1.0 + w[W_ECON]) + pay
        return pay + p_out * elim_value(o, info, att, q, w), harm, lost, p_out
    stack = np.zeros(4)
    _stack_gangsters(o, info, q, stack)
    lost = killed_power(atk, C.HIDEOUT_DEFENSE + gh + gtop)
    harm = killed_power(stack, a)
    if itop > 0.5 and destroys(o, a, gh + gtop + itop):
        steal = min(itop, money)
        return steal, harm + itop * (1.0 + w[W_ECON]) + steal, lost, 0.0
    return 0.0, harm, lost, 0.0


@kernel(inline="always")
def _stack_gangsters(o, info, q, out):
    """The gangsters of q's Hideout stack per power (Hideout and covering business)."""
    b = seat(q) + S_HO_G
    for pw in range(4):
        out[pw] = o[b + pw]
    top = _top_slot(o, q)
    if top >= 0:
        for pw in range(4):
            out[pw] += o[slot(q, top) + F_G1 + pw]


@kernel
def _top_slot(o, q):
    for t in range(S):
        k = slot(q, t)
        if o[k + F_INCOME] > 0.5 and o[k + F_COVERS] > 0.5:
            return t
    return -1


@kernel(inline="always")
def _raze_first(o, info, q, atk, w):
    """R3.7: raze the covering business, then (if it pays) go on into the Hideout."""
    money = info[q, I_MONEY]
    itop, gtop, gh = info[q, I_ITOP], info[q, I_GTOP], info[q, I_GH]
    gain, harm, lost = 0.0, 0.0, 0.0
    left = atk.copy()
    if itop > 0.5:
        a = power(atk)
        lost = killed_power(atk, gtop)
        if not destroys(o, a, gtop + itop):
            top = o[slot(q, _top_slot(o, q)) + F_G1 : slot(q, _top_slot(o, q)) + F_G1 + 4]
            return 0.0, killed_power(top, a), lost, 0.0
        steal = min(itop, money)
        gain, harm, money = steal, gtop + itop * (1.0 + w[W_ECON]) + steal, money - steal
        survivors(atk, gtop, left)
    a = power(left)
    v = C.HIDEOUT_DEFENSE + gh
    if a < v:
        return gain, harm, lost, 0.0  # the agent stops after the raze (phase continue_attack)
    lost += killed_power(left, v)
    pay, p_out = expected_payment(a - v, money)
    gain += pay + p_out * elim_value(o, info, 0, q, w)
    return gain, harm + gh + pay, lost, p_out


@kernel
def danger(threat, defense, margin):
    """0..1: how exposed a Hideout of `defense` is to an attack power of `threat`."""
    return min(1.0, max(0.0, (threat - defense + margin + 1.0) / (margin + 3.0)))


@kernel
def harm_weight(o, info, q, w):
    """How much damage to opponent q is worth: more for the leader, and much more for a
    player about to win by money (R6.2) or by war (R6.1)."""
    h = w[W_HARM]
    if q == leader(info):
        h += w[W_LEADER]
    near_money = info[q, I_MONEY] >= money_threshold(o) - 6.0
    near_war = rule(o, R_WAR_WIN) > 0.5 and info[q, I_KILLS] >= 1.0
    if near_money or near_war:
        h += w[W_STOP]
    return h


@kernel
def hideout_risk_value(info, w):
    """What the observer stands to lose if its Hideout is breached: its money and the game."""
    return info[0, I_MONEY] + w[W_GUARD]


@kernel
def my_attack_value(o, info, q, t, atk, from_stack, w):
    """Net worth to the observer of attacking (q, t) with `atk`, `from_stack` of it taken
    from its own Hideout stack (left exposed until its next turn)."""
    gain, harm, lost, _ = outcome(o, info, 0, q, t, atk, w)
    value = gain + harm_weight(o, info, q, w) * harm - w[W_LOSS] * lost
    value -= 0.15 * (power(atk) - lost)  # attackers hide until the next turn (R3.5)
    if from_stack > 0.0:
        threat = max_threat(info, -1)
        d = info[0, I_DEF]
        exposed = danger(threat, d - from_stack, w[W_MARGIN]) - danger(threat, d, w[W_MARGIN])
        value -= exposed * hideout_risk_value(info, w)
    return value


@kernel(inline="always")
def best_plan_value(o, info, q, t, avail, w, atk):
    """(value, planned power) of the observer's plan against (q, t); atk receives it."""
    atk[:] = 0.0
    need = target_need(o, info, q, t)
    added, from_stack = plan(avail, need, 0.0, atk)
    if added < 0.5:
        return -1e9, 0.0
    return my_attack_value(o, info, q, t, atk, from_stack, w), added


@kernel
def defender_loss(o, info, att, q, t, atk, w):
    """What the attack of `att` with `atk` on (q, t) costs q (the game, if q is out)."""
    _, harm, _, p_out = outcome(o, info, att, q, t, atk, w)
    return harm + p_out * WIN_VALUE
