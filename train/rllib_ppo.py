"""PPO with Ray RLlib (new API stack) over the batched core: the same network and policy
file as train.ppo, sampled by RLlib env runners on one machine or a Ray cluster.

    python -m train.rllib_ppo --run-name r1 --total-steps 500000 --env-runners 2
    python -m train.rllib_ppo --mode selfplay --league "self:0.5,heuristic:0.5" --players 3,4
    python -m train.rllib_ppo --address auto --env-runners 32 --envs-per-runner 1024  # cluster

--mode single (path 1): every env runner steps one Gymnasium vector env of
--envs-per-runner games (`noir_env.vector.make_vector_env`, NEXT_STEP autoreset), the
learner in one seat of each and the --league in the others. --mode selfplay (path 2): an
RLlib MultiAgentEnv per game (`train.rllib.envs.SelfPlayMultiAgentEnv`), one shared policy
for every seat, or one seat against heuristic / frozen opponents' modules. Both mask illegal
actions in the module (`train.rllib.modules.MaskedPolicyModule`).

Everything lands in runs/<run-name>/: config.json, progress.csv (one row per training
iteration), summary.json (what the run prints at its end), checkpoint/ (RLlib's, every
--checkpoint-interval iterations and at the end; `python -m train.rllib.export
runs/<run-name>/checkpoint` writes its policy file) and policy.pt (the final policy:
`agents.load("runs/<run-name>/policy.pt")` plays it, so it enters train.evaluate and the
tournament). --address joins a running cluster (`ray start --head` on one machine,
`ray start --address <head>:6379` on the others, docs/rllib.md).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from pathlib import Path

from noir_env._atomic import atomic_write_text
from noir_env.threads import set_threads

from .cli import Parser
from .rllib.args import RLlibArgs, parse_args, players_of

PROGRESS_COLUMNS = ("iteration", "env_steps", "seconds", "env_steps_per_s", "learner_won",
                    "learner_return_mean")  # fmt: skip


def start_ray(args: RLlibArgs) -> bool:
    """Join --address, or start a local Ray instance (--num-cpus); True if this process
    started it (and should shut it down)."""
    import ray

    from noir_env.precompile import cache_settings

    if ray.is_initialized():
        return False
    # the workers use the driver's numba cache settings (a shared, precompiled cache)
    runtime_env = {"env_vars": cache_settings()} if cache_settings() else None
    if args.address:
        try:
            ray.init(address=args.address, log_to_driver=False, runtime_env=runtime_env)
        except ConnectionError as e:  # no cluster there ('auto' finds none at once)
            raise ValueError(f"--address {args.address}: {str(e).splitlines()[0]}") from None
    else:
        ray.init(num_cpus=args.num_cpus or None, include_dashboard=False, log_to_driver=False,
                 runtime_env=runtime_env)  # fmt: skip
    return True


def save_checkpoint(algo, folder: Path) -> None:
    """RLlib's checkpoint into `folder`, replacing the previous one only once the new one is
    complete (written beside it, then renamed; a crash leaves the old or `folder`.new)."""
    new, old = folder.with_name(folder.name + ".new"), folder.with_name(folder.name + ".old")
    shutil.rmtree(new, ignore_errors=True)
    algo.save_to_path(str(new.resolve()))
    if folder.exists():
        folder.rename(old)
    new.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def train(args: RLlibArgs) -> dict:
    """Train as `args` says (module docstring); returns the summary (also printed):
    env steps, seconds, the policy file and its win rate against random."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    from .league import evaluate
    from .rllib.config import build_config, learner_module_id, register_envs
    from .rllib.export import export_algorithm

    set_threads()
    run_dir = Path("runs") / args.run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_dir / "config.json", json.dumps(dataclasses.asdict(args), indent=2))
    started = start_ray(args)
    register_envs()
    algo = build_config(args).build_algo()
    learner = learner_module_id(args)
    rows, steps, iteration, t0 = [], 0, 0, time.perf_counter()
    try:
        while steps < args.total_steps:
            result = algo.train()
            iteration += 1
            runners = result.get(ENV_RUNNER_RESULTS, {})
            steps = int(runners.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0))
            seconds = time.perf_counter() - t0
            rows.append((iteration, steps, round(seconds, 2), round(steps / seconds, 1),
                         _num(runners.get("learner_won")),
                         _num(learner_return(runners, learner))))  # fmt: skip
            _write_progress(run_dir / "progress.csv", rows)
            print(", ".join(f"{k} {v}" for k, v in zip(PROGRESS_COLUMNS, rows[-1], strict=True)),
                  flush=True)  # fmt: skip
            if iteration % args.checkpoint_interval == 0:
                save_checkpoint(algo, run_dir / "checkpoint")
        save_checkpoint(algo, run_dir / "checkpoint")
        net = export_algorithm(algo, learner, args.game, run_dir / "policy.pt")
    finally:
        algo.stop()
        if started:
            import ray

            ray.shutdown()
    summary = {"env_steps": steps, "iterations": iteration,
               "seconds": round(time.perf_counter() - t0, 1),
               "policy": str(run_dir / "policy.pt")}  # fmt: skip
    if args.eval_games:
        players = players_of(args)
        one_count = players if isinstance(players, int) else None  # else the game's default
        win, half = evaluate(net, "random", one_count, args.eval_games, args.rules or None,
                             args.seed + 10_000, args.game)  # fmt: skip
        summary |= {"win_rate_vs_random": round(win, 4), "ci95": round(half, 4)}
    atomic_write_text(run_dir / "summary.json", json.dumps(summary, indent=2))
    print(json.dumps(summary))
    return summary


def learner_return(runners: dict, module_id: str) -> float | None:
    """The trained module's mean episode return in an iteration's env runner results."""
    per_module = runners.get("module_episode_returns_mean") or {}
    return per_module.get(module_id, runners.get("episode_return_mean"))


def _num(value) -> str:
    return "" if value is None else f"{float(value):.4f}"


def _write_progress(path: Path, rows: list[tuple]) -> None:
    lines = [",".join(PROGRESS_COLUMNS)] + [",".join(str(v) for v in row) for row in rows]
    atomic_write_text(path, "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    parser = Parser(prog="python -m train.rllib_ppo")
    try:
        import ray
    except ImportError:
        parser.error('needs Ray RLlib: pip install "noir_env[rllib]"')
    started = parser.run(lambda: start_ray(args))  # a cluster not found: one line, exit 2
    try:
        train(args)
    finally:
        if started:
            ray.shutdown()


if __name__ == "__main__":
    main()
