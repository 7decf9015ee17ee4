"""One agent in a rotating seat against batched agents, with its thinking time: the games
behind docs/ISMCTS.md's tables, played by the arena (`noir_env.vector.arena.play_games`).

    from train.search_games import play_search_games
    result = play_search_games(agents.load("ismcts", budget=200), "heuristic", num_players=4,
                               games=200, seed=0)
    print(result.summary())

The measured agent takes one seat per game: a search agent (`uses_state`, it decides through
`act_on_state(state, games)`) or any batched agent (`act(obs, mask)`, e.g. the heuristic as
the reference row); `noir_env.vector.arena.policy_of` tells which. Every other seat is one
batched agent (a name for `agents.load` or an object) called on all the games waiting for it
at once. Game k deals with seed `seed + k` and seats the measured agent at `k % n`, so every
seat is played equally often. The arena answers decisions with a single legal action itself,
so the agent is asked (and timed) only where it has a choice.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import agents
from noir_env.game import get_game
from noir_env.vector.arena import play_games, policy_of

from .tournament import wilson_interval


@dataclass
class SearchGamesResult:
    """The measured agent's results over the games played."""

    num_players: int
    share: np.ndarray  # float64 [G]: its share of the win (1/k with k winners; 0 if it lost)
    seat: np.ndarray  # int64 [G]: its seat
    decisions: int  # decisions it was asked (two or more legal actions each)
    ms_per_decision: float  # its mean thinking time per decision (wall clock)
    cpu_ms_per_decision: float  # the same in CPU time of this process (contention aside)
    seconds: float  # wall time of the whole run
    truncated: int = 0  # games stopped at max_steps (no winner)

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


class _Clock:
    """Wraps the measured agent's arena callable: counts the decisions it is asked and the
    wall and CPU time it takes over them."""

    def __init__(self, decide: Any):
        self.decide = decide
        self.decisions, self.seconds, self.cpu_seconds = 0, 0.0, 0.0
        self.bar: Any = None  # a tqdm bar of games whose postfix counts the decisions
        self._shown = 0.0

    def __call__(self, first: Any, second: np.ndarray) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        actions = self.decide(first, second)
        self.seconds += time.perf_counter() - t0
        self.cpu_seconds += time.process_time() - c0
        self.decisions += len(second)  # the mask's or the games' rows: one per decision
        if self.bar is not None and time.perf_counter() - self._shown > 2.0:
            # the games run side by side and end together: the decisions show the progress
            self._shown = time.perf_counter()
            self.bar.set_postfix(decisions=self.decisions)
        return actions


def play_search_games(
    searcher: Any,
    opponent: Any = "heuristic",
    num_players: int = 4,
    games: int = 100,
    seed: int = 0,
    rules: str = "noirburg",
    max_steps: int = 10_000,
    slots: int = 2048,
    progress: bool = False,
) -> SearchGamesResult:
    """Play `games` games of `num_players`: `searcher` (a search agent with `act_on_state`,
    or a batched agent) in one seat, `opponent` (an agent object, or an agent name, then
    loaded with `seed`) in the others; `max_steps` and `slots` are the arena's; `progress`
    shows a bar of games played (a search game takes seconds).
    Raises ValueError for an agent without the needed method or a bad count."""
    game = get_game("noir")
    if isinstance(opponent, str):
        opponent = agents.load(opponent, seed=seed)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if not isinstance(num_players, int) or not 3 <= num_players <= game.max_players:
        raise ValueError(
            f"num_players must be an int in 3..{game.max_players}, got {num_players!r}"
        )
    field = policy_of("opponent", opponent)
    measured = policy_of("searcher", searcher)
    if measured.act_on_state is not None:
        clock = _Clock(measured.act_on_state)
        measured = dataclasses.replace(measured, act_on_state=clock)
    else:
        clock = _Clock(measured.act)
        measured = dataclasses.replace(measured, act=clock)
    seat = np.arange(games, dtype=np.int64) % num_players
    lineups = np.full((games, game.max_players), -1, np.int64)
    lineups[:, :num_players] = 1
    lineups[np.arange(games), seat] = 0
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", desc=f"{num_players}p", smoothing=0.1)
        clock.bar = bar
    try:
        records = play_games(seed + np.arange(games), lineups,
                             [measured, field], rules, max_steps,
                             slots, progress=bar.update if bar else None, game=game)  # fmt: skip
    finally:
        if bar is not None:
            bar.close()
    winners = records.winners.astype(np.float64)
    share = winners[np.arange(games), seat] / np.maximum(winners.sum(axis=1), 1.0)
    return SearchGamesResult(
        num_players=num_players,
        share=share,
        seat=seat,
        decisions=clock.decisions,
        ms_per_decision=1e3 * clock.seconds / max(clock.decisions, 1),
        cpu_ms_per_decision=1e3 * clock.cpu_seconds / max(clock.decisions, 1),
        seconds=time.perf_counter() - start,
        truncated=int(records.truncated.sum()),
    )
