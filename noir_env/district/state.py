"""The batched District Noir state: one numpy record array of shape [N], fixed-shape fields.

The same design as `noir_env.core.state`: `state.hand` is the [N, 2, 13] array of hands,
`state[i]` is game i as a record, and the kernels take the plain array (`kernel_view`) and
read `s[i].<field>`. Seats are absolute (0, 1) inside the state; observations are
seat-relative. The generic helpers (`clone`, `take`, `concat`, `batch_size`) are NOIR's.
"""

from __future__ import annotations

import numba
import numpy as np

from ..core.state import batch_size, clone, concat, take
from . import constants as C

__all__ = [
    "FIELDS",
    "GAME_DTYPE",
    "State",
    "allocate",
    "batch_size",
    "check_state",
    "clone",
    "concat",
    "kernel_view",
    "take",
]

P, K = C.NUM_PLAYERS, C.NUM_CARD_TYPES

# (name, dtype, shape of one game's field, meaning)
FIELDS: list[tuple[str, str, tuple[int, ...], str]] = [
    ("phase", "i1", (), "PH_PLAY or PH_GAME_OVER"),
    ("actor", "i1", (), "seat that must act now (-1 once the game is over)"),
    ("start_player", "i1", (), "seat holding the start-player coin this round (DN2.4, DN3.6)"),
    ("round_no", "i1", (), "rounds finished before this one (0..3)"),
    ("acts", "i1", (P,), "actions each seat took this round (0..6, DN3.1)"),
    ("taken", "i1", (P,), "1 once the seat has taken this round (DN3.3)"),
    ("takes", "i1", (P,), "takes of each seat in the whole game (one per round)"),
    ("deck", "i1", (C.NUM_CARDS,), "card types of the draw pile; the top is deck[deck_n-1]"),
    ("deck_n", "i1", (), "cards left in the draw pile"),
    ("removed", "i1", (K,), "cards boxed unseen at set-up, per type (DN2.1; hidden)"),
    ("hand", "i1", (P, K), "cards in hand per seat and type (hidden from the other seat)"),
    ("line", "i1", (C.LINE_CAP,), "card types of the line, oldest first (public)"),
    ("line_n", "i1", (), "cards in the line"),
    ("coll", "i1", (P, K), "cards taken, face up in front of each seat (public)"),
    ("winner", "i1", (), "winning seat once the game is over (-1: none yet, or a draw)"),
    ("win_reason", "i1", (), "WIN_*: why the game ended"),
    ("rng", "u8", (), "xorshift64 state of this game's chance events (noir_env.core.rng)"),
    ("steps", "i4", (), "actions taken by players (forced ones excluded)"),
    ("mask", "u1", (C.NUM_ACTIONS,), "legal actions of `actor` (derived cache)"),
]

GAME_DTYPE = np.dtype([(name, dt, shape) for name, dt, shape, _ in FIELDS])
RECORD_DTYPE = np.dtype((np.record, GAME_DTYPE))
DERIVED_FIELDS = ("mask",)

State = np.recarray
"""A batch of District Noir games: `np.recarray` of shape [N] with dtype GAME_DTYPE."""


def allocate(n: int) -> State:
    """Zeroed storage for n games (not a valid position until `init` fills it)."""
    return np.zeros(n, RECORD_DTYPE).view(np.recarray)


def check_state(state) -> None:
    """Raise ValueError unless `state` is a batch of District Noir games."""
    if not isinstance(state, np.ndarray) or state.dtype != GAME_DTYPE or state.ndim != 1:
        got = getattr(state, "dtype", type(state).__name__)
        raise ValueError(f"not a District Noir state (a 1-d record array of GAME_DTYPE): {got}")


def kernel_view(state: State) -> np.ndarray:
    """What the kernels take: a plain ndarray view (recarray arguments dispatch slowly in
    numba); with NUMBA_DISABLE_JIT=1 the recarray itself. Raises ValueError if `state` is
    not a batch of District Noir games."""
    if not isinstance(state, np.ndarray):
        check_state(state)
    v = np.ndarray.view(state, np.ndarray)
    if v.ndim != 1 or (v.dtype is not RECORD_DTYPE and v.dtype is not GAME_DTYPE):
        check_state(v)
    return v.view(np.recarray) if numba.config.DISABLE_JIT else v
