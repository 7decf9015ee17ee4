"""A game's batched state: one numpy record array of shape [N], one record per game, with
fixed-shape fields. `RecordLayout` is written once here for every game; a game declares its
fields and gets allocation, the type check and the kernels' view from it.

The kernels take the plain array (`kernel_view`) and read `s[i].<field>`: one argument
instead of dozens of arrays keeps compile and call times small. Fields the engine itself
reads (`ENGINE_FIELDS`): `actor` (the seat to act, -1 once the game is over), `steps`
(decisions taken by players), `mask` (the actor's legal actions, uint8) and `rng` (the
game's xorshift64 state, `noir_env.engine.rng`).
"""

from __future__ import annotations

import numba
import numpy as np

ENGINE_FIELDS = ("actor", "steps", "mask", "rng")

State = np.recarray
"""A batch of games: `np.recarray` of shape [N] with a game's record dtype."""


class RecordLayout:
    """The record type of one game's state (module docstring).

    fields: (name, dtype, shape of one game's field, meaning) per field; every name of
    `ENGINE_FIELDS` must be among them."""

    def __init__(self, title: str, fields: list[tuple[str, str, tuple[int, ...], str]]):
        names = [f[0] for f in fields]
        missing = [f for f in ENGINE_FIELDS if f not in names]
        if missing:
            raise ValueError(f"{title}: a state needs the fields {list(ENGINE_FIELDS)}")
        self.title = title
        self.fields = fields
        self.dtype = np.dtype([(name, dt, shape) for name, dt, shape, _ in fields])
        self.record_dtype = np.dtype((np.record, self.dtype))  # one object for every state
        self.num_actions = int(self.dtype["mask"].shape[0])

    def allocate(self, n: int) -> State:
        """Zeroed storage for n games (not a valid position until a deal fills it)."""
        return np.zeros(n, self.record_dtype).view(np.recarray)

    def check(self, state) -> None:
        """Raise ValueError unless `state` is a batch of this game's states."""
        if not isinstance(state, np.ndarray) or state.dtype != self.dtype or state.ndim != 1:
            got = getattr(state, "dtype", type(state).__name__)
            raise ValueError(
                f"not a {self.title} state (a 1-d record array of its GAME_DTYPE): got {got}"
            )

    def kernel_view(self, state: State) -> np.ndarray:
        """What the kernels take: a plain ndarray view (recarray arguments dispatch slowly
        in numba); with NUMBA_DISABLE_JIT=1 the recarray itself, whose records have
        attributes. Raises ValueError if `state` is not a batch of this game's states."""
        if not isinstance(state, np.ndarray):
            self.check(state)
        v = np.ndarray.view(state, np.ndarray)
        if v.ndim != 1 or (v.dtype is not self.record_dtype and v.dtype is not self.dtype):
            self.check(v)  # `is` first: comparing structured dtypes costs microseconds
        return v.view(np.recarray) if numba.config.DISABLE_JIT else v  # type: ignore[attr-defined]


def clone(state: State) -> State:
    """A deep copy (the kernels change states in place)."""
    return state.copy()


def batch_size(state: State) -> int:
    """Number of games in the batch."""
    return state.shape[0]


def take(state: State, idx) -> State:
    """The games at `idx` (an int, slice or index array) as a new batch (a copy)."""
    if isinstance(idx, int | np.integer):
        idx = [int(idx)]
    return state[idx].copy().view(np.recarray)


def concat(states: list[State]) -> State:
    """Stack several batches into one."""
    return np.concatenate([s.view(np.ndarray) for s in states]).view(np.recarray)
