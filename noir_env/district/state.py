"""The batched District Noir state: one numpy record array of shape [N], fixed-shape fields.

The same design as `noir_env.core.state`: `state.hand` is the [N, 2, 13] array of hands,
`state[i]` is game i as a record, and the kernels take the plain array (`kernel_view`) and
read `s[i].<field>`. Seats are absolute (0, 1) inside the state; observations are
seat-relative. The record layout and the generic helpers (`clone`, `take`, `concat`,
`batch_size`) are the engine's (`noir_env.engine.records`).
"""

from __future__ import annotations

from ..engine.records import RecordLayout, State  # noqa: F401 - State: a batch's type, re-exported
from . import constants as C

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
    ("rng", "u8", (), "xorshift64 state of this game's chance events (noir_env.engine.rng)"),
    ("steps", "i4", (), "actions taken by players (forced ones excluded)"),
    ("mask", "u1", (C.NUM_ACTIONS,), "legal actions of `actor` (derived cache)"),
]

LAYOUT = RecordLayout("District Noir", FIELDS)
GAME_DTYPE = LAYOUT.dtype

allocate = LAYOUT.allocate
kernel_view = LAYOUT.kernel_view
check_state = LAYOUT.check
