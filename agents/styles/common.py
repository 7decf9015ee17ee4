"""Building blocks of the scripted styles (`agents/styles/agent.py`): the mechanical decisions every
style makes the same way, and the scorers a style feeds with its own preferences.

A style's `decide(o, mask, u)` (one module each, `styles/<name>.py`) reads the table with
`heuristic.view.summarize` and `heuristic.table`, fills a score per legal action with the functions
here, and returns `finish(sc, u)`: the best legal action (illegal actions keep -inf, legal
ones a floor score, so the answer is always legal). Preferences are plain tables and
values: `card_worth[card]` for deploys, discards and the mulligan; `target[rel, t]` for
attacks and reaction targets; `play[kind]` for the reaction cards.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import available_power, hand_size
from agents.heuristic.v1.attack import plan, source_rank, target_need
from agents.heuristic.v1.policy import (
    NEG,
    _best,
    move_gangsters,
    move_hideout,
    score_attackers,
)
from agents.heuristic.view import (
    F_INCOME,
    I_DEF,
    I_MONEY,
    I_TOP,
    P,
    S,
    attackers,
    my_turn,
    one_hot,
    pending_attack,
    power,
    slot,
    slot_power,
    target_action,
)
from agents.obs_layout import (
    O_ACTIVE,
    O_COUNT,
    O_QUEUE,
    O_RTKIND,
    Q_KIND,
    Q_STANDING,
    Q_TSEAT,
    QF,
)
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

NOISE = 0.01  # tie-breaks only: a style plays its rules, not a weighted blend


@kernel
def finish(sc, u):
    """The best-scored action, near-ties broken by a hash of u."""
    return _best(sc, NOISE, u)


@kernel(inline="always")
def attacker_seat(o):
    """Relative seat of the active player (the attacker of a pending attack)."""
    return one_hot(o, O_ACTIVE, P)


@kernel
def attacked_me(o):
    """(target slot or TGT_HIDEOUT) of a pending attack on the observer, -1 if none."""
    q, t = pending_attack(o)
    return t if q == 0 else -1


@kernel
def standard_phase(o, info, mask, sc, ph, card_worth, floor, stack_first):
    """Score the decisions every style makes the same way, with its card worths (mulligan
    below `floor`, discards) and where it puts gangsters (`stack_first`); returns False for
    the phases a style decides itself (attack, attackers, deploy, draw, reaction target)."""
    if ph == C.PH_MULLIGAN:
        mulligan_by(o, mask, sc, card_worth, floor)
    elif ph == C.PH_MOVE:
        move_gangsters(o, mask, sc)
    elif ph == C.PH_MOVE_TO or ph == C.PH_DEPLOY_TO:
        place_gangster(o, info, mask, sc, stack_first)
    elif ph == C.PH_MOVE_HIDEOUT:
        move_hideout(o, info, mask, sc)
    elif ph == C.PH_DISCARD:
        discard_by(o, mask, sc, card_worth)
    elif ph == C.PH_TURNCOAT_POWER:
        strongest_power(mask, sc)
    elif ph == C.PH_CONTINUE:
        sc[C.A_CONTINUE] = 1.0  # raze-first rules (R3.7): the styles that attack go on
    else:
        return False
    return True


# --- cards and the economy ------------------------------------------------------------------
@kernel(inline="always")
def mulligan_by(o, mask, sc, card_worth, floor):
    """R1.6: set aside every card worth less than `floor`, the least worth first."""
    sc[C.A_END] = 0.0
    for card in range(C.NUM_CARD_TYPES):
        a = C.A_DISCARD + card
        if mask[a] and card_worth[card] < floor:
            sc[a] = floor - card_worth[card]


@kernel(inline="always")
def discard_by(o, mask, sc, card_worth):
    """R4.7: with a full hand, swap the least worth card for a fresh draw (once); when a
    discard is forced (`original`), the least worth."""
    full = hand_size(o) >= C.HAND_SIZE and o[O_COUNT] < 0.5
    sc[C.A_END] = 0.0
    for card in range(C.NUM_CARD_TYPES):
        a = C.A_DISCARD + card
        if mask[a] and (full or not mask[C.A_END]):
            sc[a] = 10.0 - card_worth[card]


@kernel
def deploy_by(o, info, mask, sc, card_worth, keep):
    """R4.5: deploy the card worth the most (positive worth only) while `keep` coins stay."""
    sc[C.A_END] = 0.0
    for card in range(C.G1, C.B4 + 1):
        a = C.A_DEPLOY + card
        cost = float(card % 4)  # power - 1, income - 1
        if mask[a] and card_worth[card] > 0.0 and info[0, I_MONEY] - cost >= keep:
            sc[a] = card_worth[card]


@kernel
def draw_up_to(o, info, mask, sc, extra, keep):
    """R4.8: the free card and up to `extra` paid ones, while `keep` coins stay."""
    sc[C.A_END] = 0.0
    for n in range(1, C.HAND_SIZE + 1):
        a = C.A_DRAW + n - 1
        if mask[a] and n - 1 <= extra and info[0, I_MONEY] - (n - 1) >= keep:
            sc[a] = float(n)


@kernel(inline="always")
def place_gangster(o, info, mask, sc, stack_first):
    """Where a gangster goes: the Hideout stack first (the Hideout, then the business
    covering it) if `stack_first`, else the businesses (the richest first; gangsters there
    attack in every preset, R3.1) and the Hideout last."""
    top = int(info[0, I_TOP])
    for dst in range(C.NUM_PLACES):
        a = C.A_TO + dst
        if not mask[a]:
            continue
        if dst == C.PLACE_HIDEOUT:
            sc[a] = 10.0 if stack_first else 0.0
        else:
            sc[a] = 0.1 * o[slot(0, dst) + F_INCOME] + (5.0 if stack_first and dst == top else 1.0)
    if mask[C.A_TO + C.PLACE_ASIDE]:
        sc[C.A_TO + C.PLACE_ASIDE] = -5.0


# --- attacks ----------------------------------------------------------------------------------
@kernel
def need_for(o, info, q, t, total, all_in):
    """Attack power a style sends at (q, t): enough to destroy a business (R3.3); at a
    Hideout everything (`all_in`) or enough to breach it (R3.6)."""
    if t < S:
        return target_need(o, info, q, t)
    return total if all_in else info[q, I_DEF]


@kernel
def can_take(o, info, q, t, avail, all_in):
    """True if the style's plan against (q, t) reaches its need (a breach for a Hideout)."""
    total = available_power(avail)
    need = need_for(o, info, q, t, total, all_in)
    if t == C.TGT_HIDEOUT:
        need = max(need, info[q, I_DEF])
    atk = np.zeros(4)
    added, _ = plan(avail, need, 0.0, atk)
    return added >= need and added > 0.5


