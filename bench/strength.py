"""The cross-play matrix of the bundled baselines: every agent as the lone seat against n-1
copies of every other, at 3 to 6 players, with 95% Wilson intervals.

    python bench/strength.py                                # all baselines, 3-6 players
    python bench/strength.py --players 4 --games 400        # a quick 4-player matrix
    python bench/strength.py --agents heuristic heuristic-v1 style-rusher --rules original
    python bench/strength.py --players 4 --search ismcts:budget=200 --search-games 40
    python bench/strength.py --only ppo --update docs/crossplay.csv   # re-measure one agent

A cell (lone agent A, field B, n players) is a tournament of A and n-1 copies of B
(`train.tournament.run_tournament`: seats rotated over the same deals), played in chunks
so that progress shows; its figure is A's share of the games won (par: 1/n). Writes
`crossplay.csv` (one row per cell) and `crossplay.png` (a heatmap per table size: rows the
lone agent, columns the field, the win rate over par in colour) under `--out`, and prints
in Markdown the 4-player matrix (or the first size played) and the first agent's row at
every size. The full default run plays 288 cells of 1000 games: about half an hour on
one core of a 2-core machine.

`--search` adds search agents (`uses_state`, e.g. "ismcts:budget=200", seated by the
tournament through their state hook) as rows only: each plays alone against n-1 copies of
every field, `--search-games` games a cell, and is never a field itself (n-1 searching
copies would cost n-1 times its thinking time, tens of milliseconds a decision).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from noir_env.threads import set_threads
from train.cli import first_paragraph

BASELINES = ["heuristic", "heuristic-v1", "style-rusher", "style-turtle", "style-hoarder",
             "style-racer", "style-bully", "ppo", "random"]  # fmt: skip
COLUMNS = ["rules", "players", "agent", "field", "games", "wins", "win_rate", "ci_low",
           "ci_high", "par"]  # fmt: skip


def play_cell(lone, field, labels: tuple[str, str], players: int, games: int, rules: str,
              seed: int, chunk: int, tick) -> dict:  # fmt: skip
    """Play one cell in chunks of `chunk` games (each its own deals), calling tick(games)
    after each; return its CSV row."""
    from train.tournament import run_tournament, wilson_interval

    entrants = {labels[0]: lone, **{f"{labels[1]}#{k + 1}": field for k in range(players - 1)}}
    played = wins = 0
    for start in range(0, games, chunk):
        result = run_tournament(entrants, num_players=players, games=min(chunk, games - start),
                                rules=rules, seed=seed + start, ratings=False)  # fmt: skip
        row = result.summary[0]  # the lone agent, first entrant
        played += row["games"]
        wins += row["wins"]
        tick(row["games"])
    lo, hi = wilson_interval(wins, played)
    return {"rules": rules, "players": players, "agent": labels[0], "field": labels[1],
            "games": played, "wins": wins, "win_rate": wins / played, "ci_low": float(lo),
            "ci_high": float(hi), "par": 1.0 / players}  # fmt: skip


def cross_play(names: list[str], players: list[int], games: int, rules: str, seed: int,
               chunk: int, search: Sequence[str] = (), search_games: int = 40,
               only: str | None = None) -> list[dict]:  # fmt: skip
    """Every ordered pair of distinct agents at every table size, then each search agent
    alone against every field at `search_games` games a cell (module docstring); with
    `only`, the pairs that agent is in (alone, or as the field)."""
    from agents import load
    from train.tournament import parse_agent_spec

    print(f"loading {len(names) + len(search)} agents (a first run compiles their numba "
          "kernels: up to a few minutes)", flush=True)  # fmt: skip
    agents = {name: load(name, seed=k) for k, name in enumerate(names)}
    for k, spec in enumerate(search):
        name, options = parse_agent_spec(spec)
        agents[spec] = load(name, seed=len(names) + k, **options)
    cells = [(n, a, b, games) for n in players for a in names for b in names
             if a != b and only in (None, a, b)]  # fmt: skip
    cells += [(n, a, b, search_games) for n in players for a in search for b in names]
    total = sum(cell[3] for cell in cells)
    done, rows, t0 = 0, [], time.perf_counter()

    def tick(k: int) -> None:
        nonlocal done
        done += k
        rate = done / max(time.perf_counter() - t0, 1e-9)
        left = (total - done) / max(rate, 1e-9)
        print(f"\r  {done:,}/{total:,} games, {rate:,.0f}/s, about {left / 60:.0f} min left ",
              end="", file=sys.stderr, flush=True)  # fmt: skip

    for k, (n, a, b, count) in enumerate(cells):
        row = play_cell(agents[a], agents[b], (a, b), n, count, rules, seed, chunk, tick)
        rows.append(row)
        print(f"\r[{k + 1}/{len(cells)}] {n} players: {a} alone vs {b}: "
              f"{_pct(row)}" + " " * 20, flush=True)  # fmt: skip
    return rows


def _pct(row: dict) -> str:
    return (f"{100 * row['win_rate']:.1f} [{100 * row['ci_low']:.1f}, "
            f"{100 * row['ci_high']:.1f}]")  # fmt: skip


def write_csv(rows: list[dict], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def read_csv(path: Path) -> tuple[list[dict], list[str]]:
    """The rows of a crossplay.csv (numbers parsed) and its agents in order of appearance."""
    with path.open(newline="", encoding="utf-8") as f:
        rows = [dict(r) for r in csv.DictReader(f)]
    for r in rows:
        for key in ("players", "games", "wins"):
            r[key] = int(r[key])
        for key in ("win_rate", "ci_low", "ci_high", "par"):
            r[key] = float(r[key])
    return rows, list(dict.fromkeys(r["agent"] for r in rows))


def plot(rows: list[dict], names: list[str], games: int | str, path: Path) -> None:
    """One heatmap per table size: the lone agent's win rate, coloured by win rate / par."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    sizes = sorted({r["players"] for r in rows})
    k = len(names)
    fig, axes = plt.subplots(1, len(sizes), figsize=(2.0 + 0.6 * k * len(sizes), 0.6 * k + 2.5),
                             squeeze=False, layout="constrained")  # fmt: skip
    for col, (ax, n) in enumerate(zip(axes[0], sizes, strict=True)):
        ratio = np.full((k, k), np.nan)
        for r in rows:
            if r["players"] == n:
                i, j = names.index(r["agent"]), names.index(r["field"])
                ratio[i, j] = r["win_rate"] / r["par"]
                ax.text(j, i, f"{100 * r['win_rate']:.0f}", ha="center", va="center", fontsize=8)
        image = ax.imshow(ratio, cmap="RdYlGn", vmin=0.0, vmax=2.0)
        ax.set_xticks(range(k), names, rotation=60, ha="right", fontsize=8)
        ax.set_yticks(range(k), names if col == 0 else [], fontsize=8)
        ax.set_title(f"{n} players (par {100 / n:.0f}%)")
        ax.set_xlabel(f"field: {n - 1} copies of")
    axes[0][0].set_ylabel("lone agent")
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="win rate / par")
    fig.suptitle(f"Cross-play ({rows[0]['rules']}): the lone agent's win rate, %\n"
                 f"{games} games a cell (rounded up to whole rounds)")  # fmt: skip
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(rows: list[dict], names: list[str]) -> str:
    """Markdown tables: the matrix at 4 players (or the first size played), and the first
    agent alone against each field at every size."""
    sizes = sorted({r["players"] for r in rows})
    cell = {(r["players"], r["agent"], r["field"]): r for r in rows}
    n = 4 if 4 in sizes else sizes[0]
    lines = [f"{n} players: the lone agent (rows) against {n - 1} copies of each field "
             "(columns), win rate % [95% interval]", "",
             "| lone \\ field | " + " | ".join(names) + " |",
             "|---" * (len(names) + 1) + "|"]  # fmt: skip
    for a in names:
        cells = [_pct(cell[(n, a, b)]) if (n, a, b) in cell else "-" for b in names]
        lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
    first, fields = names[0], names[1:]
    lines += ["", f"{first} alone against n-1 copies of each field, win rate % [95% interval]",
              "", "| players (par) | " + " | ".join(fields) + " |",
              "|---" * (len(fields) + 1) + "|"]  # fmt: skip
    for k in sizes:
        cells = [_pct(cell[(k, first, b)]) if (k, first, b) in cell else "-" for b in fields]
        lines.append(f"| {k} ({100 / k:.0f}%) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--agents", nargs="+", default=BASELINES, help="agent names")
    parser.add_argument("--players", nargs="+", type=int, default=[3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=1000, help="games per cell")
    parser.add_argument("--rules", default="noirburg", help="rules preset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=250, help="games per progress step")
    parser.add_argument("--out", default="runs/crossplay", help="output folder")
    parser.add_argument("--search", nargs="+", default=[], metavar="SPEC",
                        help="search agents as rows only, e.g. ismcts:budget=200")  # fmt: skip
    parser.add_argument("--search-games", type=int, default=40,
                        help="games per cell of a search agent's row")  # fmt: skip
    parser.add_argument("--from-csv", help="play nothing: redraw and reprint a crossplay.csv")
    parser.add_argument("--only", help="play only the cells this agent is in (alone or field)")
    parser.add_argument("--update", help="a crossplay.csv whose other cells are kept: the "
                        "cells played replace theirs")  # fmt: skip
    args = parser.parse_args()
    if len(set(args.agents)) < 2:
        parser.error("give at least two different agents")
    if args.search_games < 1:
        parser.error(f"--search-games must be >= 1, got {args.search_games}")
    if args.only and args.only not in args.agents:
        parser.error(f"--only {args.only}: not among --agents")
    if args.update and not Path(args.update).is_file():
        parser.error(f"--update {args.update}: no such file")
    if args.from_csv:
        rows, names = read_csv(Path(args.from_csv))
    else:
        rows = cross_play(args.agents, args.players, args.games, args.rules, args.seed,
                          args.chunk, args.search, args.search_games, args.only)  # fmt: skip
        names = args.agents + args.search
    if args.update:  # the kept cells first, in their order; the new ones replace theirs
        kept, kept_names = read_csv(Path(args.update))
        played = {(r["players"], r["agent"], r["field"]) for r in rows}
        rows = [r for r in kept if (r["players"], r["agent"], r["field"]) not in played] + rows
        names = list(dict.fromkeys([*kept_names, *names]))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, out / "crossplay.csv")
    games = f"{args.games}" + (f" ({args.search_games} in search rows)" if args.search else "")
    plot(rows, names, games, out / "crossplay.png")
    print(markdown(rows, names))
    print(f"wrote {out / 'crossplay.csv'} and {out / 'crossplay.png'}")


if __name__ == "__main__":
    main()
