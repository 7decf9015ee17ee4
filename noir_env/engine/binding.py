"""How a game lends its compiled kernels to the engine: `GameKernels` names them, and
`bind_kernels` makes the engine's stand-ins (`game_apply_action`, `game_fill_mask`, ...)
call them wherever the state has that game's record type.

The engine's compiled shell (`shell.py`) and lockstep loops (`lockstep.py`) are written once,
calling the stand-ins; numba resolves each stand-in by the state's record type while it
compiles (`numba.extending.overload`), so each game gets loops of its own with its kernels
called directly, cached like every kernel of the project (`noir_env._numba_cache` stamps the
modules that call stand-ins with every module a game may live in). Passing the kernels as
function arguments instead would make numba refuse to cache the loops. Without the JIT
(NUMBA_DISABLE_JIT=1) a stand-in looks the kernel up by the state's dtype and calls it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np
from numba import njit, types
from numba.extending import overload


@njit(cache=True)
def no_context(s, i):
    """The context of a game whose kernels need none."""
    return 0


@njit(cache=True)
def never_unasked(s, i):
    """No decision is taken for a player without asking them (beyond forced ones)."""
    return -1


@njit(cache=True)
def never_presents_forced(s, i):
    """Every decision with a single legal action is taken by the engine."""
    return False


@njit(cache=True)
def no_violation(s, i):
    """A game whose invariants are not checked in compiled code."""
    return 0


@njit(cache=True)
def always_alive(s, i, q):
    """A game without eliminations: every seat stays until the end."""
    return True


Kernel = Any  # a compiled numba function (a Dispatcher; numba's types are not typed)


class GameKernels(NamedTuple):
    """The compiled (numba) kernels of one game, each for game i of the state array `s`.

    ctx = context(s, i): the per-game value the rules kernels read (NOIR: its rules), passed
    to the kernels that take `ctx`.
    init_game(s, ctx, i, num_players): deal game i (its `rng` is seeded already).
    apply_action(s, ctx, i, a): play the legal action a (the engine settles afterwards).
    fill_mask(s, ctx, i) -> (count, last): write the actor's legal actions into s[i].mask;
    their number, and the one action when there is exactly one (else -1).
    auto_action(s, i) -> an action the engine takes without asking anybody (e.g. the pass of
    a player who cannot react), or -1.
    presents_forced(s, i) -> whether the decision now is presented even with a single legal
    action (a multi-agent mode in which skipping it would reveal something).
    write_outcome(s, i, out_row): the zero-sum rewards of game i, which is over.
    write_observation(s, i, seat, out_row): what `seat` sees of game i.
    seat_alive(s, i, q): whether seat q is still in game i.
    resample(s, i, seat, rng_state): re-deal what `seat` cannot see (belief sampling), or
    None for a game without it.
    first_violation(s, i) -> the code of the first broken invariant (0: none).
    """

    init_game: Kernel
    apply_action: Kernel
    fill_mask: Kernel
    write_outcome: Kernel
    write_observation: Kernel
    context: Kernel = no_context
    auto_action: Kernel = never_unasked
    presents_forced: Kernel = never_presents_forced
    seat_alive: Kernel = always_alive
    resample: Kernel | None = None
    first_violation: Kernel = no_violation


_BOUND: dict[np.dtype, GameKernels] = {}  # the state dtypes of the games bound so far


def _key(dtype: np.dtype) -> np.dtype:
    """The plain structured dtype (np.record dtypes and their bases map to one key)."""
    return np.dtype(dtype.descr) if dtype.names else dtype


def kernels_of(s) -> GameKernels:
    """The kernels bound to the record type of the state array `s`."""
    return _BOUND[_key(s.dtype)]


def _stand_in(slot: str):
    """The stand-in for the kernel `slot` (plain Python: used without the JIT)."""

    def call(*args):
        return getattr(kernels_of(args[0]), slot)(*args)

    call.__name__ = call.__qualname__ = f"game_{slot}"
    return call


game_context = _stand_in("context")
game_init = _stand_in("init_game")
game_apply = _stand_in("apply_action")
game_fill_mask = _stand_in("fill_mask")
game_auto_action = _stand_in("auto_action")
game_presents_forced = _stand_in("presents_forced")
game_write_outcome = _stand_in("write_outcome")
game_observe = _stand_in("write_observation")
game_seat_alive = _stand_in("seat_alive")
game_resample = _stand_in("resample")
game_first_violation = _stand_in("first_violation")

_STAND_INS = {
    "context": game_context,
    "init_game": game_init,
    "apply_action": game_apply,
    "fill_mask": game_fill_mask,
    "auto_action": game_auto_action,
    "presents_forced": game_presents_forced,
    "write_outcome": game_write_outcome,
    "write_observation": game_observe,
    "seat_alive": game_seat_alive,
    "resample": game_resample,
    "first_violation": game_first_violation,
}


# the number of arguments of each kernel (GameKernels' docstring)
ARITY = {"context": 2, "init_game": 4, "apply_action": 4, "fill_mask": 3, "auto_action": 2,
         "presents_forced": 2, "write_outcome": 3, "write_observation": 4, "seat_alive": 3,
         "resample": 4, "first_violation": 2}  # fmt: skip


def _overload(stand_in, record, kernel, arity: int) -> None:
    """Make `stand_in` call `kernel` in compiled code whose state has the record type. The
    stand-in is inlined where it is called, and its arguments are named, not starred
    (numba would pack them into a tuple at every call): the game's kernel is called
    directly."""

    def mine(s) -> bool:
        return isinstance(s, types.Array) and s.dtype == record

    if arity == 2:

        @overload(stand_in, inline="always")
        def _two(a, b):
            return (lambda a, b: kernel(a, b)) if mine(a) else None

    elif arity == 3:

        @overload(stand_in, inline="always")
        def _three(a, b, c):
            return (lambda a, b, c: kernel(a, b, c)) if mine(a) else None

    else:

        @overload(stand_in, inline="always")
        def _four(a, b, c, d):
            return (lambda a, b, c, d: kernel(a, b, c, d)) if mine(a) else None


def bind_kernels(dtype: np.dtype, kernels: GameKernels) -> None:
    """Make the engine play the game whose state records have `dtype` with `kernels`.
    Idempotent; ValueError for a dtype bound to other kernels."""
    key = _key(dtype)
    if key in _BOUND:
        if _BOUND[key] != kernels:
            raise ValueError(f"another game's kernels are bound to the state dtype {dtype}")
        return
    _BOUND[key] = kernels
    record = numba.from_dtype(key)
    for slot, stand_in in _STAND_INS.items():
        kernel = getattr(kernels, slot)
        if kernel is not None:
            _overload(stand_in, record, kernel, ARITY[slot])
