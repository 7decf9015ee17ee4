"""Play and fit the rating ladder of the bundled baselines, and publish it; or check it.

    python bench/ladder.py                    # play (resumable), fit, publish, plot, tables
    python bench/ladder.py --scale 0.5        # half the deals of every table kind
    python bench/ladder.py --check            # rate two rungs with train.rate at two seeds

Plays the ladder's protocol (`train.ladder.protocol.ladder_kinds`: the cheap rungs' mixed
tables at 3-6 players, a few deals for each search rung and each pair of them, seats rotated
over every deal) into runs/ladder/results_seed<S>.jsonl, one line per batch: a killed run,
started again with the same command, plays only what is missing. Then it fits the ratings
(`train.ladder.model`), prints the table, checks the rungs' order against their pairwise
head-to-head results (every pair whose higher-rated rung finished behind the lower in most of
their shared games is listed), writes train/ladder/ladder.json (the package's published
ladder), docs/ladder.png, and the table in docs/ladder.md and README.md (between the
`ladder-table` markers).

`--check` rates rungs with `train.rate` (the default protocol, the published ladder frozen)
at two seeds: each rating should agree with the rung's published one, and the two seeds with
each other, within their combined 95% half-width (sqrt(h1^2 + h2^2): both are estimates).
Exit status 1 when a check fails. The default ladder is about 35 CPU-minutes; the check
about 10 per rung and seed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import re
import sys
import time
from pathlib import Path

from train.evaluate import prefer_workqueue_threads

prefer_workqueue_threads()

from noir_env.threads import set_threads  # noqa: E402
from train.cli import first_paragraph  # noqa: E402
from train.ladder import (  # noqa: E402
    fit_ladder,
    make_rung,
    order_disagreements,
    published,
    versions,
    write_published,
)
from train.ladder import protocol as P  # noqa: E402
from train.ladder.play import run  # noqa: E402
from train.ladder.report import ladder_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MARKERS = ("<!-- ladder-table:start -->", "<!-- ladder-table:end -->")


def play_and_fit(args: argparse.Namespace) -> None:
    kinds = P.ladder_kinds(args.scale)
    header = P.describe(kinds, P.PLAYERS, args.seed)
    path = Path(args.results or f"runs/ladder/results_seed{args.seed}.jsonl")
    print(f"ladder: {len(P.RUNGS)} rungs, results in {path} (a killed run resumes)", flush=True)
    t0 = time.time()
    done = run(path, header, kinds, P.PLAYERS, make_rung, progress=True)
    entries = list(done.values())
    rows = fit_ladder(entries)
    games = sum(len(e["games"]) for e in entries)
    cpu = sum(e.get("cpu_s", 0.0) for e in entries)
    print(f"\n{games} games, {cpu / 60:.1f} CPU-minutes of play in all "
          f"({(time.time() - t0) / 60:.1f} wall minutes this run)\n")  # fmt: skip
    print(ladder_table(rows))
    print_order_check(rows, entries)
    if args.no_write:
        return
    command = "python bench/ladder.py" + (f" --scale {args.scale}" if args.scale != 1 else "")
    command += f" --seed {args.seed}" if args.seed else ""
    data = {
        "versions": {**versions(), "games": games, "seed": args.seed, "scale": args.scale},
        "anchor": {"rung": P.ANCHOR, "rating": P.ANCHOR_RATING},
        "model": "who wins each table, a Luce choice (shared wins: Breslow), maximum "
        "likelihood; rating = 1000 + 400 log10(e) (theta - theta[heuristic-v1]); 95% "
        "intervals from the cluster-robust covariance over deals",
        "protocol": header,
        "generated": datetime.date.today().isoformat(),
        "command": command,
        "cpu_minutes": round(cpu / 60, 1),
        "rungs": rows,
    }
    print(f"\nwritten: {write_published(data)}")
    plot(rows, data, ROOT / "docs" / "ladder.png")
    table = ladder_table(rows) + (f"\n\n{games} games, seed {args.seed}, noir_env "
                                  f"{data['versions']['package']}, generated "
                                  f"{data['generated']} by `{command}`.")  # fmt: skip
    for doc in (ROOT / "docs" / "ladder.md", ROOT / "README.md"):
        if replace_table(doc, table):
            print(f"written: {doc}")


def print_order_check(rows: list[dict], entries: list[dict]) -> None:
    bad = order_disagreements(rows, entries)
    pairs = len(rows) * (len(rows) - 1) // 2
    print(
        f"\norder check: the rating order of {pairs} pairs of rungs against their "
        "head-to-head (games each won of those both sat in)"
    )
    if not bad:
        print("  every pair agrees: the higher-rated won at least as many of their shared games")
    for b in bad:
        flag = "beyond noise" if b["significant"] else "within noise"
        print(f"  DISAGREES: {b['higher']} rated above {b['lower']} but won {b['wins']} of "
              f"their shared games to {b['wins_lower']} ({flag})")  # fmt: skip


def replace_table(doc: Path, table: str) -> bool:
    """Put `table` between the markers of `doc`; False if it has none."""
    text = doc.read_text() if doc.is_file() else ""
    start, end = MARKERS
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        return False
    doc.write_text(pattern.sub(lambda _: f"{start}\n{table}\n{end}", text))
    return True


def plot(rows: list[dict], data: dict, path: Path) -> None:
    """The rungs' ratings with their 95% intervals, strongest at the top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = rows[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(rows) + 1.4))
    y = range(len(rows))
    rating = [r["rating"] for r in rows]
    err = [[r["rating"] - r["low"] for r in rows], [r["high"] - r["rating"] for r in rows]]
    colors = ["tab:red" if P.rung(r["name"]).search else "tab:blue" for r in rows]
    ax.barh(list(y), rating, xerr=err, color=colors, alpha=0.8, capsize=3)
    ax.set_yticks(list(y), [r["name"] for r in rows])
    ax.axvline(P.ANCHOR_RATING, color="grey", linestyle="dotted")
    ax.set_xlabel("rating (heuristic-v1 = 1000; 400 points = 10x odds of winning)")
    ax.set_title(f"NOIR ladder, {data['versions']['games']} games at 3-6 players "
                 "(red: search rungs)")  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(f"written: {path}")


