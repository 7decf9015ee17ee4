"""Throughput of the single-seat training interfaces: learner-steps/s with random and with
heuristic opponents.

Any game of the protocol (`--game`, NOIR by default). A learner-step is one decision of the
learner: one `step` advances every game through all
opponent decisions up to the learner's next one (or the end of its episode, then deals a new
game). The learner plays uniformly random legal actions (RandomAgent over the masks). Rows,
for each opponent (the built-in uniform random one, inside the compiled loop; the
heuristic, called once per decision round with every game that waits for it):
  vector N        - `make_vector_env(N)` (Gymnasium VectorEnv), N = 1, 64, 1024, 4096,
                    and N = 4096 with copy=False (observation buffers reused);
  DummyVecEnv x16 - SB3's `make_vec_env("noir_env:noir_env/Noir-v2", n_envs=16)`, the standard
                    single-env path, with masks through env_method("action_masks").
Prints a table, the ratio of the N=4096 row to the DummyVecEnv row for each opponent, and
writes bench/results/vector.json.

    python bench/vector.py [--seconds 3] [--opponents random heuristic]
    python bench/vector.py --game district_noir      # any game: random and its heuristic

Targets (2-core machine): >= 300,000 learner-steps/s at N=4096 with random
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
from noir_env.threads import set_threads
from noir_env.vector import make_vector_env
from train.cli import first_paragraph

SIZES = (1, 64, 1024, 4096)
DUMMY_ENVS = 16


def vector_rate(
    n: int, seconds: float, copy: bool = True, opponents: str = "random", game: str = "noir"
) -> tuple[float, float]:
    """(learner-steps/s, learner episodes/s) of make_vector_env(n) (the game's default
    player count: NOIR 4)."""
    env = make_vector_env(n, opponents=opponents, seed=0, copy=copy, game=game)
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


def dummy_vec_rate(
    seconds: float, opponents: str = "random", game: str = "noir"
) -> tuple[float, float]:
    """(learner-steps/s, episodes/s) of SB3's DummyVecEnv over the single-seat env (the
    registered id where the game has one)."""
    from stable_baselines3.common.env_util import make_vec_env

    import noir_env
    from noir_env.vector import SingleSeatEnv

    kwargs = {"opponents": opponents}
    registered = {"noir": noir_env.ENV_ID, "district_noir": noir_env.DISTRICT_ENV_ID}
    if game not in registered:
        kwargs["game"] = game
    env = make_vec_env(registered.get(game, SingleSeatEnv), n_envs=DUMMY_ENVS, seed=0,
                       env_kwargs=kwargs)  # fmt: skip
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
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument(
        "--opponents", nargs="+", default=None,
        help="opponents to measure (default: random and the game's heuristic)",
    )  # fmt: skip
    parser.add_argument("--game", default="noir", help="noir, district_noir or a registered game")
    args = parser.parse_args()
    if args.opponents is None:
        from noir_env.game import get_game

        args.opponents = ["random", get_game(args.game).heuristic]
    rows, ratios = [], {}
    for opponents in args.opponents:
        for n, copy in [*((n, True) for n in SIZES), (SIZES[-1], False)]:
            sps, eps = vector_rate(n, args.seconds, copy, opponents, args.game)
            rows.append(
                _row(opponents, f"vector N={n}" + ("" if copy else " copy=False"), sps, eps)
            )
        sps, eps = dummy_vec_rate(args.seconds, opponents, args.game)
        rows.append(_row(opponents, f"DummyVecEnv x{DUMMY_ENVS}", sps, eps))
        ratios[opponents] = rows[-3]["learner_steps_per_s"] / sps  # the N=4096 (copy=True) row
    print()
    print(f"| opponents | path ({args.game}) | learner-steps/s | episodes/s |")
    print("|---|---|---:|---:|")
    for r in rows:
        print(
            f"| {r['opponents']} | {r['path']} | {r['learner_steps_per_s']:,.0f} "
            f"| {r['episodes_per_s']:,.1f} |"
        )
    print()
    for opponents, ratio in ratios.items():
        print(
            f"{opponents} opponents: vector N={SIZES[-1]} / DummyVecEnv x{DUMMY_ENVS}: {ratio:.1f}x"
        )
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    meta = {"cpus": os.cpu_count(), "machine": platform.machine(), "seconds": args.seconds,
            "game": args.game}  # fmt: skip
    (out / "vector.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "ratios": ratios}, indent=2)
    )


def _row(opponents: str, path: str, sps: float, eps: float) -> dict:
    print(f"{opponents:10s} {path:22s} {sps:>11,.0f} learner-steps/s  {eps:>9,.1f} episodes/s",
          flush=True)  # fmt: skip
    return {"opponents": opponents, "path": path, "learner_steps_per_s": sps, "episodes_per_s": eps}


if __name__ == "__main__":
    main()
