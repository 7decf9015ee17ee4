"""Play batches of games between agents, one agent per seat: a lineup rotated over the
seats, on the one arena loop of every game (`noir_env.vector.arena.play_games`).

    from agents import load
    from train.match import play
    result = play([load("heuristic"), load("random")], lineup=[0, 1, 1, 1], num_games=400)
    result.win_share[:, 0].mean()     # the heuristic's share of the wins

`lineup[k]` names the agent of the k-th seat counted from the game's first seat of the
lineup; the lineup is rotated by one seat per game, so every agent sits in every seat equally
often. Game g is dealt with seed `seed + g`; a game is a function of its seed and the agents,
whatever `num_games`. Agents are batched (`act(obs, mask)`) or search agents
(`uses_state`, played through `act_on_state(state, games)`; `arena.policy_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from noir_env.game import Game, get_game
from noir_env.vector.arena import play_games, policy_of


@dataclass
class MatchResult:
    """Per game: `win_share` [G, K] (each agent's share of the win: 1/k for k winners, summed
    over its seats), `length` [G] (decisions), `finished` [G] (False: stopped at max_steps),
    `win_reason` [G] (an index into the game's `win_reasons`)."""

    win_share: np.ndarray
    length: np.ndarray
    finished: np.ndarray
    win_reason: np.ndarray


def seat_agents(lineup: Sequence[int], num_games: int) -> np.ndarray:
    """int [G, n]: the agent index of every seat, the lineup rotated by one seat per game."""
    base = np.asarray(lineup, np.int64)
    n = base.size
    shift = np.arange(num_games)[:, None]
    return base[(np.arange(n)[None, :] - shift) % n]


def play(
    agents: Sequence[Any],
    lineup: Sequence[int],
    num_games: int,
    rules: Any = None,
    seed: int = 0,
    max_steps: int = 5000,
    game: str | Game = "noir",
) -> MatchResult:
    """Play `num_games` games of `game` with `len(lineup)` players (module docstring).
    Raises ValueError for a bad lineup."""
    game = get_game(game)
    n = len(lineup)
    if not game.min_players <= n <= game.max_players:
        raise ValueError(f"a lineup names {game.min_players}..{game.max_players} seats, got {n}")
    if min(lineup) < 0 or max(lineup) >= len(agents):
        raise ValueError(f"lineup entries must index the {len(agents)} agents, got {list(lineup)}")
    seats = seat_agents(lineup, num_games)
    lineups = np.full((num_games, game.max_players), -1, np.int64)
    lineups[:, :n] = seats
    policies = [policy_of(f"agent {k}", agent) for k, agent in enumerate(agents)]
    records = play_games(seed + np.arange(num_games), lineups, policies, rules, max_steps,
                         game=game)  # fmt: skip
    winners = records.winners[:, :n].astype(np.float64)
    share = winners / np.maximum(winners.sum(1, keepdims=True), 1.0)
    win_share = np.stack([(share * (seats == k)).sum(1) for k in range(len(agents))], axis=1)
    return MatchResult(
        win_share=win_share,
        length=records.length.astype(np.int64),
        finished=~records.truncated,
        win_reason=records.win_reason.astype(np.int64),
    )
