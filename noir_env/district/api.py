"""The public batched API of District Noir: thin loops over games calling the kernels.

    state = init(num_games, seeds=0)
    mask = legal_action_mask(state)                 # bool [N, 14], for current_player(state)
    rewards, done, illegal = step(state, actions)   # mutates `state` in place
    obs = observe(state)                            # float32 [N, OBS_SIZE], seat of the actor

The same promises as NOIR's core (`noir_env.core.api`): game i depends on its seed and its
actions only, never on N; `step` changes the state in place (use `clone` to keep a copy);
a finished game ignores its action and reports done=True; a decision with a single legal
action is taken by the core itself (DN5.1), so every decision a caller sees has at least
two choices.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core import args as A
from ..core.api import PARALLEL_MIN
from ..core.rng import seed_to_state
from . import constants as C
from .mask import fill_mask
from .observe import OBS_SIZE, observe_batch
from .score import points
from .state import State, allocate, batch_size, kernel_view
from .turn import apply_action, init_game


@njit(cache=True)
def settle(s, i):
    """Take forced decisions (a single legal action) until a real choice or the end (DN5.1),
    leaving the actor's legal actions in s[i].mask."""
    for _ in range(4 * C.NUM_ROUNDS * C.ACTIONS_PER_ROUND):  # more than any game's actions
        count, last = fill_mask(s, i)
        if count != 1:
            if count == 0 and s[i].phase != C.PH_GAME_OVER:
                raise RuntimeError("District Noir core: a decision with no legal action")
            return
        apply_action(s, i, last)
    raise RuntimeError("District Noir core: forced decisions did not stop")


@njit(cache=True)
def write_outcome(s, i, out):
    """Zero-sum rewards: +1 to the winner, -1 to the loser, 0 each in a draw (DN5.2)."""
    w = s[i].winner
    for q in range(C.NUM_PLAYERS):
        out[q] = 0.0 if w < 0 else (1.0 if q == w else -1.0)


@njit(cache=True)
def is_legal(s, i, a):
    return s[i].phase == C.PH_GAME_OVER or (0 <= a < C.NUM_ACTIONS and s[i].mask[a] != 0)


@njit(cache=True)
def step_one(s, i, a, rewards, done, illegal):
    """One action in game i: the kernel behind `step`, the AEC env and the playouts."""
    if s[i].phase == C.PH_GAME_OVER:
        done[i] = True
        return
    if not is_legal(s, i, a):
        illegal[i] = True
        return
    apply_action(s, i, a)
    s[i].steps += 1
    settle(s, i)
    if s[i].phase == C.PH_GAME_OVER:
        done[i] = True
        write_outcome(s, i, rewards[i])


@njit(cache=True)
def first_illegal(s, actions):
    """Index of the first game whose action is illegal (-1 if none)."""
    for i in range(actions.shape[0]):
        if not is_legal(s, i, actions[i]):
            return i
    return -1


@njit(cache=True)
def _step_serial(s, actions, rewards, done, illegal, strict):
    if strict:
        bad = first_illegal(s, actions)
        if bad >= 0:
            return bad
    for i in range(actions.shape[0]):
        step_one(s, i, actions[i], rewards, done, illegal)
    return -1


@njit(cache=True, parallel=True)
def _step_parallel(s, actions, rewards, done, illegal, strict):
    if strict:
        bad = first_illegal(s, actions)
        if bad >= 0:
            return bad
    for i in prange(actions.shape[0]):
        step_one(s, i, actions[i], rewards, done, illegal)
    return -1


@njit(cache=True)
def init_one(s, i):
    init_game(s, i)
    settle(s, i)


@njit(cache=True)
def _init_serial(s):
    for i in range(s.shape[0]):
        init_one(s, i)


@njit(cache=True, parallel=True)
def _init_parallel(s):
    for i in prange(s.shape[0]):
        init_one(s, i)


