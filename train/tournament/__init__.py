"""Tournaments between agents: a balanced schedule, batched play, statistics, ratings, files.

    from train.tournament import run_tournament, save

    result = run_tournament(["heuristic", "random", "random", "random"], num_players=4,
                            games=4000, seed=0)
    print(result.table())
    save(result, "runs/eval/heuristic_vs_random")

District Noir plays the same way with `game="district_noir"` (two seats: each round of
K games replays one deal with the seats rotated, so with two entrants they swap seats on
the same deal; the batched loop of every game is `noir_env/vector/arena.py`):

    result = run_tournament(["district-heuristic", "random"], game="district_noir", games=400)

Agents are names for `agents.load` (with options as `"name:key=value,..."`), agent objects
with a batched `act(obs, mask)`, or such callables; a mapping `{label: agent}` names them.
A search agent (`uses_state = True`, e.g. `"ismcts:budget=200"`) is called through its hook
`act_on_state(state, games)` on a copy of the games where it must act
(`noir_env.vector.arena`); it decides from the acting seat's information only.
The same agent listed twice is two entrants ("random", "random#2"), which is how one agent
gets several seats at a table. An agent with `observes = False` reads only the mask and is
passed obs=None (no observations written for it); the uniform random agent is played inside
the compiled loop (`noir_env/vector/arena.py`).

**Schedule.** For K entrants and tables of n <= K seats, the games come in rounds of K
games, all dealt with the same seed: a random order `perm` of the entrants is drawn, and
table j seats `perm[(j + s) % K]` in seat s. Each entrant so plays n games per round and sits
in every seat exactly once, on the same deal (with K = n: the same deal replayed with the
seats rotated), which cuts the variance the deal and the seat add to comparisons. `games` is
rounded up to whole rounds. Several table sizes are played side by side in one batch.

**Results** (per table size, and over all sizes when there are several): per entrant its
games, wins and win rate with a 95% Wilson interval, the win rate an equal player would
have ("par": 1/n), mean score (R6.4) and finishing rank, mean game length, wins by
reason; a head-to-head table (how often the row entrant finished ahead of the column
entrant in the games they shared, ties counted half); and one OpenSkill (Plackett-Luce)
rating per entrant from the finishing order of all games. Finishing order: the winners, then the
players still in by score, then the eliminated players, the last eliminated first; equal
places share the better rank (1, 2, 2, 4). A truncated game has no winner. The intervals
treat games as independent; an entrant plays every seat of a deal, which takes the luck of
the deal out of its total, so they are if anything too wide.

**Reproducible.** The schedule, the deals and the built-in random player depend only on
`seed`; each entrant loaded by name gets its own seed from `seed` and its position. Agents
called from Python see the batch the lockstep loop gives them, which depends on `slots`:
same agents, seed and options, same numbers.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noir_env.game import Game, game_names, get_game
from noir_env.vector.arena import ArenaPolicy, GameRecords, play_games

from .entrants import label_of, parse_agent_spec, resolve_entrants
from .report import GAME_COLUMNS, format_tables, game_rows, load_results, plot_win_rates, save
from .schedule import Schedule, check_player_counts, make_schedule, seat_counts
from .statistics import (
    Z95,
    finishing_ranks,
    head_to_head,
    openskill_ratings,
    summarize,
    wilson_interval,
)

__all__ = [
    "GAME_COLUMNS",
    "Z95",
    "Schedule",
    "TournamentResult",
    "check_player_counts",
    "finishing_ranks",
    "format_tables",
    "game_names",
    "game_rows",
    "get_game",
    "head_to_head",
    "load_results",
    "make_schedule",
    "openskill_ratings",
    "parse_agent_spec",
    "plot_win_rates",
    "resolve_entrants",
    "run_tournament",
    "save",
    "seat_counts",
    "summarize",
    "wilson_interval",
]


@dataclass
class TournamentResult:
    """A played tournament: its settings, schedule, games and statistics."""

    config: dict
    labels: list[str]
    schedule: Schedule
    records: GameRecords
    summary: list[dict]
    ahead: np.ndarray  # float [K, K]: head-to-head (see `head_to_head`)
    together: np.ndarray  # int [K, K]
    ratings: list[dict]
    seat_counts: np.ndarray  # int [K, seats]: games each entrant played in each seat
    timing: dict = field(default_factory=dict)
    game: Game = field(default_factory=lambda: get_game("noir"))

    def table(self) -> str:
        """The results as readable text tables."""
        return format_tables(self)

    def to_json(self) -> dict:
        """Everything but the per-game rows, as JSON-ready values (see `save`)."""
        return {
            "config": self.config,
            "agents": self.labels,
            "summary": self.summary,
            "head_to_head": {
                "agents": self.labels,
                "ahead": _nan_to_none(self.ahead),
                "games": self.together.tolist(),
            },
            "ratings": self.ratings,
            "seat_counts": {
                lab: row for lab, row in zip(self.labels, self.seat_counts.tolist(), strict=True)
            },  # fmt: skip
            "timing": self.timing,
        }


def _nan_to_none(a: np.ndarray) -> list:
    return [[None if math.isnan(x) else float(x) for x in row] for row in a.tolist()]


def run_tournament(
    agents: Sequence[Any] | Mapping[str, Any],
    num_players: int | Sequence[int] | None = None,
    games: int = 1000,
    rules: str | None = None,
    seed: int = 0,
    max_steps: int = 10_000,
    slots: int = 2048,
    ask_forced: bool = False,
    progress: bool = False,
    ratings: bool = True,
    game: str = "noir",
    save_games: int = 0,
) -> TournamentResult:
    """Play a tournament (module docstring) and compute its statistics.

    agents: names ("random", "heuristic:style=aggressive", a checkpoint path), agent
    objects or callables, or {label: agent}. num_players: table size(s), at most the number
    of agents (default: the game's, NOIR 4; District Noir: 2). games: games per table size
    (rounded up to whole rounds). rules: the game's preset (NOIR's default "noirburg";
    District Noir has none). seed: schedule, deals and agent seeds. max_steps: decisions
    before a game is truncated. slots: games played at once. ask_forced: call the agents on
    decisions with one legal action too (District Noir's core takes those itself).
    progress: a tqdm progress bar (with a search agent its postfix counts the search's
    decisions). ratings: compute OpenSkill ratings. game: "noir",
    "district_noir" (two seats, alternated over the same deals) or any registered game.
    save_games: keep the first `save_games` games of the schedule, each as a history (its
    seed and every decision; `save` writes them to games/, `python -m train.replay` plays
    them back and draws them).
    """
    spec = get_game(game)
    if num_players is None:
        num_players = spec.default_players
    rules_name = spec.rules_name(spec.check_rules(rules))
    labels, policies = resolve_entrants(agents, seed)
    schedule = make_schedule(len(labels), num_players, games, seed, spec)
    bar = _progress_bar(schedule.seeds.size) if progress else None
    if bar is not None:
        policies = DecisionTicker(bar).wrap_search(policies)
    t0 = time.perf_counter()
    records = play_games(schedule.seeds, schedule.lineups, policies, rules_name, max_steps,
                         slots, ask_forced, bar.update if bar else None, spec,
                         save_games)  # fmt: skip
    seconds = time.perf_counter() - t0
    if bar:
        bar.close()
    ahead, together = head_to_head(len(labels), schedule, records)
    config = {
        "game": spec.name,
        "agents": [a if isinstance(a, str) else label_of(a) for a in _specs(agents)],
        "players": check_player_counts(num_players, len(labels), spec),
        "games_requested": int(games),
        "games": int(schedule.seeds.size),
        "rules": rules_name,
        "seed": int(seed),
        "max_steps": int(max_steps),
        "ask_forced": bool(ask_forced),
    }
    return TournamentResult(
        config=config,
        labels=labels,
        schedule=schedule,
        records=records,
        summary=summarize(labels, schedule, records, spec),
        ahead=ahead,
        together=together,
        ratings=openskill_ratings(labels, schedule, records) if ratings else [],
        seat_counts=seat_counts(len(labels), schedule),
        timing={"seconds": seconds, "games_per_s": schedule.seeds.size / max(seconds, 1e-9)},
        game=spec,
    )


def _specs(agents: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
    return list(agents.values()) if isinstance(agents, Mapping) else list(agents)


class DecisionTicker:
    """Shows the search entrants' decisions on the progress bar's postfix. The games run side
    by side and end together, so a tournament of search agents (seconds a game) would
    otherwise show no finished game, and no progress, for minutes."""

    def __init__(self, bar: Any, every_s: float = 2.0) -> None:
        self.bar, self.every_s = bar, every_s
        self.decisions, self._shown = 0, 0.0

    def wrap_search(self, policies: list[ArenaPolicy]) -> list[ArenaPolicy]:
        """The policies, each search agent's hook counting its decisions here."""
        return [p if p.act_on_state is None
                else dataclasses.replace(p, act_on_state=self._counted(p.act_on_state))
                for p in policies]  # fmt: skip

    def _counted(self, hook: Any) -> Any:
        def act_on_state(state: Any, games: Any) -> Any:
            actions = hook(state, games)
            self.decisions += len(games)
            if time.perf_counter() - self._shown > self.every_s:
                self._shown = time.perf_counter()
                self.bar.set_postfix(search_decisions=self.decisions)
            return actions

        return act_on_state


def _progress_bar(total: int):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", smoothing=0.1)
