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
`counts` holds the decisions, replies, invalid replies and fallbacks of the agent, and a
`FallbackWarning` says when more than `warn_rate` of its decisions (after `warn_after`)
were the fallback's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.finished import NO_ACTION
from noir_env.game import game_of_state
from noir_env.text import InvalidMovePolicy, TextCounts, TextView


class TextAgent:
    """Plays by asking `fn(prompt) -> str` (module docstring). `retries`, `fallback`,
    `seed` (of the "random" fallback), `warn_rate` and `warn_after`: the invalid-move
    policy; `names`: the players by seat in prompts (default player_0, ...); `rules_card`:
    whether prompts carry the game's rules in brief; `name`: the agent's label in
    tournaments and warnings."""

    uses_state = True  # plays through act_on_state(state, games): its prompts need the log

    def __init__(self, fn: Callable[[str], str], retries: int = 2, fallback: Any = "first",
                 seed: int | None = 0, names: list[str] | None = None, name: str = "text",
                 warn_rate: float | None = 0.1, warn_after: int = 20,
                 rules_card: bool = True) -> None:  # fmt: skip
        if not callable(fn):
            raise ValueError(f"TextAgent needs a callable fn(prompt) -> str, got {fn!r}")
        self.fn = fn
        self.policy = InvalidMovePolicy(retries=retries, fallback=fallback, seed=seed,
                                        warn_rate=warn_rate, warn_after=warn_after)  # fmt: skip
        self.counts = TextCounts(who=f"TextAgent {name!r}")
        self.name = name
        self._names = names
        self._rules_card = rules_card
        self._views: dict[str, TextView] = {}

    def view(self, game: Any) -> TextView:
        """The agent's `TextView` of `game` (a name or `Game`): one per game, kept, since it
        remembers the agent's decisions."""
        key = game if isinstance(game, str) else game.name
        if key not in self._views:
            self._views[key] = TextView(game, self._names, self._rules_card)
        return self._views[key]

    def act_on_state(self, state: Any, games: Any = None) -> np.ndarray:
        """int64 [len(games)]: the move of each listed game's seat to act, from `fn`'s reply
        to that seat's prompt; -1 for a game that is over (`agents.finished`). games:
        indices into the batch `state` of NOIR or District Noir games (default: every game
        not over). Raises ValueError for a bad index (bools and non-integers included) or a
        state of no game."""
        view = self.view(game_of_state(state))
        actors = view.game.current_player(state)
        idx = np.flatnonzero(actors >= 0) if games is None else game_indices(games, len(state))
        out = np.empty(idx.size, np.int64)
        for k, g in enumerate(idx.tolist()):
            if actors[g] < 0:
                out[k] = NO_ACTION
                continue
            prompt = view.prompt(state, g)
            out[k] = self.policy.decide(self.fn, prompt, view, state, g, self.counts)
            view.record(state, g, int(out[k]))
        return out


def game_indices(games: Any, batch: int) -> np.ndarray:
    """int64 [k]: `games` as indices into a batch of `batch` games. ValueError for bools (a
    mask is not a list of indices: np.flatnonzero(mask) is), non-integers and indices out
    of the batch."""
    items = np.asarray(games, dtype=object).reshape(-1)
    for g in items.tolist():
        if isinstance(g, bool | np.bool_) or not isinstance(g, int | np.integer):
            raise ValueError(
                f"games must be integer indices into the batch, got {type(g).__name__} {g!r}"
                + (
                    " (for a mask of games, pass np.flatnonzero(mask))"
                    if isinstance(g, bool | np.bool_)
                    else ""
                )  # fmt: skip
            )
    listed = [int(g) for g in items.tolist()]
    if any(not 0 <= g < batch for g in listed):
        raise ValueError(f"games must index the batch of {batch}, got {listed}")
    return np.array(listed, dtype=np.int64)
