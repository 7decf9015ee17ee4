"""RLlib path 1 (single seat, vector env runners) against train.ppo, in the same run:
sampled env steps/s and learner decisions/s (sampling and update) with 1 and 2 env
runners, and the share of an env runner's sampling time spent in our env (the rest is
RLlib: its per-game episode bookkeeping, connectors and the module's forward pass).

    python bench/rllib.py [--num-envs 1024] [--rollout 32] [--iterations 3]

Needs the rllib extra (.venv-rllib; `make bench-rllib`). Target (issue 24): at N >= 1024 the
env takes <= 20% of an env runner's time, so the env is never what a cluster waits for.
4-player noirburg games against random opponents, one thread per process, a local Ray
instance of 2 CPUs (the learner in the driver). Every path-1 step is one learner decision,
so env steps and learner decisions are the same count.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time

from noir_env.threads import set_threads

os.environ.setdefault("NOIR_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def timed_vector_env(config: dict):
    """`train.rllib.envs.vector_env_creator`, its env counting the seconds spent in it (in
    the class attribute `seconds`, per env runner process)."""
    from train.rllib.envs import MaskedVectorEnv, vector_env_creator

    class TimedVectorEnv(MaskedVectorEnv):
        seconds = 0.0

        def reset(self, **kwargs):
            t0 = time.perf_counter()
            try:
                return super().reset(**kwargs)
            finally:
                TimedVectorEnv.seconds += time.perf_counter() - t0

        def step(self, actions):
            t0 = time.perf_counter()
            try:
                return super().step(actions)
            finally:
                TimedVectorEnv.seconds += time.perf_counter() - t0

    return vector_env_creator(config, TimedVectorEnv)


def _sample_split(runner, steps: int) -> tuple[float, float, int]:
    """In an env runner: (seconds sampling, of which in our env, env steps sampled)."""
    env = runner.env.unwrapped
    before, t0 = type(env).seconds, time.perf_counter()
    episodes = runner.sample(num_timesteps=steps, explore=True)
    return time.perf_counter() - t0, type(env).seconds - before, sum(len(e) for e in episodes)


def rllib_speed(runners: int, num_envs: int, rollout: int, iterations: int) -> dict:
    import ray
    from ray.tune.registry import register_env

    from train.rllib.args import RLlibArgs
    from train.rllib.config import VECTOR_ENV, build_config

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        register_env(VECTOR_ENV, timed_vector_env)
        args = RLlibArgs(env_runners=runners, envs_per_runner=num_envs, rollout_length=rollout,
                         players="4", minibatch_size=4096, seed=1)  # fmt: skip
        algo = build_config(args).build_algo()
        try:
            algo.train()  # warm-up: kernels compiled or loaded in every process
            first = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
            t0 = time.perf_counter()
            for _ in range(iterations):
                last = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
            trained = (last - first) / (time.perf_counter() - t0)
            t0 = time.perf_counter()
            split = algo.env_runner_group.foreach_env_runner(
                lambda r: _sample_split(r, num_envs * rollout),
                local_env_runner=runners == 0,
            )
            wall = time.perf_counter() - t0
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    steps = sum(s for _, _, s in split)
    share = sum(e for _, e, _ in split) / sum(t for t, _, _ in split)
    return {"sampled": steps / wall, "trained": trained, "env_share": share}


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--num-envs", type=int, default=1024, help="games per env runner")
    p.add_argument("--rollout", type=int, default=32, help="decisions per game per iteration")
    p.add_argument("--iterations", type=int, default=3, help="timed training iterations")
    p.add_argument("--ppo-steps", type=int, default=65_536, help="train.ppo's decisions")
    a = p.parse_args()

    from training import ppo_speed  # bench/training.py: train.ppo's measured speed

    from noir_env.vector import make_vector_env

    env = make_vector_env(64, num_players=4, seed=0)  # compile (or load) the kernels once
    env.reset()
    ppo = ppo_speed(a.ppo_steps, 256)
    rows = [(runners, rllib_speed(runners, a.num_envs, a.rollout, a.iterations))
            for runners in (1, 2)]  # fmt: skip
    shutil.rmtree("runs/bench_train_ppo", ignore_errors=True)
    print("| trainer | sampled env steps/s | learner decisions/s (sample + update) | "
          "env share of an env runner's time |")  # fmt: skip
    print("|---|---:|---:|---:|")
    print(f"| train.ppo, N=256 (one process) | | {ppo:,.0f} | |")
    for runners, r in rows:
        print(f"| RLlib path 1, {runners} env runner{'s' if runners > 1 else ''} x "
              f"N={a.num_envs} | {r['sampled']:,.0f} | {r['trained']:,.0f} | "
              f"{100 * r['env_share']:.0f}% |")  # fmt: skip


if __name__ == "__main__":
    main()
