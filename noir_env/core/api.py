"""The public batched API of the rules core: thin loops over games calling the kernels.

    state = init(num_games, num_players=4, rules="noirburg", seeds=0)
    mask = legal_action_mask(state)          # bool [N, A], for current_player(state)
    rewards, done, illegal = step(state, actions)   # mutates `state` in place
    obs = observe(state)                     # float32 [N, OBS_SIZE], seat of the actor

Games run independently: game i depends on its seed and its actions only, never on N.
`step` changes the state in place (use `clone` to keep a copy); a game that is over ignores
its action and reports done=True. A step is all or nothing: if the rules core fails in any
game, every game of the batch is put back as it was before the error is raised. Decisions
with a single legal action are taken by the core itself (R2.5), so every decision a caller
sees has at least two choices.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit, prange

from . import args as A
from . import constants as C
from .board import hand_size
from .countdown import score
from .mask import fill_mask
from .names import action_name, describe_illegal
from .observe import OBS_SIZE, observe_batch
from .reactions import holds_reaction
from .refcount import borrowed
from .rng import seed_to_state
from .rules import Rules, get_rules, rules_of, rules_row
from .state import State, allocate, batch_size, kernel_view, take
from .turn import apply_action, init_game

PARALLEL_MIN = 64  # below this many games a serial loop beats numba's thread launch


@njit(cache=True)
def passes_unasked(s, i, x):
    """R2.5: x passes in a window without being asked: x holds no reaction card, or, when
    every decision must be presented (`ask_all`), x's hand is empty (public)."""
    if s[i].ask_all:
        return hand_size(s, i, x) == 0
    return not holds_reaction(s, i, x)


@njit(cache=True)
def publicly_forced(s, i):
    """R2.5 with `ask_all`: a decision with one legal action is taken by the core only if
    everyone can see that it is forced: a choice inside a move already made public (where
    a picked or deployed gangster goes, attackers, the target of a played reaction) or a
    decision of a player with an empty hand (all else that decides it is on the table)."""
    ph = s[i].phase
    if ph == C.PH_MOVE_TO or ph == C.PH_DEPLOY_TO or ph == C.PH_ATTACKERS:
        return True
    if ph == C.PH_REACT_TARGET or ph == C.PH_TURNCOAT_POWER:
        return True
    return hand_size(s, i, s[i].actor) == 0


@njit(cache=True)
def settle(s, r, i):
    """Take forced decisions until a decision to present or the end (R2.5), leaving the
    actor's legal actions in s[i].mask."""
    for _ in range(100_000):
        if s[i].phase == C.PH_WINDOW and passes_unasked(s, i, s[i].actor):
            apply_action(s, r, i, C.A_PASS)
            continue
        count, last = fill_mask(s, r, i)
        if count != 1 or (s[i].ask_all and not publicly_forced(s, i)):
            if count == 0 and s[i].phase != C.PH_GAME_OVER:
                raise RuntimeError("NOIR core: a decision with no legal action")
            return
        apply_action(s, r, i, last)
    raise RuntimeError("NOIR core: forced decisions did not stop")


@njit(cache=True)
def write_outcome(s, i, out):
    """Zero-sum rewards: winners share +1, losers share -1 (R6.5)."""
    n = s[i].num_players
    k = 0
    for q in range(n):
        k += s[i].winners[q]
    for q in range(n):
        if k == n:
            out[q] = 0.0
        elif s[i].winners[q]:
            out[q] = 1.0 / k
        else:
            out[q] = -1.0 / (n - k)


@njit(cache=True)
def is_legal(s, i, a):
    return s[i].phase == C.PH_GAME_OVER or (0 <= a < C.NUM_ACTIONS and s[i].mask[a] != 0)


@njit(cache=True)
def step_one(s, i, a, rewards, done, illegal):
    s = borrowed(s)  # every rule kernel below takes s: no reference counting (refcount.py)
    if s[i].phase == C.PH_GAME_OVER:
        done[i] = True
        return
    if not is_legal(s, i, a):
        illegal[i] = True
        return
    r = rules_of(s, i)
    apply_action(s, r, i, a)
    s[i].steps += 1
    settle(s, r, i)
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


SAVED, FAILED = 1, 2  # per-game status of a step: bytes saved in the backup; the core raised


@njit(cache=True)
def step_saved(s, raw, backup, status, i, a, rewards, done, illegal):
    """step_one on game i, after saving its bytes (raw[i]) in backup[i] if it will change.
    An error inside the rules core is caught: status[i] = FAILED, returns 1 (else 0)."""
    if s[i].phase != C.PH_GAME_OVER and is_legal(s, i, a):
        backup[i, :] = raw[i, :]
        status[i] = SAVED
    try:
        step_one(s, i, a, rewards, done, illegal)
    except Exception:  # noqa: BLE001 - any failure: the caller restores the batch
        status[i] = FAILED
        return 1
    return 0


