"""Compiled lockstep play of many games of any bound game: the inner loops of the
single-seat engine, the arena and the self-play API, written once for every game. They step
games with the shell's `play_action` and read a game's seats and views through the stand-ins of
`binding.py` (`game_seat_alive`, `game_observe`), so numba compiles them once per game.

Each seat of each lane is built in (the uniform random policy, played here with one random
stream per lane) or external (a policy called from Python, or a learner). `run_*` plays one
action per listed lane (none for -1), then every built-in decision and, unless
`ask_forced`, every decision with one legal action, until an external seat must decide, the
game is over, the seat `watch[i]` (-1: none) is out of the game, or `max_steps` decisions
were taken. A lane that stops at the seat `observer[i]` (status ST_OBSERVER) gets that
seat's observation and mask written into obs[i] and mask[i] in the same pass, while the game
is still in cache.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from ..threads import use_parallel
from .binding import game_observe, game_seat_alive
from .jit import kernel
from .refcount import borrowed
from .sampling import count_legal, nth_legal, random_legal_action
from .shell import play_action, raise_if_failed

ST_EXTERNAL = 0  # a seat played from Python (a policy or the learner) must decide
ST_OVER = 1  # the game is over
ST_TRUNCATED = 2  # max_steps decisions were taken
ST_OUT = 3  # the watched seat is out of the game (eliminated) while the game goes on
ST_IDLE = 4  # no game in the lane
ST_OBSERVER = 5  # the observer's seat must decide (its view is written): the learner's turn


# --- one lane ---------------------------------------------------------------------------------
# `_play`, `_advance` and `_lane` are inlined into the serial loop; the `prange` loop calls
# `_run_one` as a function (inlined there, an early return would make numba run it on one
# thread)
@kernel(inline="always")
def _play(s, i, a, out_at, trace, rew, done, ill):
    """One decision of game i; a seat it puts out of the game gets out_at = the decision
    count, and with a trace, trace[i, k] holds the game's k-th decision."""
    seats = out_at.shape[1]
    alive_before = 0  # a bit per seat: no array allocated per decision
    for q in range(seats):
        if game_seat_alive(s, i, q):
            alive_before |= 1 << q
    if trace.shape[1] > s[i].steps:
        trace[i, s[i].steps] = a
    raise_if_failed(play_action(s, i, a, rew, done, ill))
    for q in range(seats):
        if alive_before & (1 << q) and not game_seat_alive(s, i, q):
            out_at[i, q] = s[i].steps


@kernel(inline="always")
def _advance(s, i, builtin, agent_rng, watch, ask_forced, max_steps, out_at, trace, rew, done,
             ill):  # fmt: skip
    """Play game i's built-in seats (and forced decisions unless ask_forced) until an
    external seat must decide or the lane stops; return the status."""
    while True:
        if s[i].actor < 0:
            return ST_OVER
        if watch[i] >= 0 and not game_seat_alive(s, i, watch[i]):
            return ST_OUT
        if s[i].steps >= max_steps:
            return ST_TRUNCATED
        if builtin[i, s[i].actor]:
            a = random_legal_action(s[i].mask, agent_rng, i)
        elif not ask_forced and count_legal(s[i].mask) == 1:
            a = nth_legal(s[i].mask, 0)
        else:
            return ST_EXTERNAL
        _play(s, i, a, out_at, trace, rew, done, ill)


@kernel(inline="always")
def _lane(s, i, a, builtin, agent_rng, watch, observer, out_at, trace, status, obs, mask,
          rew, done, ill, ask_forced, max_steps):  # fmt: skip
    """Lane i: its action a (none for -1), then `_advance`; writes its status."""
    s, builtin, agent_rng = borrowed(s), borrowed(builtin), borrowed(agent_rng)
    out_at, trace = borrowed(out_at), borrowed(trace)
    rew, done, ill = borrowed(rew), borrowed(done), borrowed(ill)
    if a >= 0:
        _play(s, i, a, out_at, trace, rew, done, ill)
    st = _advance(s, i, builtin, agent_rng, watch, ask_forced, max_steps, out_at, trace, rew,
                  done, ill)  # fmt: skip
    seat = observer[i]
    if st == ST_EXTERNAL and seat >= 0 and s[i].actor == seat:
        st = ST_OBSERVER
        game_observe(s, i, seat, obs[i])
        for k in range(mask.shape[1]):  # a loop: a slice copy compiles numba's error text
            mask[i, k] = s[i].mask[k]
    status[i] = st


@kernel
def _run_one(s, i, a, builtin, agent_rng, watch, observer, out_at, trace, status, obs, mask,
             rew, done, ill, ask_forced, max_steps):  # fmt: skip
    """`_lane` as a function of its own: what the `prange` loop calls."""
    _lane(s, i, a, builtin, agent_rng, watch, observer, out_at, trace, status, obs, mask, rew,
          done, ill, ask_forced, max_steps)  # fmt: skip


# the lanes' arrays go to the compiled loops one by one: numba types plain arrays in C at
# each call, a NamedTuple of them in Python (tens of microseconds a call)
@kernel(parallel=True)
def run_parallel(s, idx, actions, builtin, agent_rng, watch, observer, out_at, trace, status,
                 obs, mask, rew, done, ill, ask_forced, max_steps):  # fmt: skip
    """`_run_one` for the lanes `idx` (actions[j] for lane idx[j]; -1: only advance)."""
    for j in prange(idx.shape[0]):
        _run_one(s, idx[j], actions[j], builtin, agent_rng, watch, observer, out_at, trace,
                 status, obs, mask, rew, done, ill, ask_forced, max_steps)  # fmt: skip


