"""An agent that plays by text: `TextAgent(fn)` asks `fn(prompt) -> str` (a language model
client, a person, a script) at every decision and plays the move its reply names.

    agent = TextAgent(my_llm)                          # my_llm(prompt: str) -> str
    result = run_tournament([agent, "heuristic", "heuristic", "heuristic"], games=8)

It plays NOIR and District Noir, reaction windows included, wherever the project seats an
agent: tournaments and `train.match` (`noir_env.vector.arena`), AEC loops (`act_in_aec`).
The prompt (`noir_env.text.TextView`) tells what happened since the seat's last decision,
which the batched protocol `act(obs, mask)` cannot carry, so the agent plays through the
state hook of search agents, `act_on_state(state, games)`, and reads of the game only what
the acting seat may know: the table, its own hand, the public log and its legal moves.

A reply that names no legal move is asked again with the error, `retries` times, then the
`fallback` decides ("first", "random", "raise" or an agent: `noir_env.text.policy`);
`counts` holds the decisions, replies, invalid replies and fallbacks of the agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from noir_env.game import game_of_state
from noir_env.text import InvalidMovePolicy, TextCounts, TextView


class TextAgent:
    """Plays by asking `fn(prompt) -> str` (module docstring). `retries`, `fallback` and
    `seed` (of the "random" fallback): the invalid-move policy; `names`: the players by
    seat in prompts (default player_0, ...); `name`: the agent's label in tournaments."""

    uses_state = True  # plays through act_on_state(state, games): its prompts need the log

    def __init__(self, fn: Callable[[str], str], retries: int = 2, fallback: Any = "first",
                 seed: int | None = 0, names: list[str] | None = None,
                 name: str = "text") -> None:  # fmt: skip
        if not callable(fn):
            raise ValueError(f"TextAgent needs a callable fn(prompt) -> str, got {fn!r}")
        self.fn = fn
        self.policy = InvalidMovePolicy(retries=retries, fallback=fallback, seed=seed)
        self.counts = TextCounts()
        self.name = name
        self._names = names
        self._views: dict[str, TextView] = {}

    def view(self, game: Any) -> TextView:
        """The agent's `TextView` of `game` (a name or `Game`): one per game, kept, since it
        remembers the agent's decisions."""
        key = game if isinstance(game, str) else game.name
        if key not in self._views:
            self._views[key] = TextView(game, self._names)
        return self._views[key]

    def act_on_state(self, state: Any, games: Any = None) -> np.ndarray:
        """int64 [len(games)]: the move of each listed game's seat to act, from `fn`'s reply
        to that seat's prompt. games: indices into the batch `state` of NOIR or District
        Noir games (default: every game not over). Raises ValueError for a finished game,
        a bad index or a state of no game."""
        view = self.view(game_of_state(state))
        actors = view.game.current_player(state)
        idx = np.flatnonzero(actors >= 0) if games is None else np.asarray(games, np.int64)
        idx = idx.reshape(-1)
        if idx.size and (idx.min() < 0 or idx.max() >= len(state)):
            raise ValueError(f"games must index the batch of {len(state)}, got {idx.tolist()}")
        out = np.empty(idx.size, np.int64)
        for k, g in enumerate(idx.tolist()):
            if actors[g] < 0:
                raise ValueError(f"game {g} is over: it has no player to act")
            prompt = view.prompt(state, g)
            out[k] = self.policy.decide(self.fn, prompt, view, state, g, self.counts)
            view.record(state, g, int(out[k]))
        return out
