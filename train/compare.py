"""Two agents on the same deals: a paired comparison of two evaluations that differ in one
entrant.

    python -m train.evaluate --agents runs/a/policy.pt ismcts ismcts --players 3 --seed 11 \\
        --games 60 --out runs/eval/a_s11
    python -m train.evaluate --agents runs/b/policy.pt ismcts ismcts --players 3 --seed 11 \\
        --games 60 --out runs/eval/b_s11
    python -m train.compare --a runs/eval/a_s11 --b runs/eval/b_s11

With the same seed, games and lineup, the two tournaments deal the same cards to the same
seats, so each game is played twice: once with A in the seat, once with B. Counting only the
games one of them won and the other did not (the discordant pairs) removes the variance of
the deals, which in NOIR is most of it: against the search agent, the win rate of one policy
on three sets of 60 deals ranged from 15% to 32%. The table gives each agent's wins, the
discordant pairs, the difference B - A with its 95% interval (paired) and the exact
two-sided sign test on the discordant pairs (McNemar), per player count and over all.

Several folders per side (`--a A11 A12 --b B11 B12`) pool evaluations with other seeds, paired
in the order given. In each pair of folders the compared entrants are the one label that
differs between their seatings (`--labels A B` to name them). Folders that are not the same
deals, or that differ in more than one entrant, are refused naming the first game that
differs.
"""

from __future__ import annotations

import csv
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from .cli import Parser, first_paragraph
from .tournament.statistics import Z95

COLUMNS = ("game", "players", "deal_seed", "seats", "winners", "ranks")  # of games.csv, read


@dataclass
class Pair:
    """One deal played with A in the seat and with B: their win and finishing rank."""

    players: int
    a_won: bool
    b_won: bool
    a_rank: int
    b_rank: int


def read_games(folder: str | Path) -> list[dict]:
    """The rows of a tournament folder's games.csv (`train.tournament.save`)."""
    path = Path(folder) / "games.csv"
    if not path.is_file():
        raise ValueError(f"{folder}: no games.csv (a folder train.evaluate wrote)")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    missing = sorted(set(COLUMNS) - set(rows[0] if rows else {}))
    if missing:
        raise ValueError(f"{path}: no games, or the columns {missing} are missing")
    return rows


def entrants(a_rows: list[dict], b_rows: list[dict]) -> tuple[str, str]:
    """The one label seated on A's side and not on B's, and the one the other way round."""
    a_labels = {x for r in a_rows for x in r["seats"].split("|")}
    b_labels = {x for r in b_rows for x in r["seats"].split("|")}
    only_a, only_b = sorted(a_labels - b_labels), sorted(b_labels - a_labels)
    if len(only_a) != 1 or len(only_b) != 1:
        raise ValueError(f"the two sides must differ in one entrant (--labels to name them); "
                         f"only in A: {only_a}, only in B: {only_b}")  # fmt: skip
    return only_a[0], only_b[0]


def pair_games(a_rows: list[dict], b_rows: list[dict], a: str, b: str, where: str) -> list[Pair]:
    """One Pair per game; ValueError if the two are not the same schedule, naming the first
    game that is not the same deal and seating with `a` in B's place."""
    if len(a_rows) != len(b_rows):
        raise ValueError(f"{where}: {len(a_rows)} games against {len(b_rows)}: not the same "
                         "schedule (play both with the same --seed, --games, --players and "
                         "lineup)")  # fmt: skip
    pairs = []
    for ra, rb in zip(a_rows, b_rows, strict=True):
        seats_a = ra["seats"].split("|")
        seats_b = [a if x == b else x for x in rb["seats"].split("|")]
        if ra["deal_seed"] != rb["deal_seed"] or seats_a != seats_b or a not in seats_a:
            raise ValueError(f"{where}: game {ra['game']} is not the same deal and seating "
                             f"with {a!r} in {b!r}'s seat (play both with the same --seed, "
                             "--players and lineup)")  # fmt: skip
        seat = seats_a.index(a)
        pairs.append(Pair(
            players=int(ra["players"]),
            a_won=a in ra["winners"].split("|"),
            b_won=b in rb["winners"].split("|"),
            a_rank=int(ra["ranks"].split("|")[seat]),
            b_rank=int(rb["ranks"].split("|")[seat]),
        ))  # fmt: skip
    return pairs


