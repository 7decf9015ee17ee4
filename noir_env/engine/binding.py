"""How a game lends its compiled kernels to the engine: `GameKernels` names them, and
`bind_kernels` makes the engine's stand-ins (`game_apply_action`, `game_fill_mask`, ...)
call them wherever the state has that game's record type.

The engine's compiled shell (`shell.py`) and lockstep loops (`lockstep.py`) are written once,
calling the stand-ins; numba resolves each stand-in by the state's record type while it
compiles (a typing template and a lowering per stand-in), so each game gets loops of its own
with its kernels called directly, cached like every kernel of the project
(`noir_env._numba_cache` stamps the modules that call stand-ins with every module a game may
live in). Passing the kernels as function arguments instead would make numba refuse to cache
the loops. Without the JIT (NUMBA_DISABLE_JIT=1) a stand-in looks the kernel up by the
state's dtype and calls it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np
from numba import types
from numba.core.imputils import lower_builtin
from numba.extending import type_callable

from .jit import kernel


@kernel
def no_context(s, i):
    """The context of a game whose kernels need none."""
    return 0


@kernel
def never_unasked(s, i):
    """No decision is taken for a player without asking them (beyond forced ones)."""
    return -1


@kernel
def never_presents_forced(s, i):
    """Every decision with a single legal action is taken by the engine."""
    return False


@kernel
def no_violation(s, i):
    """A game whose invariants are not checked in compiled code."""
    return 0


@kernel
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


def _kernel_for(t, slot: str) -> Kernel | None:
    """The kernel `slot` of the game whose state array has the numba type `t`, if bound."""
    if not (isinstance(t, types.Array) and isinstance(t.dtype, types.Record)):
        return None
    for dtype, kernels in _BOUND.items():
        if numba.from_dtype(dtype) == t.dtype:
            return getattr(kernels, slot)
    return None


def _compile_stand_in(stand_in, slot: str) -> None:
    """Make compiled code calling `stand_in` call the kernel `slot` of the game whose record
    type its state argument has: typed as that kernel's own call, lowered as a direct call
    to the kernel's compiled function. Nothing in between is compiled (an `overload` would
    compile a wrapper per game and kernel, and each such wrapper links, optimizes and emits
    the game's whole rules once more). The typer's arguments are named, not starred (numba
    would pack them into a tuple)."""

    def resolve(context, args):
        kernel = _kernel_for(args[0], slot)
        if kernel is None:
            return None
        return numba.typeof(kernel).get_call_type(context, args, {})

    arity = ARITY[slot]

    @type_callable(stand_in)
    def typing(context):
        if arity == 2:
            return lambda a, b: resolve(context, (a, b))
        if arity == 3:
            return lambda a, b, c: resolve(context, (a, b, c))
        return lambda a, b, c, d: resolve(context, (a, b, c, d))

    @lower_builtin(stand_in, types.VarArg(types.Any))
    def lower(context, builder, sig, args):
        kernel = _kernel_for(sig.args[0], slot)
        return context.get_function(numba.typeof(kernel), sig)(builder, args)


for _slot, _stand_in in _STAND_INS.items():
    _compile_stand_in(_stand_in, _slot)


def bind_kernels(dtype: np.dtype, kernels: GameKernels) -> None:
    """Make the engine play the game whose state records have `dtype` with `kernels`.
    Idempotent; ValueError for a dtype bound to other kernels."""
    key = _key(dtype)
    if key in _BOUND:
        if _BOUND[key] != kernels:
            raise ValueError(f"another game's kernels are bound to the state dtype {dtype}")
        return
    _BOUND[key] = kernels
