"""The main job (`make demo`): play random games under every rules preset on the batched
core (invariants checked along the way), train a PPO agent for a few minutes, then play a
tournament of random, heuristic, the shipped PPO policy and the one just trained; print tables.

    python -m train.demo [--games 3000] [--players 4] [--train-steps 200000] [--eval-games 2000]
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

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


def train_briefly(steps: int, players: int) -> Path:
    """A few minutes of train.ppo against random and heuristic tables, the first third
    imitating the heuristic; its policy file. Each demo starts runs/demo/ afresh.

    One torch thread: the demo must not collapse on a machine that other work shares, where
    torch's threads wait on each other (train.ppo ran 5x slower with two threads than with
    one on a busy 2-core machine; docs/training.md)."""
    from train.ppo import Args, train

    shutil.rmtree(Path("runs") / "demo", ignore_errors=True)
    num_envs, num_steps = 128, 64
    args = Args(
        run_name="demo",
        total_steps=steps,
        num_envs=num_envs,
        num_steps=num_steps,
        players=str(players),
        league="random:0.5,heuristic:0.5",
        imitate="heuristic",
        imitation_updates=max(1, steps // (num_envs * num_steps) // 3),
        eval_games=0,
        threads=1,
    )
    return train(args)


def tournament(policy: Path, players: int, games: int) -> None:
    """random, heuristic, the shipped PPO policy (if any) and the demo's, every seat rotated."""
    from agents import PPOAgent
    from agents.ppo_agent import SHIPPED_POLICY
    from train.tournament import run_tournament, save

    entrants = {"random": "random", "heuristic": "heuristic", "ppo (demo run)": PPOAgent(policy)}
    if SHIPPED_POLICY.is_file():
        entrants["ppo (shipped)"] = "ppo"
    else:
        entrants["heuristic-aggressive"] = "heuristic-aggressive"
    result = run_tournament(entrants, num_players=players, games=games, seed=0, progress=True)
    print(result.table())
    files = save(result, Path("runs") / "eval" / "demo")
    print(f"files: {', '.join(str(p) for p in files.values())}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="random games per preset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--train-steps", type=int, default=200_000, help="PPO learner steps")
    parser.add_argument("--eval-games", type=int, default=2000, help="tournament games")
    args = parser.parse_args(argv)
    print(
        "Compiling the rules core (about 2 minutes on the first run, cached afterwards)...",
        flush=True,
    )
    t0 = time.perf_counter()
    random_playout(core.init(2, args.players), max_steps=2)  # compiles every kernel
    print(f"  ready in {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"Random play, {args.players} players, invariants checked after every step:", flush=True)
    print_table(preset_table(args.games, args.players))
    print(f"Training PPO for {args.train_steps:,} learner steps (runs/demo/)...", flush=True)
    policy = train_briefly(args.train_steps, args.players)
    print(f"Tournament, {args.players} players, {args.eval_games:,} games:", flush=True)
    tournament(policy, args.players, args.eval_games)


if __name__ == "__main__":
    main()
