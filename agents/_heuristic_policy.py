"""The heuristic agent's decisions, one numba kernel per phase (agents/heuristic.py
documents the strategy).

`decide(o, mask, w, u)` gives every legal action of one observation row a score and returns
the best one: illegal actions are never scored, so the answer is always legal, and a phase
the strategy has no opinion on falls back to its first legal action. `act_rows` runs it over
a batch in parallel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from noir_env.core import constants as C
from noir_env.core.observe import (
    GLOBAL_SIZE,
    O_ACTIVE,
    O_CD_LEFT,
    O_CD_ON,
    O_COUNT,
    O_FIRST,
    O_HAND,
    O_QUEUE,
    O_RTKIND,
    O_SELPOW,
    Q_KIND,
    Q_STANDING,
    Q_TPLACE,
    Q_TSEAT,
    QF,
    S_HIDDEN,
    S_TC_ATK,
    S_TC_HIDDEN,
)

from ._heuristic_attack import (
    W_ARMS,
    W_ATTACK_MIN,
    W_DRAW_KEEP,
    W_ECON,
    W_HOARD,
    W_MARGIN,
    W_NOISE,
    W_POKER_MIN,
    W_REACT_MIN,
    attacker_score,
    available,
    best_plan_value,
    danger,
    defender_loss,
    harm_weight,
    hideout_risk_value,
    my_attack_value,
    outcome,
    source_rank,
    target_need,
)
from ._heuristic_view import (
    F_COVERS,
    F_DICE,
    F_G1,
    F_INCOME,
    F_KIDNAPS,
    I_ALIVE,
    I_DEF,
    I_FREE,
    I_GH,
    I_INCOME,
    I_MONEY,
    I_NBIZ,
    I_THREAT,
    I_TOP,
    R_DESTROY_STRICT,
    R_HO_ATTACKERS,
    R_TC_CASINO,
    SEAT_INFO,
    P,
    S,
    attackers,
    money_threshold,
    one_hot,
    p_dice_at_least,
    pending_attack,
    phase_of,
    poker_value,
    rule,
    seat,
    slot,
    slot_power,
    summarize,
    window_of,
)

NEG = -1e18  # the score of an illegal action
FALLBACK = -1e6  # a legal action the strategy has no use for

# how much a card in hand is worth keeping, by type (gangsters and businesses are adjusted
# to the table in `card_value`)
CARD_KEEP = np.array([2.0, 2.4, 2.6, 2.6, 3.4, 3.8, 4.2, 4.6, 2.0, 3.4, 1.6, 2.8, 3.2])


# --- small helpers ---------------------------------------------------------------------------
@njit(cache=True)
def target_action(rel, t):
    return C.A_TARGET + (rel - 1) * C.NUM_TARGETS + t


@njit(cache=True)
def my_turn(o):
    return o[O_ACTIVE] > 0.5


@njit(cache=True)
def turns_left(o):
    """Own turns still to come, roughly: many before the countdown, then its tokens (R6.3)."""
    if o[O_CD_ON] < 0.5:
        return 8.0
    return o[O_CD_LEFT]


@njit(cache=True)
def card_value(o, info, card):
    """How much keeping `card` in hand is worth now (mulligan, discard)."""
    v = CARD_KEEP[card]
    if card <= C.G4:
        if info[0, I_FREE] + 2.0 * info[0, I_NBIZ] < card + 1.0:
            v -= 1.5  # nowhere to put it soon
    elif card == C.POKER:
        v = 2.0 if poker_value(o, info) > 0.0 else 1.0
    if o[O_FIRST] > 0.5 and C.B1 <= card <= C.B4:
        v += 1.0  # the first business covers the Hideout and pays from round 2
    return v


# --- phases: each scores the legal actions it has an opinion on -----------------------------
@njit(cache=True)
def mulligan(o, info, mask, sc):
    """R1.6: throw back the weakest cards for new ones; with no business, fish for one."""
    has_biz = False
    for card in range(C.B1, C.B4 + 1):
        has_biz = has_biz or o[O_HAND + card] > 0.5
    sc[C.A_END] = 3.0 if has_biz else 1.0
    for card in range(C.NUM_CARD_TYPES):
        a = C.A_DISCARD + card
        if mask[a]:
            sc[a] = 4.0 - card_value(o, info, card) + (0.0 if has_biz else 1.5)


@njit(cache=True)
def discard(o, info, mask, sc):
    """R4.7: with a full hand, swap the weakest card for a free draw; forced: the weakest."""
    hand = 0.0
    for card in range(C.NUM_CARD_TYPES):
        hand += o[O_HAND + card]
    sc[C.A_END] = 0.0
    for card in range(C.NUM_CARD_TYPES):
        a = C.A_DISCARD + card
        if mask[a]:
            full = hand >= C.HAND_SIZE and o[O_COUNT] < 0.5
            sc[a] = (1.5 if full else -0.8) - 0.5 * card_value(o, info, card)
            if not mask[C.A_END]:
                sc[a] += 10.0


@njit(cache=True)
def draw(o, info, mask, sc, w):
    """R4.8: the first card is free; more only with coins to spare and turns to use them."""
    money = info[0, I_MONEY]
    keep = w[W_DRAW_KEEP]
    thr = money_threshold(o)
    near_win = money + info[0, I_INCOME] + 3.0 >= thr - 2.0
    sc[C.A_END] = 0.0
    for n in range(1, C.HAND_SIZE + 1):
        a = C.A_DRAW + n - 1
        if not mask[a]:
            continue
        extra = n - 1.0
        value = 1.0 - 0.01 * n
        if extra > 0.0:
            spare = money - extra >= keep and turns_left(o) >= 2.0 and not near_win
            value = (1.0 + 0.1 * n) if spare else -1.0
        sc[a] = value


@njit(cache=True)
def deploy(o, info, mask, sc, w):
    """R4.5: businesses first for the economy (the first covers the Hideout), gangsters to
    keep the Hideout stack above the strongest threat; nothing that costs the money win."""
    money = info[0, I_MONEY]
    thr = money_threshold(o)
    sc[C.A_END] = 0.0
    if my_turn(o) and money >= thr:
        return  # holding the money win: spend nothing (R6.2)
    threat = 0.0
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5:
            threat = max(threat, info[rel, I_THREAT])
    need_guard = danger(threat, info[0, I_DEF], w[W_MARGIN])
    room_stack = 3.0 - info[0, I_GH]
    top = int(info[0, I_TOP])
    if top >= 0:
        k = slot(0, top)
        room_stack += o[k + F_INCOME] - slot_power(o, 0, top)
    for card in range(C.G1, C.B4 + 1):
        a = C.A_DEPLOY + card
        if not mask[a]:
            continue
        if card >= C.B1:
            inc = card - C.B1 + 1.0
            value = 2.0 + inc * min(w[W_ECON], turns_left(o)) / 3.0
            if info[0, I_NBIZ] < 0.5:
                value += 3.0
        else:
            p = card + 1.0
            value = 1.0 + p * (0.3 + w[W_ARMS] * _breach_use(info, p))
            if p <= room_stack:
                value += need_guard * (2.0 + p)
        tribute = C.HIDEOUT_INCOME + info[0, I_INCOME]
        if money - card % 4 + tribute < thr <= money + tribute:
            value -= w[W_HOARD]  # the money win is a tribute away: keep the coins (R6.2)
        sc[a] = value


@njit(cache=True)
def _breach_use(info, p):
    """1 when one more point of attack power brings a rich opponent's Hideout within reach
    (each point above its defense is a coin of breach payment, R3.6), else 0."""
    for rel in range(1, P):
        rich = info[rel, I_ALIVE] > 0.5 and info[rel, I_MONEY] >= 6.0
        if rich and info[0, I_THREAT] + p >= info[rel, I_DEF] - 2.0:
            return 1.0
    return 0.0


@njit(cache=True)
def place(o, info, mask, sc, w):
    """Where a gangster goes (deploy_to, move_gangsters_to): the Hideout stack while it is
    under threat, else the business that most needs defending."""
    pw = one_hot(o, O_SELPOW, 4)
    p = pw + 1.0
    threat = 0.0
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5:
            threat = max(threat, info[rel, I_THREAT])
    guard = danger(threat, info[0, I_DEF], w[W_MARGIN]) + 0.3
    attack_from_hideout = rule(o, R_HO_ATTACKERS) > 0.5
    for dst in range(C.NUM_PLACES):
        a = C.A_TO + dst
        if not mask[a]:
            continue
        if dst == C.PLACE_HIDEOUT:
            sc[a] = 2.0 * guard + (0.2 if attack_from_hideout else 0.0)
            continue
        k = slot(0, dst)
        inc = o[k + F_INCOME]
        room = inc - slot_power(o, 0, dst)
        value = 0.2 * inc + 0.3 + 0.1 * (room - p == 0.0)
        if o[k + F_COVERS] > 0.5:
            value += 2.0 * guard + 0.1
        sc[a] = value
    if mask[C.A_TO + C.PLACE_ASIDE]:
        sc[C.A_TO + C.PLACE_ASIDE] = -5.0


@njit(cache=True)
def move_gangsters(o, mask, sc):
    """R4.2: bring HIDDEN gangsters back, strongest first; leave the table as it is."""
    sc[C.A_END] = 0.0
    for pw in range(4):
        a = C.A_FROM + pw * C.NUM_SOURCES + C.PLACE_HIDDEN
        if mask[a]:
            sc[a] = 1.0 + pw


@njit(cache=True)
def move_hideout(o, info, mask, sc):
    """R4.6: bury the Hideout under the business that adds the most defense."""
    top = int(info[0, I_TOP])
    current = 0.0
    if top >= 0:
        current = o[slot(0, top) + F_INCOME] + slot_power(o, 0, top)
    sc[C.A_END] = 0.0
    for t in range(S):
        a = C.A_HIDE_UNDER + t
        if mask[a]:
            sc[a] = o[slot(0, t) + F_INCOME] + slot_power(o, 0, t) - current - 0.5
    if mask[C.A_HIDE_OPEN]:
        sc[C.A_HIDE_OPEN] = -5.0


@njit(cache=True)
def attack_targets(o, info, mask, sc, w, avail):
    """R3.1: the target whose planned attack is worth the most, if it beats W_ATTACK_MIN."""
    sc[C.A_END] = w[W_ATTACK_MIN]
    atk = np.zeros(4)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        for t in range(C.TGT_HIDEOUT + 1):
            a = target_action(rel, t)
            if mask[a]:
                sc[a], _ = best_plan_value(o, info, rel, t, avail, w, atk)


@njit(cache=True)
def add_attackers(o, info, mask, sc, avail):
    """Phase attackers: add the next gangster of the plan, or confirm once it is complete."""
    q, t = pending_attack(o)
    have = np.zeros(4)
    attackers(o, have)
    committed = have[0] + 2.0 * have[1] + 3.0 * have[2] + 4.0 * have[3]
    need = target_need(o, info, q, t) if q > 0 and t >= 0 else committed + 1.0
    if mask[C.A_CONFIRM]:
        sc[C.A_CONFIRM] = 1e3 if committed >= need else -1e3
    for src in range(C.NUM_PLACES):
        rank = source_rank(o, src)
        for pw in range(4):
            a = C.A_FROM + pw * C.NUM_SOURCES + src
            if mask[a]:
                sc[a] = attacker_score(rank, pw, need - committed)


@njit(cache=True)
def continue_attack(o, info, mask, sc):
    """R3.7: go on into the Hideout only if the survivors breach it."""
    q, _ = pending_attack(o)
    have = np.zeros(4)
    attackers(o, have)
    a = have[0] + 2.0 * have[1] + 3.0 * have[2] + 4.0 * have[3]
    sc[C.A_END] = 0.0
    if mask[C.A_CONTINUE] and q > 0:
        sc[C.A_CONTINUE] = 1.0 if a >= C.HIDEOUT_DEFENSE + info[q, I_GH] else -1.0


# --- reactions (R5) ---------------------------------------------------------------------------
@njit(cache=True)
def queued_cancel(o):
    """True if a standing Police cancel waits in the window's queue."""
    for k in range(C.QUEUE_LEN):
        b = O_QUEUE + k * QF
        if o[b + Q_KIND + C.RQ_CANCEL - 1] > 0.5 and o[b + Q_STANDING] > 0.5:
            return True
    return False