@njit(cache=True)
def _step_serial(s, raw, backup, status, actions, rewards, done, illegal, strict):
    """Returns (first game with an illegal action or -1, number of games that failed)."""
    if strict:
        bad = first_illegal(s, actions)
        if bad >= 0:
            return bad, 0
    failed = 0
    for i in range(actions.shape[0]):
        failed += step_saved(s, raw, backup, status, i, actions[i], rewards, done, illegal)
    return -1, failed


@njit(cache=True, parallel=True)
def _step_parallel(s, raw, backup, status, actions, rewards, done, illegal, strict):
    if strict:
        bad = first_illegal(s, actions)
        if bad >= 0:
            return bad, 0
    failed = 0
    for i in prange(actions.shape[0]):
        failed += step_saved(s, raw, backup, status, i, actions[i], rewards, done, illegal)
    return -1, failed


@njit(cache=True)
def _step_unguarded(s, a):
    """Step game 0 of `s` letting an error of the core propagate (to report it)."""
    out = np.zeros((1, C.MAX_PLAYERS), np.float32)
    flags = np.zeros(1, np.bool_)
    step_one(s, 0, a, out, flags, flags.copy())


@njit(cache=True)
def init_one(s, i, n):
    s = borrowed(s)
    r = rules_of(s, i)
    init_game(s, r, i, n)
    settle(s, r, i)


@njit(cache=True, parallel=True)
def _init_parallel(s, nps):
    for i in prange(nps.shape[0]):
        init_one(s, i, nps[i])


@njit(cache=True)
def _init_serial(s, nps):
    for i in range(nps.shape[0]):
        init_one(s, i, nps[i])


@njit(cache=True)
def _scores(s, out):
    for i in range(s.shape[0]):
        r = rules_of(s, i)
        for q in range(s[i].num_players):
            out[i, q] = score(s, r, i, q)


def scores(state: State) -> np.ndarray:
    """int32 [N, 6]: each seat's score by R6.4 right now (trophies, table, money; 0 for
    absent seats). The countdown's winner is the living seat with the best score."""
    kv = kernel_view(state)
    out = np.zeros((kv.shape[0], C.MAX_PLAYERS), np.int32)
    _scores(kv, out)
    return out


@njit(cache=True)
def _mask_batch(s):
    for i in range(s.shape[0]):
        fill_mask(s, rules_of(s, i), i)


def init(
    num_games: int,
    num_players: int | np.ndarray = 4,
    rules: str | Rules | None = "noirburg",
    seeds: int | np.ndarray | None = 0,
    ask_all: bool = False,
) -> State:
    """Deal `num_games` new games.

    num_players: 3..6, one value or one per game. rules: a preset name or a `Rules`.
    seeds: an int s gives game i the seed s + i; an array gives each game its own seed; every
    seed must fit int64 (None: 0). A bad argument raises TypeError / ValueError naming it.
    ask_all: False (fast): the core takes every decision with a single legal action and
    passes for every player without a reaction card, so only real choices are presented.
    True (multi-agent): every living player holding cards is asked in every window and every
    turn step is presented, even with `pass`/`end` as the only legal action, unless it is
    forced for a reason everyone can see (R2.5); who is asked then reveals nothing hidden.
    The game itself (its states and outcome for the same choices) is the same in both.
    """
    n = A.num_games(num_games)
    nps = A.num_players(num_players, n)
    game_rules = get_rules(rules)
    seed_arr = A.seeds(seeds, n)
    if not isinstance(ask_all, bool | np.bool_):
        raise TypeError(f"ask_all must be a bool, got {type(ask_all).__name__} {ask_all!r}")
    s = allocate(n)
    s.rules[:] = rules_row(game_rules)
    s.ask_all[:] = 1 if ask_all else 0
    s.rng[:] = [seed_to_state(x) for x in seed_arr.tolist()]
    (_init_parallel if n >= PARALLEL_MIN else _init_serial)(kernel_view(s), nps)
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
    """Apply one action per game, in place. Returns (rewards float32 [N, 6], done bool [N],
    illegal bool [N]). Rewards are non-zero only on the step a game ends.

    strict=True raises ValueError before changing anything if any action is illegal (its
    name, the phase and the legal actions are named). strict=False leaves those games
    unchanged and flags them in `illegal`. Finished games ignore their action.
    """
    kv = kernel_view(state)
    n = kv.shape[0]
    if not kv.flags.writeable:
        raise ValueError("step: the state is read-only (step changes it in place; clone it)")
    acts = np.asarray(actions)
    if acts.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), got {acts.shape}")
    if acts.dtype != np.int64:
        if acts.dtype.kind not in "iu":  # bools, floats, strings, objects: not action ids
            raise ValueError(f"actions must be integer action ids, got dtype {acts.dtype}")
        acts = acts.astype(np.int64)
    if not kv.flags.c_contiguous:  # a strided view: step a copy, then write it back
        work = kv.copy()
        out = _step_contiguous(state, work, acts, strict)
        kv[...] = work
        return out
    return _step_contiguous(state, kv, acts, strict)


