"""Agent-steps per second of random legal play through the PettingZoo AEC API.

The same loop (env.last() -> action_mask -> a uniform legal action -> env.step) runs over
noir_v2 and, for comparison, PettingZoo's texas_holdem_no_limit_v6 and leduc_holdem_v4
(which need `rlcard`). Every env is the wrapped `env()` that users get.

    .venv/bin/python bench/aec.py                  # ~10 s per env
    .venv/bin/python bench/aec.py --steps 200000 --players 6 --rules original --raw

An agent-step is one env.step() call, dead steps (step(None) of a finished agent) included,
as PettingZoo's agent_iter yields them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings

import numpy as np


def run(make_env, steps: int, seed: int = 0) -> dict:
    """Random legal play for `steps` agent-steps (whole games: the last one is finished)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    uniforms = rng.random(steps + 100_000)
    env.reset(seed=seed)
    done_steps = games = 0
    k = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while True:
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(uniforms[k % uniforms.shape[0]] * len(legal))])
                k += 1
            env.step(action)
            done_steps += 1
        games += 1
        if done_steps >= steps:
            break
        env.reset()  # unseeded: rlcard envs rebuild themselves on every seeded reset
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    env.close()
    return {
        "steps": done_steps,
        "games": games,
        "seconds": dt,
        "cpu_seconds": cpu,
        "steps_per_s": done_steps / dt,
        "steps_per_cpu_s": done_steps / cpu,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=60_000, help="agent-steps per env")
    ap.add_argument("--players", type=int, default=4, help="NOIR players (3..6)")
    ap.add_argument("--rules", default="noirburg", help="NOIR rules preset")
    ap.add_argument("--json", help="also write the results to this JSON file")
    ap.add_argument("--no-peers", action="store_true", help="only noir_v2")
    ap.add_argument("--raw", action="store_true", help="also noir_v2.raw_env (no wrappers)")
    args = ap.parse_args(argv)

    from noir_env import noir_v2

    envs = {
        f"noir_v2 ({args.players}p, {args.rules})": lambda: noir_v2.env(
            num_players=args.players, rules=args.rules
        ),
    }
    if args.raw:
        envs["noir_v2 raw_env (no wrappers)"] = lambda: noir_v2.raw_env(
            num_players=args.players, rules=args.rules
        )
    if not args.no_peers:
        warnings.filterwarnings("ignore")
        try:
            from pettingzoo.classic import leduc_holdem_v4, texas_holdem_no_limit_v6
        except ImportError as err:  # rlcard (and pygame) are dev extras
            print(f"peers skipped: {err} (pip install rlcard pygame)", file=sys.stderr)
        else:
            envs["texas_holdem_no_limit_v6"] = texas_holdem_no_limit_v6.env
            envs["leduc_holdem_v4"] = leduc_holdem_v4.env

    # warm-up: numba kernels load (or compile) and every path runs once
    for make in envs.values():
        run(make, 2_000)

    results = {name: run(make, args.steps) for name, make in envs.items()}
    base = next(iter(results.values()))
    width = max(len(n) for n in results) + 2
    print(
        f"\nAEC random legal play, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'env':<{width}}{'agent-steps/s':>15}{'per CPU-s':>12}{'games':>8}{'steps/game':>12}"
        f"{'noir_v2 / env':>15}"
    )
    for name, r in results.items():
        ratio = base["steps_per_cpu_s"] / r["steps_per_cpu_s"]
        print(
            f"{name:<{width}}{r['steps_per_s']:>15,.0f}{r['steps_per_cpu_s']:>12,.0f}"
            f"{r['games']:>8}{r['steps'] / r['games']:>12.1f}{ratio:>14.2f}x"
        )
    print(
        "agent-steps/s: wall clock; per CPU-s: steps per second of this process's CPU time "
        "(steadier on a busy machine); the ratio uses CPU time."
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