@njit(cache=True)
def pending_value(o, info, w):
    """(attacker's relative seat, defender, the defender's loss, the attacker's gain as the
    observer values it) of the pending attack; attacker -1 if there is none."""
    q, t = pending_attack(o)
    if q < 0 or t < 0:
        return -1, -1, 0.0, 0.0
    att = one_hot(o, O_ACTIVE, P)
    atk = np.zeros(4)
    attackers(o, atk)
    loss = defender_loss(o, info, att, q, t, atk, w)
    gain, _, _, p_out = outcome(o, info, att, q, t, atk, w)
    return att, q, loss, gain + p_out * 50.0


@njit(cache=True)
def cancel_value(o, info, w):
    """Police cancel (R5.4): save the own Hideout or business; stop a third player's attack
    that would eliminate or hand the leader a big gain."""
    if queued_cancel(o):
        return -1.0
    att, q, loss, gain = pending_value(o, info, w)
    if att < 0 or att == 0:
        return -1.0
    if q == 0:
        return loss
    return 0.15 * loss + harm_weight(o, info, att, w) * 0.3 * gain


@njit(cache=True)
def bribe_values(o, info, w, out):
    """out[k] = what bribing the Police at queue place k is worth (R5.5): a standing Police
    that hurts the observer, or a bribed one that protected it."""
    out[:] = -1.0
    att, q, loss, _ = pending_value(o, info, w)
    for k in range(C.QUEUE_LEN):
        b = O_QUEUE + k * QF
        kidnap = o[b + Q_KIND + C.RQ_KIDNAP - 1] > 0.5
        cancel = o[b + Q_KIND + C.RQ_CANCEL - 1] > 0.5
        if not (kidnap or cancel):
            continue
        standing = o[b + Q_STANDING] > 0.5
        if cancel:
            mine = att == 0
            if mine and standing:
                qq, tt = pending_attack(o)
                atk = np.zeros(4)
                attackers(o, atk)
                out[k] = my_attack_value(o, info, qq, tt, atk, 0.0, w)
            elif q == 0 and not standing:
                out[k] = loss
        elif standing and o[b + Q_TSEAT] > 0.5:  # a kidnap on the observer's business
            t = int(o[b + Q_TPLACE]) - 1
            if 0 <= t < S:
                out[k] = 0.5 * slot_power(o, 0, t) + _guard_loss(o, info, t, w)


