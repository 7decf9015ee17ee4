"""The statistics of a tournament: Wilson intervals, finishing ranks, per-entrant summaries,
head-to-head shares and OpenSkill ratings (the package docstring's **Results**)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from noir_env.game import Game, get_game
from noir_env.vector.arena import GameRecords

from .schedule import Schedule

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
_RANK_WIN, _RANK_IN = 2.0e9, 1.0e9  # finishing-order keys: winners > still in > eliminated


def wilson_interval(
    successes: np.ndarray | float, trials: np.ndarray | int, z: float = Z95
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
    labels: list[str], schedule: Schedule, records: GameRecords, game: str | Game = "noir"
) -> list[dict]:
    """One row per table size and entrant (and over all sizes if there are several); wins
    by reason use the game's reasons."""
    reasons = get_game(game).win_reasons[1:]
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
        row[f"wins_{slug(reason)}"] = int((s["won"] & (s["reason"] == k)).sum())
    return row


def slug(text: str) -> str:
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
