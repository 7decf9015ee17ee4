"""The main job (`make demo`): play random games under every rules preset on the batched
core (invariants checked along the way), train a PPO agent for a few minutes, then play a
tournament of random, heuristic, the shipped PPO policy and the one just trained; print tables.

A first run compiles every kernel the later stages call before they start (`warm_up`, a few
minutes on 2 cores, a progress line every 10 s; later runs load them from numba's cache in
seconds), so that no stage sits silent while numba compiles.

    python -m train.demo [--games 3000] [--players 4] [--train-steps 200000] [--eval-games 2000]
"""

from __future__ import annotations

import shutil
import sys
import threading
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
KERNEL_PACKAGES = ("noir_env", "agents")  # where the project's numba kernels live


def compiled_kernels() -> dict[str, int]:
    """Per module of the project imported so far, how many of its kernels are compiled (or
    loaded from the cache): numba compiles a kernel on its first call."""
    from numba.core.dispatcher import Dispatcher

    counts: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in KERNEL_PACKAGES or module is None:
            continue
        # a kernel imported into another module counts in the module that defines it
        counts[name] = sum(
            bool(v.signatures)
            for v in list(vars(module).values())
            if isinstance(v, Dispatcher) and v.py_func.__module__ == name
        )
    return counts


class CompileProgress:
    """While a first run compiles, a line every `every` seconds: the time so far, how many
    kernels are compiled and the modules of those compiled since the last line, so that a long
    compile never looks hung. A run whose kernels are cached finishes before the first line."""

    def __init__(self, every: float = 10.0):
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> CompileProgress:
        self.t0 = time.perf_counter()
        self._seen = compiled_kernels()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            now = compiled_kernels()
            new = [m.rpartition(".")[2] for m, n in now.items() if n > self._seen.get(m, 0)]
            self._seen = now
            line = f"  {time.perf_counter() - self.t0:4.0f} s: {sum(now.values())} kernels compiled"
            if new:
                line += f"; just now in {', '.join(new[:4])}{', ...' if len(new) > 4 else ''}"
            else:  # a kernel counts once it is done, and the largest take a minute or more
                line += f"; none finished in the last {self.every:.0f} s (the largest take minutes)"
            print(line, flush=True)


def warm_up(players: int) -> None:
    """Compile (or load from the cache) every kernel the demo's later stages call, so that
    each of them starts at once: the core, the vector engine with heuristic and random
    opponents, the agents, the tournament arena; and import torch. Each batched loop has a
    serial variant (fewer than 64 games) and a parallel one, hence two batch sizes."""
    from agents import load
    from agents.policies import SHIPPED_PPO_POLICY as SHIPPED_POLICY
    from noir_env.vector import make_vector_env
    from train.tournament import run_tournament

    learner, teacher = load("random", seed=0), load("heuristic")
    for n in (2, 128):
        random_playout(core.init(n, players), max_steps=2)  # the rules core
        envs = make_vector_env(n, num_players=players, seed=0,
                               opponents={"random": 0.5, "heuristic": 0.5})  # fmt: skip
        obs, infos = envs.reset()
        for _ in range(8):
            obs, *_, infos = envs.step(learner.act(obs, infos["action_mask"]))
        # train.ppo's imitation teacher reads the learner's rows with a bool mask: its own
        # specialization of the heuristic's kernel
        teacher.act(obs, infos["action_mask"].astype(bool))
        envs.close()
    import train.ppo  # noqa: F401  (torch: seconds to import)

    # the tournament's kinds of agents (tournament() below); 256 games: the arena's serial and
    # parallel variants (a policy observes in batches of 64 or more)
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
    print(
        "Compiling the rules core, the engines and the agents (the first run only: minutes on "
        "2 cores; later runs load them from the cache)...",
        flush=True,
    )
    t0 = time.perf_counter()
    with CompileProgress():
        warm_up(args.players)
    print(f"  ready in {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"Random play, {args.players} players, invariants checked after every step:", flush=True)
    print_table(preset_table(args.games, args.players))
    print(f"Training PPO for {args.train_steps:,} learner steps (runs/demo/)...", flush=True)
    policy = train_briefly(args.train_steps, args.players)
    print(f"Tournament, {args.players} players, {args.eval_games:,} games:", flush=True)
    tournament(policy, args.players, args.eval_games)


if __name__ == "__main__":
    main()
