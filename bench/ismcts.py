"""Strength and speed of the IS-MCTS agent (agents/search/ismcts.py), for docs/ISMCTS.md.

    python bench/ismcts.py                                  # every table (hours on 2 cores)
    python bench/ismcts.py --only budget --budgets 16 64 200 --games 200
    python bench/ismcts.py --only players --players 3 5 6 --games 200
    python bench/ismcts.py --only rollout --time-ms 30 --games 100

One IS-MCTS seat against n-1 `heuristic` agents (train/search_games.py on the arena: seats
rotated, game k dealt with seed 1000 + k, single-choice decisions answered by the arena).
`budget`: win rate and thinking time per decision at 4 players for each budget (rollouts per
decision), and the heuristic itself in the same seat as the reference. `players`: the
default budget at other player counts. `rollout`: the heuristic and the uniform random
rollout policy given the same milliseconds per decision.
Run it with NUMBA_NUM_THREADS=1: times are the CPU time of the (single-threaded) process,
i.e. one core, whatever else the machine runs. Win rates carry 95% Wilson intervals;
"ms/decision" is the mean CPU time over every decision the searcher was asked (the arena asks
only those with two or more legal actions, so every one is searched), "95th percentile ms"
the time within which 95% of them were decided.
"""

from __future__ import annotations

import argparse

from agents import load
from agents.search.ismcts import ISMCTSAgent, SearchConfig
from noir_env import core
from noir_env.threads import set_threads
from train.search_games import play_search_games

SEED = 1000


def row(label: str, agent, n: int, games: int) -> None:
    result = play_search_games(agent, "heuristic", num_players=n, games=games, seed=SEED,
                               progress=True)  # fmt: skip
    rate, low, high = result.win_rate()
    stats = getattr(agent, "stats", None)
    extra = "| - | - | - |"
    if stats is not None:
        per = max(stats.searched, 1)
        extra = (f"| {stats.search_cpu_ms_quantile(0.95):.1f} | {stats.rollouts / per:.0f} | "
                 f"{100 * stats.overrides / per:.1f}% |")  # fmt: skip
    print(f"| {label} | {n} | {games} | **{100 * rate:.1f}%** [{100 * low:.1f}, {100 * high:.1f}] "
          f"| {100 / n:.0f}% | {result.cpu_ms_per_decision:.1f} {extra}", flush=True)  # fmt: skip


def warm_up() -> None:
    """Compile (or load) the search kernels before any row is timed."""
    state = core.init(1, 4, seeds=0)
    for rollout in ("heuristic", "random"):
        ISMCTSAgent(budget=4, rollout=rollout).act_on_state(state, [0])


def header() -> None:
    print("| agent | players | games | win rate, 95% CI | par | ms/decision | "
          "95th percentile ms | rollouts/decision | not the heuristic's choice |")  # fmt: skip
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["budget", "players", "rollout"], default=None)
    parser.add_argument("--budgets", type=int, nargs="+", default=[16, 64, 200, 300, 400])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5, 6])
    parser.add_argument("--budget", type=int, default=SearchConfig().budget,
                        help="the players table's budget (default: the agent's)")  # fmt: skip
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--no-reference", action="store_true",
                        help="budget table without the heuristic's reference row")  # fmt: skip
    parser.add_argument("--time-ms", type=float, default=30.0, help="rollout table's budget")
    parser.add_argument("--halving", action="store_true",
                        help="budget and players rows with sequential halving")  # fmt: skip
    parser.add_argument("--set", nargs="+", default=[], metavar="OPTION=NUMBER",
                        help="budget and players rows with search options, e.g. z=0.5")  # fmt: skip
    args = parser.parse_args()
    options: dict = {"halving": True} if args.halving else {}
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in SearchConfig.__dataclass_fields__ or not value:
            parser.error(f"--set {item!r}: expected OPTION=NUMBER, OPTION one of "
                         f"{sorted(SearchConfig.__dataclass_fields__)}")  # fmt: skip
        try:
            options[name] = int(value) if value.lstrip("-").isdigit() else float(value)
        except ValueError:
            parser.error(f"--set {item!r}: {value!r} is not a number")
    label = "".join(f", {k}={v}" for k, v in options.items())
    warm_up()
    header()
    if args.only in (None, "budget"):
        if not args.no_reference:
            row("heuristic (no search)", load("heuristic", seed=1), 4, args.games)
        for budget in args.budgets:
            agent = ISMCTSAgent(seed=0, budget=budget, **options)
            row(f"ismcts budget={budget}{label}", agent, 4, args.games)
    if args.only in (None, "players"):
        for n in args.players:
            agent = ISMCTSAgent(seed=0, budget=args.budget, **options)
            row(f"ismcts budget={args.budget}{label}", agent, n, args.games)
    if args.only in (None, "rollout"):
        for rollout in ("heuristic", "random"):
            agent = ISMCTSAgent(seed=0, budget=10**6, time_ms=args.time_ms, rollout=rollout)
            row(f"ismcts {rollout} rollouts, {args.time_ms:g} ms", agent, 4, args.games)


if __name__ == "__main__":
    main()
