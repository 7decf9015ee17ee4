"""What the page of the browser game receives about the board: built from the human seat's
own view only, never from the whole game.

`seat_view` reads, of the game's state, only what that seat may know: the board picture is
drawn from the seat's observation (`noir_env.picture` decodes it), who is to decide and in
which phase is public (every seat is asked in every window, so being asked tells nothing),
and the legal moves with their meanings (`noir_env.text.legal_moves`, written for the
deciding seat) are listed only when the seat itself decides. Re-dealing everything hidden
from the seat leaves `seat_view` unchanged (tests/train/web/test_play_web.py checks it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from noir_env.game import Game
from noir_env.picture import board
from noir_env.text import legal_moves
from noir_env.views import views_of

# the decision's facts (`infos`) shown on the page; others are left out
DECISION_KEYS = ("turn_of", "window", "window_owner", "reaction", "selected_power")
PUBLIC_KEYS = ("turn_of", "window", "window_owner")
# how a move's name starts -> the heading of its group of controls
GROUP_TITLES = {
    "pass": "Pass",
    "end": "End",
    "confirm_attack": "Attack",
    "continue_into_hideout": "Attack",
    "discard": "Discard",
    "discard_away": "Discard",
    "draw": "Draw",
    "deploy": "Deploy",
    "from": "Move a gangster from",
    "to": "Move it to",
    "hideout_under": "Hideout",
    "hideout_to_open": "Hideout",
    "play": "Play a card",
    "target": "Target",
    "power": "Power",
    "bribe": "Bribe",
    "take": "Take",
}


def phase_title(phase: str | None) -> str:
    """'move_gangsters' -> 'Move gangsters' (the page's words for a phase)."""
    return (phase or "").replace("_", " ").capitalize()


def move_groups(moves) -> list[dict[str, Any]]:
    """The legal moves (`noir_env.text.Move`) as groups of controls, in action-id order:
    [{"title", "kind", "moves": [{"id", "name", "meaning"}]}]."""
    groups: dict[str, dict[str, Any]] = {}
    for m in moves:
        kind = m.name.split(":")[0]
        title = GROUP_TITLES.get(kind, phase_title(kind))
        group = groups.setdefault(title, {"title": title, "kind": kind, "moves": []})
        group["moves"].append({"id": m.id, "name": m.name, "meaning": m.meaning or m.name})
    return list(groups.values())


def seat_view(game: Game, state, seat: int, names: list[str], rules_name: str = "") -> dict:
    """The board as game 0 of `state` shows it to `seat` (module docstring): {"board": the
    SVG picture from the seat, "to_act": who decides and about what (None once over),
    "moves": the seat's legal moves as groups (empty unless it decides), "legal": how
    many}."""
    actor = int(game.current_player(state)[0])
    out: dict[str, Any] = {
        "board": board(state, 0, seat, names, rules_name).svg,
        "to_act": None,
        "moves": [],
        "legal": 0,
    }
    if actor < 0:
        return out
    views = views_of(game)
    k = game.kernel_view(state)
    info = views.decision_info(k, names)
    to_act = {"name": names[actor], "you": actor == seat, "phase": views.phase_name(k)}
    # another seat's decision: only whose turn and which window (what it is choosing shows
    # in the log once chosen)
    keys = DECISION_KEYS if actor == seat else PUBLIC_KEYS
    to_act.update({key: info[key] for key in keys if key in info})
    to_act["out_of_turn"] = "turn_of" in info and info["turn_of"] != names[actor]
    out["to_act"] = to_act
    if actor == seat:
        out["legal"] = int(np.count_nonzero(game.legal_action_mask(state)[0]))
        out["moves"] = move_groups(legal_moves(game, state, 0, names))
    return out
