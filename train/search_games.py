"""Games between one search agent and batched agents, played over the rules core.

    from train.search_games import play_search_games
    result = play_search_games(agents.load("ismcts", budget=200), "heuristic", num_players=4,
                               games=200, seed=0)
    print(result.summary())

The search agent takes one seat per game and decides through its hook
`act_on_state(state, games)` (agents/ismcts.py); every other seat is one batched agent
(`act(obs, mask)`, a name for `agents.load` or an object) called on all the games waiting for
it at once. Game k deals with seed `seed + k` and seats the search agent at `k % n`, so every
seat is played equally often. The games run in fast mode (`core.init`'s default): the core
takes every forced decision itself.

This loop exists apart from the arena (noir_env/vector/arena.py) until the arena offers
search agents the state hook itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import agents
from noir_env import core

from .tournament import wilson_interval


class ObservingAgent:
    """A batched agent behind the state hook: `act_on_state(state, games)` shows it each
    listed game as the acting seat observes it (`core.observe`, the legal-action mask), so
    it can take the search agent's seat as a reference."""

    def __init__(self, agent: Any):
        if not callable(getattr(agent, "act", None)):
            raise ValueError(f"agent must have act(obs, mask), got {agent!r}")
        self.agent = agent

    def act_on_state(self, state: core.State, games: np.ndarray) -> np.ndarray:
        sub = core.take(state, np.asarray(games, np.int64))
        return np.asarray(self.agent.act(core.observe(sub), core.legal_action_mask(sub)))


@dataclass
class SearchGamesResult:
    """The search agent's results over the games played."""

    num_players: int
    share: np.ndarray  # float64 [G]: its share of the win (1/k with k winners; 0 if it lost)
    seat: np.ndarray  # int64 [G]: its seat
    decisions: int  # decisions it was asked (fast mode: two or more legal actions)
    ms_per_decision: float  # its mean thinking time per decision (wall clock)
    cpu_ms_per_decision: float  # the same in CPU time of this process (contention aside)
    seconds: float  # wall time of the whole run

    @property
    def games(self) -> int:
        return int(self.share.shape[0])

    def win_rate(self) -> tuple[float, float, float]:
        """(rate, low, high): the mean win share and its 95% Wilson interval (a shared win
        counts as its share)."""
        wins = float(self.share.sum())
        low, high = wilson_interval(wins, self.games)
        return wins / self.games, float(low), float(high)

    def summary(self) -> str:
        rate, low, high = self.win_rate()
        return (
            f"{self.num_players}p, {self.games} games: win {100 * rate:.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}] (par {100 / self.num_players:.1f}%), "
            f"{self.cpu_ms_per_decision:.1f} CPU ms/decision over {self.decisions} decisions"
        )


def play_search_games(
    searcher: Any,
    opponent: Any = "heuristic",
    num_players: int = 4,
    games: int = 100,
    seed: int = 0,
    rules: str = "noirburg",
) -> SearchGamesResult:
    """Play `games` games of `num_players`: `searcher` (an object with `act_on_state`) in
    one seat, `opponent` (an object with `act(obs, mask)`, or an agent name, then loaded with
    `seed`) in the others.
    Raises ValueError for an agent without the needed method or a bad count."""
    if not callable(getattr(searcher, "act_on_state", None)):
        raise ValueError(f"searcher must have act_on_state(state, games), got {searcher!r}")
    if isinstance(opponent, str):
        opponent = agents.load(opponent, seed=seed)
    if not callable(getattr(opponent, "act", None)):
        raise ValueError(f"opponent must have act(obs, mask), got {opponent!r}")
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    start = time.perf_counter()
    state = core.init(games, num_players, rules, seeds=seed)
    seat = np.arange(games, dtype=np.int64) % num_players
    decisions, thinking, thinking_cpu = 0, 0.0, 0.0
    actions = np.zeros(games, np.int64)
    while True:
        actor = core.current_player(state)
        live = actor >= 0
        if not live.any():
            break
        mine = np.flatnonzero(live & (actor == seat))
        theirs = np.flatnonzero(live & (actor != seat))
        if mine.size:
            t0, c0 = time.perf_counter(), time.process_time()
            actions[mine] = searcher.act_on_state(state, mine)
            thinking += time.perf_counter() - t0
            thinking_cpu += time.process_time() - c0
            decisions += mine.size
        if theirs.size:
            sub = core.take(state, theirs)
            actions[theirs] = opponent.act(core.observe(sub), core.legal_action_mask(sub))
        core.step(state, actions)
    winners = state.winners.astype(np.float64)
    share = winners[np.arange(games), seat] / winners.sum(axis=1)
    return SearchGamesResult(
        num_players=num_players,
        share=share,
        seat=seat,
        decisions=decisions,
        ms_per_decision=1e3 * thinking / max(decisions, 1),
        cpu_ms_per_decision=1e3 * thinking_cpu / max(decisions, 1),
        seconds=time.perf_counter() - start,
    )
