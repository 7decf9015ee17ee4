"""Compiled inner loops of the single-seat engine: play a learner's action, then every
opponent decision taken by the built-in uniform random policy, until the learner must decide
again, and write its observation and mask in the same pass over the game (its state is
still in cache). One prange over games; no Python per game.

Statuses say where a game stopped (`advance`): the learner must act, an opponent played by
a Python policy must act (the engine batches those and calls the policy), or the learner's
episode is over (game over, learner eliminated, truncated after `max_steps` decisions).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core import constants as C
from ..core.api import is_legal, step_one, write_outcome
from ..core.observe import write_observation
from ..core.refcount import borrowed
from ..core.rollout import random_legal_action

ST_LEARNER = 0  # the learner must decide
ST_EXTERNAL = 1  # an opponent played by a Python policy must decide
ST_OVER = 2  # the game is over
ST_ELIMINATED = 3  # the learner was eliminated (its episode ends, the game may go on)
ST_TRUNCATED = 4  # max_steps decisions were taken
ST_OPPONENT = 5  # (internal) a built-in random opponent must decide
STATUS_NAMES = ("learner", "external", "game_over", "eliminated", "truncated")


@njit(cache=True)
def status_of(s, i, learner, max_steps):
    """Where game i stands for the learner; the order follows noir_v1's `_end_episodes`
    (game over first, then elimination, then truncation)."""
    if s[i].phase == C.PH_GAME_OVER:
        return ST_OVER
    if s[i].alive[learner] == 0:
        return ST_ELIMINATED
    if s[i].steps >= max_steps:
        return ST_TRUNCATED
    if s[i].actor == learner:
        return ST_LEARNER
    return ST_OPPONENT


@njit(cache=True)
def play(s, i, a, alive_prev, trace, rew, done, ill):
    """One decision of game i; `alive_prev[i]` keeps who was alive before it (players
    eliminated before the game's last step were paid then, see `seat_outcome`) and, when
    recording, trace[i, k] the game's k-th decision."""
    for q in range(C.MAX_PLAYERS):
        alive_prev[i, q] = s[i].alive[q]
    if trace.shape[1] > s[i].steps:
        trace[i, s[i].steps] = a
    step_one(s, i, a, rew, done, ill)


@njit(cache=True)
def advance(s, i, learner, builtin, opp_rng, alive_prev, trace, max_steps, rew, done, ill):
    """Play game i's built-in random opponents until the learner must act, an external
    opponent must act, or the learner's episode is over; return that status."""
    while True:
        st = status_of(s, i, learner[i], max_steps)
        if st != ST_OPPONENT:
            return st
        if not builtin[i, s[i].actor]:
            return ST_EXTERNAL
        a = random_legal_action(s[i].mask, opp_rng, i)
        play(s, i, a, alive_prev, trace, rew, done, ill)


@njit(cache=True)
def _run_one(s, i, a, learner, builtin, opp_rng, alive_prev, trace, max_steps, status, obs,
             mask, tmp):  # fmt: skip
    """Play action `a` in game i (none if a < 0), advance it, write the learner's view."""
    s, learner, builtin = borrowed(s), borrowed(learner), borrowed(builtin)
    opp_rng, alive_prev, trace = borrowed(opp_rng), borrowed(alive_prev), borrowed(trace)
    rew, done, ill = borrowed(tmp[0]), borrowed(tmp[1]), borrowed(tmp[2])
    if a >= 0:
        play(s, i, a, alive_prev, trace, rew, done, ill)
    st = advance(s, i, learner, builtin, opp_rng, alive_prev, trace, max_steps, rew, done, ill)
    status[i] = st
    if st == ST_LEARNER:
        write_observation(s, i, learner[i], obs[i])
        mask[i, :] = s[i].mask


@njit(cache=True, parallel=True)
def run_parallel(s, idx, actions, learner, builtin, opp_rng, alive_prev, trace, max_steps,
                 status, obs, mask, tmp):  # fmt: skip
    """`_run_one` for the games `idx` (actions[j] for game idx[j]; -1: only advance)."""
    for j in prange(idx.shape[0]):
        _run_one(s, idx[j], actions[j], learner, builtin, opp_rng, alive_prev, trace,
                 max_steps, status, obs, mask, tmp)  # fmt: skip


@njit(cache=True)
def run_serial(s, idx, actions, learner, builtin, opp_rng, alive_prev, trace, max_steps,
               status, obs, mask, tmp):  # fmt: skip
    for j in range(idx.shape[0]):
        _run_one(s, idx[j], actions[j], learner, builtin, opp_rng, alive_prev, trace,
                 max_steps, status, obs, mask, tmp)  # fmt: skip


@njit(cache=True)
def first_illegal(s, idx, actions):
    """Position j of the first illegal actions[j] for game idx[j] (-1 if all are legal)."""
    for j in range(idx.shape[0]):
        i = idx[j]
        if s[i].phase == C.PH_GAME_OVER or not is_legal(s, i, actions[j]):
            return j
    return -1


@njit(cache=True)
def _observe_one(s, i, seat, out_row, mask_row):
    write_observation(s, i, seat, out_row)
    mask_row[:] = s[i].mask


@njit(cache=True, parallel=True)
def observe_rows(s, idx, seats, out, mask):
    """out[j], mask[j] = the view of seat seats[j] of game idx[j] and its actor's mask."""
    for j in prange(idx.shape[0]):
        _observe_one(s, idx[j], seats[j], out[j], mask[j])


@njit(cache=True)
def observe_rows_serial(s, idx, seats, out, mask):
    for j in range(idx.shape[0]):
        _observe_one(s, idx[j], seats[j], out[j], mask[j])


@njit(cache=True)
def seat_outcome(s, i, seat, alive_prev, truncated):
    """noir_v1's zero-sum reward of `seat` when game i ends (game over or truncation) and
    the seat was still in it: the core's outcome (0 on truncation) plus an equal share of
    what the players eliminated earlier were paid above their outcome, so that every
    episode sums to zero (noir_v1's Rewards table)."""
    n = s[i].num_players
    lose = -1.0 / (n - 1)
    outcome = np.zeros(C.MAX_PLAYERS, np.float32)
    if not truncated:
        write_outcome(s, i, outcome)
    diff = 0.0
    early = 0
    for q in range(n):
        out_before = alive_prev[i, q] == 0 if not truncated else s[i].alive[q] == 0
        if out_before:
            diff += outcome[q] - lose
            early += 1
    return outcome[seat] + diff / (n - early)


@njit(cache=True)
def episode_rewards(s, idx, learner, alive_prev, status, out):
    """out[j] = the learner's reward at the end of its episode in game idx[j]."""
    for j in range(idx.shape[0]):
        i = idx[j]
        st = status[i]
        if st == ST_ELIMINATED:
            out[j] = -1.0 / (s[i].num_players - 1)
        else:
            out[j] = seat_outcome(s, i, learner[i], alive_prev, st == ST_TRUNCATED)
