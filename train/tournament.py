"""Tournaments between agents: a balanced schedule, batched play, statistics, ratings, files.

    from train.tournament import run_tournament, save

    result = run_tournament(["heuristic", "random", "random", "random"], num_players=4,
                            games=4000, seed=0)
    print(result.table())
    save(result, "runs/eval/heuristic_vs_random")

District Noir plays the same way with `game="district_noir"` (two seats: each round of
K games replays one deal with the seats rotated, so with two entrants they swap seats on
the same deal; its batched loop is `noir_env/vector/district_arena.py`):

    result = run_tournament(["district-heuristic", "random"], game="district_noir", games=400)

Agents are names for `agents.load` (with options as `"name:key=value,..."`), agent objects
with a batched `act(obs, mask)`, or such callables; a mapping `{label: agent}` names them.
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

import csv
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from noir_env.core import constants as C
from noir_env.core.rules import get_rules
from noir_env.district import constants as DC
from noir_env.vector.arena import ArenaPolicy, GameRecords, play_games
from noir_env.vector.district_arena import play_district_games

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
REASONS = C.WIN_REASONS[1:]  # why a game was won ("" is "no winner")
_RANK_WIN, _RANK_IN = 2.0e9, 1.0e9  # finishing-order keys: winners > still in > eliminated


# --- games ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """What the tournament needs to know of a game: its table sizes, the width of a lineup
    (seat columns), why games are won, and what a "turn" of `GameRecords.turns` is."""

    name: str
    title: str
    min_players: int
    max_players: int
    win_reasons: tuple[str, ...]  # index 0: no winner
    turn_word: str = "turns"

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reasons a game is won (`win_reasons` without "no winner")."""
        return self.win_reasons[1:]


NOIR = Game("noir", "NOIR", C.MIN_PLAYERS, C.MAX_PLAYERS, tuple(C.WIN_REASONS))
DISTRICT_NOIR = Game(
    "district_noir", "District Noir", DC.NUM_PLAYERS, DC.NUM_PLAYERS, tuple(DC.WIN_REASONS),
    turn_word="rounds",
)  # fmt: skip
GAMES = {g.name: g for g in (NOIR, DISTRICT_NOIR)}


def get_game(name: str | Game) -> Game:
    """A game by name ("noir", "district_noir")."""
    if isinstance(name, Game):
        return name
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {sorted(GAMES)}") from None


# --- entrants ---------------------------------------------------------------------------------
def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'heuristic:style=aggressive,depth=2' -> ('heuristic', {'style': 'aggressive',
    'depth': 2}); values are read as int, float, true/false, or else kept as strings."""
    name, _, opts = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, opts.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"agent options are key=value pairs, got {item!r} in {spec!r}")
        kwargs[key.strip()] = _option_value(value.strip())
    if not name:
        raise ValueError(f"an agent spec starts with the agent's name, got {spec!r}")
    return name, kwargs


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _as_policy(label: str, agent: Any) -> ArenaPolicy:
    """An agent object (or callable) as an arena player; the uniform random agent runs
    inside the compiled loop."""
    from agents.random_agent import RandomAgent

    if type(agent) is RandomAgent:
        return ArenaPolicy(label, None, observes=False)
    act = getattr(agent, "act", None)
    if act is None and callable(agent):
        act = agent
    if act is None or not callable(act):
        raise ValueError(
            f"agent {label!r}: expected a name, an object with act(obs, mask) or a callable, "
            f"got {agent!r}"
        )
    return ArenaPolicy(label, act, observes=bool(getattr(agent, "observes", True)))


def _label_of(agent: Any) -> str:
    if isinstance(agent, str):
        return agent
    name = getattr(agent, "name", None) or getattr(agent, "__name__", None)
    return str(name) if name else type(agent).__name__


def resolve_entrants(
    agents: Sequence[Any] | Mapping[str, Any], seed: int
) -> tuple[list[str], list[ArenaPolicy]]:
    """(labels, arena players) of the entrants; names are loaded with `agents.load` and a
    seed derived from `seed` and the entrant's position. Repeated labels get '#2', '#3'."""
    from agents import load

    pairs = list(agents.items()) if isinstance(agents, Mapping) else [(None, a) for a in agents]
    if not pairs:
        raise ValueError("a tournament needs at least one agent")
    labels: list[str] = []
    policies: list[ArenaPolicy] = []
    for k, (label, agent) in enumerate(pairs):
        base = str(label) if label is not None else _label_of(agent)
        count = sum(1 for x in labels if x == base or x.startswith(base + "#"))
        label = base if count == 0 else f"{base}#{count + 1}"
        if isinstance(agent, str):
            name, kwargs = parse_agent_spec(agent)
            agent_seed = int(np.random.SeedSequence([seed, k]).generate_state(1)[0])
            agent = load(name, seed=agent_seed, **kwargs)
        labels.append(label)
        policies.append(_as_policy(label, agent))
    return labels, policies