@njit(cache=True)
def _guard_loss(o, info, t, w):
    """Hideout risk added if the gangsters on own slot t leave (kidnap, Drive-by)."""
    if int(info[0, I_TOP]) != t:
        return 0.0
    threat = 0.0
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5:
            threat = max(threat, info[rel, I_THREAT])
    d = info[0, I_DEF]
    g = slot_power(o, 0, t)
    return (danger(threat, d - g, w[W_MARGIN]) - danger(threat, d, w[W_MARGIN])) * (
        hideout_risk_value(info, w)
    )


@njit(cache=True)
def kidnap_values(o, info, w, out):
    """out[rel, t]: Police kidnap on a business (R5.4): strip the defenders of the
    observer's own pending attack, or the attackers of the player about to attack."""
    out[:] = -1.0
    att, q, _, _ = pending_value(o, info, w)
    active = one_hot(o, O_ACTIVE, P)
    if att == 0:
        qq, tt = pending_attack(o)
        atk = np.zeros(4)
        attackers(o, atk)
        base = my_attack_value(o, info, qq, tt, atk, 0.0, w)
        top = int(info[qq, I_TOP])
        hit = tt if tt < S else top
        if hit >= 0 and o[slot(qq, hit) + F_KIDNAPS] < 0.5:
            out[qq, hit] = _without_defenders(o, info, qq, tt, hit, atk, w) - base
        return
    if active > 0 and att < 0 and _before_attack(o):
        _threat_relief(o, info, active, w, out, 0)


