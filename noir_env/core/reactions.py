"""Reaction cards (R5): when each is playable, their effects, and reaction windows.

A window (R5.2) asks the living players in turn, clockwise from the player after its owner
and ending with the owner; each play reopens the round; it closes when every living player
has passed in a row. Every card played in a window but a Bribe waits in the window's queue
and acts at the close, strictly in the order played (R5.3). Players without a playable
reaction pass without being asked (the step loop takes a decision with a single legal action
by itself). What happens after a window closes belongs to the turn flow
(noir_env/core/turn.py).
"""

import numpy as np

from noir_env.engine.jit import kernel

from ..engine.rng import roll_d6
from . import constants as C
from .board import (
    card_leaves_hand,
    gain_money,
    has_casino,
    in_first_round,
    log_event,
    next_alive,
    num_alive,
    num_gangsters,
)
from .combat import hide_attackers, resolve_driveby

S = C.NUM_SLOTS


# --- who may take which gangster (R5.7) -------------------------------------------------------
@kernel
def may_take_power(s, r, i, x, pw):
    """R5.7(ii): a power-4 gangster needs a Casino of x's own on the table."""
    return pw < 3 or not r.turncoat_casino_for_4 or has_casino(s, i, x)


@kernel
def turncoat_count(s, r, i, q, t, pw):
    """Power-(pw+1) gangsters of q a Turncoat could take at target t: on a business, HIDDEN
    (`turncoat_hidden`), or in the pending attack (`turncoat_attackers`); never on a Hideout
    (R5.7(i))."""
    if t < S:
        return s[i].biz_g[q, t, pw] if s[i].biz[q, t] > 0 else 0
    if t == C.TGT_HIDDEN:
        return s[i].hidden[q, pw] if r.turncoat_hidden else 0
    attack_on = s[i].win_kind == C.WIN_ATTACK and s[i].atk_player >= 0 and s[i].active == q
    if t == C.TGT_ATTACK and r.turncoat_attackers and attack_on:
        return s[i].atk_g[pw]
    return 0


@kernel
def turncoat_can_take(s, r, i, x, q, t, pw):
    return turncoat_count(s, r, i, q, t, pw) > 0 and may_take_power(s, r, i, x, pw)


@kernel
def turncoat_target_ok(s, r, i, x, q, t):
    for pw in range(4):
        if turncoat_can_take(s, r, i, x, q, t, pw):
            return True
    return False


@kernel(inline="always")
def is_opponent(s, i, x, q):
    return q != x and q < s[i].num_players and s[i].alive[q] == 1


@kernel(inline="always")
def any_target(s, r, i, x, kind):
    """True if reaction `kind` (police kidnap, Drive-by, Turncoat) has a target for x.
    (A tight scan: this runs for every player asked in every window.)"""
    for q in range(s[i].num_players):
        if not is_opponent(s, i, x, q):
            continue
        for t in range(S):
            if s[i].biz[q, t] == 0:
                continue
            if kind == C.PLAY_DRIVEBY:
                return True
            g = s[i].biz_g[q, t]
            if kind == C.PLAY_POLICE:
                if g[0] + g[1] + g[2] + g[3] > 0:
                    return True
            elif g[0] + g[1] + g[2] > 0 or (g[3] > 0 and may_take_power(s, r, i, x, 3)):
                return True
        if kind == C.PLAY_TURNCOAT and (
            turncoat_target_ok(s, r, i, x, q, C.TGT_HIDDEN)
            or turncoat_target_ok(s, r, i, x, q, C.TGT_ATTACK)
        ):
            return True
    return False


@kernel(inline="always")
def target_ok(s, r, i, x, kind, q, t):
    """Is (q, t) a legal target of reaction `kind` played by x? (R5.4, R5.6, R5.7)"""
    if kind == C.PLAY_TURNCOAT:
        return turncoat_target_ok(s, r, i, x, q, t)
    if t >= S or s[i].biz[q, t] == 0:
        return False  # Police kidnaps and Drive-bys hit businesses only, never a Hideout
    if kind == C.PLAY_POLICE:
        return num_gangsters(s[i].biz_g[q, t]) > 0
    return True  # Drive-by: any business of another player


@kernel(inline="always")
def playable(s, r, i, x, kind):
    """May x play reaction `kind` now? (R5.1-R5.8)"""
    if s[i].hand[x, C.PLAY_CARD[kind]] == 0:
        return False
    if kind == C.PLAY_POKER:
        return r.poker_first_round or not in_first_round(s, i)
    if kind == C.PLAY_BRIBE:
        return police_queued(s, i)
    if kind == C.PLAY_POLICE_CANCEL:
        return s[i].win_kind == C.WIN_ATTACK and s[i].atk_player >= 0
    return any_target(s, r, i, x, kind)


@kernel(inline="always")
def police_queued(s, i):
    """True if a Police (standing or bribed) waits in the window: a Bribe can answer it."""
    for k in range(s[i].rq_n):
        if is_police(s, i, k):
            return True
    return False


