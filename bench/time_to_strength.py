"""Time to strength: how long `train.ppo`, with its defaults and from scratch (no imitation
warm start), trains until its greedy policy wins `--target` (35%) of 4-player games against
three `heuristic-v1`; then sb3-contrib's MaskablePPO on `make_sb3_vec_env` trains for the same
wall-clock time and its win rate is printed beside.

    python bench/time_to_strength.py                    # target 35%, at most 60 minutes
    python bench/time_to_strength.py --max-minutes 90 --eval-interval 10
    python bench/time_to_strength.py --max-minutes 45 --concurrent   # both at once, a core each

What is timed: train.ppo's training (rollouts + updates, `elapsed_s` in its eval.csv); its
evaluations (every `--eval-interval` updates, `--eval-games` games, the stop test) are
measurement and run outside that clock. MaskablePPO gets the same seconds of training and
trains against `heuristic-v1` directly (its best case: the evaluation's opponent, at the
evaluation's player count), then plays the same evaluation. With `--concurrent` the two
trainers run at the same time, one core each: MaskablePPO for the whole `--max-minutes`
(at least the time train.ppo takes, so the comparison leans its way). The first run compiles the
kernels; a warm-up does that before any clock starts. Target: <= 45 minutes on a 2-core
machine, and MaskablePPO below the target after the same time.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import time
from pathlib import Path
from queue import SimpleQueue

from noir_env.threads import set_threads
from train.ppo import Args, train
from train.sb3_ppo import train_sb3, win_rate

OPPONENT = "heuristic-v1"
RUN = "bench_time_to_strength"


def train_until(target: float, max_minutes: float, eval_interval: int, eval_games: int,
                seed: int) -> dict:  # fmt: skip
    """train.ppo with its defaults until the evaluation reaches `target` (or the step budget
    of `max_minutes` at the warm-up's speed runs out): seconds, decisions, last win rate."""
    shutil.rmtree(Path("runs") / RUN, ignore_errors=True)
    defaults = Args()
    steps_per_s = _warm_up(defaults)
    budget = int(steps_per_s * max_minutes * 60)
    print(f"train.ppo defaults: {defaults.num_envs} games x {defaults.num_steps} decisions a "
          f"batch, league {defaults.league!r}; about {steps_per_s:,.0f} decisions/s, so at "
          f"most {budget:,} decisions ({max_minutes:g} min)", flush=True)  # fmt: skip
    t0 = time.perf_counter()
    train(Args(run_name=RUN, seed=seed, total_steps=budget, eval_interval=eval_interval,
               eval_games=eval_games, eval_opponents=OPPONENT, eval_players=4,
               stop_win_rate=target, progress=True))  # fmt: skip
    wall = time.perf_counter() - t0
    rows = list(csv.DictReader((Path("runs") / RUN / "eval.csv").open()))
    last = [r for r in rows if r["opponents"] == OPPONENT][-1]
    shutil.rmtree(Path("runs") / RUN, ignore_errors=True)
    return {"seconds": float(last["elapsed_s"]), "wall": wall, "steps": int(last["global_step"]),
            "rate": float(last["win_rate"]), "ci": float(last["ci95"])}  # fmt: skip


def _warm_up(args: Args) -> float:
    """Compile the kernels, then measure train.ppo's decisions per second in steady state: two
    timed runs of 2 and 6 updates, whose difference cancels what a run spends before its
    first update (loading the league's agents, building the games)."""
    batch = args.num_envs * args.num_steps

    def run(updates: int) -> float:
        t0 = time.perf_counter()
        train(Args(run_name=RUN + "_warmup", total_steps=updates * batch, eval_games=0,
                   progress=False))  # fmt: skip
        shutil.rmtree(Path("runs") / (RUN + "_warmup"), ignore_errors=True)
        return time.perf_counter() - t0

    run(2)  # compiles and caches the kernels
    short, long = run(2), run(6)
    return 4 * batch / max(long - short, 1e-3)


def maskable_ppo_for(seconds: float, eval_games: int, seed: int, out) -> None:
    """MaskablePPO against `OPPONENT` for `seconds` of training, then its greedy win rate:
    a dict put on the queue `out` (run in a process of its own by --concurrent)."""
    threads = Args().threads  # train.ppo's torch threads for both trainers: a fair race
    train_sb3(2048, 16, 128, run_name=None, threads=threads)  # warm-up outside the clock
    model, sps = train_sb3(10**12, 16, 128, players=4, opponents=OPPONENT, seed=seed,
                           run_name=None, seconds=seconds, threads=threads)  # fmt: skip
    rate = win_rate(model, eval_games, players=4, opponents=OPPONENT)
    print(f"MaskablePPO after {seconds / 60:.1f} min of training ({int(sps * seconds):,} "
          f"decisions): {rate:.1%} of {eval_games} games", flush=True)  # fmt: skip
    out.put({"seconds": seconds, "steps": int(sps * seconds), "rate": rate})


def _exit_with_parent() -> None:
    """In the --concurrent rival: end this process when the bench that started it is gone
    (killed, say), rather than train on as an orphan that halves the next run's speed."""
    import os
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(2.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _rival(seconds: float, eval_games: int, seed: int, out) -> None:
    """--concurrent's second process: MaskablePPO, ending with the bench."""
    _exit_with_parent()
    maskable_ppo_for(seconds, eval_games, seed, out)


def main(argv: list[str] | None = None) -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", type=float, default=0.35, help="win rate to reach (0..1)")
    p.add_argument("--max-minutes", type=float, default=60.0,
                   help="give up after about this much training")  # fmt: skip
    p.add_argument("--eval-interval", type=int, default=10, help="updates between evaluations")
    p.add_argument("--eval-games", type=int, default=400, help="games per evaluation")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--concurrent",
        action="store_true",
        help="MaskablePPO in a second process at the same time, for --max-minutes",
    )
    a = p.parse_args(argv)
    if not (0 < a.target < 1 and a.max_minutes > 0 and a.eval_interval >= 1
            and a.eval_games >= 1):  # fmt: skip
        p.error("--target in (0, 1), --max-minutes > 0, --eval-interval and --eval-games >= 1")
    if a.concurrent:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")  # no forked numba or torch state
        queue = ctx.Queue()
        rival = ctx.Process(target=_rival,
                            args=(a.max_minutes * 60, a.eval_games, a.seed, queue))  # fmt: skip
        rival.start()
        print(f"MaskablePPO: training {a.max_minutes:g} min against {OPPONENT} at the same "
              "time, in a second process", flush=True)  # fmt: skip
    ours = train_until(a.target, a.max_minutes, a.eval_interval, a.eval_games, a.seed)
    reached = ours["rate"] >= a.target
    if a.concurrent:
        theirs = queue.get()
        rival.join()
    else:
        print(f"MaskablePPO: training {ours['seconds'] / 60:.1f} min against {OPPONENT}...",
              flush=True)  # fmt: skip
        answer: SimpleQueue = SimpleQueue()
        maskable_ppo_for(ours["seconds"], a.eval_games, a.seed, answer)
        theirs = answer.get()
    print()
    print(f"| trainer | training time | learner decisions | win rate vs 3 {OPPONENT} (4p) |")
    print("|---|---:|---:|---:|")
    print(
        f"| train.ppo (defaults, from scratch) | {ours['seconds'] / 60:.1f} min | "
        f"{ours['steps']:,} | {ours['rate']:.1%} ± {ours['ci']:.1%} |"
    )
    print(
        f"| sb3-contrib MaskablePPO | {theirs['seconds'] / 60:.1f} min | "
        f"{theirs['steps']:,} | {theirs['rate']:.1%} |"
    )
    print()
    print(
        f"train.ppo {'reached' if reached else 'did NOT reach'} {a.target:.0%} "
        f"(wall time with evaluations {ours['wall'] / 60:.1f} min); target: <= 45 min, "
        f"MaskablePPO below {a.target:.0%} after the same time."
    )


if __name__ == "__main__":
    main()
