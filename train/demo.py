"""The main job (`make demo`): play random games under every rules preset on the batched
core (invariants checked along the way), train a PPO agent for a few minutes, then play a
tournament of random, heuristic, the shipped PPO policy and the one just trained; print tables.

A first run compiles every kernel the later stages call before they start (`warm_up`: a
random game is shown once the rules core is compiled, then a progress line every few seconds
says what is compiling and about how long is left; later runs load them from numba's cache in
seconds), so that no stage sits silent while numba compiles.

    python -m train.demo [--games 3000] [--players 4] [--train-steps 200000] [--eval-games 2000]
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from noir_env import core
from noir_env.core import constants as C
from noir_env.core import random_playout
from noir_env.game import get_game
from noir_env.threads import set_threads

from .cli import Parser, first_paragraph

MAX_GAMES = 10**9  # games of a stage: far more than a demo plays
MAX_TRAIN_STEPS = 10**12


def warm_up(players: int) -> None:
    """Compile (or load from the cache) every kernel the demo's later stages call, so that
    each of them starts at once, with a progress line per group (what, how long is left): a
    random game of the AEC env first (the rules core; shown as soon as it has been played),
    the vector env with heuristic and random opponents, torch, the tournament's agents."""
    from noir_env.precompile import GROUPS, Group, compile_groups

    groups = [g for g in GROUPS if g.name in ("aec", "vector")]
    groups += [
        Group("torch", "PyTorch (train.ppo's import)", _import_torch, 5.0),
        Group("tournament", "the tournament's agents", lambda: _tournament(players), 6.0),
    ]
    compile_groups(groups)


def _import_torch() -> None:
    import train.ppo  # noqa: F401  (torch: seconds to import)


def _tournament(players: int) -> None:
    """The tournament's kinds of agents (tournament() below) in the arena."""
    from agents.policies import SHIPPED_PPO_POLICY as SHIPPED_POLICY
    from train.tournament import run_tournament

    lineup = ["random", "heuristic", "heuristic-aggressive"]
    lineup += ["ppo"] if SHIPPED_POLICY.is_file() else []
    run_tournament(lineup, num_players=players, games=256, seed=0, ratings=False)


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
    from agents.policies import SHIPPED_PPO_POLICY as SHIPPED_POLICY
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


def check_args(args: Any) -> None:
    """ValueError naming the first flag out of its range (before any work starts)."""
    get_game("noir").player_counts(args.players)
    for flag, value, most in (("--games", args.games, MAX_GAMES),
                              ("--train-steps", args.train_steps, MAX_TRAIN_STEPS),
                              ("--eval-games", args.eval_games, MAX_GAMES)):  # fmt: skip
        if not 1 <= value <= most:
            raise ValueError(f"{flag} must be in 1..{most:,}, got {value}")


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m train.demo", description=first_paragraph(__doc__))
    parser.add_argument("--games", type=int, default=3000, help="random games per preset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--train-steps", type=int, default=200_000, help="PPO learner steps")
    parser.add_argument("--eval-games", type=int, default=2000, help="tournament games")
    args = parser.parse_args(argv)
    parser.run(lambda: check_args(args))
    parser.run(set_threads)  # the project's thread choice (noir_env.threads): NOIR_THREADS or 1
    print("Compiling the rules core, the engines and the agents (the first run only; later runs "
          "load them from the cache; `python -m noir_env.precompile` fills it ahead)...",
          flush=True)  # fmt: skip
    warm_up(args.players)
    print(f"Random play, {args.players} players, invariants checked after every step:", flush=True)
    print_table(preset_table(args.games, args.players))
    print(f"Training PPO for {args.train_steps:,} learner steps (runs/demo/)...", flush=True)
    policy = train_briefly(args.train_steps, args.players)
    print(f"Tournament, {args.players} players, {args.eval_games:,} games:", flush=True)
    tournament(policy, args.players, args.eval_games)


if __name__ == "__main__":
    main()
