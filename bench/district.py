"""Throughput of the District Noir core beside NOIR's, measured in the same run.

The loops of bench/core.py, for both games, at N = 1, 256 and 4096 games in lockstep:
  compiled  - whole games of random legal play inside numba (`random_playout`);
  python    - a Python loop over the public API: legal_action_mask -> RandomAgent.act ->
              step, what a training loop pays per call;
  vector    - District Noir only: `make_vector_env(game="district_noir")` with the built-in random
              opponent and a random learner, learner-steps/s (each also plays the
              opponent's decisions inside; NOIR's vector figures are bench/vector.py's).
Finished games are dealt again. Prints one table (agent-steps/s, District Noir and NOIR with
4 players) and writes bench/results/district.json.

    python bench/district.py [--seconds 1] [--no-noir]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from agents.random_agent import RandomAgent
from noir_env import district
from noir_env.district import random_playout
from noir_env.district.constants import PH_GAME_OVER
from noir_env.threads import set_threads
from noir_env.vector import make_vector_env
from train.cli import first_paragraph

SIZES = (1, 256, 4096)


def noir_bench():
    """bench/core.py as a module (its NOIR loops are reused as they are)."""
    spec = importlib.util.spec_from_file_location(
        "noir_core_bench", Path(__file__).parent / "core.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def deal_again(state: district.State, seed: int) -> int:
    """Replace finished games by new ones; returns how many there were."""
    done = np.flatnonzero(state.phase == PH_GAME_OVER)
    if done.size:
        state[done] = district.init(done.size, seeds=seed)
    return int(done.size)


def compiled_loop(n: int, seconds: float) -> tuple[float, float]:
    """(agent-steps/s, games/s) of whole random games played inside numba."""
    state = district.init(n, seeds=0)
    steps = games = 0
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        res = random_playout(state, seed=k, max_steps=64)
        steps += int(res.steps.sum())
        games += deal_again(state, seed=1_000_000 + k * n)
        k += 1
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


def python_loop(n: int, seconds: float) -> tuple[float, float]:
    """(agent-steps/s, games/s) of a Python loop over the public batched API."""
    state = district.init(n, seeds=0)
    agent = RandomAgent(seed=0)
    steps = games = 0
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        live = int((state.phase != PH_GAME_OVER).sum())
        district.step(state, agent.act(None, district.legal_action_mask(state)), strict=False)
        steps += live
        if k % 8 == 0:
            games += deal_again(state, seed=2_000_000 + k * n)
        k += 1
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


def vector_loop(n: int, seconds: float) -> tuple[float, float]:
    """(learner-steps/s, games/s) of the District Noir vector env, a random learner against
    the built-in random opponent (autoreset deals finished games again)."""
    env = make_vector_env(n, game="district_noir", opponents="random", seed=0, copy=False)
    _, infos = env.reset()
    agent = RandomAgent(seed=0)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, _, terminated, _, infos = env.step(agent.act(None, infos["action_mask"]))
        steps += n
        games += int(terminated.sum())
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


def warm_up() -> None:
    """Compile (or load from the cache) every District Noir kernel the loops use."""
    for n in (1, 64):
        state = district.init(n, seeds=0)
        random_playout(state, seed=0, max_steps=5)
        district.step(
            state, RandomAgent(0).act(None, district.legal_action_mask(state)), strict=False
        )
        vector_loop(n, 0.0)


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--no-noir", action="store_true", help="measure District Noir only")
    args = parser.parse_args()
    noir = None if args.no_noir else noir_bench()
    warm_up()
    if noir:
        noir.warm_up()
    rows = []
    loops = {"compiled": compiled_loop, "python": python_loop, "vector": vector_loop}
    for loop_name, loop in loops.items():
        for n in SIZES:
            row = {"loop": loop_name, "N": n}
            row["district_steps_per_s"], row["district_games_per_s"] = loop(n, args.seconds)
            if noir and loop_name != "vector":
                noir_loop = noir.compiled_loop if loop_name == "compiled" else noir.python_loop
                # the fast mode: NOIR's core takes forced decisions, as District Noir's does
                steps, _, games = noir_loop(n, args.seconds, False)
                row["noir_steps_per_s"], row["noir_games_per_s"] = steps, games
            rows.append(row)
            print(
                f"{loop_name:9s} N={n:5d}  District Noir {row['district_steps_per_s']:>13,.0f}"
                + (f"  NOIR {row['noir_steps_per_s']:>13,.0f}" if "noir_steps_per_s" in row else "")
                + " agent-steps/s",
                flush=True,
            )
    print()
    print("| loop | N | District Noir agent-steps/s | games/s | NOIR (4 players) agent-steps/s |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        noir_cell = f"{r['noir_steps_per_s']:,.0f}" if "noir_steps_per_s" in r else "-"
        print(
            f"| {r['loop']} | {r['N']} | {r['district_steps_per_s']:,.0f} | "
            f"{r['district_games_per_s']:,.1f} | {noir_cell} |"
        )
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    meta = {
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "seconds": args.seconds,
    }
    (out / "district.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