@kernel(inline="always")
def holds_reaction(s, i, x):
    """True if x has any reaction card in hand (a cheap pre-check for windows)."""
    h = s[i].hand[x]
    return h[C.POKER] + h[C.POLICE] + h[C.BRIBE] + h[C.DRIVEBY] + h[C.TURNCOAT] > 0


# --- effects ---------------------------------------------------------------------------------
@kernel(inline="always")
def spend_card(s, r, i, x, card):
    """x plays a card from hand: to the discard pile, or out of the game (R5.8 boxing)."""
    card_leaves_hand(s, i, x, card)
    boxed = card == C.POKER and (r.poker_boxed == 2 or (r.poker_boxed == 1 and s[i].cd_on))
    if boxed:
        s[i].removed[card] += 1
    else:
        s[i].discard[card] += 1


@kernel
def poker_night(s, r, i, host):
    """R5.8: every living player with >= 2 coins stakes 2 (`poker_all_in`: a player with 1
    coin stakes it, D17); the host rolls 2d6 and keeps the higher, the others 1d6; the
    highest roll takes the pot, ties re-roll 1d6 among the tied."""
    n = s[i].num_players
    rolls = np.zeros(C.MAX_PLAYERS, np.int64)
    pot = 0
    min_stake = 1 if r.poker_all_in else 2
    for q in range(n):
        if s[i].alive[q] and s[i].money[q] >= min_stake:
            stake = min(2, int(s[i].money[q]))
            s[i].money[q] -= stake
            pot += stake
            rolls[q] = roll_d6(s, i)
            if q == host:
                rolls[q] = max(rolls[q], roll_d6(s, i))
    winner = -1
    while pot > 0:
        best = rolls.max()
        tied = 0
        for q in range(n):
            if rolls[q] == best:
                tied += 1
                winner = q
        if tied == 1:
            break
        for q in range(n):
            rolls[q] = roll_d6(s, i) if rolls[q] == best else 0
    if winner >= 0:
        gain_money(s, r, i, winner, pot)
    log_event(s, i, C.EV_POKER, host, winner, pot)


@kernel
def turncoat_take(s, r, i, x, q, t, pw):
    """R5.7: x takes one power-(pw+1) gangster of q at target t into x's hand; a Turncoat
    whose gangster is gone by its turn in the queue (dead, kidnapped, taken, or x lost the
    Casino a 4 needs) takes nothing (D15)."""
    if turncoat_count(s, r, i, q, t, pw) == 0 or not may_take_power(s, r, i, x, pw):
        log_event(s, i, C.EV_TURNCOAT_MISS, x, q, t, pw + 1)
        return
    if t < S:
        s[i].biz_g[q, t, pw] -= 1
    elif t == C.TGT_HIDDEN:
        s[i].hidden[q, pw] -= 1
        if q == s[i].active:  # one the owner could place now goes first, a kept one last
            s[i].kept_hidden[pw] = min(s[i].kept_hidden[pw], s[i].hidden[q, pw])
    else:
        s[i].atk_g[pw] -= 1
    s[i].hand[x, C.G1 + pw] += 1
    s[i].known[x, C.G1 + pw] += 1  # everyone saw it go into x's hand (R7.3)
    log_event(s, i, C.EV_TURNCOAT, x, q, t, pw + 1)


@kernel
def is_police(s, i, k):
    return s[i].rq_kind[k] == C.RQ_KIDNAP or s[i].rq_kind[k] == C.RQ_CANCEL


@kernel
def police_position(s, i, n):
    """Queue position of the window's n-th Police (0-based; -1 if there are fewer)."""
    for k in range(s[i].rq_n):
        if is_police(s, i, k):
            if n == 0:
                return k
            n -= 1
    return -1


@kernel
def bribe(s, i, x, n):
    """R5.5: a Bribe answers the window's n-th Police (0-based): each Bribe on it toggles
    whether it stands (a Bribe on a Bribe reinstates it). It acts at once: it is an answer
    to that Police, not a card that waits its turn in the queue."""
    k = police_position(s, i, n)
    s[i].rq_standing[k] = 1 - s[i].rq_standing[k]
    log_event(s, i, C.EV_BRIBE, x, s[i].rq_standing[k], k, s[i].rq_player[k])


