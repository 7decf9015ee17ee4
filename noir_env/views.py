"""What the environments show of a game beyond the protocol: its env's name, the board as
text, the game log in sentences, what each decision is about, the rules in a history, the
observation's bounds. One `GameViews` per game, found by the game's name in `VIEWS` (the
env layer's table of games with views of their own); any other game gets the generic views
below, built from the protocol alone.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from .engine.protocol import Game

# game name -> the env module whose `VIEWS` class shows that game
VIEWS = {"noir": "noir_env.noir_v2", "district_noir": "noir_env.district_noir_v0"}


class Chronicle:
    """The game log of one env, in sentences: by default one line per move, written
    before the move is played ("player_1: advance:2")."""

    def __init__(self, views: GameViews, agents: list[str]):
        self.views = views
        self.agents = agents
        self._lines: list[str] = []

    def start(self, state) -> None:
        """A new game was dealt."""
        self._lines = []

    def before(self, state, seat: int, action: int) -> None:
        """`seat` is about to play `action` (legal)."""
        line = self.views.move_text(state, self.agents, seat, action)
        if line:
            self._lines.append(line)

    def after(self, state) -> None:
        """The move was played (and every forced decision after it)."""

    def sync(self, state) -> None:
        """The state was edited by hand: continue from it."""

    def take_lines(self) -> list[str]:
        """The sentences written since the last call."""
        lines, self._lines = self._lines, []
        return lines

    def eliminated_by(self) -> dict[int, int]:
        """Seats put out of the game since the last call, with the seat that did it."""
        return {}


class GameViews:
    """The generic views of a game (module docstring); a game's env module overrides what it
    shows better."""

    env_name = "game_aec"  # PettingZoo's metadata name and a history's "env"
    render_modes: tuple[str, ...] = ("human", "ansi")

    def __init__(self, game: Game):
        self.game = game

    def chronicle(self, agents: list[str]) -> Chronicle:
        """A new game log for an env with these agents."""
        return Chronicle(self, agents)

    def move_text(self, state, agents: list[str], seat: int, action: int) -> str | None:
        """A move as a line of the game log, before it is played."""
        return f"{agents[seat]}: {self.game.action_name(action)}"

    def board_text(self, state, i: int, seat: int | None, agents: list[str], rules: Any) -> str:
        """Game i as text from `seat`'s view (None: the spectator's)."""
        g = self.game
        actor = int(g.current_player(state)[i])
        who = f"{agents[actor]} to act" if actor >= 0 else "game over"
        scores = g.scores(state)[i]
        seats = ", ".join(f"{agents[q]} {int(scores[q])}" for q in range(len(agents)))
        word = g.turn_word.rstrip("s")
        return f"{g.title} {word} {int(g.turns(state)[i])}: {who} | scores: {seats}"

    def phase_name(self, state, i: int = 0) -> str | None:
        """The name of the phase game i is in (None: a game without phases)."""
        return None

    def decision_info(self, state, agents: list[str]) -> dict[str, Any]:
        """What the decision of game 0's actor is about (its `infos` entry)."""
        return {}

    def rules_to_json(self, rules: Any) -> Any:
        """The rules as JSON (a game without presets: None)."""
        return self.game.rules_name(rules)

    def rules_from_json(self, value: Any) -> Any:
        """The rules `rules_to_json` wrote."""
        return value

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) float32 [obs_size]: the values an observation entry can take."""
        size = self.game.obs_size
        return np.full(size, -np.inf, np.float32), np.full(size, np.inf, np.float32)

    def history(self, state, i: int, rules: Any, seed: int, actions: list[int],
                max_steps: int | None = None) -> dict[str, Any]:  # fmt: skip
        """Game i, dealt with `seed` and played with `actions`, as a history (the format
        of `noir_env.history`): its game, settings and every decision."""
        out: dict[str, Any] = {
            "env": self.env_name,
            "num_players": int(self.game.num_players(state)[i]),
            "rules": self.rules_to_json(rules),
            "seed": int(seed),
            "ask_all": bool(state["ask_all"][i]) if "ask_all" in state.dtype.names else True,
            "actions": list(actions),
        }
        if max_steps is not None:
            out["max_steps"] = int(max_steps)
        return out


def views_of(game: Game) -> GameViews:
    """The views of `game`: its env module's, or the generic ones."""
    module = VIEWS.get(getattr(game, "name", ""))
    if module is None:
        return GameViews(game)
    return importlib.import_module(module).VIEWS(game)


def observation_space(game: Game):
    """The Gymnasium space of one observation of `game` (its views' bounds)."""
    import gymnasium

    low, high = views_of(game).observation_bounds()
    return gymnasium.spaces.Box(low, high, dtype=np.float32)


def action_space(game: Game):
    """The Gymnasium space of one action of `game`."""
    import gymnasium

    return gymnasium.spaces.Discrete(game.num_actions)


def board_text(game: Game, state, i: int = 0, seat: int | None = None, rules: Any = None) -> str:
    """Game i of `state` as text from `seat`'s view (None: the spectator's)."""
    agents = [f"player_{q}" for q in range(int(game.num_players(state)[i]))]
    return views_of(game).board_text(state, i, seat, agents, game.check_rules(rules))


def history(game: Game, state, i: int, rules: Any, seed: int, actions: list[int]) -> dict:
    """Game i, dealt with `seed` and played with `actions`, as a history
    (`noir_env.history`)."""
    return views_of(game).history(state, i, game.check_rules(rules), seed, actions)
