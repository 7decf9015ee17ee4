"""Games per second of 4-player tournaments (train/tournament.py on noir_env/vector/arena.py).

Rows:
  core rollout    - reference: the whole game in numba, uniformly random, every decision
                    presented (core.random_playout, ask_all=True): the core's speed;
  4 built-in      - a tournament of 4 "random" entrants, played inside the compiled loop;
  1 python + 3    - one agent called from Python (uniform random, with its observations
                    written) against 3 built-in random entrants;
  4 python        - four such agents: every choice goes through Python;
  4 heuristic     - the issue's case: the three heuristic styles and a second balanced one,
                    each called from Python with its observations.
The issue's scale: "random-only games already run at about 10,000/s" and the target is
1,000 with heuristic agents, a tenth of that; the last line prints the heuristic row as a
share of the "4 built-in" row of the same run, which does not depend on the machine's speed.
Statistics and ratings are not timed (play only). Uses the CLI's threading layer.
Writes bench/results/tournament.json.

    python bench/tournament.py [--games 4000]

Target (issue 9): >= 1,000 four-player games/s with heuristic agents on the 2-core machine
(>= 10% of the random-only rate measured in the same run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from train.evaluate import prefer_workqueue_threads

prefer_workqueue_threads()  # before any parallel kernel runs

from agents.random_agent import RandomAgent  # noqa: E402
from noir_env import core  # noqa: E402
from noir_env.core import random_playout  # noqa: E402
from noir_env.threads import set_threads  # noqa: E402
from train.cli import first_paragraph  # noqa: E402
from train.tournament import run_tournament  # noqa: E402


class PythonRandom:
    """The uniform random agent called from Python with its observations, as a learned
    policy would be (the built-in one never leaves numba)."""

    def __init__(self, seed: int):
        self.agent = RandomAgent(seed)

    def act(self, obs, mask):
        return self.agent.act(obs, mask)


HEURISTICS = ["heuristic", "heuristic-aggressive", "heuristic-economic", "heuristic"]


def rollout_rate(games: int) -> float:
    state = core.init(games, 4, seeds=0, ask_all=True)
    t0 = time.perf_counter()
    random_playout(state, seed=1)
    return games / (time.perf_counter() - t0)


def tournament_rate(agents: list, games: int) -> float:
    result = run_tournament(agents, num_players=4, games=games, seed=0, ratings=False)
    return result.timing["games_per_s"]


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--games", type=int, default=4000)
    args = parser.parse_args()
    g = args.games
    rollout_rate(256)  # compile / load the kernels
    tournament_rate(["random"] * 4, 256)
    tournament_rate([PythonRandom(0), "random", "random", "random"], 256)
    tournament_rate(HEURISTICS, 256)
    rows = {
        "core rollout": rollout_rate(g),
        "4 built-in": tournament_rate(["random"] * 4, g),
        "1 python + 3": tournament_rate([PythonRandom(0), "random", "random", "random"], g),
        "4 python": tournament_rate([PythonRandom(k) for k in range(4)], g),
        "4 heuristic": tournament_rate(HEURISTICS, g),
    }
    print(f"| 4-player games/s ({g} games, {os.cpu_count()} CPUs) | games/s |")
    print("|---|---:|")
    for name, rate in rows.items():
        print(f"| {name} | {rate:,.0f} |")
    share = rows["4 heuristic"] / rows["4 built-in"]
    print(f"4 heuristic / 4 built-in random: {share:.1%} (issue 9's target: >= 10%)")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    report = {"games": g, "machine": platform.processor() or platform.machine(), **rows}
    report["heuristic_share_of_random"] = share
    (out / "tournament.json").write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
