"""Training speed: `train.ppo` (lean masked PPO in torch on the batched vector env) against
sb3-contrib's MaskablePPO on the same env (`make_sb3_vec_env`), measured in the same run.

    python bench/training.py [--steps 65536]

Both train against uniform random opponents in 4-player noirburg games for the same number
of learner decisions (after a short warm-up that compiles the kernels) and report learner
decisions per second, env + update included. Target: train.ppo >= 10x MaskablePPO.
The last train.ppo row is like for like: MaskablePPO's hidden width (64-64) and passes over
each batch (10), so that the ratio is the trainers' own, whatever the network.
"""

from __future__ import annotations

import argparse
import shutil
import time

from noir_env.threads import set_threads
from train.ppo import Args, train
from train.sb3_ppo import train_sb3


def ppo_speed(steps: int, num_envs: int, bf16: bool = False, **settings) -> float:
    args = Args(
        bf16=bf16,
        run_name="bench_train_ppo",
        total_steps=steps,
        num_envs=num_envs,
        num_steps=64,
        league="random:1",
        eval_games=0,
        progress=False,
        checkpoint_interval=10**9,
        **settings,
    )
    t0 = time.perf_counter()
    train(args)
    shutil.rmtree("runs/bench_train_ppo", ignore_errors=True)
    return steps / (time.perf_counter() - t0)


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=65_536, help="learner decisions per trainer")
    p.add_argument("--num-envs", type=int, default=256, help="games in lockstep for train.ppo")
    p.add_argument("--sb3-envs", type=int, default=16, help="games for MaskablePPO")
    a = p.parse_args()
    threads = Args().threads  # MaskablePPO gets train.ppo's torch threads: a like-for-like ratio
    ppo_speed(a.num_envs * 64, a.num_envs)  # warm-up: compiles the kernels
    train_sb3(2048, a.sb3_envs, 128, run_name=None, threads=threads)
    # 4 passes over each batch (train.ppo's default is 2): the update's work per decision
    # stays that of the usual PPO setting, so the ratio measures the trainers, not the passes
    ours = ppo_speed(a.steps, a.num_envs, update_epochs=4)
    ours_bf16 = ppo_speed(a.steps, a.num_envs, bf16=True, update_epochs=4)
    ours_alike = ppo_speed(a.steps, a.num_envs, hidden="64,64", update_epochs=10)
    _, theirs = train_sb3(a.steps, a.sb3_envs, 128, run_name=None, threads=threads)
    print("| trainer (network; passes over each batch) | learner decisions/s | vs MaskablePPO |")
    print("|---|---:|---:|")
    for name, rate in (
        (f"train.ppo --update-epochs 4, N={a.num_envs} (shared 256-256 MLP)", ours),
        (f"train.ppo --update-epochs 4 --bf16, N={a.num_envs}", ours_bf16),
        (f"train.ppo --hidden 64,64 --update-epochs 10, N={a.num_envs}", ours_alike),
        (f"sb3-contrib MaskablePPO, N={a.sb3_envs} (two 64-64 MLPs; 10 epochs)", theirs),
    ):
        print(f"| {name} | {rate:,.0f} | {rate / theirs:.1f}x |")


if __name__ == "__main__":
    main()
