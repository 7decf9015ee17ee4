"""The end of the game: wins (R6.1, R6.2), countdown tokens (R6.3) and the final score (R6.4)."""

import numpy as np

from noir_env.engine.jit import kernel

from . import constants as C
from .board import log_event, power_of

S = C.NUM_SLOTS


@kernel
def end_game(s, i, reason):
    """Mark the game over; `s[i].winners` must already be set."""
    s[i].phase = C.PH_GAME_OVER
    s[i].actor = -1
    s[i].win_reason = reason
    bits = 0
    for q in range(C.MAX_PLAYERS):
        if s[i].winners[q]:
            bits |= 1 << q
    log_event(s, i, C.EV_GAME_OVER, reason, bits)


@kernel
def win_alone(s, i, p, reason):
    """p wins outright (R6.1 war, last player standing, R6.2 money)."""
    for q in range(C.MAX_PLAYERS):
        s[i].winners[q] = 0
    s[i].winners[p] = 1
    end_game(s, i, reason)


@kernel(inline="always")
def table_value(s, i, p):
    """Printed value of p's cards on the table, hidden gangsters included (R6.4)."""
    v = power_of(s[i].ho_g[p]) + power_of(s[i].hidden[p])
    for t in range(S):
        if s[i].biz[p, t] > 0:
            v += s[i].biz[p, t] + power_of(s[i].biz_g[p, t])
    return v


@kernel(inline="always")
def business_value(s, i, p):
    v = 0
    for t in range(S):
        v += s[i].biz[p, t]
    return v


@kernel
def score(s, r, i, p):
    """R6.4: trophy points + table value + money."""
    return np.int32(s[i].trophies[p]) * r.trophy_points + table_value(s, i, p) + s[i].money[p]


@kernel
def rank_key(s, r, i, p):
    """Sort key of R6.4: score, then business value, then money (each below 10**6 / 10**3)."""
    return (
        np.int64(score(s, r, i, p)) * 1_000_000
        + np.int64(business_value(s, i, p)) * 1_000
        + np.int64(s[i].money[p])
    )


@kernel(inline="always")
def finish_by_score(s, r, i):
    """R6.4: highest score wins; ties broken by business value, then money, then shared."""
    best = np.int64(-1)
    for q in range(s[i].num_players):
        if s[i].alive[q]:
            best = max(best, rank_key(s, r, i, q))
    for q in range(C.MAX_PLAYERS):
        s[i].winners[q] = 0
        if q < s[i].num_players and s[i].alive[q] and rank_key(s, r, i, q) == best:
            s[i].winners[q] = 1
    end_game(s, i, C.WIN_SCORE)


@kernel(inline="always")
def end_of_turn_checks(s, r, i):
    """R6.2 money win, then R6.3 the countdown token. Returns True if the game ended."""
    p = s[i].active
    if r.money_win and s[i].money[p] >= r.money_thr[s[i].num_players - 3]:
        win_alone(s, i, p, C.WIN_MONEY)
        return True
    if s[i].cd_on and s[i].cd_holder == p and (not r.cd_next_turn or s[i].turn_no > s[i].cd_turn):
        s[i].cd_tokens -= 1
        log_event(s, i, C.EV_TOKEN, p, s[i].cd_tokens)
        if s[i].cd_tokens == 0:
            finish_by_score(s, r, i)
            return True
    return False