@kernel
def attack_by(mask, sc, target, stop):
    """R3.1: attack the target with the best positive `target[rel, t]`, or end (`stop`)."""
    sc[C.A_END] = stop
    for rel in range(1, P):
        for t in range(C.TGT_HIDEOUT + 1):
            a = target_action(rel, t)
            if mask[a] and target[rel, t] > 0.0:
                sc[a] = target[rel, t]


@kernel
def add_attackers(o, info, mask, sc, avail, all_in, home):
    """Phase attackers: add gangsters (businesses off the Hideout first) up to the style's
    need (`need_for`), then confirm; `home`: never the Hideout stack's guards."""
    q, t = pending_attack(o)
    have = np.zeros(4)
    attackers(o, have)
    committed = power(have)
    need = committed + 1.0
    if q > 0 and t >= 0:
        need = need_for(o, info, q, t, available_power(avail) + committed, all_in)
    score_attackers(o, mask, sc, need, committed)
    if home:
        for src in range(C.NUM_PLACES):
            if source_rank(o, src) > 0:
                for pw in range(4):
                    a = C.A_FROM + pw * C.NUM_SOURCES + src
                    if mask[a]:
                        sc[a] = NEG / 2.0


@kernel
def guards_stay(avail):
    """Drop the Hideout stack's guards (source ranks 1 and 2) from `avail`: the attacks of
    a style that keeps them home."""
    avail[1:, :] = 0.0


@kernel
def pick_off_unguarded(o, info, mask, sc, avail):
    """R3.1: the richest business nobody guards that the gangsters off the own Hideout
    stack can destroy (R3.3), or end."""
    guards_stay(avail)
    target = np.zeros((P, C.NUM_TARGETS))
    for rel in range(1, P):
        for t in range(S):
            if slot_power(o, rel, t) < 0.5 and can_take(o, info, rel, t, avail, False):
                target[rel, t] = o[slot(rel, t) + F_INCOME]
    attack_by(mask, sc, target, 0.0)


# --- reactions --------------------------------------------------------------------------------
@kernel
def play_by(mask, sc, play, in_window):
    """Play the reaction kind with the best positive `play[kind]`; else pass (a window) or
    go on with the step (an own decision point, D10)."""
    for kind in range(6):
        a = C.A_PLAY + kind
        if mask[a]:
            sc[a] = 1e4 + play[kind] if play[kind] > 0.0 else NEG / 2.0
    if in_window:
        sc[C.A_PASS] = 0.0


@kernel
def police_against_me(o):
    """Queue place (0-based) of a standing Police that hurts the observer: a kidnap on its
    business, or a cancel of its own attack (R5.4); -1 if none."""
    mine = my_turn(o) and pending_attack(o)[0] > 0
    for k in range(C.QUEUE_LEN):
        b = O_QUEUE + k * QF
        if o[b + Q_STANDING] < 0.5:
            continue
        kidnap_me = o[b + Q_KIND + C.RQ_KIDNAP - 1] > 0.5 and o[b + Q_TSEAT] > 0.5
        if kidnap_me or (mine and o[b + Q_KIND + C.RQ_CANCEL - 1] > 0.5):
            return k
    return -1


@kernel
def rt_kind(o):
    """The reaction (`PLAY_*`) whose target is being chosen."""
    return one_hot(o, O_RTKIND, 6)


@kernel
def react_targets(o, mask, sc, target, victim):
    """Target phase of the reaction just played: a Police kidnap or a Drive-by on the business
    with the best `target[rel, t]`; a Turncoat on a pending attacker of the observer, else on
    the strongest gangster of `victim` (anyone's if -1, R5.7); a Bribe on the Police that
    hurts the observer (R5.5)."""
    kind = rt_kind(o)
    if kind == C.PLAY_BRIBE:
        k = police_against_me(o)
        if k >= 0 and mask[C.A_BRIBE + k]:
            sc[C.A_BRIBE + k] = 1.0
        return
    for rel in range(1, P):
        weight = 1.0 if victim < 0 or rel == victim else 0.1
        for t in range(C.NUM_TARGETS):
            a = target_action(rel, t)
            if not mask[a]:
                continue
            if kind == C.PLAY_TURNCOAT:
                sc[a] = weight * (1.0 + 0.01 * t)
                if t == C.TGT_ATTACK and attacked_me(o) >= 0:
                    sc[a] = 10.0
            elif t < S:
                sc[a] = target[rel, t]


@kernel(inline="always")
def strongest_power(mask, sc):
    """Power phase of a Turncoat: the strongest gangster the card may take."""
    for pw in range(4):
        if mask[C.A_POWER + pw]:
            sc[C.A_POWER + pw] = 1.0 + pw