# --- schedule ---------------------------------------------------------------------------------
@dataclass
class Schedule:
    """The games to play: each one's deal seed and entrant per seat (-1: no seat)."""

    seeds: np.ndarray  # int64 [G]
    lineups: np.ndarray  # int64 [G, 6]


def check_player_counts(
    num_players: int | Sequence[int], num_entrants: int, game: str | Game = NOIR
) -> list[int]:
    """The table sizes, sorted and unique; each one the game allows (NOIR: 3..6, District
    Noir: 2) and at most the number of entrants."""
    game = get_game(game)
    sizes = f"{game.min_players}..{game.max_players}"
    if game.min_players == game.max_players:
        sizes = str(game.min_players)
    counts = sorted({int(n) for n in np.atleast_1d(num_players)})
    if not counts:
        raise ValueError(f"give at least one table size (players per table, {sizes})")
    for n in counts:
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.title}: players per table must be {sizes}, got {n}")
        if n > num_entrants:
            raise ValueError(
                f"{n}-player tables need at least {n} agents, got {num_entrants}; list an "
                "agent several times to give it several seats (e.g. heuristic random random "
                "random)"
            )
    return counts


def make_schedule(
    num_entrants: int,
    num_players: int | Sequence[int],
    games: int,
    seed: int,
    game: str | Game = NOIR,
) -> Schedule:
    """The balanced schedule of the module docstring: per table size, ceil(games / K)
    rounds of K games on one deal each, every entrant in every seat once per round. A
    lineup has one column per seat of the game's largest table."""
    if int(games) < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    game = get_game(game)
    k = int(num_entrants)
    seeds, lineups = [], []
    for n in check_player_counts(num_players, k, game):
        rng = np.random.default_rng([int(seed), n])  # sizes do not shift each other's draws
        rounds = -(-int(games) // k)
        deal = rng.integers(0, 2**62, size=rounds)
        perms = np.argsort(rng.random((rounds, k)), axis=1)  # one entrant order per round
        table = (np.arange(k)[:, None] + np.arange(n)[None, :]) % k  # [K tables, n seats]
        seated = perms[:, table].reshape(rounds * k, n)
        lineup = np.full((rounds * k, game.max_players), -1, np.int64)
        lineup[:, :n] = seated
        seeds.append(np.repeat(deal, k))
        lineups.append(lineup)
    return Schedule(np.concatenate(seeds).astype(np.int64), np.concatenate(lineups))


# --- statistics -------------------------------------------------------------------------------
def wilson_interval(
    successes: np.ndarray | int, trials: np.ndarray | int, z: float = Z95
) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of a binomial proportion (95% by default): the p with
    |successes - trials p| <= z sqrt(trials p (1 - p)). (nan, nan) for 0 trials."""
    k = np.asarray(successes, np.float64)
    n = np.asarray(trials, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1.0 + z * z / n
        center = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at k = 0 (k = n) the bound is exactly 0 (1); the formula leaves a rounding residue
    low = np.where((k == 0) & (n > 0), 0.0, np.clip(center - half, 0.0, 1.0))
    high = np.where((k == n) & (n > 0), 1.0, np.clip(center + half, 0.0, 1.0))
    return low, high


def finishing_ranks(records: GameRecords) -> np.ndarray:
    """int32 [G, seats]: each seat's place (1 = first; equal places share the better one; 0 for
    no seat): winners, then the players still in by score, then the eliminated, last out
    first."""
    present = np.arange(records.winners.shape[1])[None, :] < records.num_players[:, None]
    eliminated = records.out_at >= 0
    key = np.where(records.winners, _RANK_WIN, _RANK_IN + records.scores)
    key = np.where(eliminated, records.out_at.astype(np.float64), key)
    key = np.where(present, key, -np.inf)
    ahead = (key[:, None, :] > key[:, :, None]) & present[:, None, :]
    return np.where(present, 1 + ahead.sum(-1), 0).astype(np.int32)


def _seat_table(schedule: Schedule, records: GameRecords, ranks: np.ndarray) -> dict:
    """One row per (game, seat) that was played: flat arrays by name."""
    g, q = np.nonzero(schedule.lineups >= 0)
    return {
        "game": g,
        "entrant": schedule.lineups[g, q],
        "players": records.num_players[g].astype(np.int64),
        "won": records.winners[g, q],
        "score": records.scores[g, q].astype(np.float64),
        "rank": ranks[g, q].astype(np.float64),
        "length": records.length[g].astype(np.float64),
        "turns": records.turns[g].astype(np.float64),
        "reason": records.win_reason[g].astype(np.int64),
        "eliminated": records.out_at[g, q] >= 0,
        "truncated": records.truncated[g],
    }


def summarize(
    labels: list[str], schedule: Schedule, records: GameRecords, game: str | Game = NOIR
) -> list[dict]:
    """One row per table size and entrant (and over all sizes if there are several); wins
    by reason use the game's reasons."""
    reasons = get_game(game).reasons
    ranks = finishing_ranks(records)
    seats = _seat_table(schedule, records, ranks)
    sizes = sorted(set(records.num_players.tolist()))
    groups: list[tuple[str, np.ndarray]] = [(str(n), seats["players"] == n) for n in sizes]
    if len(sizes) > 1:
        groups.append(("all", np.ones(seats["game"].size, np.bool_)))
    rows = []
    for group, in_group in groups:
        for e, label in enumerate(labels):
            sel = in_group & (seats["entrant"] == e)
            row_seats = {k: v[sel] for k, v in seats.items()}
            rows.append(_summary_row(group, label, row_seats, reasons))
    return rows


