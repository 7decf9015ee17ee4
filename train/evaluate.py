"""Evaluate agents in a tournament: win rates with 95% intervals, scores, ranks, game
lengths, win reasons, head-to-head, OpenSkill ratings; CSV, JSON and a PNG plot.

    python -m train.evaluate --agents heuristic random random random --players 4 --games 4000
    python -m train.evaluate --agents random heuristic:style=aggressive --players 3 4 --seed 1
    python -m train.evaluate --game district_noir --agents district-heuristic random

Agents are names known to `agents.load` (options as `name:key=value,...`) or checkpoint
paths; list an agent several times to give it several seats. Files go to
`runs/eval/<name>/` (`--out` to choose): results.json, summary.csv, head_to_head.csv,
games.csv, win_rates.png, and with `--save-games K` the first K games as games/*.json
(`python -m train.replay games/game_00000.json --html game.html` shows one). The schedule
and its statistics: `train/tournament.py`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import numba

from noir_env.game import game_names
from noir_env.threads import set_threads

from .cli import Parser, first_paragraph
from .tournament import run_tournament, save


def default_out(agents: list[str], players: list[int], game: str = "noir") -> Path:
    """runs/eval/[<game>_]<agents>_<players>p: a folder name made of the settings (the
    game named unless it is NOIR)."""
    name = "_vs_".join(agents) + "_" + "-".join(str(n) for n in sorted(set(players))) + "p"
    name = name if game == "noir" else f"{game}_{name}"
    return Path("runs") / "eval" / re.sub(r"[^A-Za-z0-9_.=-]+", "-", name)[:120]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = Parser(prog="python -m train.evaluate", description=first_paragraph(__doc__))
    p.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="agent names / specs / checkpoint paths (one entrant each)",
    )
    p.add_argument(
        "--game",
        default="noir",
        choices=game_names(),
        help="the game: noir (default), district_noir (two players) or any registered game",
    )
    p.add_argument(
        "--players",
        nargs="+",
        type=int,
        default=None,
        metavar="N",
        help="players per table: NOIR 3..6 (default 4; several: each size is played), "
        "District Noir 2",
    )
    p.add_argument(
        "--games",
        type=int,
        default=1000,
        help="games per table size (rounded up to whole rounds of seatings)",
    )
    p.add_argument(
        "--rules",
        default=None,
        help="the game's rules preset (NOIR: noirburg (default), "
        "noirbrough, original; District Noir has none)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="output folder")
    p.add_argument(
        "--max-steps",
        type=int,
        default=10_000,
        help="decisions after which a NOIR game is truncated",
    )
    p.add_argument("--slots", type=int, default=2048, help="games played at once")
    p.add_argument(
        "--ask-forced",
        action="store_true",
        help="NOIR: also call the agents on decisions with one legal action",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-plot", action="store_true", help="no PNG plot")
    p.add_argument(
        "--save-games",
        type=int,
        default=0,
        metavar="K",
        help="also save the first K games (seed and every decision) to <out>/games/, "
        "for `python -m train.replay` (the viewer: --html)",
    )
    return p.parse_args(argv)  # fmt: skip


def prefer_workqueue_threads() -> None:
    """Run numba's parallel kernels on its `workqueue` threading layer unless the user chose
    one (NUMBA_THREADING_LAYER). A tournament launches a parallel kernel per decision round;
    on a busy 2-core machine the default OpenMP layer's waiting threads made those launches
    slow (4 Python agents: 116 games/s with OpenMP, 436 with workqueue, 366 on one thread)."""
    if "NUMBA_THREADING_LAYER" not in os.environ:
        os.environ["NUMBA_THREADING_LAYER"] = "workqueue"  # numba re-reads its config from
        numba.config.reload_config()  # the environment, so a bare attribute would not stay


def main(argv: list[str] | None = None) -> int:
    """Run the tournament the arguments describe, print its tables, save its files."""
    args = parse_args(argv)
    prefer_workqueue_threads()  # before set_threads, which starts numba's threading layer
    parser = Parser(prog="python -m train.evaluate")
    parser.run(set_threads)  # the project's thread choice (noir_env.threads)
    result = parser.run(
        lambda: run_tournament(
            args.agents,
            num_players=args.players,
            games=args.games,
            rules=args.rules,
            seed=args.seed,
            max_steps=args.max_steps,
            slots=args.slots,
            ask_forced=args.ask_forced,
            progress=not args.no_progress,
            game=args.game,
            save_games=args.save_games,
        )
    )
    print(result.table())
    out = args.out or default_out(args.agents, result.config["players"], args.game)
    paths = parser.run(lambda: save(result, out, plot=not args.no_plot))
    print(f"\nwritten: {', '.join(str(p) for p in paths.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