@njit(cache=True)
def _before_attack(o):
    """True in the window before an opponent's Attack step (R5.2d)."""
    return window_of(o) == C.WIN_STEP


@njit(cache=True)
def _threat_relief(o, info, active, w, out, dice):
    """out[active, t]: the observer's Hideout risk removed by taking the gangsters of the
    active player's business t off the table before it attacks (dice=0: all of them)."""
    d = info[0, I_DEF]
    threat = info[active, I_THREAT]
    if threat < d - w[W_MARGIN] - 2.0:
        return
    for t in range(S):
        k = slot(active, t)
        if o[k + F_INCOME] < 0.5:
            continue
        g = slot_power(o, active, t)
        if dice > 0:
            g = min(g, 3.5 * dice)
        relief = danger(threat, d, w[W_MARGIN]) - danger(threat - g, d, w[W_MARGIN])
        out[active, t] = relief * hideout_risk_value(info, w)


@njit(cache=True)
def _without_defenders(o, info, q, t, hit, atk, w):
    """The observer's attack value on (q, t) if the gangsters on q's slot `hit` were gone:
    approximated by the attack growing by their power (they no longer defend)."""
    more = atk.copy()
    g = slot_power(o, q, hit)
    more[3] += g / 4.0
    return my_attack_value(o, info, q, t, more, 0.0, w)


