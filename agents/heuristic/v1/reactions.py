"""The heuristic agent's reaction cards (R5): what each playable reaction is worth now, and
the target and power it is played on, by the same values (agents/heuristic/v2/agent.py documents the
strategy).

Each `*_values` kernel fills an array over the targets a card can take; `reactions` scores
`play:<kind>` by the best of them, `reaction_target` and `turncoat_power` then pick that
best target, so a card is always played on the target that made it worth playing.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.v1.attack import (
    W_ECON,
    W_MARGIN,
    W_POKER_MIN,
    W_REACT_MIN,
    danger,
    defender_loss,
    harm_weight,
    hideout_risk_value,
    my_attack_value,
    outcome,
)
from agents.heuristic.view import (
    F_DICE,
    F_G1,
    F_INCOME,
    F_KIDNAPS,
    F_TURNCOAT,
    I_ALIVE,
    I_DEF,
    I_THREAT,
    I_TOP,
    R_DESTROY_STRICT,
    R_TC_CASINO,
    P,
    S,
    attackers,
    holding_money_win,
    max_threat,
    one_hot,
    p_dice_at_least,
    pending_attack,
    poker_value,
    rule,
    seat,
    slot,
    slot_power,
    target_action,
    window_of,
)
from agents.obs_layout import (
    O_ACTIVE,
    O_QUEUE,
    O_RTKIND,
    Q_KIND,
    Q_STANDING,
    Q_TPLACE,
    Q_TSEAT,
    QF,
    S_HIDDEN,
    S_TC_ATK,
    S_TC_HIDDEN,
)
from noir_env.core import constants as C
from noir_env.engine.jit import kernel


# --- reactions (R5) ---------------------------------------------------------------------------
@kernel(inline="always")
def queued_cancel(o):
    """True if a standing Police cancel waits in the window's queue."""
    for k in range(C.QUEUE_LEN):
        b = O_QUEUE + k * QF
        if o[b + Q_KIND + C.RQ_CANCEL - 1] > 0.5 and o[b + Q_STANDING] > 0.5:
            return True
    return False


@kernel
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


@kernel(inline="always")
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


@kernel
def bribe_values(o, info, w, out):
    """out[n] = what bribing the window's n-th Police (`bribe:<n+1>`) is worth (R5.5): a
    standing Police that hurts the observer, or a bribed one that protected it."""
    out[:] = -1.0
    att, q, loss, _ = pending_value(o, info, w)
    n = -1
    for k in range(C.QUEUE_LEN):
        b = O_QUEUE + k * QF
        kidnap = o[b + Q_KIND + C.RQ_KIDNAP - 1] > 0.5
        cancel = o[b + Q_KIND + C.RQ_CANCEL - 1] > 0.5
        if not (kidnap or cancel):
            continue
        n += 1  # out is indexed by the Police's order, as bribe:<k> names it
        standing = o[b + Q_STANDING] > 0.5
        if cancel:
            mine = att == 0
            if mine and standing:
                qq, tt = pending_attack(o)
                atk = np.zeros(4)
                attackers(o, atk)
                out[n] = my_attack_value(o, info, qq, tt, atk, 0.0, w)
            elif q == 0 and not standing:
                out[n] = loss
        elif standing and o[b + Q_TSEAT] > 0.5:  # a kidnap on the observer's business
            t = int(o[b + Q_TPLACE]) - 1
            if 0 <= t < S:
                out[n] = 0.5 * slot_power(o, 0, t) + _guard_loss(o, info, t, w)


@kernel(inline="always")
def _guard_loss(o, info, t, w):
    """Hideout risk added if the gangsters on own slot t leave (kidnap, Drive-by)."""
    if int(info[0, I_TOP]) != t:
        return 0.0
    threat = max_threat(info, -1)
    d = info[0, I_DEF]
    g = slot_power(o, 0, t)
    return (danger(threat, d - g, w[W_MARGIN]) - danger(threat, d, w[W_MARGIN])) * (
        hideout_risk_value(info, w)
    )


@kernel
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


@kernel
def _before_attack(o):
    """True in the window before an opponent's Attack step (R5.2d)."""
    return window_of(o) == C.WIN_STEP


@kernel
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


@kernel(inline="always")
def _without_defenders(o, info, q, t, hit, atk, w):
    """The observer's attack value on (q, t) if the gangsters on q's slot `hit` were gone:
    approximated by the attack growing by their power (they no longer defend)."""
    more = atk.copy()
    g = slot_power(o, q, hit)
    more[3] += g / 4.0
    return my_attack_value(o, info, q, t, more, 0.0, w)


@kernel
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


@kernel
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


@kernel(inline="always")
def _attackers_of(o, pw):
    have = np.zeros(4)
    attackers(o, have)
    return have[pw]


@kernel
def reactions(o, info, mask, sc, w, in_window):
    """Score each playable reaction (`play:<kind>`) by the best thing it can do now."""
    floor = w[W_REACT_MIN]
    a = C.A_PLAY + C.PLAY_POKER
    if mask[a]:
        sc[a] = poker_value(o, info) - w[W_POKER_MIN]
        if holding_money_win(o, info):
            sc[a] = -1.0
    a = C.A_PLAY + C.PLAY_POLICE_CANCEL
    if mask[a]:
        sc[a] = cancel_value(o, info, w) - floor
    a = C.A_PLAY + C.PLAY_BRIBE
    if mask[a]:
        vals = np.zeros(C.NUM_POLICE_CARDS)
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


@kernel
def reaction_target(o, info, mask, sc, w):
    """The target of the reaction just played, by the same values that chose to play it."""
    kind = one_hot(o, O_RTKIND, 6)
    if kind == C.PLAY_BRIBE:
        vals = np.zeros(C.NUM_POLICE_CARDS)
        bribe_values(o, info, w, vals)
        for k in range(C.NUM_POLICE_CARDS):
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


@kernel
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
                if o[slot(r, s) + F_TURNCOAT] > 0.5:
                    rel, t = r, s
    for pw in range(4):
        a = C.A_POWER + pw
        if mask[a]:
            sc[a] = vals4[rel, t, pw] if rel > 0 else pw