_scratch = threading.local()  # per thread: the backup buffer of the last batch size stepped


def _backup_buffers(n: int, row_bytes: int) -> tuple[np.ndarray, np.ndarray]:
    """A reusable uint8 [n, row_bytes] backup and a zeroed uint8 [n] status."""
    key = (n, row_bytes)
    if getattr(_scratch, "key", None) != key:
        _scratch.key = key
        _scratch.backup = np.empty(key, np.uint8)
        _scratch.status = np.zeros(n, np.uint8)
    else:
        _scratch.status[:] = 0
    return _scratch.backup, _scratch.status


def _step_contiguous(state: State, kv: np.ndarray, acts: np.ndarray, strict: bool):
    n = kv.shape[0]
    raw = np.ndarray.view(kv, np.ndarray).view(np.uint8).reshape(n, -1)
    backup, status = _backup_buffers(n, raw.shape[1])
    rewards = np.zeros((n, C.MAX_PLAYERS), np.float32)
    done = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    kernel = _step_parallel if n >= PARALLEL_MIN else _step_serial
    bad, failed = kernel(kv, raw, backup, status, acts, rewards, done, illegal, strict)
    if bad >= 0:
        raise ValueError(describe_illegal(state, bad, int(acts[bad])))
    if failed:
        saved = status != 0
        raw[saved] = backup[saved]  # every game back as it was: the step is all or nothing
        _raise_failure(kv, int(np.flatnonzero(status == FAILED)[0]), acts)
    return rewards, done, illegal


def _raise_failure(kv: np.ndarray, i: int, acts: np.ndarray) -> None:
    """Raise RuntimeError for game i, whose step failed inside the core (the batch is already
    restored): replay that step on a copy of the game to recover the core's own error."""
    what = f"game {i}: the rules core failed on {action_name(int(acts[i]))}"
    try:
        _step_unguarded(kernel_view(take(kv.view(np.recarray), i)), int(acts[i]))
    except Exception as err:  # noqa: BLE001 - re-raised below with the game named
        raise RuntimeError(f"{what} ({err}); no game of the batch was changed") from err
    raise RuntimeError(f"{what}; no game of the batch was changed")


def observe(state: State, seats: np.ndarray | int | None = None) -> np.ndarray:
    """float32 [N, OBS_SIZE]: what `seats` (default: each game's current player; seat 0 in
    a finished game) see: one int or one per game, each a seat of its game. Never shows
    another hand or the order of the draw pile."""
    kv = kernel_view(state)
    n = batch_size(state)
    if seats is None:
        seat_arr = np.where(kv["actor"] >= 0, kv["actor"], 0).astype(np.int64)
    else:
        seat_arr = A.seats(seats, kv["num_players"])
    out = np.empty((n, OBS_SIZE), np.float32)
    observe_batch(kv, seat_arr, out)
    return out


def refresh(state: State) -> State:
    """Recompute the derived legal-action cache (after editing a state by hand)."""
    _mask_batch(kernel_view(state))
    return state


@njit(cache=True)
def _settle_game(s, i):
    settle(s, rules_of(s, i), i)


def settle_forced(state: State) -> State:
    """Take every game's forced decisions as `step` does after each action (R2.5; with
    `ask_all`, only those forced in public), so each game stops at a decision to present or
    at its end, and recompute the legal-action cache. Meant for hand-made positions
    (`state_from_dict` calls it): a position `step` produced is already settled.

    All or nothing: if a game reaches a decision with no legal action, ValueError names the
    game and the reason and no game is changed.
    """
    kv = kernel_view(state)
    if not kv.flags.writeable:
        raise ValueError("settle_forced: the state is read-only (it is changed in place)")
    work = kv.copy()
    for i in range(work.shape[0]):
        try:
            _settle_game(work, i)
        except RuntimeError as err:  # the core's own checks: no legal action, no end
            raise ValueError(f"game {i}: {err}; the state is unchanged") from None
    kv[...] = work
    return state