@njit(cache=True)
def driveby_values(o, info, w, out):
    """out[rel, t]: a Drive-by (R5.6) finishing a weak business, softening the target of the
    observer's own attack, or thinning the attackers of the player about to attack."""
    out[:] = -1.0
    att, _, _, _ = pending_value(o, info, w)
    active = one_hot(o, O_ACTIVE, P)
    strict = 1.0 if rule(o, R_DESTROY_STRICT) > 0.5 else 0.0
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        hw = harm_weight(o, info, rel, w)
        for t in range(S):
            k = slot(rel, t)
            inc = o[k + F_INCOME]
            if inc < 0.5:
                continue
            g = slot_power(o, rel, t)
            dice = int(o[k + F_DICE]) + 1
            p_kill = p_dice_at_least(dice, g + inc + strict)
            gone = g + inc * (1.0 + w[W_ECON])
            out[rel, t] = hw * (p_kill * gone + (1.0 - p_kill) * min(g, 3.5 * dice) * 0.5)
    if att == 0:
        qq, tt = pending_attack(o)
        hit = tt if tt < S else int(info[qq, I_TOP])
        if hit >= 0:
            out[qq, hit] += 2.0
    if active > 0 and att < 0 and _before_attack(o):
        relief = np.full((P, S), -1.0)
        _threat_relief(o, info, active, w, relief, 1)
        for t in range(S):
            out[active, t] = max(out[active, t], out[active, t] + relief[active, t])


@njit(cache=True)
def turncoat_values(o, info, w, out):
    """out[rel, target, pw]: a Turncoat (R5.7) on the most valuable reachable gangster; an
    attacker of a pending attack on the observer counts for the loss it prevents."""
    out[:] = -1.0
    casino = False
    for t in range(S):
        casino = casino or o[slot(0, t) + F_INCOME] > 3.5
    may4 = casino or rule(o, R_TC_CASINO) < 0.5
    att, q, loss, _ = pending_value(o, info, w)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        hw = harm_weight(o, info, rel, w)
        for pw in range(4 if may4 else 3):
            value = (pw + 1.0) * (hw + 0.4)
            for t in range(S):
                if o[slot(rel, t) + F_G1 + pw] > 0.5:
                    out[rel, t, pw] = value
            if o[seat(rel) + S_HIDDEN + pw] > 0.5:
                out[rel, C.TGT_HIDDEN, pw] = value - 0.3
            if rel == att and o[O_ACTIVE + rel] > 0.5 and _attackers_of(o, pw) > 0.5:
                saved = 0.0
                if q == 0:
                    atk = np.zeros(4)
                    attackers(o, atk)
                    qq, tt = pending_attack(o)
                    atk[pw] -= 1.0
                    saved = loss - defender_loss(o, info, att, qq, tt, atk, w)
                out[rel, C.TGT_ATTACK, pw] = value + saved


