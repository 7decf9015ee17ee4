"""Compiled lockstep play of many District Noir games: the inner loop shared by the
single-seat vector environments (`noir_env.vector.district_engine`) and the tournament arena
(`noir_env.vector.district_arena`).

Each seat of each game is either built in (the uniform random policy, played here with one
random stream per game) or external (a policy called from Python). `run_*` plays one action
per listed game (none for -1) and then every built-in decision until an external seat must
decide or the game is over: one prange over games, no Python per game. The caller batches
the external decisions and calls `run_*` again. A learner seat is an external seat.
"""

from __future__ import annotations

from numba import njit, prange

from ..core.rollout import random_legal_action
from . import constants as C
from .api import is_legal, step_one
from .observe import write_observation

ST_EXTERNAL = 0  # a seat played from Python (a policy or the learner) must decide
ST_OVER = 1  # the game is over
ST_IDLE = 2  # no game in the slot (the arena's empty lanes)


@njit(cache=True)
def _advance(s, i, builtin, agent_rng, rew, done, ill):
    """Play game i's built-in random seats until an external seat must act or the game
    ends; return that status."""
    while s[i].phase != C.PH_GAME_OVER:
        if not builtin[i, s[i].actor]:
            return ST_EXTERNAL
        step_one(s, i, random_legal_action(s[i].mask, agent_rng, i), rew, done, ill)
    return ST_OVER


@njit(cache=True)
def _run_one(s, i, a, builtin, agent_rng, status, rew, done, ill):
    if a >= 0:
        step_one(s, i, a, rew, done, ill)
    status[i] = _advance(s, i, builtin, agent_rng, rew, done, ill)


@njit(cache=True, parallel=True)
def run_parallel(s, idx, actions, builtin, agent_rng, status, rew, done, ill):
    """Play actions[j] in game idx[j] (none if -1), then advance it (`_advance`); status[i]
    says where game i stopped. rew / done / ill are `step_one`'s per-game outputs."""
    for j in prange(idx.shape[0]):
        _run_one(s, idx[j], actions[j], builtin, agent_rng, status, rew, done, ill)


@njit(cache=True)
def run_serial(s, idx, actions, builtin, agent_rng, status, rew, done, ill):
    for j in range(idx.shape[0]):
        _run_one(s, idx[j], actions[j], builtin, agent_rng, status, rew, done, ill)


@njit(cache=True)
def first_illegal(s, idx, actions):
    """Position j of the first action that game idx[j] cannot take now (-1 if none); in a
    finished game every action counts as illegal."""
    for j in range(idx.shape[0]):
        i = idx[j]
        if s[i].phase == C.PH_GAME_OVER or not is_legal(s, i, actions[j]):
            return j
    return -1


@njit(cache=True)
def _observe_one(s, i, seat, out_row, mask_row):
    write_observation(s, i, seat, out_row)
    for a in range(C.NUM_ACTIONS):
        mask_row[a] = s[i].mask[a] if s[i].actor == seat else 0


@njit(cache=True, parallel=True)
def observe_rows(s, idx, seats, out, mask):
    """out[j] = what seat seats[j] of game idx[j] sees, mask[j] its legal actions (zeros
    unless that seat must act)."""
    for j in prange(idx.shape[0]):
        _observe_one(s, idx[j], seats[j], out[j], mask[j])


@njit(cache=True)
def observe_rows_serial(s, idx, seats, out, mask):
    for j in range(idx.shape[0]):
        _observe_one(s, idx[j], seats[j], out[j], mask[j])
