"""A soak of the vector envs with random and bad actions: NOIR and District Noir, each as the
batched Gymnasium VectorEnv and as the single-seat env, stepped in turn with random legal
actions mixed with bad ones (an illegal id, an id out of range, the wrong dtype or shape,
NaN, None). After every step the games' invariants are checked (the games' own
`check_invariants`) and every live game must offer the learner a legal action; every bad
call must be refused with a ValueError that leaves the games' state, observations and masks
as they were. Prints the resident memory at the start and the end, the steps, the bad calls
refused and the violations found, with a progress line every 10 s.

    NUMBA_NUM_THREADS=1 python bench/soak.py --minutes 10
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from noir_env.core.validate import check_invariants as noir_invariants  # noqa: E402
from noir_env.district.validate import check_invariants as district_invariants  # noqa: E402
from noir_env.vector import make_vector_env  # noqa: E402
from noir_env.vector.single import SingleSeatEnv  # noqa: E402

INVARIANTS = {"noir": noir_invariants, "district_noir": district_invariants}
BAD_SHARE = 0.2  # of the calls
PROGRESS_S = 10.0


def rss_mb() -> float:
    """The resident set size now (VmRSS of /proc/self/status), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Soaked:
    """One env under soak: how to step it well and badly, and what a refusal must keep."""

    def __init__(self, name: str, env: Any, batched: bool, seed: int):
        self.name, self.env, self.batched = name, env, batched
        self.game = env.game
        self.invariants = INVARIANTS[self.game.name]
        self.rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        self.steps = self.refused = self.episodes = 0
        self.violations: list[str] = []

    def snapshot(self) -> bytes:
        """The bytes a refused call must leave as they were."""
        e = self.env
        return e.games.state.tobytes() + np.asarray(e.action_masks()).tobytes()

    def legal_actions(self) -> np.ndarray:
        mask = np.atleast_2d(self.env.action_masks())
        return np.array([self.rng.choice(np.flatnonzero(m)) for m in mask], np.int64)

    def bad_action(self) -> tuple[str, Any]:
        """A call the env must refuse: (what it is, the action argument)."""
        mask = np.atleast_2d(self.env.action_masks())
        n, k = mask.shape
        good = self.legal_actions()
        row = int(self.rng.integers(n))
        illegal = np.flatnonzero(~mask[row])
        kinds = ["out of range", "negative", "float dtype", "NaN", "None", "wrong shape",
                 "string", "huge"]  # fmt: skip
        if illegal.size:
            kinds.append("illegal id")
        kind = kinds[int(self.rng.integers(len(kinds)))]
        acts: Any = good.copy()
        if kind == "illegal id":
            acts[row] = self.rng.choice(illegal)
        elif kind == "out of range":
            acts[row] = k
        elif kind == "negative":
            acts[row] = -1
        elif kind == "huge":
            acts[row] = 2**62
        elif kind == "float dtype":
            acts = good.astype(np.float64)
        elif kind == "NaN":
            acts = np.full(n, np.nan)
        elif kind == "None":
            acts = None if self.batched else [None]
        elif kind == "wrong shape":
            acts = np.zeros((n + 1, 2), np.int64)
        elif kind == "string":
            acts = np.array(["x"] * n)
        if not self.batched:
            acts = acts if kind in ("wrong shape", "NaN", "None") else acts[0]
            if kind == "NaN":
                acts = float("nan")
            elif kind == "None":
                acts = None
            elif kind == "string":
                acts = "x"
        return kind, acts

    def one(self) -> None:
        """One call: a bad one (`BAD_SHARE` of them) or a step with legal actions."""
        if self.rng.random() < BAD_SHARE:
            kind, acts = self.bad_action()
            before = self.snapshot()
            try:
                self.env.step(acts)
            except (ValueError, TypeError):
                self.refused += 1
                if self.snapshot() != before:
                    self.violations.append(f"{self.name}: a refused {kind} call changed the games")
                return
            self.violations.append(f"{self.name}: a bad call ({kind}) was accepted")
            self._after_step(None)
            return
        acts = self.legal_actions()
        out = self.env.step(acts if self.batched else int(acts[0]))
        self.steps += 1
        self._after_step(out)

    def _after_step(self, out: Any) -> None:
        env = self.env
        if not self.batched and out is not None and (out[2] or out[3]):
            self.episodes += 1
            env.reset()
        elif self.batched and out is not None:
            self.episodes += int(np.sum(out[2] | out[3]))
        problems = self.invariants(env.games.state)
        mask = np.atleast_2d(env.action_masks())
        if not mask.any(1).all():
            problems.append("a game waits for the learner with no legal action")
        self.violations += [f"{self.name}: {p}" for p in problems]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--num-envs", type=int, default=16, help="games of each VectorEnv")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rss_start = rss_mb()
    envs = []
    for k, game in enumerate(("noir", "district_noir")):
        vec = make_vector_env(args.num_envs, game=game, seed=args.seed + k)
        envs.append(Soaked(f"{game} VectorEnv", vec, True, args.seed + k))
        envs.append(Soaked(f"{game} single-seat", SingleSeatEnv(game=game), False, args.seed + k))
    rss_ready = rss_mb()
    print(f"RSS at start: {rss_start:.0f} MB (envs built and compiled: {rss_ready:.0f} MB)",
          flush=True)  # fmt: skip
    start = last = time.monotonic()
    end = start + 60 * args.minutes
    while time.monotonic() < end:
        for e in envs:
            e.one()
        now = time.monotonic()
        if now - last >= PROGRESS_S:
            last = now
            print(f"{now - start:6.0f} s: {sum(e.steps for e in envs):,} steps, "
                  f"{sum(e.refused for e in envs):,} bad calls refused, "
                  f"{sum(len(e.violations) for e in envs)} violations, RSS {rss_mb():.0f} MB",
                  flush=True)  # fmt: skip
    took = time.monotonic() - start
    print(f"\n{'env':<28}{'steps':>10}{'episodes':>10}{'refused':>10}{'violations':>12}")
    for e in envs:
        print(f"{e.name:<28}{e.steps:>10,}{e.episodes:>10,}{e.refused:>10,}"
              f"{len(e.violations):>12}")  # fmt: skip
    print(f"\nduration {took:.0f} s; steps {sum(e.steps for e in envs):,}; bad calls refused "
          f"{sum(e.refused for e in envs):,}; invariant violations "
          f"{sum(len(e.violations) for e in envs)}")  # fmt: skip
    print(f"RSS start {rss_ready:.0f} MB, end {rss_mb():.0f} MB, peak {peak_rss_mb():.0f} MB")
    for e in envs:
        for v in e.violations[:5]:
            print("VIOLATION", v)


if __name__ == "__main__":
    main()