@kernel
def run_serial(s, idx, actions, builtin, agent_rng, watch, observer, out_at, trace, status,
               obs, mask, rew, done, ill, ask_forced, max_steps):  # fmt: skip
    for j in range(idx.shape[0]):
        _lane(s, idx[j], actions[j], builtin, agent_rng, watch, observer, out_at, trace,
              status, obs, mask, rew, done, ill, ask_forced, max_steps)  # fmt: skip


@kernel
def first_illegal(s, idx, actions):
    """Position j of the first action game idx[j] cannot take now (-1 if none); in a
    finished game every action counts as illegal."""
    for j in range(idx.shape[0]):
        i = idx[j]
        a = actions[j]
        if s[i].actor < 0 or not (0 <= a < s[i].mask.shape[0] and s[i].mask[a] != 0):
            return j
    return -1


@kernel(inline="always")
def _observe_lane(s, i, seat, out_row, mask_row):
    s = borrowed(s)
    game_observe(s, i, seat, out_row)
    mine = s[i].actor == seat
    for a in range(mask_row.shape[0]):
        mask_row[a] = s[i].mask[a] if mine else 0


@kernel
def _observe_one(s, i, seat, out_row, mask_row):
    """`_observe_lane` as a function of its own: what the `prange` loop calls."""
    _observe_lane(s, i, seat, out_row, mask_row)


@kernel(parallel=True)
def _observe_parallel(s, idx, seats, out, mask):
    for j in prange(idx.shape[0]):
        _observe_one(s, idx[j], seats[j], out[j], mask[j])


@kernel
def _observe_serial(s, idx, seats, out, mask):
    for j in range(idx.shape[0]):
        _observe_lane(s, idx[j], seats[j], out[j], mask[j])


class Lanes(NamedTuple):
    """Per-lane bookkeeping of the loops (arrays over the N lanes of one state)."""

    builtin: np.ndarray  # bool [N, P]: seats played by the built-in random policy
    agent_rng: np.ndarray  # uint64 [N]: the built-in policy's random stream of each lane
    watch: np.ndarray  # int64 [N]: a seat whose leaving the game stops the lane (-1: none)
    observer: np.ndarray  # int64 [N]: the seat whose view is written when it must act (-1)
    out_at: np.ndarray  # int32 [N, P]: the decision count at which each seat left (-1: in)
    trace: np.ndarray  # int16 [N, T]: every decision of the game (T = 0: not recorded)
    status: np.ndarray  # int8 [N]: where each lane stopped (ST_*)
    obs: np.ndarray  # float32 [N or 0, D]: the observer's observations
    mask: np.ndarray  # int8 [N or 0, A]: the observer's masks
    rewards: np.ndarray  # float32 [N, P]: scratch outputs of play_action
    done: np.ndarray  # bool [N]: scratch
    illegal: np.ndarray  # bool [N]: set where the core ever refused an action (never expected)


def make_lanes(n: int, players: int, obs_size: int = 0, num_actions: int = 0,
               trace: int = 0) -> Lanes:  # fmt: skip
    """Bookkeeping for n lanes of a game with `players` seats; observations and masks of
    the observers are written only where obs_size and num_actions are given."""
    rows = n if obs_size else 0
    return Lanes(
        builtin=np.zeros((n, players), np.bool_),
        agent_rng=np.ones(n, np.uint64),
        watch=np.full(n, -1, np.int64),
        observer=np.full(n, -1, np.int64),
        out_at=np.full((n, players), -1, np.int32),
        trace=np.zeros((n, trace), np.int16),
        status=np.full(n, ST_IDLE, np.int8),
        obs=np.zeros((rows, obs_size), np.float32),
        mask=np.zeros((rows, num_actions), np.int8),
        rewards=np.zeros((n, players), np.float32),
        done=np.zeros(n, np.bool_),
        illegal=np.zeros(n, np.bool_),
    )


def run(kv: np.ndarray, idx: np.ndarray, actions: np.ndarray, lanes: Lanes,
        ask_forced: bool = True, max_steps: int = 2**31 - 1, obs: np.ndarray | None = None,
        mask: np.ndarray | None = None) -> None:  # fmt: skip
    """Play actions[j] in lane idx[j] (none for -1) of the kernel view `kv`, then advance
    each lane (module docstring); `lanes.status` says where each stopped. The observers'
    views go to `obs` and `mask` (default: the lanes' own arrays)."""
    kernel = run_parallel if use_parallel(idx.size) else run_serial
    kernel(kv, idx, actions, lanes.builtin, lanes.agent_rng, lanes.watch, lanes.observer,
           lanes.out_at, lanes.trace, lanes.status, lanes.obs if obs is None else obs,
           lanes.mask if mask is None else mask, lanes.rewards, lanes.done, lanes.illegal,
           bool(ask_forced), int(max_steps))  # fmt: skip


def observe_rows(kv: np.ndarray, idx: np.ndarray, seats: np.ndarray, obs_size: int,
                 num_actions: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(obs float32 [E, obs_size], mask int8 [E, num_actions]): what seat seats[j] of game
    idx[j] sees, and its legal actions (zeros unless that seat must act)."""
    idx = np.ascontiguousarray(idx, np.int64)
    obs = np.empty((idx.size, obs_size), np.float32)
    mask = np.empty((idx.size, num_actions), np.int8)
    kernel = _observe_parallel if use_parallel(idx.size) else _observe_serial
    kernel(kv, idx, np.ascontiguousarray(seats, np.int64), obs, mask)
    return obs, mask
