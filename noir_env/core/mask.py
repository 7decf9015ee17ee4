"""The legal actions of the player who must act (docs/RULES.md, R8).

`fill_mask` writes game i's mask row and returns how many actions are legal and, when only
one is, which: the step loop then takes that decision by itself (R2.5).
"""

from noir_env.engine.jit import kernel

from ..engine.sampling import count_and_last
from . import constants as C
from .board import (
    capacity_left,
    cards_available,
    fits_somewhere,
    free_slot,
    hand_size,
    has_table_gangster,
    num_gangsters,
    place_counts,
)
from .reactions import is_police, playable, target_ok, turncoat_can_take

S = C.NUM_SLOTS


@kernel
def _set(m, a):
    m[a] = 1


@kernel
def _reactions(s, r, i, x, m):
    # this runs at almost every decision: look at the hand before calling `playable`
    for kind in range(6):
        if s[i].hand[x, C.PLAY_CARD[kind]] > 0 and playable(s, r, i, x, kind):
            _set(m, C.A_PLAY + kind)


@kernel
def _places_fitting(s, i, p, pw, m):
    """A_TO for every own place (slot or Hideout) with room for power pw + 1."""
    for dst in range(C.NUM_PLACES):
        if capacity_left(s, i, p, dst) >= pw + 1:
            _set(m, C.A_TO + dst)


@kernel
def _pick_ups(s, r, i, p, m, attack):
    """A_FROM for gangsters on own places; in Move Gangsters those not yet put down this
    step (R4.2) and HIDDEN ones that fit somewhere, but not those kidnapped in this step
    (R3.5; `unplaced_discard_weakest`: only the strongest of those, so the weakest are the
    ones left over); in an attack only places whose gangsters may attack (R3.1)."""
    last = C.NUM_PLACES if (r.hideout_attackers or not attack) else S
    for src in range(last):
        if src < S and s[i].biz[p, src] == 0:
            continue
        counts = place_counts(s, i, p, src)
        for pw in range(4):
            free = counts[pw] if attack else counts[pw] - s[i].lock[src, pw]
            if free > 0:
                _set(m, C.A_FROM + pw * C.NUM_SOURCES + src)
    if not attack:
        for pw in range(3, -1, -1):
            if _placeable_hidden(s, i, p, pw) > 0 and fits_somewhere(s, i, p, pw + 1):
                _set(m, C.A_FROM + pw * C.NUM_SOURCES + C.PLACE_HIDDEN)
                if r.discard_weakest:
                    return


@kernel
def _placeable_hidden(s, i, p, pw):
    """p's HIDDEN power-(pw+1) gangsters that may return in this Move Gangsters step: all
    but those kidnapped during it (R3.5)."""
    return s[i].hidden[p, pw] - s[i].kept_hidden[pw]


@kernel(inline="always")
def _hidden_must_be_placed(s, i, p):
    for pw in range(4):
        if _placeable_hidden(s, i, p, pw) > 0 and fits_somewhere(s, i, p, pw + 1):
            return True
    return False


@kernel(inline="always")
def _can_attack(s, r, i, p):
    """R3.1: p has a gangster that may attack (on a business; on the Hideout too unless the
    rules keep Hideout gangsters home)."""
    if r.hideout_attackers:
        return has_table_gangster(s, i, p)
    for t in range(S):
        if s[i].biz[p, t] > 0 and num_gangsters(s[i].biz_g[p, t]) > 0:
            return True
    return False


@kernel(inline="always")
def _attack_targets(s, r, i, p, m):
    """R3.1: each living opponent's businesses and Hideout not yet attacked this turn; a
    Hideout under a business that was attacked this turn is out of reach too (D7: the
    breach rules mark both at once; raze-first rules would fight that business again)."""
    if not _can_attack(s, r, i, p):
        return
    n = s[i].num_players
    for rel in range(1, n):
        q = (p + rel) % n
        if not s[i].alive[q]:
            continue
        base = C.A_TARGET + (rel - 1) * C.NUM_TARGETS
        for t in range(S):
            if s[i].biz[q, t] > 0 and not s[i].attacked[q, t]:
                _set(m, base + t)
        top = s[i].ho_top[q]
        behind_attacked = top >= 0 and s[i].attacked[q, top]
        if not s[i].attacked[q, C.PLACE_HIDEOUT] and not behind_attacked:
            _set(m, base + C.TGT_HIDEOUT)


@kernel(inline="always")
def _deployable(s, i, p, m):
    """R4.5: cards whose cost (number - 1) p can pay; a gangster needs a place with room."""
    money = s[i].money[p]
    for t in range(C.G1, C.B4 + 1):
        if s[i].hand[p, t] == 0:
            continue
        if t <= C.G4:
            ok = money >= t and fits_somewhere(s, i, p, t + 1)
        else:
            ok = money >= t - C.B1 and free_slot(s, i, p) >= 0
        if ok:
            _set(m, C.A_DEPLOY + t)


