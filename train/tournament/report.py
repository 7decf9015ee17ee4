"""A tournament's results as text tables and files: results.json, summary.csv,
head_to_head.csv, games.csv and the win-rate plot."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from noir_env._json_file import read_json_file
from noir_env.game import Game
from noir_env.vector.arena import GameRecords

from .statistics import finishing_ranks, slug

if TYPE_CHECKING:
    from . import TournamentResult


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
            lines.append(_table_line(r, rating.get(r["agent"]), result.game.win_reasons[1:], width))
    lines += ["", "head-to-head: how often the row agent finished ahead of the column agent"]
    lines += _h2h_lines(result)
    return "\n".join(lines)


def _group_title(records: GameRecords, group: str, game: Game) -> str:
    """'4 players: 2000 games, 602 decisions and 25.1 turns a game, 0 truncated'."""
    games = records.num_players > 0 if group == "all" else records.num_players == int(group)
    title = "all table sizes" if group == "all" else f"{group} players"
    return (
        f"{title}: {int(games.sum())} games, {records.length[games].mean():.0f} decisions and "
        f"{records.turns[games].mean():.1f} {game.turn_word} a game, "
        f"{int(records.truncated[games].sum())} "
        "truncated"
    )


def _table_line(r: dict, rating: dict | None, reasons: Sequence[str], width: int = 22) -> str:
    ci = f"[{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
    mu = f"{rating['mu']:.1f} ± {rating['sigma']:.1f}" if rating else "-"
    reasons = ", ".join(
        f"{reason} {r[f'wins_{slug(reason)}']}" for reason in reasons if r[f"wins_{slug(reason)}"]
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
    """Write results.json, summary.csv, head_to_head.csv, games.csv, (plot=True)
    win_rates.png and the games kept with `run_tournament(save_games=K)` as
    games/game_<index>.json under `out_dir`; return their paths by name."""
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
    for g, history in sorted(result.records.histories.items()):
        paths[f"game_{g}"] = save_game(result, g, history, out / "games")
    return paths


def save_game(result: TournamentResult, g: int, history: dict, folder: Path) -> Path:
    """Write game g's history, with the entrant of each seat (`"players"`), as
    folder/game_<g>.json; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    seats = result.schedule.lineups[g]
    players = [result.labels[int(k)] for k in seats[seats >= 0]]
    path = folder / f"game_{g:05d}.json"
    path.write_text(json.dumps({**history, "players": players}) + "\n")
    return path


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


MAX_RESULTS_BYTES = 256 << 20  # a tournament's summary, pairings and ratings: a few MB


def load_results(out_dir: str | Path) -> dict:
    """The results.json `save` wrote (config, summary, head-to-head, ratings, ...); ValueError
    naming the file if it is missing, not JSON or not a JSON object."""
    path = Path(out_dir) / "results.json"
    results = read_json_file(path, "tournament's results", MAX_RESULTS_BYTES, nan=True)
    if not isinstance(results, dict):
        raise ValueError(f"{path}: not a tournament's results: a JSON object is needed")
    return results


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
