"""Fill numba's cache for the common paths, so that later runs start in seconds.

    python -m noir_env.precompile                  # every group
    python -m noir_env.precompile --groups aec     # just the NOIR AEC env
    NUMBA_CACHE_DIR=/shared/noir-cache python -m noir_env.precompile   # a shared cache

Each group plays what a user's first run plays (a game of the AEC env, steps of the vector
env with the bundled opponents, ...), which compiles every kernel on that path, or loads it
from the cache where it is there already. A progress line is printed per group and every few
seconds while a group compiles, with the time left estimated from the groups' usual compile
times.

The cache lives in `noir_env/__pycache__/numba/` unless NUMBA_CACHE_DIR names another folder
(a cluster's shared disk, a CI cache). Numba compiles for the CPU it runs on; a cache meant for
other machines is made with NUMBA_CPU_NAME=generic, and the processes that use it must run with
the same setting (docs/compile.md).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

CACHE_VARIABLES = ("NUMBA_CACHE_DIR", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")


def cache_settings() -> dict[str, str]:
    """The variables that choose numba's cache and the CPU it compiles for, as this process
    has them: what the workers of a cluster need to share its cache (`train.rllib_ppo` passes
    them on to its Ray workers)."""
    return {k: os.environ[k] for k in CACHE_VARIABLES if k in os.environ}


@dataclass(frozen=True)
class Group:
    """Kernels compiled together: `run()` plays the path that uses them (its result, a line
    of text or None, is printed); `seconds`: about how long they take to compile from an empty
    cache on an idle 2-core machine (the progress line's estimate)."""

    name: str
    title: str
    run: Callable[[], str | None]
    seconds: float


def play_aec(game: str) -> str:
    """One game of `game`'s AEC env with random legal actions, to the end; a line saying how
    it went."""
    import numpy as np

    from .aec import GameAECEnv

    env = GameAECEnv(game)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    decisions, final = 0, {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        action = None
        if termination or truncation:
            final[agent] = reward
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            decisions += 1
        env.step(action)
    env.close()
    winners = [a for a, r in final.items() if r > 0]
    return f"a random game of {game}: {decisions} decisions, won by {', '.join(winners) or 'none'}"


def vector_steps(game: str, opponents: dict[str, float], num_players: int | None) -> None:
    """A few steps of the vector env of `game` against `opponents`, a random learner, at a
    serial batch size and a threaded one (the same kernels when one thread is used)."""
    from agents import load

    from .vector import make_vector_env

    learner = load("random", seed=0)
    for n in (2, 128):
        envs = make_vector_env(n, num_players=num_players, seed=0, opponents=opponents, game=game)
        obs, infos = envs.reset()
        for _ in range(8):
            obs, *_, infos = envs.step(learner.act(obs, infos["action_mask"]))
        envs.close()


def noir_vector() -> None:
    """The NOIR vector env with random and heuristic opponents, the core's compiled random
    playouts and the heuristic's reading of a bool mask (train.ppo's imitation teacher)."""
    from agents import load

    from . import core
    from .vector import make_vector_env

    vector_steps("noir", {"random": 0.5, "heuristic": 0.5}, 4)
    for n in (2, 128):
        core.random_playout(core.init(n, 4), max_steps=2)
    envs = make_vector_env(2, num_players=4, seed=0)
    obs, infos = envs.reset()
    load("heuristic").act(obs, infos["action_mask"].astype(bool))
    envs.close()


def district_vector() -> None:
    """The District Noir vector env against its heuristic."""
    vector_steps("district_noir", {"random": 0.5, "district-heuristic": 0.5}, None)


def arena() -> None:
    """The batched arena of tournaments and matches (random and heuristic seats)."""
    import numpy as np

    from agents import load

    from .vector.arena import RANDOM, play_games, policy_of

    policies = [RANDOM, policy_of("heuristic", load("heuristic"))]
    for games in (8, 256):
        lineups = np.tile([0, 1, 0, 1, -1, -1], (games, 1))  # 4 seats of NOIR's 6
        play_games(np.arange(games), lineups, policies)


GROUPS = (
    Group("aec", "NOIR: the rules core and the AEC env", lambda: play_aec("noir"), 20.0),
    Group(
        "district", "District Noir: its core and AEC env", lambda: play_aec("district_noir"), 5.0
    ),
    Group("vector", "NOIR: the vector env, heuristic opponents", noir_vector, 25.0),
    Group("district_vector", "District Noir: the vector env", district_vector, 6.0),
    Group("arena", "the tournament arena", arena, 7.0),
)


class _Progress:
    """Counts numba's compiles while it is installed and names the kernel being compiled
    (numba's `numba:compile` events); a kernel loaded from the cache is no compile."""

    def __init__(self) -> None:
        from numba.core import event

        self.compiled = 0
        self.current: str | None = None
        progress = self

        class Listener(event.Listener):
            def on_start(self, ev):
                disp = ev.data["dispatcher"]
                progress.current = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"

            def on_end(self, ev):
                progress.compiled += 1

        self._listener = Listener()
        event.register("numba:compile", self._listener)

    def close(self) -> None:
        from numba.core import event

        event.unregister("numba:compile", self._listener)


def _busy() -> float:
    """How much a single-threaded compile slows down on this machine now: its load average
    per core (1 when idle)."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def _pace(elapsed: float, expected_done: float, busy: float) -> float:
    """How much slower than the groups' usual times this run goes: measured on the groups done
    so far (a cached group counts as fast), else the machine's load."""
    return max(elapsed / expected_done, 0.25) if expected_done > 0 else busy


def _estimate(groups: Sequence[Group], k: int, spent: float, pace: float) -> str:
    """What is left of group k (`spent` seconds in) and of the groups after it, in words."""
    rest = pace * sum(g.seconds for g in groups[k + 1 :])
    this = pace * groups[k].seconds - spent
    if this >= 0:
        return f"about {this + rest:.0f} s left"
    return f"longer than usual here, then about {rest:.0f} s for the rest"


def compile_groups(groups: Sequence[Group], every: float = 5.0, out=print) -> None:
    """Run each group's path (compiling or loading its kernels) with progress lines: one per
    group, and one every `every` seconds while a group runs, naming the kernel being compiled
    and estimating the time left (the groups' usual times at this run's pace)."""
    progress = _Progress()
    t0 = time.perf_counter()
    expected_done = 0.0
    busy = _busy()
    try:
        for k, group in enumerate(groups):
            pace = _pace(time.perf_counter() - t0, expected_done, busy)
            head = f"[{k + 1}/{len(groups)}] {group.title}"
            out(f"{head} ({_estimate(groups, k, 0.0, pace)} if nothing is cached)...", flush=True)
            stop = threading.Event()
            start, before = time.perf_counter(), progress.compiled

            def tick(k=k, start=start, pace=pace, stop=stop) -> None:
                while not stop.wait(every):
                    spent = time.perf_counter() - start
                    out(f"    {spent:4.0f} s: compiling {progress.current} "
                        f"({_estimate(groups, k, spent, pace)})", flush=True)  # fmt: skip

            ticker = threading.Thread(target=tick, daemon=True)
            ticker.start()
            try:
                line = group.run()
            finally:
                stop.set()
                ticker.join()
            spent = time.perf_counter() - start
            expected_done += group.seconds
            compiled = progress.compiled - before
            done = f"{compiled} kernels compiled" if compiled else "cached"
            out(f"    done in {spent:.1f} s ({done})" + (f": {line}" if line else ""), flush=True)
    finally:
        progress.close()
    out(f"ready in {time.perf_counter() - t0:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> None:
    from ._cli import OneLineErrorParser
    from .threads import set_threads

    names = [g.name for g in GROUPS]
    parser = OneLineErrorParser(
        prog="python -m noir_env.precompile",
        description="Fill numba's cache (NUMBA_CACHE_DIR if set) for the common paths.",
    )
    parser.add_argument("--groups", default=",".join(names),
                        help=f"comma list (default: all): {', '.join(names)}")  # fmt: skip
    args = parser.parse_args(argv)
    chosen = [n for n in args.groups.split(",") if n]
    unknown = [n for n in chosen if n not in names]
    if unknown or not chosen:
        parser.error(f"unknown group {unknown[0]!r}; choose from {', '.join(names)}"
                     if unknown else "no group given")  # fmt: skip
    from ._numba_cache import cache_base

    set_threads()
    print(f"numba cache: {cache_base()}", flush=True)
    compile_groups([g for g in GROUPS if g.name in chosen])


if __name__ == "__main__":
    main(sys.argv[1:])
