"""Throughput of the rules core under uniformly random legal play (mask included).

Two loops, each at N = 1, 256 and 4096 games in lockstep:
  compiled  - the whole loop in numba (core.random_playout): the core's own speed;
  python    - a Python loop over the public API: legal_action_mask -> RandomAgent.act ->
              core.step, what a training loop pays per call.
and two presentation modes (docs/RULES.md R2.5): `fast` (ask_all=False: the core takes every
forced decision itself; what single-seat training sees) and `ask_all` (every decision whose
being forced is not public is presented, as in noir_v2). Real decisions (two or more legal
actions) and forced ones presented in ask_all mode are counted apart.
Finished games are dealt again. Prints a table and writes bench/results/core.json.

    python bench/core.py [--seconds 5]

Targets (docs: README): >= 3,000,000 real agent-steps/s at N=4096 (fast mode) and >= 200,000
at N=1 on a 2-core machine. For scale: pgx's batched Leduc Hold'em does about 1.4M on this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from agents.random_agent import RandomAgent
from noir_env import core
from noir_env.core import random_playout
from noir_env.core.constants import PH_GAME_OVER
from noir_env.threads import set_threads
from train.cli import first_paragraph

SIZES = (1, 256, 4096)


def deal_again(state, seed: int) -> int:
    """Replace finished games by new ones (same presentation mode); returns how many."""
    done = np.flatnonzero(state.phase == PH_GAME_OVER)
    if done.size:
        ask_all = bool(state.ask_all[0])
        state[done] = core.init(
            done.size, state.num_players[done], "noirburg", seeds=seed, ask_all=ask_all
        )
    return int(done.size)


def compiled_loop(n: int, seconds: float, ask_all: bool) -> tuple[float, float, float]:
    """(real decisions/s, forced decisions presented/s, games/s)."""
    state = core.init(n, 4, "noirburg", seeds=0, ask_all=ask_all)
    chunk = 2000 if n == 1 else 64
    steps = forced = games = 0
    random_playout(core.clone(state), seed=0, max_steps=chunk)  # warm-up
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        res = random_playout(state, seed=k, max_steps=chunk)
        steps += int(res.steps.sum())
        forced += int(res.forced.sum())
        games += deal_again(state, seed=1_000_000 + k * n)
        k += 1
    dt = time.perf_counter() - t0
    return (steps - forced) / dt, forced / dt, games / dt


def python_loop(n: int, seconds: float, ask_all: bool = False) -> tuple[float, float, float]:
    """The fast mode through the public API (every decision it sees is real)."""
    state = core.init(n, 4, "noirburg", seeds=0)
    agent = RandomAgent(seed=0)
    for _ in range(5):  # warm-up (compiles the agent's sampler)
        core.step(state, agent.act(None, core.legal_action_mask(state)), strict=False)
    steps = games = 0
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        live = int((state.phase != PH_GAME_OVER).sum())
        core.step(state, agent.act(None, core.legal_action_mask(state)), strict=False)
        steps += live
        if k % 16 == 0:
            games += deal_again(state, seed=2_000_000 + k * n)
        k += 1
    dt = time.perf_counter() - t0
    return steps / dt, 0.0, games / dt


def warm_up() -> None:
    """Compile (or load from cache) every kernel the loops use before any clock starts."""
    for n in (1, 64):
        state = core.init(n, 4, "noirburg", seeds=0)
        random_playout(state, seed=0, max_steps=5)
        core.step(state, RandomAgent(0).act(None, core.legal_action_mask(state)), strict=False)


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    warm_up()
    rows = []
    runs = [("compiled", "fast"), ("compiled", "ask_all"), ("python", "fast")]
    for loop_name, mode in runs:
        loop = compiled_loop if loop_name == "compiled" else python_loop
        for n in SIZES:
            real, forced, gps = loop(n, args.seconds, ask_all=mode == "ask_all")
            rows.append(
                {
                    "loop": loop_name,
                    "mode": mode,
                    "N": n,
                    "agent_steps_per_s": real,
                    "forced_presented_per_s": forced,
                    "games_per_s": gps,
                }
            )
            print(
                f"{loop_name:9s} {mode:8s} N={n:5d}  {real:>13,.0f} real decisions/s  "
                f"{forced:>11,.0f} forced presented/s  {gps:>9,.1f} games/s",
                flush=True,
            )
    print()
    print("| loop | mode | N | real decisions/s | forced decisions presented/s | games/s |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['loop']} | {r['mode']} | {r['N']} | {r['agent_steps_per_s']:,.0f} | "
            f"{r['forced_presented_per_s']:,.0f} | {r['games_per_s']:,.1f} |"
        )
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    meta = {
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
    }
    (out / "core.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