@kernel(inline="always")
def _draws(s, i, p, m):
    """R4.8: n cards for n - 1 coins, never above 6 in hand, at most what can be drawn."""
    room = C.HAND_SIZE - hand_size(s, i, p)
    avail = cards_available(s, i)
    for n in range(1, C.HAND_SIZE + 1):
        if n <= room and n - 1 <= s[i].money[p] and n <= avail:
            _set(m, C.A_DRAW + n - 1)


@kernel(inline="always")
def _reaction_targets(s, r, i, x, m):
    kind = s[i].rt_kind
    if kind == C.PLAY_BRIBE:  # R5.5: any Police of the window's queue, by its order
        n = 0
        for k in range(s[i].rq_n):
            if is_police(s, i, k):
                _set(m, C.A_BRIBE + n)
                n += 1
        return
    n = s[i].num_players
    for rel in range(1, n):
        q = (x + rel) % n
        if not s[i].alive[q]:
            continue
        base = C.A_TARGET + (rel - 1) * C.NUM_TARGETS
        for t in range(C.NUM_TARGETS):
            if t < S and s[i].biz[q, t] == 0:
                continue  # an empty slot is no target of any reaction (fewer calls)
            if target_ok(s, r, i, x, kind, q, t):
                _set(m, base + t)


@kernel
def fill_mask(s, r, i):
    """Write the legal actions of game i's actor into s[i].mask; return (count, last id)."""
    m = s[i].mask
    m[:] = 0
    ph = s[i].phase
    x = s[i].actor
    if ph == C.PH_GAME_OVER:
        return 0, -1
    if ph == C.PH_WINDOW:
        _reactions(s, r, i, x, m)
        _set(m, C.A_PASS)
        return count_and_last(m)
    if ph == C.PH_REACT_TARGET:
        _reaction_targets(s, r, i, x, m)
        return count_and_last(m)
    if ph == C.PH_TURNCOAT_POWER:
        for pw in range(4):
            if turncoat_can_take(s, r, i, x, s[i].sel_a, s[i].sel_b, pw):
                _set(m, C.A_POWER + pw)
        return count_and_last(m)
    if ph == C.PH_MULLIGAN:
        if s[i].count < r.mulligan_max:
            for t in range(C.NUM_CARD_TYPES):
                if s[i].hand[x, t] > 0:
                    _set(m, C.A_DISCARD + t)
        _set(m, C.A_END)
        return count_and_last(m)
    # the active player's own steps; mid-selection phases take no reactions
    if ph == C.PH_MOVE_TO:
        _places_fitting(s, i, x, s[i].sel_a, m)
        if s[i].sel_b != C.PLACE_HIDDEN:
            _set(m, C.A_TO + C.PLACE_ASIDE)
        elif r.away_discard:  # R4.2: an AWAY gangster may be discarded instead of placed
            _set(m, C.A_DISCARD_AWAY)
        return count_and_last(m)
    if ph == C.PH_DEPLOY_TO:
        _places_fitting(s, i, x, s[i].sel_a, m)
        return count_and_last(m)
    if ph == C.PH_CONTINUE:  # R3.7: on into the Hideout, or stop
        _set(m, C.A_CONTINUE)
        _set(m, C.A_END)
        return count_and_last(m)
    if ph == C.PH_ATTACKERS:
        _pick_ups(s, r, i, x, m, True)
        if num_gangsters(s[i].atk_g) > 0:
            _set(m, C.A_CONFIRM)
        return count_and_last(m)
    if ph == C.PH_MOVE:
        _pick_ups(s, r, i, x, m, False)
        if not _hidden_must_be_placed(s, i, x):
            _set(m, C.A_END)
    elif ph == C.PH_ATTACK:
        _attack_targets(s, r, i, x, m)
        _set(m, C.A_END)
    elif ph == C.PH_DEPLOY:
        _deployable(s, i, x, m)
        _set(m, C.A_END)
    elif ph == C.PH_MOVE_HIDEOUT:
        top = s[i].ho_top[x]
        for t in range(S):
            if s[i].biz[x, t] > 0 and t != top:
                _set(m, C.A_HIDE_UNDER + t)
        if top >= 0:
            _set(m, C.A_HIDE_OPEN)
        _set(m, C.A_END)
    elif ph == C.PH_DISCARD:
        if s[i].count < r.discard_limit:
            for t in range(C.NUM_CARD_TYPES):
                if s[i].hand[x, t] > 0:
                    _set(m, C.A_DISCARD + t)
        if not (r.forced_discard and hand_size(s, i, x) > C.HAND_SIZE):
            _set(m, C.A_END)
    elif ph == C.PH_DRAW:
        _draws(s, i, x, m)
        _set(m, C.A_END)
    _reactions(s, r, i, x, m)  # R5.2(c): reactions at one's own decision points
    return count_and_last(m)
