"""Checks of the public arguments of every game's API: every bad argument gets a TypeError
(wrong kind of value) or a ValueError (right kind, wrong value) that names the argument. A
wrong kind of integer (`as_int`) raises `ArgumentTypeError`, which is both: Python's
convention says TypeError, and callers that catch ValueError for any bad input catch it too.

Plain Python on purpose: these run once per call, outside the kernels, and keeping them out
of the kernel modules keeps the numba cache key (a hash of the kernel sources) stable.
"""

from __future__ import annotations

import operator

import numpy as np

from .._shown import shown

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong kind (module docstring): a TypeError and a ValueError."""


def as_int(value, name: str) -> int:
    """`value` (an int or numpy integer) as a Python int; `ArgumentTypeError` naming `name`
    for a bool, float, str, None, ... (nothing is rounded or parsed)."""
    if isinstance(value, bool | np.bool_):
        raise ArgumentTypeError(f"{name} must be an integer, got the bool {shown(value)}")
    try:
        return operator.index(value)
    except TypeError:
        raise ArgumentTypeError(
            f"{name} must be an integer, got {type(value).__name__} {shown(value)}"
        ) from None


def as_count(value, name: str, least: int = 1) -> int:
    """`as_int`, and at least `least` (ValueError naming `name` otherwise)."""
    n = as_int(value, name)
    if n < least:
        raise ValueError(f"{name} must be >= {least}, got {n}")
    return n


def int_array(value, name: str) -> np.ndarray:
    """`value` (an int, a list / tuple of ints or an integer ndarray) as an ndarray of
    integers: an integer dtype, or object holding Python ints (which may exceed 64 bits;
    check with `in_range` before casting). Nothing is rounded, parsed or wrapped; anything
    else is a TypeError naming `name`."""
    if isinstance(value, np.ndarray):
        arr = value
    elif isinstance(value, list | tuple):  # Python ints kept whole (no wrap, no float)
        return np.array([as_int(v, f"{name}[{k}]") for k, v in enumerate(value)], object)
    else:
        return np.array(as_int(value, name), object)
    if arr.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    return arr


def in_range(arr: np.ndarray, lo: int, hi: int, name: str) -> None:
    """ValueError naming `name` and the first value outside lo..hi."""
    if arr.dtype.kind == "O":
        bad = [int(v) for v in arr.flat if not lo <= v <= hi]
    else:
        flat = arr.ravel()
        bad = flat[(flat < lo) | (flat > hi)].tolist() if flat.size else []
    if bad:
        raise ValueError(f"{name} must be in {lo}..{hi}, got {bad[0]}")


def num_games(value) -> int:
    """The number of games of a new batch: an int >= 1."""
    return as_count(value, "num_games")


def num_players(value, n: int, least: int, most: int) -> np.ndarray:
    """int8 [n]: the player count of each game (one int, or one per game), each in
    least..most."""
    arr = int_array(value, "num_players")
    in_range(arr, least, most, "num_players")
    if arr.ndim > 1 or (arr.ndim == 1 and arr.shape[0] not in (1, n)):
        raise ValueError(f"num_players must be an int or {n} ints, got shape {arr.shape}")
    return np.broadcast_to(arr.astype(np.int8), (n,))


def seeds(value, n: int) -> np.ndarray:
    """int64 [n]: game i's seed. None means 0; an int s gives seeds s, s+1, ..., s+n-1; an
    array gives one seed per game. Every seed must fit int64 (negative seeds are fine)."""
    if value is None:
        value = 0
    arr = int_array(value, "seeds")
    if arr.ndim == 0:
        first = int(arr)
        in_range(np.asarray([first, first + n - 1], object), INT64_MIN, INT64_MAX, "seeds")
        return first + np.arange(n, dtype=np.int64)
    if arr.shape != (n,):
        raise ValueError(f"seeds must be an int or {n} ints, got shape {arr.shape}")
    in_range(arr.astype(object), INT64_MIN, INT64_MAX, "seeds")
    return arr.astype(np.int64)


def seats(value, num_players: np.ndarray) -> np.ndarray:
    """int64 [n]: an observing seat per game (one int, or one per game), each a seat of its
    game (0..num_players-1)."""
    n = num_players.shape[0]
    arr = int_array(value, "seats")
    if arr.ndim > 1 or (arr.ndim == 1 and arr.shape[0] not in (1, n)):
        raise ValueError(f"seats must be an int or {n} ints, got shape {arr.shape}")
    arr = np.broadcast_to(arr, (n,))
    bad = np.flatnonzero((arr < 0) | (arr >= num_players))
    if bad.size:
        k = int(bad[0])
        raise ValueError(
            f"seats: game {k} has {int(num_players[k])} players (seats 0..{num_players[k] - 1}), "
            f"got seat {int(arr[k])}"
        )
    return np.ascontiguousarray(arr, dtype=np.int64)
