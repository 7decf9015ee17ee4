"""Replay a saved game: as text in the terminal, or as one self-contained HTML page.

    python -m train.replay GAME.json                     # every decision, its log, the board
    python -m train.replay GAME.json --html game.html    # the replay viewer
    python -m train.replay GAME.json --html p1.html --view player_1

GAME.json is a game's history: what `noir_v2`'s `env.history` / `save_history` hold (the
seed, the settings, every action: a game is a function of its seed and its actions), what
`train.evaluate --save-games` writes, or a District Noir history (`"env":
"district_noir_v0"`, its seed and actions). The HTML page (train/replay_html.py) shows the
board of every decision from the viewpoints chosen with `--view` (default `all`: the
spectator's and every seat's), with the game log beside it; a page made for one seat holds
nothing that seat could not see.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from noir_env.history import load_history

from .cli import Parser, first_paragraph
from .play import describe_action

DISTRICT_ENV = "district_noir_v0"


@dataclass
class Decision:
    """One decision of a replayed game (index 0: the deal): who took which action, the
    log lines it wrote, and the game after it (a batch of one state, a copy)."""

    index: int
    agent: str | None
    action: str | None
    log: list[str]
    state: Any


@dataclass
class Replay:
    """A replayed game: which game, its seats' names, its rules and its decisions."""

    game: str  # "noir" or "district_noir"
    names: list[str]
    rules: Any  # NOIR's `Rules`; None for District Noir
    decisions: list[Decision]
    # False for a NOIR history of the core's fast mode (the vector envs'): it holds only real
    # choices, so who was asked, e.g. in a reaction window, tells who holds a card
    ask_all: bool = True

    @property
    def rules_name(self) -> str:
        """The rules' name ("" for a game without presets)."""
        return getattr(self.rules, "name", "") or ""


def seat_names(history: dict, count: int) -> list[str]:
    """player_0.. with the agent of each seat where the history names them (`"players"`,
    as the tournament's sample games do): 'player_0 (heuristic)'."""
    labels = history.get("players")
    base = [f"player_{q}" for q in range(count)]
    if not isinstance(labels, list) or len(labels) != count:
        return base
    return [f"{b} ({lab})" for b, lab in zip(base, labels, strict=True)]


def replay(history: dict) -> Replay:
    """Play a history back (ValueError names what is wrong with it)."""
    if not isinstance(history, dict):
        raise ValueError(f"a game's history is a JSON object, got {type(history).__name__}")
    if history.get("env") == DISTRICT_ENV:
        return Replay("district_noir", seat_names(history, 2), None, list(_district(history)))
    from noir_env import noir_v2

    steps = noir_v2.replay_steps(history)
    first = next(steps)
    env = first.env
    names = seat_names(history, env.num_players)
    out = [Decision(0, None, None, first.log, env.state.copy())]
    for s in steps:
        assert s.agent is not None, "only the deal, the first step, has no agent"
        seat = env.possible_agents.index(s.agent)
        # 'target:+1:slot0' names a player by seat offset: say which player that is
        what = describe_action(int(history["actions"][s.index - 1]), seat, names)
        out.append(Decision(s.index, s.agent, what, s.log, env.state.copy()))
    return Replay("noir", names, env.rules, out, bool(history.get("ask_all", True)))


def _district(history: dict) -> Iterator[Decision]:
    from noir_env.history import replay_steps

    for s in replay_steps(history):
        yield Decision(s.index, s.agent, s.action, s.log, s.env.state.copy())


def print_text(game: Replay) -> None:
    """Each decision, its log lines and the board after it as text (the spectator's)."""
    from noir_env.game import get_game
    from noir_env.views import board_text

    spec = get_game(game.game)
    for d in game.decisions:
        if d.agent is not None:
            print(f"\n=== decision {d.index}: {d.agent} plays {d.action} ===")
        print("\n".join(d.log))
        print(board_text(spec, d.state, 0, None, game.rules))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = Parser(prog="python -m train.replay", description=first_paragraph(__doc__))
    p.add_argument("game", type=Path, help="a game's history (JSON)")
    p.add_argument("--html", type=Path, default=None, help="write the replay viewer here")
    p.add_argument(
        "--view",
        nargs="+",
        default=["all"],
        metavar="VIEW",
        help="the viewpoints the page holds: all (default), spectator, player_<k>",
    )
    p.add_argument("--title", default=None, help="the page's title (default: the file name)")
    return p.parse_args(argv)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Replay the game the arguments name, as text or as an HTML page."""
    args = parse_args(argv)
    parser = Parser(prog="python -m train.replay")
    history = parser.run(lambda: load_history(args.game))
    game = parser.run(lambda: replay(history))
    if args.html is None:
        print_text(game)
        return 0
    from .replay_html import write_html

    title = args.title or args.game.stem
    size = parser.run(lambda: write_html(game, args.html, args.view, title))
    print(f"written: {args.html} ({len(game.decisions)} decisions, {size / 1e3:,.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