def _summary_row(group: str, label: str, s: dict, reasons: Sequence[str]) -> dict:
    n = int(s["game"].size)
    wins = int(s["won"].sum())
    lo, hi = wilson_interval(wins, n)
    row = {
        "players": group,
        "agent": label,
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else math.nan,
        "ci_low": float(lo),
        "ci_high": float(hi),
        "par": float(np.mean(1.0 / s["players"])) if n else math.nan,
        "mean_score": float(s["score"].mean()) if n else math.nan,
        "mean_rank": float(s["rank"].mean()) if n else math.nan,
        "mean_length": float(s["length"].mean()) if n else math.nan,
        "mean_turns": float(s["turns"].mean()) if n else math.nan,
        "eliminated": int(s["eliminated"].sum()),
        "truncated": int(s["truncated"].sum()),
    }
    for k, reason in enumerate(reasons, start=1):
        row[f"wins_{_slug(reason)}"] = int((s["won"] & (s["reason"] == k)).sum())
    return row


def _slug(text: str) -> str:
    return text.replace(" ", "_")


def head_to_head(
    num_entrants: int, schedule: Schedule, records: GameRecords
) -> tuple[np.ndarray, np.ndarray]:
    """(ahead float [K, K], together int [K, K]): the share of the games entrants a and b
    both played in which a finished ahead of b (ties half), and how many games that is."""
    ranks = finishing_ranks(records)
    k = int(num_entrants)
    score = np.zeros((k, k), np.float64)
    together = np.zeros((k, k), np.int64)
    width = schedule.lineups.shape[1]
    for qa in range(width):
        for qb in range(width):
            both = (schedule.lineups[:, qa] >= 0) & (schedule.lineups[:, qb] >= 0)
            both &= schedule.lineups[:, qa] != schedule.lineups[:, qb]
            a, b = schedule.lineups[both, qa], schedule.lineups[both, qb]
            ra, rb = ranks[both, qa], ranks[both, qb]
            np.add.at(together, (a, b), 1)
            np.add.at(score, (a, b), (ra < rb) + 0.5 * (ra == rb))
    with np.errstate(invalid="ignore", divide="ignore"):
        ahead = np.where(together > 0, score / together, np.nan)
    return ahead, together


