"""The heuristic agent's decisions, one numba kernel per phase (agents/heuristic/v2/agent.py
documents the strategy).

`decide(o, mask, w, u)` gives every legal action of one observation row a score and returns
the best one: illegal actions are never scored, so the answer is always legal, and a legal
action the strategy has no use for keeps a floor score, taken only when nothing else is
legal. Reactions are scored in `heuristic.v1.reactions`. `act_rows` runs `decide` over a batch
in parallel.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.heuristic.v1.attack import (
    W_ARMS,
    W_ATTACK_MIN,
    W_DRAW_KEEP,
    W_ECON,
    W_HOARD,
    W_MARGIN,
    W_NOISE,
    attacker_score,
    available,
    best_plan_value,
    danger,
    source_rank,
    target_need,
)
from agents.heuristic.v1.reactions import reaction_target, reactions, turncoat_power
from agents.heuristic.view import (
    F_COVERS,
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_FREE,
    I_GH,
    I_INCOME,
    I_MONEY,
    I_NBIZ,
    I_THREAT,
    I_TOP,
    R_HO_ATTACKERS,
    SEAT_INFO,
    P,
    S,
    attackers,
    holding_money_win,
    max_threat,
    money_threshold,
    one_hot,
    pending_attack,
    phase_of,
    poker_value,
    rule,
    slot,
    slot_power,
    summarize,
    target_action,
)
from agents.obs_layout import (
    GLOBAL_SIZE,
    O_CD_LEFT,
    O_CD_ON,
    O_COUNT,
    O_FIRST,
    O_HAND,
    O_SELPOW,
)
from noir_env.core import constants as C
from noir_env.engine.jit import kernel
from noir_env.engine.refcount import borrowed

NEG = -1e18  # the score of an illegal action
FALLBACK = -1e6  # a legal action the strategy has no use for

# how much a card in hand is worth keeping, by type (gangsters and businesses are adjusted
# to the table in `card_value`)
CARD_KEEP = np.array([2.0, 2.4, 2.6, 2.6, 3.4, 3.8, 4.2, 4.6, 2.0, 3.4, 1.6, 2.8, 3.2])


# --- small helpers ---------------------------------------------------------------------------
@kernel
def turns_left(o):
    """Own turns still to come, roughly: many before the countdown, then its tokens (R6.3)."""
    if o[O_CD_ON] < 0.5:
        return 8.0
    return o[O_CD_LEFT]


@kernel
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
@kernel
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


@kernel
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


@kernel
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


@kernel
def deploy(o, info, mask, sc, w):
    """R4.5: businesses first for the economy (the first covers the Hideout), gangsters to
    keep the Hideout stack above the strongest threat; nothing that costs the money win."""
    money = info[0, I_MONEY]
    thr = money_threshold(o)
    sc[C.A_END] = 0.0
    if holding_money_win(o, info):
        return  # spend nothing (R6.2)
    threat = max_threat(info, -1)
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


@kernel(inline="always")
def _breach_use(info, p):
    """1 when one more point of attack power brings a rich opponent's Hideout within reach
    (each point above its defense is a coin of breach payment, R3.6), else 0."""
    for rel in range(1, P):
        rich = info[rel, I_ALIVE] > 0.5 and info[rel, I_MONEY] >= 6.0
        if rich and info[0, I_THREAT] + p >= info[rel, I_DEF] - 2.0:
            return 1.0
    return 0.0


@kernel
def place(o, info, mask, sc, w):
    """Where a gangster goes (deploy_to, move_gangsters_to): the Hideout stack while it is
    under threat, else the business that most needs defending."""
    pw = one_hot(o, O_SELPOW, 4)
    p = pw + 1.0
    threat = max_threat(info, -1)
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


@kernel
def move_gangsters(o, mask, sc):
    """R4.2: bring HIDDEN gangsters back, strongest first; leave the table as it is."""
    sc[C.A_END] = 0.0
    for pw in range(4):
        a = C.A_FROM + pw * C.NUM_SOURCES + C.PLACE_HIDDEN
        if mask[a]:
            sc[a] = 1.0 + pw


@kernel
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


@kernel
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


@kernel
def add_attackers(o, info, mask, sc, avail):
    """Phase attackers: add the next gangster of the plan, or confirm once it is complete."""
    q, t = pending_attack(o)
    have = np.zeros(4)
    attackers(o, have)
    committed = have[0] + 2.0 * have[1] + 3.0 * have[2] + 4.0 * have[3]
    need = target_need(o, info, q, t) if q > 0 and t >= 0 else committed + 1.0
    score_attackers(o, mask, sc, need, committed)


@kernel
def score_attackers(o, mask, sc, need, committed):
    """Confirm once `committed` power reaches `need`, else add the gangster the greedy plan
    takes next (`attacker_score`)."""
    if mask[C.A_CONFIRM]:
        sc[C.A_CONFIRM] = 1e3 if committed >= need else -1e3
    for src in range(C.NUM_PLACES):
        rank = source_rank(o, src)
        for pw in range(4):
            a = C.A_FROM + pw * C.NUM_SOURCES + src
            if mask[a]:
                sc[a] = attacker_score(rank, pw, need - committed)


@kernel
def continue_attack(o, info, mask, sc):
    """R3.7: go on into the Hideout only if the survivors breach it."""
    q, _ = pending_attack(o)
    have = np.zeros(4)
    attackers(o, have)
    a = have[0] + 2.0 * have[1] + 3.0 * have[2] + 4.0 * have[3]
    sc[C.A_END] = 0.0
    if mask[C.A_CONTINUE] and q > 0:
        sc[C.A_CONTINUE] = 1.0 if a >= C.HIDEOUT_DEFENSE + info[q, I_GH] else -1.0


# --- one decision ----------------------------------------------------------------------------
@kernel
def read_table(o, mask):
    """What a rule agent reads before it decides: (scores with the floor on the legal actions
    and NEG elsewhere, the only legal action or -1, the seat summaries `info[rel, I_*]`, the
    gangsters that may attack `avail[rank, pw]`, the phase)."""
    sc = np.full(mask.shape[0], NEG)
    only = floor_scores(mask, sc)
    info = np.zeros((P, SEAT_INFO))
    avail = np.zeros((3, 4))
    if only < 0:  # a forced decision needs no reading
        summarize(o, info)
        available(o, avail)
    return sc, only, info, avail, phase_of(o)


@kernel
def decide(o, mask, w, u):
    """The heuristic's action for one observation row and its legal-action mask; u in
    [0, 1) seeds the tie-break noise."""
    o, mask, w = borrowed(o), borrowed(mask), borrowed(w)
    sc, only, info, avail, ph = read_table(o, mask)
    if only >= 0:
        return only
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


@kernel(inline="always")
def floor_scores(mask, sc):
    """Give every legal action the floor score (sc holds NEG elsewhere); returns the legal
    action if it is the only one, else -1."""
    count, only = 0, -1
    for a in range(mask.shape[0]):
        if mask[a]:
            sc[a] = FALLBACK
            count += 1
            only = a
    return only if count <= 1 else -1


@kernel
def _idle(ph):
    """The active player's idle decision points, where reactions may be played (D10)."""
    return (
        ph == C.PH_MOVE
        or ph == C.PH_ATTACK
        or ph == C.PH_DEPLOY
        or (ph == C.PH_MOVE_HIDEOUT or ph == C.PH_DISCARD or ph == C.PH_DRAW)
    )


