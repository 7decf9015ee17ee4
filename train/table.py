"""A human's table, the same in the terminal (train/play.py) and in the browser (train/web):
the bots at the other seats, and how the game ended, in data and in words."""

from __future__ import annotations

from typing import Any

import numpy as np

from noir_env.game import Game, get_game


def load_bots(opponents: list[str], num_players: int, human_seat: int, seed: int | None,
              game: str | Game | None = None):  # fmt: skip
    """{seat: (name, agent)} for every seat but the human's: one name for all bots, or one
    per bot in seat order. Raises ValueError for a wrong count, an unknown name, or an agent
    that plays another game than `game` (its `game` attribute)."""
    from agents import load

    bots = num_players - 1
    if len(opponents) not in (1, bots):
        raise ValueError(
            f"give one opponent for every bot or one per bot ({bots}), got {len(opponents)}"
        )
    names = opponents * bots if len(opponents) == 1 else list(opponents)
    seats = [q for q in range(num_players) if q != human_seat]
    out = {}
    plays = None if game is None else get_game(game)
    for k, (seat, name) in enumerate(zip(seats, names, strict=True)):
        agent = load(name, seed=None if seed is None else _bot_seed(seed, k))
        fits = getattr(agent, "game", None)
        if plays is not None and fits is not None and fits != plays.name:
            raise ValueError(f"agent {name!r} plays {get_game(fits).title} only, not "
                             f"{plays.title}")  # fmt: skip
        out[seat] = (name, agent)
    return out


def _bot_seed(seed: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, k]).generate_state(1)[0])


def outcome(game: Game, state, names: list[str]) -> dict[str, Any] | None:
    """How game 0 of `state` ended: {"winners": names, "reason", "scores": {name: score}};
    None while it goes on."""
    if game.current_player(state)[0] >= 0:
        return None
    points = game.scores(state)[0]
    return {
        "winners": [names[q] for q in range(len(names)) if game.winners(state)[0, q]],
        "reason": game.win_reasons[int(game.win_reason(state)[0])],
        "scores": {a: int(points[q]) for q, a in enumerate(names)},
    }


def result_text(game: Game, state, names: list[str], human: str, max_steps: int) -> str:
    """Who won and why, and every score, said to `human`; a game stopped after `max_steps`
    decisions has no winner."""
    end = outcome(game, state, names)
    if end is None:
        return f"The game was stopped after {max_steps} decisions: no winner."
    scores = ", ".join(f"{a} {points}" for a, points in end["scores"].items())
    winners = end["winners"]
    if not winners:
        return f"A draw ({end['reason']}). Scores: {scores}"
    you = "You won!" if human in winners else "You lost."
    return f"{you} Won by {' and '.join(winners)} ({end['reason']}). Scores: {scores}"
