"""A prompt-ready text observation of any seat's decision, and the reply's move.

    view = TextView("noir")                      # or "district_noir"
    prompt = view.prompt(state, i)               # game i, for the seat to act
    action = view.parse(reply, state, i)         # InvalidReply lists the legal moves
    view.record(state, i, action)                # before stepping: what the seat decided

A prompt holds, in this order: who the seat is, the game's rules card (`rules_card`), the
table from the seat's view (the game's own board text: only the seat's hand is shown),
what happened since the seat's last decision (sentences of the game log, `chronicle`),
the phase and what is being decided, and the legal moves, numbered, each with its stable
name and a one-line meaning (`moves`), then how to answer (`parse`'s grammar: a move in
square brackets last). `intro` (who and the rules) and `decision` (the rest) are its two
halves, for a caller that gives the rules once (TextArena's first message).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import constants as C
from ..core.rules import PRESETS, rules_from_kernel_values, rules_from_row, rules_row
from ..district import constants as DC
from ..game import Game, get_game
from ..views import board_text
from .chronicle import chronicle_for
from .moves import Move, legal_moves
from .parse import parse_reply
from .rules_card import rules_card, templates

_INTRO = {
    "noir": (
        "You are {name}, playing NOIR, a mafia card game, with {n} players ({rules} rules). "
        "Players are named by seat; a move's target:+r names the player r seats after you."
    ),
    "district_noir": "You are {name}, playing District Noir, a card game for two players.",
}
_ANSWER = (
    "Think it over if you like, then end your reply with your move in square brackets: its "
    "name, for example [{example}], or its number in the list."
)
_DECIDE = {
    C.PH_MULLIGAN: "mulligan: set cards aside to draw new ones, or keep your hand",
    C.PH_MOVE: "Move Gangsters step: pick up one of your gangsters to move, or end the step",
    C.PH_MOVE_TO: "Move Gangsters step: where the gangster you picked up goes",
    C.PH_ATTACK: "Attack step: what to attack, or end the step",
    C.PH_ATTACKERS: "Attack step: add attackers one at a time, then confirm the attack",
    C.PH_DEPLOY: "Deploy step: a card to deploy from your hand, or end the step",
    C.PH_DEPLOY_TO: "Deploy step: where the gangster you deploy goes",
    C.PH_MOVE_HIDEOUT: "Move Hideout step: where your Hideout goes",
    C.PH_DISCARD: "Discard step: cards to discard, or stop",
    C.PH_DRAW: "Draw step: how many cards to draw",
    C.PH_REACT_TARGET: "the target of the reaction card you just played",
    C.PH_TURNCOAT_POWER: "which gangster your Turncoat takes",
    C.PH_CONTINUE: "go on from the razed business into the Hideout, or stop",
}


class TextView:
    """Prompts and replies of `game` (a name or a `Game`) for every seat (module
    docstring). `names`: the players by seat (default player_0, player_1, ...). One view
    follows any number of games, each recognised from the game itself (`chronicle`)."""

    def __init__(self, game: str | Game, names: list[str] | None = None,
                 rules_card: bool = True):  # fmt: skip
        self.game = get_game(game)
        self.rules_card = bool(rules_card)
        self.names = (
            list(names)
            if names is not None
            else [f"player_{q}" for q in range(self.game.max_players)]
        )
        if len(self.names) < self.game.max_players:
            raise ValueError(
                f"names must name {self.game.max_players} seats, got {len(self.names)}"
            )
        self.chronicle = chronicle_for(self.game, self.names)

    # --- the moves ----------------------------------------------------------------------
    def moves(self, state, i: int = 0) -> list[Move]:
        """The legal moves of game i's seat to act, in the order the prompt lists them."""
        return legal_moves(self.game, state, i, self.names)

    def parse(self, reply: str, state, i: int = 0) -> int:
        """The action id `reply` chooses in game i (`parse.parse_reply`); InvalidReply
        naming what is wrong and listing the legal moves otherwise."""
        return parse_reply(reply, self.moves(state, i), self.game.action_names)

    # --- the prompt ---------------------------------------------------------------------
    def intro(self, state, i: int = 0, seat: int | None = None) -> str:
        """Who `seat` (default: the seat to act) is, the game, and its rules card (the
        game's rules in brief for its rule set and player count, `rules_card`) unless
        the view was made with rules_card=False."""
        seat = self._seat(state, i, seat)
        n = int(self.game.num_players(state[i : i + 1])[0])
        rules = self._rules_of(state, i)
        brief = _INTRO.get(self.game.name, "You are {name}, playing {title}.")
        text = brief.format(name=self.names[seat], n=n, title=self.game.title,
                            rules=getattr(rules, "name", None))  # fmt: skip
        if self.rules_card and self.game.name in templates():
            text += "\n\nThe rules in brief:\n" + rules_card(self.game.name, rules, n)
        return text

    def decision(self, state, i: int = 0, seat: int | None = None) -> str:
        """The table from `seat`'s view, what happened since its last decision, what is
        being decided and the legal moves (those of the seat to act; none for another
        seat). Reading it does not move the chronicle on: `record` does."""
        seat = self._seat(state, i, seat)
        moves = self.moves(state, i) if seat == self._actor(state, i) else []
        parts = [self._table(state, i, seat), self._happened(state, i, seat)]
        if moves:
            example = moves[0].name
            listed = [f"  {k}. {m.name}: {m.meaning}" if m.meaning else f"  {k}. {m.name}"
                      for k, m in enumerate(moves, start=1)]  # fmt: skip
            parts.append(f"Decide: {self._deciding(state, i)}")
            parts.append("Legal moves:\n" + "\n".join(listed))
            parts.append(_ANSWER.format(example=example))
        return "\n\n".join(parts)

    def prompt(self, state, i: int = 0, seat: int | None = None) -> str:
        """`intro` and `decision`: the whole prompt of one decision."""
        return self.intro(state, i, seat) + "\n\n" + self.decision(state, i, seat)

    def record(self, state, i: int, action: int) -> None:
        """Game i's seat to act takes `action` (call before the game steps): its next
        prompt tells what happened from here on. ValueError for an illegal action."""
        seat = self._seat(state, i, None)
        if not self.game.legal_action_mask(state[i : i + 1])[0, int(action)]:
            raise ValueError(self.game.describe_illegal(state[i : i + 1], 0, int(action)))
        if self.chronicle is not None:
            self.chronicle.record(state, i, seat, int(action))

    # --- parts --------------------------------------------------------------------------
    def _actor(self, state, i: int) -> int:
        return int(self.game.current_player(state[i : i + 1])[0])

    def _seat(self, state, i: int, seat: int | None) -> int:
        if seat is None:
            seat = self._actor(state, i)
            if seat < 0:
                raise ValueError(f"game {i} is over: name the seat whose view to write")
        n = int(self.game.num_players(state[i : i + 1])[0])
        if not 0 <= int(seat) < n:
            raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
        return int(seat)

    def _table(self, state, i: int, seat: int) -> str:
        # the board names players player_<seat>: other names replace them
        text = board_text(self.game, state, i, seat, self._rules(state, i))
        for q in range(len(self.names) - 1, -1, -1):  # player_1 after player_10..
            if self.names[q] != f"player_{q}":
                text = text.replace(f"player_{q}", self.names[q])
        return "The table (you see your own hand only):\n" + text

    def _rules(self, state, i: int) -> Any:
        """NOIR: the preset a game's rules row is (the board names it); None otherwise."""
        rules = self._rules_of(state, i)
        return rules.name if rules is not None and rules.name in PRESETS else None

    def _rules_of(self, state, i: int) -> Any:
        """NOIR: game i's `Rules` (a preset's, else "custom" ones); None for other games."""
        if self.game.name != "noir":
            return None
        row = np.asarray(state[i]["rules"])
        for rules in PRESETS.values():
            if np.array_equal(rules_row(rules), row):
                return rules
        return rules_from_kernel_values(rules_from_row(row), name="custom")

    def _happened(self, state, i: int, seat: int) -> str:
        if self.chronicle is None:
            return "What happened since your last decision: (this game keeps no log)"
        lines, found = self.chronicle.since(state, i, seat)
        if not found:
            if self.game.name != "noir":
                return "What happened since your last decision: (no earlier decision seen)"
            if not lines:
                return "What happened so far: nothing yet"
            head = "What happened so far"
            if int(state[i]["log_n"]) > C.LOG_LEN:  # the ring holds the newest events only
                head += f" (the last {C.LOG_LEN} events: the log keeps no more)"
            return head + ":\n" + "\n".join(f"- {s}" for s in lines)
        if not lines:
            return "What happened since your last decision: nothing"
        return "What happened since your last decision:\n" + "\n".join(f"- {s}" for s in lines)

    def _deciding(self, state, i: int) -> str:
        g = state[i]
        if self.game.name == "district_noir":
            acts = int(g["acts"][int(g["actor"])])
            return (
                f"round {int(g['round_no']) + 1} of {DC.NUM_ROUNDS}, your action {acts + 1} "
                f"of {DC.ACTIONS_PER_ROUND}: put a card at the end of the line, or take"
            )
        if self.game.name != "noir":
            return "your move"
        phase = int(g["phase"])
        turn = f" ({self.names[int(g['active'])]}'s turn)"
        if phase == C.PH_WINDOW:
            window = C.WINDOW_NAMES[int(g["win_kind"])].replace("_", " ")
            owner = self.names[int(g["win_owner"])]
            return f"reaction window ({window}, {owner}'s): play a reaction card, or pass" + turn
        return _DECIDE.get(phase, C.Phase(phase).name) + turn
