"""The NOIR board as a `Scene`: a header (turn, bank, piles, countdown, the pending attack
and the reaction window) over one panel per player (money, trophies, kills, hand, Hideout,
businesses with their gangsters, HIDDEN gangsters), the seat to decide outlined in gold.

The scene's parts are `head`, `seat<q>` (q's public table) and `hand<q>` (q's hand as the
viewpoint sees it: faces for its own seat or the spectator, else backs with the cards
publicly known face up); only `hand<q>` depends on the viewpoint, which lets the replay
viewer store the public parts once for every viewpoint.
"""

from __future__ import annotations

from ..core import constants as C
from .noir_view import Business, Queued, Seat, Table
from .scene import Circle, Group, Rect, Scene, Text, clip
from .widgets import card_back, card_face, row_step, view_label

WIDTH, HEIGHT = 1280, 720
TOP = 96  # the panels start below the header's four lines
GOLD, RED, ORANGE = "#d4a017", "#c0392b", "#d35400"
PLACE_W, PLACE_H = 62, 86
FACES = (  # label, sub-label, colour of each card type
    [("Gang", str(p), "#2f4b7c") for p in (1, 2, 3, 4)]
    + [(w, f"+{k}", "#3c7d3c") for k, w in enumerate(("Still", "Bootl", "Speak", "Casino"), 1)]
    + [("Poker", "night", "#7b3f8c"), ("Police", "", "#1f3a93"), ("Bribe", "", "#b7950b"),
       ("Drive", "by", RED), ("Turn", "coat", "#6e4b2a")]
)  # fmt: skip
SHORT_BIZ = ("Still", "Bootlegger", "Speakeasy", "Casino")


def noir_scene(table: Table, hands: dict[int, list[int]], viewpoint: int | None,
               names: list[str] | None = None, rules_name: str = "") -> Scene:  # fmt: skip
    """The board of `table` with the hands in `hands` face up (`noir_view.view` gives
    both); `viewpoint` (a seat or None for the spectator) labels whose view it is."""
    n = table.num_players
    names = names or [f"player_{q}" for q in range(n)]
    scene = Scene(WIDTH, HEIGHT)
    _head(scene.part("head"), table, names, rules_name)
    view_label(scene.part("view"), "spectator" if viewpoint is None else names[viewpoint], 46)
    for q, (x, y, w, h) in enumerate(_panels(n)):
        _seat(scene.part(f"seat{q}", **{"data-seat": str(q)}), table, q, names[q], x, y, w, h)
    for q, (x, y, w, _) in enumerate(_panels(n)):
        part = scene.part(f"hand{q}", **{"class": "hand", "data-seat": str(q)})
        _hand(part, table.seats[q], q, hands.get(q), viewpoint, x, y, w)
    return scene


