"""The District Noir board as a `Scene`: a header, each player's side (points, actions this
round, whether they took, the collection per card type) and the shared line between them,
the five cards a take would collect outlined; the seat to act is outlined in gold.

Parts: `head`, `line`, `seat<q>` (public) and `hand<q>` (faces for the viewpoint's own
seat or the spectator, else card backs), as in `noir_board`.
"""

from __future__ import annotations

from ..district import constants as C
from .district_view import Line
from .scene import Group, Rect, Scene, Text
from .widgets import CARD_H, CARD_W, card_back, card_face, row_step, view_label

WIDTH, HEIGHT = 1280, 720
GOLD = "#d4a017"
GANG_COLORS = ("#2e86c1", "#28b463", "#d68910", "#884ea0")
FACES = (
    [("Gang", str(v), c) for v, c in zip((5, 6, 7, 8), GANG_COLORS, strict=True)]
    + [("Ally", f"+{v}", "#1e8449") for v in (2, 3, 4)]
    + [("Betray", f"-{v}", "#a93226") for v in (1, 2, 3)]
    + [("Port", "", "#34495e"), ("Police", "HQ", "#1f3a93"), ("City", "Hall", "#7d6608")]
)
SIDES = {0: 54, 1: 440}  # the top of each player's side
SIDE_H = 270


def district_scene(table: Line, hands: dict[int, list[int]], viewpoint: int | None,
                   names: list[str] | None = None) -> Scene:  # fmt: skip
    """The board of `table` with the hands in `hands` face up (`district_view.view`)."""
    names = names or [f"player_{q}" for q in range(C.NUM_PLAYERS)]
    scene = Scene(WIDTH, HEIGHT)
    head = scene.part("head")
    if table.game_over:
        who = "a draw" if table.winner < 0 else f"{names[table.winner]} won"
        title = f"District Noir: game over, {who} ({table.win_reason})"
    else:
        start = names[table.start_player]
        title = (f"District Noir: round {table.round_no + 1} of {C.NUM_ROUNDS}, "
                 f"{names[table.actor]} to act (start player {start})")  # fmt: skip
    head.add(Text(12, 24, title, 17, bold=True),
             Text(12, 44, f"Draw pile {table.deck}", 13, "#333"))  # fmt: skip
    view_label(scene.part("view"), "spectator" if viewpoint is None else names[viewpoint], 44)
    _line(scene.part("line"), table.line)
    for q in range(C.NUM_PLAYERS):
        _side(scene.part(f"seat{q}", **{"data-seat": str(q)}), table, q, names[q])
        part = scene.part(f"hand{q}", **{"class": "hand", "data-seat": str(q)})
        _hand(part, table, q, hands.get(q), viewpoint)
    return scene


def _face(x: int, y: int, t: int, seat: int | None = None) -> Group:
    label, sub, color = FACES[t]
    return card_face(x, y, label, sub, color, C.CARD_NAMES[t], seat)


def _line(g: Group, line: list[int]) -> None:
    y = SIDES[0] + SIDE_H + 30
    cards = f"{len(line)} card{'' if len(line) == 1 else 's'}"
    g.add(Text(12, y - 8, f"The line: {cards}, oldest first; a take collects the outlined "
                          "cards", 13, "#333"))  # fmt: skip
    step = row_step(len(line), WIDTH - 24)
    cut = max(0, len(line) - C.TAKE_SIZE)
    if len(line) > cut:
        x0 = 12 + cut * step - 4
        g.add(Rect(x0, y - 4, (len(line) - 1 - cut) * step + CARD_W + 8, CARD_H + 8,
                   "#fdebd0", GOLD, 3, 6))  # fmt: skip
    for k, t in enumerate(line):
        g.add(_face(12 + k * step, y, t))


def _side(g: Group, table: Line, q: int, name: str) -> None:
    p = table.players[q]
    y = SIDES[q]
    acting = table.actor == q
    g.attrs["class"] = "seat acting" if acting else "seat"
    g.add(Rect(10, y, WIDTH - 20, SIDE_H, "#fffaf0", GOLD if acting else "#b9a98f",
               4 if acting else 1, 8))  # fmt: skip
    tags = [tag for tag, on in (("to act", acting), ("start player", table.start_player == q))
            if on]  # fmt: skip
    g.add(Text(22, y + 22, name + (f"  [{', '.join(tags)}]" if tags else ""), 15, bold=True),
          Text(WIDTH - 22, y + 22, f"points {p.points}  actions {p.actions}/6  "
               f"taken {'yes' if p.taken else 'no'}", 14, "#333", "end"),
          Text(22, y + 120, f"collection: {sum(p.collection)} cards", 12, "#333"))  # fmt: skip
    x = 22
    for t in range(C.NUM_CARD_TYPES):
        if p.collection[t]:
            g.add(_face(x, y + 130, t), Text(x + CARD_W // 2, y + 200, f"x{p.collection[t]}",
                                            12, "#111", "middle", bold=True))  # fmt: skip
            x += CARD_W + 10


def _hand(g: Group, table: Line, q: int, hand: list[int] | None, viewpoint: int | None) -> None:
    y = SIDES[q]
    size = table.players[q].hand_size
    g.add(Text(22, y + 46, f"hand: {size}", 12, "#333"))
    if viewpoint == q:
        g.add(Text(22, y + 62, "(you)", 12, "#7b3f8c", bold=True))
    x = 100
    if hand is not None:
        cards = [t for t in range(C.NUM_CARD_TYPES) for _ in range(hand[t])]
        for k, t in enumerate(cards):
            g.add(_face(x + k * (CARD_W + 4), y + 34, t, q))
    else:
        for k in range(size):
            g.add(card_back(x + k * (CARD_W + 4), y + 34, q))