@njit(cache=True)
def _attackers_of(o, pw):
    have = np.zeros(4)
    attackers(o, have)
    return have[pw]


@njit(cache=True)
def reactions(o, info, mask, sc, w, in_window):
    """Score each playable reaction (`play:<kind>`) by the best thing it can do now."""
    floor = w[W_REACT_MIN]
    a = C.A_PLAY + C.PLAY_POKER
    if mask[a]:
        sc[a] = poker_value(o, info) - w[W_POKER_MIN]
        if my_turn(o) and info[0, I_MONEY] >= money_threshold(o):
            sc[a] = -1.0
    a = C.A_PLAY + C.PLAY_POLICE_CANCEL
    if mask[a]:
        sc[a] = cancel_value(o, info, w) - floor
    a = C.A_PLAY + C.PLAY_BRIBE
    if mask[a]:
        vals = np.zeros(C.QUEUE_LEN)
        bribe_values(o, info, w, vals)
        sc[a] = vals.max() - 0.5 * floor
    a = C.A_PLAY + C.PLAY_POLICE
    if mask[a]:
        vals2 = np.zeros((P, S))
        kidnap_values(o, info, w, vals2)
        sc[a] = vals2.max() - floor
    a = C.A_PLAY + C.PLAY_DRIVEBY
    if mask[a]:
        vals3 = np.zeros((P, S))
        driveby_values(o, info, w, vals3)
        sc[a] = vals3.max() - floor
    a = C.A_PLAY + C.PLAY_TURNCOAT
    if mask[a]:
        vals4 = np.zeros((P, C.NUM_TARGETS, 4))
        turncoat_values(o, info, w, vals4)
        sc[a] = vals4.max() - floor - 1.0
    if in_window:
        sc[C.A_PASS] = 0.0


@njit(cache=True)
def reaction_target(o, info, mask, sc, w):
    """The target of the reaction just played, by the same values that chose to play it."""
    kind = one_hot(o, O_RTKIND, 6)
    if kind == C.PLAY_BRIBE:
        vals = np.zeros(C.QUEUE_LEN)
        bribe_values(o, info, w, vals)
        for k in range(C.QUEUE_LEN):
            if mask[C.A_BRIBE + k]:
                sc[C.A_BRIBE + k] = vals[k]
        return
    if kind == C.PLAY_TURNCOAT:
        vals4 = np.zeros((P, C.NUM_TARGETS, 4))
        turncoat_values(o, info, w, vals4)
        for rel in range(1, P):
            for t in range(C.NUM_TARGETS):
                a = target_action(rel, t)
                if mask[a]:
                    sc[a] = vals4[rel, t].max()
        return
    vals2 = np.zeros((P, S))
    if kind == C.PLAY_POLICE:
        kidnap_values(o, info, w, vals2)
    else:
        driveby_values(o, info, w, vals2)
    for rel in range(1, P):
        for t in range(S):
            a = target_action(rel, t)
            if mask[a]:
                sc[a] = vals2[rel, t]


@njit(cache=True)
def turncoat_power(o, info, mask, sc, w):
    """Which gangster the Turncoat takes at the chosen target: the most valuable."""
    vals4 = np.zeros((P, C.NUM_TARGETS, 4))
    turncoat_values(o, info, w, vals4)
    rel, t = -1, -1
    for r in range(1, P):
        b = seat(r)
        if o[b + S_TC_HIDDEN] > 0.5:
            rel, t = r, C.TGT_HIDDEN
        elif o[b + S_TC_ATK] > 0.5:
            rel, t = r, C.TGT_ATTACK
        else:
            for s in range(S):
                if o[slot(r, s) + 10] > 0.5:
                    rel, t = r, s
    for pw in range(4):
        a = C.A_POWER + pw
        if mask[a]:
            sc[a] = vals4[rel, t, pw] if rel > 0 else pw