def _panels(n: int) -> list[tuple[int, int, int, int]]:
    cols = 2 if n <= 4 else 3
    w = (WIDTH - 10 * (cols + 1)) // cols
    h = (HEIGHT - TOP - 10 * 2) // 2
    return [(10 + (q % cols) * (w + 10), TOP + (q // cols) * (h + 10), w, h) for q in range(n)]


def _place_name(table: Table, q: int, place: int, names: list[str]) -> str:
    seat = table.seats[q]
    if place == C.TGT_HIDEOUT:
        where = "Hideout"
    elif place == C.TGT_HIDDEN:
        where = "HIDDEN gangsters"
    elif place == C.TGT_ATTACK:
        where = "attackers"
    else:
        inc = next((b.income for b in seat.businesses if b.slot == place), 0)
        where = f"{SHORT_BIZ[inc - 1]} (slot {place})" if inc else f"slot {place}"
    return f"{names[q]}'s {where}"


def _powers(g: list[int]) -> str:
    p = [str(k + 1) for k in range(3, -1, -1) for _ in range(g[k])]
    return "+".join(p) if p else "none"


def _queued(table: Table, e: Queued, names: list[str]) -> str:
    who = names[e.player]
    if e.kind == "poker_night":
        return f"Poker Night by {who}"
    place = _place_name(table, e.target, e.place, names)
    if e.kind == "driveby":
        return f"Drive-by x{e.dice} by {who} on {place}"
    if e.kind == "turncoat":
        return f"Turncoat by {who}: a {e.power} of {place}"
    what = "cancel the attack" if e.kind == "police_cancel" else f"raid {place}"
    return f"Police by {who} to {what} ({'standing' if e.standing else 'bribed'})"


def _head(g: Group, t: Table, names: list[str], rules_name: str) -> None:
    rules = f" ({rules_name})" if rules_name else ""
    if t.phase == "game_over":
        won = " and ".join(names[q] for q in t.winners) or "nobody"
        title = f"NOIR{rules}, {t.num_players} players: game over, {won} won ({t.win_reason})"
    else:
        step = f", step {t.step}" if t.step else ""
        title = (f"NOIR{rules}, {t.num_players} players: turn {t.turn_no + 1}, "
                 f"{names[t.active]}'s turn{step}; {t.phase}, "
                 f"{names[t.actor]} to decide")  # fmt: skip
    cd = "not started"
    if t.countdown:
        tokens, holder, left = t.countdown
        cd = f"{tokens} tokens, held by {names[holder]} ({left} turns left)"
    piles = (f"Bank {t.bank} coins | draw pile {t.deck} | discard pile {t.discard} | out of "
             f"the game {t.removed} | countdown: {cd}")  # fmt: skip
    g.add(Text(12, 24, clip(title, WIDTH - 24, 17), 17, bold=True),
          Text(12, 46, clip(piles, WIDTH - 360, 13), 13, "#333"))  # fmt: skip
    if t.attack:
        q, place, atk = t.attack
        power = sum((k + 1) * c for k, c in enumerate(atk))
        line = (f"Attack: {names[t.active]} -> {_place_name(t, q, place, names)} with "
                f"{_powers(atk)} (power {power})")  # fmt: skip
        g.add(Group({"class": "attack"}).add(Text(12, 67, clip(line, WIDTH - 24, 13), 13, RED,
                                                  bold=True)))  # fmt: skip
    if t.window:
        kind, owner = t.window
        queue = "; ".join(f"{k + 1}. {_queued(t, e, names)}" for k, e in enumerate(t.queue))
        line = f"Reaction window ({kind}, owner {names[owner]}): {queue or 'nothing played'}"
        if t.choosing:
            line += f"; choosing the target of {t.choosing}"
        g.add(Group({"class": "window"}).add(Text(12, 87, clip(line, WIDTH - 24, 13), 13,
                                                  "#1f3a93", bold=True)))  # fmt: skip


def _seat(g: Group, t: Table, q: int, name: str, x: int, y: int, w: int, h: int) -> None:
    s = t.seats[q]
    acting = q == t.actor
    g.attrs["class"] = "seat acting" if acting else "seat"
    fill = "#fffaf0" if s.alive else "#dcdcdc"
    g.add(Rect(x, y, w, h, fill, GOLD if acting else "#b9a98f", 4 if acting else 1, 8))
    tags = [tag for tag, on in (("to decide", acting), ("turn", q == t.active)) if on]
    title = name + (f"  [{', '.join(tags)}]" if tags else "")
    if not s.alive:
        title += "  eliminated"
    stats = f"money {s.money}  trophies {s.trophies}  kills {s.kills}"
    room = w - 30 - int(0.6 * 13 * len(stats))
    g.add(Text(x + 10, y + 19, clip(title, room, 14), 14, bold=True))
    g.add(Text(x + w - 10, y + 19, stats, 13, "#333", "end"))
    places: list[Group] = [_hideout(s)] + [_business(b) for b in s.businesses]
    if any(s.hidden):
        places.append(_hidden(s))
    per_row = max(1, (w - 12) // (PLACE_W + 4))
    rows = max(1, (h - 92) // (PLACE_H + 4))
    shown = per_row * rows
    if len(places) > shown:  # the last spot says how many more there are
        more = len(places) - shown + 1
        places = places[: shown - 1] + [Group().add(Text(0, 44, f"+{more} more", 12))]
    for k, p in enumerate(places):
        px = x + 8 + (k % per_row) * (PLACE_W + 4)
        py = y + 90 + (k // per_row) * (PLACE_H + 4)
        g.add(_moved(p, px, py))


def _moved(p: Group, dx: int, dy: int) -> Group:
    """The place card `p`, drawn at the origin, moved to (dx, dy)."""
    out = Group(dict(p.attrs))
    for s in p.items:
        if isinstance(s, Group):
            out.add(_moved(s, dx, dy))
        elif isinstance(s, Rect):
            out.add(Rect(s.x + dx, s.y + dy, s.w, s.h, s.fill, s.stroke, s.width, s.rx, s.dash))
        elif isinstance(s, Circle):
            out.add(Circle(s.x + dx, s.y + dy, s.r, s.fill, s.stroke))
        else:
            out.add(Text(s.x + dx, s.y + dy, s.text, s.size, s.fill, s.anchor, s.bold))
    return out


def _gangsters(counts: list[int], y: int) -> list[Circle | Text]:
    """Gangster discs, strongest first, three a row from (0, y); '+k' past six."""
    powers = [k + 1 for k in range(3, -1, -1) for _ in range(counts[k])]
    out: list[Circle | Text] = []
    for k, p in enumerate(powers[:6]):
        cx, cy = 12 + (k % 3) * 19, y + (k // 3) * 19
        out += [Circle(cx, cy, 8, ("#9db4d6", "#5f7fb0", "#345a91", "#1b365f")[p - 1], "#111"),
                Text(cx, cy + 4, str(p), 10, "#fff", "middle", bold=True)]  # fmt: skip
    if len(powers) > 6:
        out.append(Text(58, y + 22, f"+{len(powers) - 6}", 9, "#111", "end"))
    return out


def _card(title: str, sub: str, fill: str, stroke: str, width: int, dash: bool = False,
          attrs: dict[str, str] | None = None) -> Group:  # fmt: skip
    return Group(attrs or {}).add(
        Rect(0, 0, PLACE_W, PLACE_H, fill, stroke, width, 5, dash),
        Text(PLACE_W // 2, 13, title, 9, "#111", "middle", bold=True),
        Text(PLACE_W // 2, 25, sub, 9, "#444", "middle"),
    )


def _outline(target: bool, turncoat: bool, attacked: bool) -> tuple[str, int]:
    if target or turncoat:
        return RED, 3
    return (ORANGE, 2) if attacked else ("#777", 1)


def _hideout(s: Seat) -> Group:
    stroke, width = _outline(s.hideout_target, False, s.hideout_attacked)
    sub = "open" if s.covered_by is None else f"under slot {s.covered_by}"
    g = _card("Hideout", sub, "#efe3cf", stroke, width, attrs={"class": "place hideout"})
    return g.add(*_gangsters(s.hideout, 42))


def _business(b: Business) -> Group:
    stroke, width = _outline(b.target, b.turncoat, b.attacked)
    fill = "#e3f0dc" if not b.covers_hideout else "#d6e6f5"
    sub = f"+{b.income}  slot {b.slot}"
    g = _card(SHORT_BIZ[b.income - 1], sub, fill, stroke, width,
              attrs={"class": "place business", "data-slot": str(b.slot)})  # fmt: skip
    g.add(*_gangsters(b.gangsters, 42))
    marks = [m for m, k in (("Police", b.kidnaps), ("Drive-by", b.dice)) if k]
    if marks:
        text = " ".join(f"{m[0]}x{k}" for m, k in zip(marks, (b.kidnaps, b.dice), strict=False))
        g.add(Text(PLACE_W // 2, PLACE_H - 4, text, 9, RED, "middle", bold=True))
    elif b.covers_hideout:
        g.add(Text(PLACE_W // 2, PLACE_H - 4, "covers HO", 8, "#1f3a93", "middle"))
    return g


def _hidden(s: Seat) -> Group:
    stroke, width = _outline(s.hidden_target, False, False)
    g = _card("HIDDEN", "sideways", "#f0ece6", stroke, width, dash=True,
              attrs={"class": "place hidden"})  # fmt: skip
    return g.add(*_gangsters(s.hidden, 42))


def _hand(g: Group, s: Seat, q: int, hand: list[int] | None, viewpoint: int | None,
          x: int, y: int, w: int) -> None:  # fmt: skip
    """q's hand in the row under its name: `hand` face up when the viewpoint may see it,
    else the cards known to be in it (R7.3) face up and the rest face down."""
    g.add(Text(x + 10, y + 40, f"hand: {s.hand_size}", 11, "#333"))
    if viewpoint == q:
        g.add(Text(x + 10, y + 56, "(you)", 11, "#7b3f8c", bold=True))
    if hand is not None:
        faces = [(t, False) for t in range(C.NUM_CARD_TYPES) for _ in range(hand[t])]
        backs = 0
    else:
        faces = [(t, True) for t in range(C.NUM_CARD_TYPES) for _ in range(s.known[t])]
        backs = s.hand_size - len(faces)
    left = x + 84
    step = row_step(len(faces) + backs, w - 94)
    for k, (t, known) in enumerate(faces):
        label, sub, color = FACES[t]
        g.add(card_face(left + k * step, y + 30, label, sub, color, C.CARD_NAMES[t], q, known))
    for k in range(backs):
        g.add(card_back(left + (len(faces) + k) * step, y + 30, q))