@kernel(inline="always")
def _idle_reactions(o, info, mask, sc, w):
    """At an idle point a reaction worth playing goes before the step's own choice; one
    that is not stays out of the way of every step action."""
    reactions(o, info, mask, sc, w, False)
    promote_plays(mask, sc)


@kernel
def promote_plays(mask, sc):
    """At an own idle point a reaction worth playing (score > 0) goes before the step's own
    choice; one that is not stays below every step action."""
    for kind in range(6):
        a = C.A_PLAY + kind
        if mask[a]:
            sc[a] = 1e4 + sc[a] if sc[a] > 0.0 else FALLBACK + 1.0


@kernel
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


@kernel
def tie_break(o, salt):
    """A uniform in [0, 1) from the row's public turn fields and the agent's salt: the
    same observation gets the same tie-breaks, whatever batch it sits in."""
    digest = 0.0
    for j in range(GLOBAL_SIZE // 7):
        digest += o[7 * j] * (j + 1.0)
    x = digest * 0.6180339887498949 + salt
    return x - np.floor(x)


@kernel(parallel=True)
def act_rows(obs, mask, w, salt, out):
    """out[i] = the heuristic's action for obs[i], mask[i], in parallel over rows."""
    for i in prange(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


@kernel
def act_rows_serial(obs, mask, w, salt, out):
    for i in range(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))
