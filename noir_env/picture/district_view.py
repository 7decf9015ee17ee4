"""What one viewpoint sees of a District Noir game, decoded from the observation the
agents get (as `noir_view` does for NOIR): a seat's view is read from
`district.observe(state, seat)` alone plus the public result; the spectator's adds both
hands from the state."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import district
from ..district import constants as C
from ..district.observe import GLOBAL_OFFSETS, GLOBAL_SIZE, SEAT_OFFSETS, SEAT_SIZE

K = C.NUM_CARD_TYPES


@dataclass
class Player:
    """One player's public side: hand size, this round's actions, collection, points."""

    hand_size: int
    actions: int
    taken: bool
    collection: list[int]  # per card type
    points: int


@dataclass
class Line:
    """Everything public about one District Noir game (absolute seats)."""

    actor: int  # -1 once the game is over
    start_player: int
    round_no: int
    deck: int
    game_over: bool
    line: list[int]  # card types, oldest first
    players: list[Player]
    winner: int  # -1: none yet, or a draw
    win_reason: str


def _ints(a: np.ndarray) -> list[int]:
    return [int(round(float(x))) for x in a]


def decode(o: np.ndarray, observer: int) -> Line:
    """The public game in observation `o` of seat `observer`."""
    g = {k: v[0] for k, v in GLOBAL_OFFSETS.items()}

    def seat(start: int) -> int:
        hot = np.flatnonzero(o[start : start + 2] > 0.5)
        return -1 if not hot.size else (observer + int(hot[0])) % 2

    n = int(o[g["line_size"]])
    rows = o[g["line"] : g["line"] + n * K].reshape(n, K)
    line = [int(np.argmax(r)) for r in rows][::-1]  # the observation lists the newest first
    players = []
    for q in range(C.NUM_PLAYERS):
        b = GLOBAL_SIZE + ((q - observer) % 2) * SEAT_SIZE
        s = {k: b + v[0] for k, v in SEAT_OFFSETS.items()}
        players.append(Player(int(o[s["hand_size"]]), int(o[s["actions"]]),
                              o[s["taken"]] > 0.5, _ints(o[s["collection"]:s["collection"] + K]),
                              int(o[s["points"]])))  # fmt: skip
    return Line(seat(g["to_act"]), seat(g["start_player"]), int(o[g["round"]]),
                int(o[g["deck"]]), o[g["game_over"]] > 0.5, line, players, -1, "")  # fmt: skip


def view(state, i: int = 0, viewpoint: int | None = None) -> tuple[Line, dict[int, list[int]]]:
    """(the public game, the hands shown: {seat: counts per card type}) of game i from
    `viewpoint`: a seat (its own hand, from its observation) or None (both hands)."""
    one = district.take(state, i)
    seat = 0 if viewpoint is None else int(viewpoint)
    if seat not in (0, 1):
        raise ValueError(f"viewpoint must be a seat in 0..1 or None, got {viewpoint!r}")
    o = district.observe(one, seat)[0]
    table = decode(o, seat)
    table.winner = int(one.winner[0])  # the result is public
    table.win_reason = C.WIN_REASONS[int(one.win_reason[0])]
    if viewpoint is None:
        hands = {q: _ints(one.hand[0, q]) for q in range(C.NUM_PLAYERS)}
    else:
        own = GLOBAL_OFFSETS["hand"][0]
        hands = {seat: _ints(o[own : own + K])}
    return table, hands