def check(args: argparse.Namespace) -> int:
    from train.rate import rate

    table = {r["name"]: r for r in published()["rungs"]}
    failures = 0
    for name in args.check_rungs:
        got = []
        for seed in args.check_seeds:
            out = Path("runs/ladder/check") / f"{name}_seed{seed}"
            r = rate(name, games=args.check_games, seed=seed, search=not args.no_search,
                     out=out, progress=True)  # fmt: skip
            pub = table[name]
            # two estimates: they agree within their combined 95% half-width
            ok = abs(r.rating - pub["rating"]) <= math.hypot(
                r.high - r.rating, pub["high"] - pub["rating"]
            )
            failures += not ok
            got.append(r)
            print(f"{name} seed {seed}: {r.rating:.0f} [{r.low:.0f}, {r.high:.0f}] from "
                  f"{r.games} games; published {pub['rating']:.0f} "
                  f"[{pub['low']:.0f}, {pub['high']:.0f}]: "
                  f"{'reproduced' if ok else 'NOT REPRODUCED'}", flush=True)  # fmt: skip
        for a, b in zip(got, got[1:], strict=False):
            half = math.hypot(a.high - a.rating, b.high - b.rating)
            ok = abs(a.rating - b.rating) <= half
            failures += not ok
            print(f"{name}: seeds differ by {abs(a.rating - b.rating):.0f} points, combined "
                  f"95% half-width {half:.0f}: {'agree' if ok else 'DISAGREE'}")  # fmt: skip
    print(json.dumps({"failures": failures}))
    return 1 if failures else 0


def main() -> int:
    set_threads()
    p = argparse.ArgumentParser(description=first_paragraph(__doc__))
    p.add_argument("--scale", type=float, default=1.0, help="deals of every table kind x this")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--results", default=None, help="results file (default under runs/ladder)")
    p.add_argument("--no-write", action="store_true", help="print only; publish nothing")
    p.add_argument("--check", action="store_true", help="rate rungs with train.rate instead")
    p.add_argument("--check-rungs", nargs="+", default=["style-rusher", "heuristic"])
    p.add_argument("--check-seeds", nargs="+", type=int, default=[1, 2])
    p.add_argument("--check-games", type=int, default=None, help="train.rate's --games")
    p.add_argument("--no-search", action="store_true", help="check: no search rungs' tables")
    args = p.parse_args()
    if args.scale <= 0 or not math.isfinite(args.scale):
        p.error(f"--scale must be a positive number, got {args.scale}")
    if args.check:
        return check(args)
    play_and_fit(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
