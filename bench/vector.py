"""Throughput of the single-seat training interfaces: learner-steps/s with random opponents.

A learner-step is one decision of the learner: one `step` advances every game through all
opponent decisions up to the learner's next one (or the end of its episode, then deals a new
game). The learner plays uniformly random legal actions (RandomAgent over the masks). Rows:
  vector N        - `make_vector_env(N)` (Gymnasium VectorEnv), N = 1, 64, 1024, 4096,
                    and N = 4096 with copy=False (observation buffers reused);
  DummyVecEnv x16 - SB3's `make_vec_env("noir_env/Noir-v0", n_envs=16)`, the standard
                    single-env path, with masks through env_method("action_masks").
Prints a table, the ratio of the best vector row to the DummyVecEnv row, and writes
bench/results/vector.json.

    python bench/vector.py [--seconds 3]

Targets (issue 8, 2-core machine): >= 300,000 learner-steps/s at N=4096 with random
opponents and >= 25x the DummyVecEnv path.
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
from noir_env.vector import make_vector_env

SIZES = (1, 64, 1024, 4096)
DUMMY_ENVS = 16


def vector_rate(n: int, seconds: float, copy: bool = True) -> tuple[float, float]:
    """(learner-steps/s, learner episodes/s) of make_vector_env(n)."""
    env = make_vector_env(n, num_players=4, opponents="random", seed=0, copy=copy)
    agent = RandomAgent(seed=0)
    obs, infos = env.reset()
    for _ in range(3):  # warm-up: compiles or loads the kernels before the clock starts
        obs, _, _, _, infos = env.step(agent.act(obs, infos["action_mask"]))
    steps = episodes = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, _, term, trunc, infos = env.step(agent.act(obs, infos["action_mask"]))
        steps += n
        episodes += int((term | trunc).sum())
    dt = time.perf_counter() - t0
    return steps / dt, episodes / dt


def dummy_vec_rate(seconds: float) -> tuple[float, float]:
    """(learner-steps/s, episodes/s) of SB3's DummyVecEnv over the registered single env."""
    from stable_baselines3.common.env_util import make_vec_env

    env = make_vec_env("noir_env/Noir-v0", n_envs=DUMMY_ENVS, seed=0, env_kwargs={"num_players": 4})
    agent = RandomAgent(seed=0)
    obs = env.reset()
    for _ in range(3):
        obs, _, _, _ = env.step(agent.act(obs, np.stack(env.env_method("action_masks"))))
    steps = episodes = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        masks = np.stack(env.env_method("action_masks"))
        obs, _, dones, _ = env.step(agent.act(obs, masks))
        steps += DUMMY_ENVS
        episodes += int(dones.sum())
    dt = time.perf_counter() - t0
    return steps / dt, episodes / dt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    rows = []
    for n, copy in [*((n, True) for n in SIZES), (SIZES[-1], False)]:
        sps, eps = vector_rate(n, args.seconds, copy)
        path = f"vector N={n}" + ("" if copy else " copy=False")
        rows.append({"path": path, "learner_steps_per_s": sps, "episodes_per_s": eps})
        print(f"{path:22s} {sps:>11,.0f} learner-steps/s  {eps:>9,.1f} episodes/s", flush=True)
    sps, eps = dummy_vec_rate(args.seconds)
    rows.append(
        {"path": f"DummyVecEnv x{DUMMY_ENVS}", "learner_steps_per_s": sps, "episodes_per_s": eps}
    )
    print(f"{rows[-1]['path']:22s} {sps:>11,.0f} learner-steps/s  {eps:>9,.1f} episodes/s")
    ratio = rows[len(SIZES) - 1]["learner_steps_per_s"] / sps
    print()
    print("| path (random opponents, 4 players) | learner-steps/s | episodes/s |")
    print("|---|---:|---:|")
    for r in rows:
        print(f"| {r['path']} | {r['learner_steps_per_s']:,.0f} | {r['episodes_per_s']:,.1f} |")
    print(f"\nvector N={SIZES[-1]} / DummyVecEnv x{DUMMY_ENVS}: {ratio:.1f}x")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    meta = {"cpus": os.cpu_count(), "machine": platform.machine(), "seconds": args.seconds}
    (out / "vector.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "ratio": ratio}, indent=2)
    )


if __name__ == "__main__":
    main()