@njit(cache=True)
def _scores(s, out):
    for i in range(s.shape[0]):
        for q in range(C.NUM_PLAYERS):
            out[i, q] = points(s, i, q)


@njit(cache=True)
def _mask_batch(s):
    for i in range(s.shape[0]):
        fill_mask(s, i)


def init(num_games: int, seeds: int | np.ndarray | None = 0) -> State:
    """Deal `num_games` new games (DN2).

    seeds: an int s gives game i the seed s + i; an array gives each game its own seed;
    every seed an integer that fits int64 (checked as NOIR's `init` checks them).
    """
    n = A.num_games(num_games)
    seed_arr = A.seeds(seeds, n)
    s = allocate(n)
    s.rng[:] = [seed_to_state(x) for x in seed_arr.tolist()]
    (_init_parallel if n >= PARALLEL_MIN else _init_serial)(kernel_view(s))
    return s


def legal_action_mask(state: State) -> np.ndarray:
    """bool [N, NUM_ACTIONS]: the legal actions of each game's current player (a read-only
    view; all False in a finished game)."""
    m = kernel_view(state)["mask"].view(np.bool_)
    m.flags.writeable = False
    return m


def current_player(state: State) -> np.ndarray:
    """int8 [N]: the seat that must act in each game (-1 once the game is over)."""
    return kernel_view(state)["actor"].copy()


def step(
    state: State, actions: np.ndarray, strict: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Apply one action per game, in place. Returns (rewards float32 [N, 2], done bool [N],
    illegal bool [N]). Rewards are non-zero only on the step a game ends.

    strict=True raises ValueError before changing anything if any action is illegal (its
    name, the phase and the legal actions are named). strict=False leaves those games
    unchanged and flags them in `illegal`. Finished games ignore their action.
    """
    kv = kernel_view(state)
    n = kv.shape[0]
    acts = np.asarray(actions)
    if acts.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), got {acts.shape}")
    if acts.dtype != np.int64:
        if not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be integers, got dtype {acts.dtype}")
        acts = acts.astype(np.int64)
    rewards = np.zeros((n, C.NUM_PLAYERS), np.float32)
    done = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    kernel = _step_parallel if n >= PARALLEL_MIN else _step_serial
    bad = kernel(kv, acts, rewards, done, illegal, strict)
    if bad >= 0:
        from .spaces import describe_illegal  # names live in spaces.py (kernels stay name-free)

        raise ValueError(describe_illegal(state, bad, int(acts[bad])))
    return rewards, done, illegal


def observe(state: State, seats: np.ndarray | int | None = None) -> np.ndarray:
    """float32 [N, OBS_SIZE]: what `seats` (default: each game's current player; seat 0 in
    a finished game) see. Never shows the other hand, the box or the draw pile's order."""
    kv = kernel_view(state)
    n = batch_size(state)
    if seats is None:
        seat_arr = np.where(kv["actor"] >= 0, kv["actor"], 0).astype(np.int64)
    else:
        seat_arr = np.broadcast_to(np.asarray(seats, dtype=np.int64), (n,))
        if ((seat_arr < 0) | (seat_arr >= C.NUM_PLAYERS)).any():
            raise ValueError(f"observe: every seat must be 0 or 1, got {seats!r}")
    out = np.empty((n, OBS_SIZE), np.float32)
    observe_batch(kv, np.ascontiguousarray(seat_arr), out)
    return out


def scores(state: State) -> np.ndarray:
    """int32 [N, 2]: each seat's points by DN4.2-DN4.5 on the current collections (the
    final count once the game has ended on points)."""
    out = np.zeros((batch_size(state), C.NUM_PLAYERS), np.int32)
    _scores(kernel_view(state), out)
    return out


def refresh(state: State) -> State:
    """Recompute the derived legal-action cache (after editing a state by hand)."""
    _mask_batch(kernel_view(state))
    return state