def sign_test(a_only: int, b_only: int) -> float:
    """Exact two-sided p-value of the discordant pairs under 'A and B equally strong'."""
    n, k = a_only + b_only, min(a_only, b_only)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def summary(pairs: list[Pair]) -> dict:
    """Wins, discordant pairs, B - A with its paired 95% interval, the sign test, ranks."""
    n = len(pairs)
    a_only = sum(p.a_won and not p.b_won for p in pairs)
    b_only = sum(p.b_won and not p.a_won for p in pairs)
    diff = (b_only - a_only) / n
    half = Z95 * math.sqrt(max(a_only + b_only - n * diff**2, 0.0)) / n
    return {
        "games": n,
        "a_wins": sum(p.a_won for p in pairs),
        "b_wins": sum(p.b_won for p in pairs),
        "a_only": a_only,
        "b_only": b_only,
        "diff": diff,
        "low": diff - half,
        "high": diff + half,
        "p": sign_test(a_only, b_only),
        "a_rank": sum(p.a_rank for p in pairs) / n,
        "b_rank": sum(p.b_rank for p in pairs) / n,
    }


def table(pairs: list[Pair], a: str, b: str) -> str:
    """The comparison as a Markdown table, one row per player count and one over all."""
    lines = [
        f"A = {a}, B = {b}: the same deals and seats, each game played with each",
        "",
        "| players | games | A wins | B wins | A only | B only | B - A [95% CI] | sign test p "
        "| mean rank A / B |",
        "|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    counts = sorted({p.players for p in pairs})
    groups = [(str(n), [p for p in pairs if p.players == n]) for n in counts]
    groups += [("all", pairs)] if len(counts) > 1 else []
    for name, group in groups:
        s = summary(group)
        lines.append(
            f"| {name} | {s['games']} | {s['a_wins'] / s['games']:.1%} | "
            f"{s['b_wins'] / s['games']:.1%} | {s['a_only']} | {s['b_only']} | "
            f"{s['diff']:+.1%} [{s['low']:+.1%}, {s['high']:+.1%}] | {s['p']:.3f} | "
            f"{s['a_rank']:.2f} / {s['b_rank']:.2f} |"
        )
    return "\n".join(lines)


def compare(a_dirs: list[str], b_dirs: list[str], labels: list[str] | None = None) -> str:
    """The table of `python -m train.compare` (module docstring)."""
    if len(a_dirs) != len(b_dirs):
        raise ValueError(f"--a has {len(a_dirs)} folders and --b {len(b_dirs)}: they pair in order")
    pairs, a_names, b_names = [], [], []
    for a_dir, b_dir in zip(a_dirs, b_dirs, strict=True):
        a_rows, b_rows = read_games(a_dir), read_games(b_dir)
        try:
            a, b = labels or entrants(a_rows, b_rows)
            for label, rows, side in ((a, a_rows, "A"), (b, b_rows, "B")):
                seated = sorted({x for r in rows for x in r["seats"].split("|")})
                if label not in seated:
                    raise ValueError(f"--labels: {label!r} is not seated in {side}'s games "
                                     f"(its seats: {seated})")  # fmt: skip
        except ValueError as err:
            raise ValueError(f"{a_dir} / {b_dir}: {err}") from None
        pairs += pair_games(a_rows, b_rows, a, b, f"{a_dir} / {b_dir}")
        a_names += [a] if a not in a_names else []
        b_names += [b] if b not in b_names else []
    return table(pairs, ", ".join(a_names), ", ".join(b_names))


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m train.compare", description=first_paragraph(__doc__))
    parser.add_argument(
        "--a",
        nargs="+",
        required=True,
        metavar="DIR",
        help="evaluation folders with agent A (train.evaluate --out)",
    )
    parser.add_argument(
        "--b",
        nargs="+",
        required=True,
        metavar="DIR",
        help="the same evaluations with agent B in A's seat, in the same order",
    )
    parser.add_argument("--labels", nargs=2, metavar=("A", "B"),
                        help="the compared entrants' seat labels as games.csv names them, "
                        "e.g. runs/a.pt (default: the one that differs)")  # fmt: skip
    args = parser.parse_args(argv)
    print(parser.run(lambda: compare(args.a, args.b, args.labels)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