def openskill_ratings(labels: list[str], schedule: Schedule, records: GameRecords) -> list[dict]:
    """Plackett-Luce ratings (the `openskill` package) from the finishing order of every
    game, in schedule order: mu, sigma and the conservative `ordinal` = mu - 3 sigma, per
    entrant. No drift between games (tau = 0): the agents do not change during a tournament,
    so every game counts alike, whatever its place in the order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as err:  # the `train` extra
        raise ImportError("ratings need the openskill package: pip install openskill") from err
    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=label) for label in labels]
    ranks = finishing_ranks(records)
    for g in range(schedule.seeds.size):
        seated = schedule.lineups[g][schedule.lineups[g] >= 0]
        teams = [[ratings[e]] for e in seated]
        rated = model.rate(teams, ranks=ranks[g, : seated.size].tolist())
        for e, team in zip(seated, rated, strict=True):
            ratings[e] = team[0]
    return [
        {"agent": label, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for label, r in zip(labels, ratings, strict=True)
    ]


# --- the tournament ---------------------------------------------------------------------------
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
    game: Game = NOIR

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
) -> TournamentResult:
    """Play a tournament (module docstring) and compute its statistics.

    agents: names ("random", "heuristic:style=aggressive", a checkpoint path), agent
    objects or callables, or {label: agent}. num_players: table size(s), at most the number
    of agents (NOIR: 3..6, default 4; District Noir: 2). games: games per table size
    (rounded up to whole rounds). rules: a NOIR preset (default "noirburg"). seed:
    schedule, deals and agent seeds. max_steps: decisions before a NOIR game is truncated.
    slots: games played at once. ask_forced: call NOIR agents on decisions with one legal
    action too. progress: a tqdm progress bar. ratings: compute OpenSkill ratings. game:
    "noir" or "district_noir" (two seats, alternated over the same deals; its core takes
    forced decisions itself and a game cannot run long, so rules, max_steps and ask_forced
    are NOIR's only).
    """
    spec = get_game(game)
    if num_players is None:
        num_players = 4 if spec is NOIR else spec.min_players
    rules_name = _check_game_options(spec, rules, ask_forced)
    labels, policies = resolve_entrants(agents, seed)
    schedule = make_schedule(len(labels), num_players, games, seed, spec)
    bar = _progress_bar(schedule.seeds.size) if progress else None
    update = bar.update if bar else None
    t0 = time.perf_counter()
    if spec is NOIR:
        records = play_games(schedule.seeds, schedule.lineups, policies, rules_name, max_steps,
                             slots, ask_forced, update)  # fmt: skip
    else:
        records = play_district_games(schedule.seeds, schedule.lineups, policies, slots, update)
    seconds = time.perf_counter() - t0
    if bar:
        bar.close()
    ahead, together = head_to_head(len(labels), schedule, records)
    config = {
        "game": spec.name,
        "agents": [a if isinstance(a, str) else _label_of(a) for a in _specs(agents)],
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


def _check_game_options(game: Game, rules: str | None, ask_forced: bool) -> str | None:
    """The rules preset's name (NOIR; None for District Noir, which has no presets)."""
    if game is NOIR:
        return get_rules("noirburg" if rules is None else rules).name
    if rules is not None:
        raise ValueError(f"{game.title} has no rule presets, got rules={rules!r}")
    if ask_forced:
        raise ValueError(
            f"ask_forced is NOIR's: the {game.title} core takes forced decisions itself"
        )
    return None


def _specs(agents: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
    return list(agents.values()) if isinstance(agents, Mapping) else list(agents)


def _progress_bar(total: int):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", smoothing=0.1)


def seat_counts(num_entrants: int, schedule: Schedule) -> np.ndarray:
    """int [K, seats]: how many games each entrant played in each seat."""
    out = np.zeros((num_entrants, schedule.lineups.shape[1]), np.int64)
    for q in range(schedule.lineups.shape[1]):
        seated = schedule.lineups[:, q]
        out[:, q] = np.bincount(seated[seated >= 0], minlength=num_entrants)
    return out


# --- output -----------------------------------------------------------------------------------
def format_tables(result: TournamentResult) -> str:
    """Per table size: one line per agent, best win rate first; then head-to-head."""
    cfg = result.config
    rules = f", {cfg['rules']} rules" if cfg.get("rules") else ""
    lines = [
        f"{result.game.title} tournament: {cfg['games']} games{rules}, seed {cfg['seed']}, "
        f"{result.timing.get('games_per_s', math.nan):,.0f} games/s"
    ]
    rating = {r["agent"]: r for r in result.ratings}
    width = max(22, *(len(r["agent"]) for r in result.summary))  # names are never cut
    head = (
        f"{'agent':<{width}} {'games':>6} {'win rate':>8} {'95% CI':>15} {'par':>6} "
        f"{'score':>6} {'rank':>5} {'length':>7} {'rating':>14}  wins by reason"
    )
    for group in dict.fromkeys(r["players"] for r in result.summary):
        rows = [r for r in result.summary if r["players"] == group]
        rows.sort(key=lambda r: -r["win_rate"] if r["games"] else math.inf)
        lines += ["", f"== {_group_title(result.records, group, result.game)} ==", head]
        for r in rows:
            lines.append(_table_line(r, rating.get(r["agent"]), result.game.reasons, width))
    lines += ["", "head-to-head: how often the row agent finished ahead of the column agent"]
    lines += _h2h_lines(result)
    return "\n".join(lines)


def _group_title(records: GameRecords, group: str, game: Game = NOIR) -> str:
    """'4 players: 2000 games, 602 decisions and 25.1 turns a game, 0 truncated'."""
    games = records.num_players > 0 if group == "all" else records.num_players == int(group)
    title = "all table sizes" if group == "all" else f"{group} players"
    return (
        f"{title}: {int(games.sum())} games, {records.length[games].mean():.0f} decisions and "
        f"{records.turns[games].mean():.1f} {game.turn_word} a game, "
        f"{int(records.truncated[games].sum())} "
        "truncated"
    )


def _table_line(
    r: dict, rating: dict | None, reasons: Sequence[str] = REASONS, width: int = 22
) -> str:
    ci = f"[{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
    mu = f"{rating['mu']:.1f} ± {rating['sigma']:.1f}" if rating else "-"
    reasons = ", ".join(
        f"{reason} {r[f'wins_{_slug(reason)}']}" for reason in reasons if r[f"wins_{_slug(reason)}"]
    )
    return (
        f"{r['agent']:<{width}} {r['games']:>6} {r['win_rate']:>8.1%} {ci:>15} "
        f"{r['par']:>6.1%} {r['mean_score']:>6.1f} {r['mean_rank']:>5.2f} "
        f"{r['mean_length']:>7.0f} {mu:>14}  {reasons}"
    )


def _h2h_lines(result: TournamentResult) -> list[str]:
    width = max(8, *(len(lab) for lab in result.labels))
    out = [" " * width + "".join(f" {lab[:8]:>8}" for lab in result.labels)]
    for a, label in enumerate(result.labels):
        cells = "".join(f" {'-':>8}" if math.isnan(x) else f" {x:>8.1%}" for x in result.ahead[a])
        out.append(f"{label:<{width}}{cells}")
    return out


def save(result: TournamentResult, out_dir: str | Path, plot: bool = True) -> dict[str, Path]:
    """Write results.json, summary.csv, head_to_head.csv, games.csv and (plot=True)
    win_rates.png under `out_dir`; return their paths by name."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out / "results.json",
        "summary": out / "summary.csv",
        "head_to_head": out / "head_to_head.csv",
        "games": out / "games.csv",
    }
    paths["json"].write_text(json.dumps(result.to_json(), indent=1, allow_nan=True) + "\n")
    _write_csv(paths["summary"], list(result.summary[0]), result.summary)
    h2h_rows = [
        {"agent": a, **{b: _cell(result.ahead[i, j]) for j, b in enumerate(result.labels)}}
        for i, a in enumerate(result.labels)
    ]
    _write_csv(paths["head_to_head"], ["agent", *result.labels], h2h_rows)
    _write_csv(paths["games"], list(GAME_COLUMNS), game_rows(result))
    if plot:
        paths["plot"] = out / "win_rates.png"
        plot_win_rates(result, paths["plot"])
    return paths


def _cell(x: float) -> str:
    return "" if math.isnan(x) else f"{x:.6f}"


def _write_csv(path: Path, columns: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


GAME_COLUMNS = ("game", "players", "deal_seed", "seats", "winners", "win_reason",
                "ranks", "scores", "length", "turns", "truncated")  # fmt: skip


def game_rows(result: TournamentResult) -> list[dict]:
    """One row per game: the agents by seat, winners, reason, places, scores, length."""
    rec, sch, labels = result.records, result.schedule, result.labels
    ranks = finishing_ranks(rec)
    rows = []
    for g in range(sch.seeds.size):
        n = int(rec.num_players[g])
        seats = [labels[e] for e in sch.lineups[g, :n]]
        rows.append({
            "game": g,
            "players": n,
            "deal_seed": int(sch.seeds[g]),
            "seats": "|".join(seats),
            "winners": "|".join(seats[q] for q in range(n) if rec.winners[g, q]),
            "win_reason": result.game.win_reasons[int(rec.win_reason[g])],
            "ranks": "|".join(str(int(x)) for x in ranks[g, :n]),
            "scores": "|".join(str(int(x)) for x in rec.scores[g, :n]),
            "length": int(rec.length[g]),
            "turns": int(rec.turns[g]),
            "truncated": bool(rec.truncated[g]),
        })  # fmt: skip
    return rows


def load_results(out_dir: str | Path) -> dict:
    """The results.json `save` wrote (config, summary, head-to-head, ratings, ...)."""
    return json.loads((Path(out_dir) / "results.json").read_text())


def plot_win_rates(result: TournamentResult, path: str | Path) -> None:
    """A PNG of each agent's win rate with its 95% interval, per table size, and par."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    groups = list(dict.fromkeys(r["players"] for r in result.summary))
    k = len(result.labels)
    width = 0.8 / len(groups)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * k * len(groups) + 2), 4.5))
    for j, group in enumerate(groups):
        rows = [r for r in result.summary if r["players"] == group]
        x = np.arange(k) + (j - (len(groups) - 1) / 2) * width
        rate = np.array([r["win_rate"] for r in rows])
        err = np.array([[r["win_rate"] - r["ci_low"], r["ci_high"] - r["win_rate"]]
                        for r in rows]).T  # fmt: skip
        label = "all sizes" if group == "all" else f"{group} players"
        ax.bar(x, rate, width, yerr=err, capsize=4, label=label)
        if group != "all":
            ax.hlines(1 / int(group), x[0] - width / 2, x[-1] + width / 2, colors="grey",
                      linestyles="dotted")  # fmt: skip
    ax.set_xticks(np.arange(k), result.labels, rotation=20, ha="right")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    rules = f", {result.config['rules']} rules" if result.config.get("rules") else ""
    ax.set_title(f"{result.game.title} tournament{rules} "
                 f"({result.config['games']} games; dotted: par)")  # fmt: skip
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