@kernel
def queue_reaction(s, i, x, kind, q, t, pw):
    """R5.3: a card played in a window (all but a Bribe) joins the window's queue and acts
    at its close, in the order played. A Drive-by played right after a Drive-by on the same
    business joins it: their number is fixed before the dice are rolled, together (R5.6);
    with another card between them each keeps its own place."""
    k = s[i].rq_n
    last = k - 1
    joins = kind == C.RQ_DRIVEBY and last >= 0 and s[i].rq_kind[last] == C.RQ_DRIVEBY
    if joins and s[i].rq_tp[last] == q and s[i].rq_ts[last] == t:
        s[i].rq_dice[last] += 1
        return
    s[i].rq_kind[k] = kind
    s[i].rq_player[k] = x
    s[i].rq_tp[k] = q
    s[i].rq_ts[k] = t
    s[i].rq_standing[k] = 1 if kind == C.RQ_KIDNAP or kind == C.RQ_CANCEL else 0
    s[i].rq_dice[k] = 1 if kind == C.RQ_DRIVEBY else 0
    s[i].rq_power[k] = pw
    s[i].rq_n = k + 1


# --- windows (R5.2) --------------------------------------------------------------------------
@kernel
def open_window(s, i, kind, owner, ret):
    """Open a reaction window; the first to decide is the living player after `owner`."""
    s[i].win_kind = kind
    s[i].win_owner = owner
    s[i].win_ret = ret
    s[i].win_left = num_alive(s, i)
    s[i].rq_n = 0
    s[i].phase = C.PH_WINDOW
    s[i].actor = next_alive(s, i, owner)


@kernel
def reopen_round(s, i, x):
    """R5.2: a play reopens the round: everyone, x last, must pass again to close."""
    s[i].win_left = num_alive(s, i)
    s[i].phase = C.PH_WINDOW
    s[i].actor = next_alive(s, i, x)


@kernel(inline="always")
def window_pass(s, i):
    """The actor passes. Returns True when that closes the window."""
    s[i].win_left -= 1
    if s[i].win_left <= 0:
        return True
    s[i].actor = next_alive(s, i, s[i].actor)
    return False


@kernel
def kidnap(s, i, x, q, t):
    """R5.4: the gangsters on q's business t go into q's HIDDEN pool. Kidnapped during q's
    own Move Gangsters step (in a response window q opened there), they stay HIDDEN until
    q's next Move Gangsters step (R3.5): they are kept apart from those q may place now."""
    moved = num_gangsters(s[i].biz_g[q, t]) if s[i].biz[q, t] > 0 else 0
    in_own_move = q == s[i].active and s[i].win_kind == C.WIN_RESPONSE
    in_own_move = in_own_move and s[i].win_ret == C.PH_MOVE
    for pw in range(4):
        s[i].hidden[q, pw] += s[i].biz_g[q, t, pw]
        if in_own_move:
            s[i].kept_hidden[pw] += s[i].biz_g[q, t, pw]
        s[i].biz_g[q, t, pw] = 0
    log_event(s, i, C.EV_POLICE, x, q, t, moved)


@kernel(inline="always")
def drive_by(s, r, i, q, t, dice):
    """R5.6: the Drive-bys on one business roll their dice together."""
    damage = 0
    for _ in range(dice):
        damage += roll_d6(s, i)
    if s[i].biz[q, t] > 0:
        resolve_driveby(s, r, i, q, t, damage)


@kernel(inline="always")
def resolve_window(s, r, i):
    """R5.3: at the close the queued cards act strictly in the order they were played: a
    standing Police kidnaps or cancels the attack, Drive-bys roll, a Turncoat takes its
    gangster if it is still there, a Poker Night is held. Returns True if the pending attack
    was cancelled by Police."""
    cancelled = False
    for k in range(s[i].rq_n):
        kind = s[i].rq_kind[k]
        x = s[i].rq_player[k]
        q = s[i].rq_tp[k]
        t = s[i].rq_ts[k]
        if kind == C.RQ_DRIVEBY:
            drive_by(s, r, i, q, t, s[i].rq_dice[k])
        elif kind == C.RQ_TURNCOAT:
            turncoat_take(s, r, i, x, q, t, s[i].rq_power[k])
        elif kind == C.RQ_POKER:
            poker_night(s, r, i, x)
        elif not s[i].rq_standing[k]:
            continue  # bribed: does nothing
        elif kind == C.RQ_KIDNAP:
            kidnap(s, i, x, q, t)
        elif s[i].atk_player >= 0:  # a cancel; a second one finds nothing left to cancel
            cancelled = True
            log_event(s, i, C.EV_CANCELLED, x, s[i].active, q, t)
            hide_attackers(s, i, s[i].active)
    kind = s[i].win_kind
    clear_window(s, i)
    return cancelled and kind == C.WIN_ATTACK


@kernel(inline="always")
def clear_window(s, i):
    """Zero every window field, so a state has one form (exact JSON round trips)."""
    s[i].win_kind = C.WIN_NONE
    s[i].win_owner = 0
    s[i].win_left = 0
    s[i].win_ret = 0
    s[i].rq_n = 0
    s[i].rq_kind[:] = 0
    s[i].rq_player[:] = 0
    s[i].rq_tp[:] = 0
    s[i].rq_ts[:] = 0
    s[i].rq_standing[:] = 0
    s[i].rq_dice[:] = 0
    s[i].rq_power[:] = 0
