"""Play batches of NOIR games between agents on the batched core, one agent per seat.

    from agents import load
    from agents.match import play
    result = play([load("heuristic"), load("random")], lineup=[0, 1, 1, 1], num_games=400)
    result.win_share[:, 0].mean()     # the heuristic's share of the wins

`lineup[k]` names the agent of the k-th seat counted from the game's first seat of the
lineup; the lineup is rotated by one seat per game, so every agent sits in every seat equally
often. Games run in the core's fast mode (`ask_all=False`): only real choices are presented,
which suits agents that see no other seat's decisions. A game is a function of its seed and
the agents, whatever `num_games`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from noir_env import core
from noir_env.core.rules import Rules


@dataclass
class MatchResult:
    """Per game: `win_share` [G, K] (each agent's share of the win: 1/k for k winners, summed
    over its seats), `length` [G] (decisions), `finished` [G] (False: stopped at max_steps),
    `win_reason` [G] (the core's code, `constants.WIN_REASONS`), `decisions` (all agents)."""

    win_share: np.ndarray
    length: np.ndarray
    finished: np.ndarray
    win_reason: np.ndarray
    decisions: int


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
    rules: str | Rules = "noirburg",
    seed: int = 0,
    max_steps: int = 5000,
) -> MatchResult:
    """Play `num_games` games with `len(lineup)` players (module docstring); game g uses
    seed `seed + g`. Raises ValueError for a bad lineup."""
    n = len(lineup)
    if not 3 <= n <= 6:
        raise ValueError(f"a lineup names 3..6 seats, got {n}")
    if min(lineup) < 0 or max(lineup) >= len(agents):
        raise ValueError(f"lineup entries must index the {len(agents)} agents, got {list(lineup)}")
    seats = seat_agents(lineup, num_games)
    state = core.init(num_games, n, rules, seeds=seed)
    rows = np.arange(num_games)
    decisions = 0
    for _ in range(max_steps):
        actor = core.current_player(state).astype(np.int64)
        live = actor >= 0
        if not live.any():
            break
        obs = core.observe(state)
        mask = core.legal_action_mask(state)
        actions = np.zeros(num_games, np.int64)
        who = np.where(live, seats[rows, np.maximum(actor, 0)], -1)
        for k, agent in enumerate(agents):
            pick = np.flatnonzero(who == k)
            if pick.size:
                actions[pick] = agent.act(obs[pick], mask[pick])
        decisions += int(live.sum())
        core.step(state, actions)
    finished = state.actor < 0
    winners = state.winners.astype(np.float64)[:, :n] * finished[:, None]
    share = winners / np.maximum(winners.sum(1, keepdims=True), 1.0)
    win_share = np.zeros((num_games, len(agents)))
    for k in range(len(agents)):
        win_share[:, k] = (share * (seats == k)).sum(1)
    return MatchResult(
        win_share=win_share,
        length=state.steps.astype(np.int64),
        finished=finished,
        win_reason=state.win_reason.astype(np.int64),
        decisions=decisions,
    )
