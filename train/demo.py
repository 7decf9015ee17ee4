"""The main job (`make demo`): play random games under every rules preset on the batched
core, check the invariants along the way, and print what happened as tables.

    python -m train.demo [--games 3000] [--players 4]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.rollout import random_playout


def preset_table(games: int, players: int) -> list[dict]:
    rows = []
    for preset in core.PRESETS:
        state = core.init(games, players, preset, seeds=0)
        t0 = time.perf_counter()
        res = random_playout(state, seed=1, check=True)
        dt = time.perf_counter() - t0
        if res.problems():
            raise SystemExit(f"invariant broken under {preset}: {res.problems()[:3]}")
        reasons = np.bincount(state.win_reason, minlength=len(C.WIN_REASONS))
        rows.append(
            {
                "preset": preset,
                "games": games,
                "decisions": res.steps.mean(),
                "turns": state.turn_no.mean() + 1,
                **{C.WIN_REASONS[k]: reasons[k] / games for k in range(1, len(C.WIN_REASONS))},
                "steps/s": res.steps.sum() / dt,
            }
        )
        print(f"  {preset}: {games} games in {dt:.1f} s", flush=True)
    return rows


def print_table(rows: list[dict]) -> None:
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")
    for r in rows:
        cells = [
            f"{v:.1%}"
            if isinstance(v, float) and v <= 1 and k not in ("decisions",)
            else f"{v:,.0f}"
            if isinstance(v, float)
            else str(v)
            for k, v in r.items()
        ]
        print("| " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(
        "Compiling the rules core (about 2 minutes on the first run, cached afterwards)...",
        flush=True,
    )
    t0 = time.perf_counter()
    random_playout(core.init(2, args.players), max_steps=2)  # compiles every kernel
    print(f"  ready in {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"Random play, {args.players} players, invariants checked after every step:", flush=True)
    print_table(preset_table(args.games, args.players))


if __name__ == "__main__":
    main()