# --- one decision ----------------------------------------------------------------------------
@njit(cache=True)
def decide(o, mask, w, u):
    """The heuristic's action for one observation row and its legal-action mask; u in
    [0, 1) seeds the tie-break noise."""
    sc = np.full(mask.shape[0], NEG)
    count, only = 0, -1
    for a in range(mask.shape[0]):
        if mask[a]:
            sc[a] = FALLBACK
            count += 1
            only = a
    if count <= 1:
        return only
    info = np.zeros((P, SEAT_INFO))
    summarize(o, info)
    avail = np.zeros((3, 4))
    available(o, avail)
    ph = phase_of(o)
    if ph == C.PH_MULLIGAN:
        mulligan(o, info, mask, sc)
    elif ph == C.PH_MOVE:
        move_gangsters(o, mask, sc)
    elif ph == C.PH_MOVE_TO or ph == C.PH_DEPLOY_TO:
        place(o, info, mask, sc, w)
    elif ph == C.PH_ATTACK:
        attack_targets(o, info, mask, sc, w, avail)
    elif ph == C.PH_ATTACKERS:
        add_attackers(o, info, mask, sc, avail)
    elif ph == C.PH_DEPLOY:
        deploy(o, info, mask, sc, w)
    elif ph == C.PH_MOVE_HIDEOUT:
        move_hideout(o, info, mask, sc)
    elif ph == C.PH_DISCARD:
        discard(o, info, mask, sc)
    elif ph == C.PH_DRAW:
        draw(o, info, mask, sc, w)
    elif ph == C.PH_REACT_TARGET:
        reaction_target(o, info, mask, sc, w)
    elif ph == C.PH_TURNCOAT_POWER:
        turncoat_power(o, info, mask, sc, w)
    elif ph == C.PH_CONTINUE:
        continue_attack(o, info, mask, sc)
    if ph == C.PH_WINDOW:
        reactions(o, info, mask, sc, w, True)
    elif _idle(ph):
        _idle_reactions(o, info, mask, sc, w)
    return _best(sc, w[W_NOISE], u)


@njit(cache=True)
def _idle(ph):
    """The active player's idle decision points, where reactions may be played (D10)."""
    return (
        ph == C.PH_MOVE
        or ph == C.PH_ATTACK
        or ph == C.PH_DEPLOY
        or (ph == C.PH_MOVE_HIDEOUT or ph == C.PH_DISCARD or ph == C.PH_DRAW)
    )


@njit(cache=True)
def _idle_reactions(o, info, mask, sc, w):
    """At an idle point a reaction worth playing goes before the step's own choice; one
    that is not stays out of the way of every step action."""
    reactions(o, info, mask, sc, w, False)
    for kind in range(6):
        a = C.A_PLAY + kind
        if mask[a]:
            sc[a] = 1e4 + sc[a] if sc[a] > 0.0 else FALLBACK + 1.0


@njit(cache=True)
def _best(sc, noise, u):
    """Argmax of the scores, with ties (and near-ties, by `noise`) broken by a hash of u."""
    best, who = NEG, -1
    h = np.uint64(u * 4294967296.0) | np.uint64(1)
    for a in range(sc.shape[0]):
        if sc[a] <= NEG:
            continue
        h ^= h << np.uint64(13)
        h ^= h >> np.uint64(7)
        h ^= h << np.uint64(17)
        jitter = (np.float64(h >> np.uint64(11)) / 9007199254740992.0) * (noise + 1e-9)
        if sc[a] + jitter > best:
            best, who = sc[a] + jitter, a
    return who


@njit(cache=True)
def tie_break(o, salt):
    """A uniform in [0, 1) from the row's public turn fields and the agent's salt: the
    same observation gets the same tie-breaks, whatever batch it sits in."""
    digest = 0.0
    for j in range(GLOBAL_SIZE // 7):
        digest += o[7 * j] * (j + 1.0)
    x = digest * 0.6180339887498949 + salt
    return x - np.floor(x)


@njit(cache=True, parallel=True)
def act_rows(obs, mask, w, salt, out):
    """out[i] = the heuristic's action for obs[i], mask[i], in parallel over rows."""
    for i in prange(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


@njit(cache=True)
def act_rows_serial(obs, mask, w, salt, out):
    for i in range(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))
