"""Shapes both games' boards draw: a card face, a card back, a row of cards."""

from __future__ import annotations

from .scene import Group, Rect, Text, clip

CARD_W, CARD_H = 40, 54
BACK = "#5a3b2e"


def card_face(x: int, y: int, label: str, sub: str, color: str, card: str,
              seat: int | None = None, known: bool = False) -> Group:  # fmt: skip
    """A face-up card: `label` and `sub` on a band of `color`. Its group carries
    class="card face", data-card (the card's name) and data-seat (whose hand, if any), so
    a page's DOM says which cards it shows; `known` marks a card publicly known to be in
    another player's hand (R7.3), drawn with a dashed outline."""
    attrs = {"class": "card face", "data-card": card}
    if seat is not None:
        attrs["data-seat"] = str(seat)
    if known:
        attrs["data-known"] = "1"
    return Group(attrs).add(
        Rect(x, y, CARD_W, CARD_H, "#fffdf8", "#333", 1, 4, dash=known),
        Rect(x + 3, y + 3, CARD_W - 6, 16, color, rx=2),
        Text(x + CARD_W // 2, y + 15, label, 10 if len(label) < 6 else 8, "#fff", "middle", True),
        Text(x + CARD_W // 2, y + 38, sub, 11, "#222", "middle"),
    )


def card_back(x: int, y: int, seat: int | None = None) -> Group:
    """A face-down card (class="card back": it names no card)."""
    attrs = {"class": "card back"} | ({"data-seat": str(seat)} if seat is not None else {})
    return Group(attrs).add(
        Rect(x, y, CARD_W, CARD_H, BACK, "#222", 1, 4),
        Rect(x + 5, y + 5, CARD_W - 10, CARD_H - 10, "none", "#c9a66b", 1, 2),
    )


def row_step(count: int, room: int) -> int:
    """The distance between the left edges of `count` cards laid in `room` pixels: a card's
    width and a gap, less (cards overlap) when they would not fit."""
    if count <= 1:
        return CARD_W + 4
    return max(8, min(CARD_W + 4, (room - CARD_W) // (count - 1)))


def view_label(g: Group, view: str, y: int, right: int = 1268) -> Group:
    """'view: <whose>' right-aligned at baseline y: whose picture this is. A part of its own
    (`view`), so the rest of the header is the same for every viewpoint."""
    return g.add(Text(right, y, clip(f"view: {view}", 320, 13), 13, "#7b3f8c", "end", True))
