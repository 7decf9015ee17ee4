"""Our `ismcts` agent against OpenSpiel's `ISMCTSBot` at equal simulations, on NOIR through
`noir_env.openspiel` (docs/openspiel.md): win rates and milliseconds per decision.

    python bench/openspiel.py                              # 3 players, 16 simulations, 12 games
    python bench/openspiel.py --budgets 16 64 --games 24 --players 4

Each game seats one `ismcts` agent (`agents.load("ismcts", budget=B)`), one OpenSpiel
`ISMCTSBot` (B simulations a decision, random rollouts to the end of the game, UCT c = 2,
the most visited action) and `heuristic` agents in the other seats, all playing the same
OpenSpiel state: the searchers' seats rotate (game k: ours in seat k mod n, OpenSpiel's in
seat k+1 mod n), game k is dealt with seed 1000 + k. A decision with one legal action is
played at once and not counted. Both searchers see only their seat's information: ours
re-deals the hidden cards with `core.sample_hidden`, OpenSpiel's with the state's
`resample_from_infostate` (the same sampler). What differs is the search: ours runs its
rollouts inside the compiled core (heuristic rollouts of 8 turns, paired test against the
heuristic's choice), OpenSpiel's walks a Python tree over Python states whose every step
crosses into the core. Win rates are shares of wins (a shared win counts 1/k) with 95% Wilson
intervals; ms/decision is CPU time (run it with NUMBA_NUM_THREADS=1: one core).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from agents import load
from noir_env import core
from noir_env.threads import set_threads
from train.tournament.statistics import wilson_interval

SEED = 1000


@dataclass
class Seat:
    """One searcher's tally over a row's games."""

    name: str
    wins: float = 0.0
    cpu: list[float] = field(default_factory=list)

    def line(self, games: int, n: int) -> str:
        low, high = wilson_interval(self.wins, games)
        ms = 1e3 * np.asarray(self.cpu)
        p95 = np.percentile(ms, 95) if ms.size else float("nan")
        return (f"| {self.name} | {games} | **{100 * self.wins / games:.1f}%** "
                f"[{100 * low:.1f}, {100 * high:.1f}] | {100 / n:.0f}% | {ms.mean():.1f} | "
                f"{p95:.1f} | {ms.size} |")  # fmt: skip


def openspiel_bot(game, budget: int, seed: int):
    """OpenSpiel's ISMCTSBot with random rollouts, seeded (its resampler too)."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, budget,
                           random_state=np.random.RandomState(seed + 1))  # fmt: skip
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.uniform))
    return bot


def our_action(agent, state) -> int:
    """The action of one of our agents for the pyspiel state's current player."""
    core, cs = state.get_game().core_game, state.core_state
    if getattr(agent, "uses_state", False):
        return int(agent.act_on_state(cs.copy(), [0])[0])
    obs, mask = core.observe(cs), core.legal_action_mask(cs)
    return int(agent.act(obs, mask)[0])


def play_row(players: int, budget: int, games: int, rules: str) -> tuple[Seat, Seat]:
    import pyspiel

    import noir_env.openspiel as nos
    from noir_env.openspiel.deal import DEAL_NODES

    game = pyspiel.load_game("noir", {"players": players, "rules": rules})
    ours, theirs = Seat(f"ismcts budget={budget}"), Seat(f"OpenSpiel ISMCTSBot {budget} sims")
    for k in range(games):
        start = time.perf_counter()
        agent = load("ismcts", budget=budget, seed=SEED + k)
        bot = openspiel_bot(game, budget, SEED + k)
        heuristic = load("heuristic", seed=SEED + k)
        seat_ours, seat_theirs = k % players, (k + 1) % players
        state = nos.deal(game, SEED + k)
        while not state.is_terminal():
            seat, legal = state.current_player(), state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            t0 = time.process_time()
            if seat == seat_theirs:
                action = int(bot.step(state))
                theirs.cpu.append(time.process_time() - t0)
            else:
                action = our_action(agent if seat == seat_ours else heuristic, state)
                if seat == seat_ours:
                    ours.cpu.append(time.process_time() - t0)
            state.apply_action(action)
        returns = np.asarray(state.returns())
        winners = returns > 0  # a shared win gives each winner +1/k (R6.5)
        for tally, s in ((ours, seat_ours), (theirs, seat_theirs)):
            tally.wins += winners[s] / max(winners.sum(), 1)
        decisions = len(state.history()) - DEAL_NODES  # the history starts with the deal
        print(f"  game {k + 1}/{games}: winners {np.flatnonzero(winners).tolist()} (ours seat "
              f"{seat_ours}, OpenSpiel's {seat_theirs}), {decisions} decisions, "
              f"{time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip
    return ours, theirs


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, choices=range(3, 7))
    parser.add_argument("--budgets", type=int, nargs="+", default=[16],
                        help="simulations (rollouts) per decision, one row pair each")  # fmt: skip
    parser.add_argument("--games", type=int, default=12, help="games per budget")
    parser.add_argument("--rules", default="noirburg")
    args = parser.parse_args()
    if args.games < 1 or min(args.budgets) < 1:
        parser.error("--games and --budgets must be >= 1")
    try:
        import noir_env.openspiel  # noqa: F401 - registers the games with pyspiel
    except ImportError as err:
        parser.exit(2, f"{err}\n")
    load("ismcts", budget=2).act_on_state(core.init(1, 3, seeds=0), [0])  # compile first
    rows = []
    for budget in args.budgets:
        print(f"budget {budget}, {args.players} players, {args.games} games:", flush=True)
        rows += play_row(args.players, budget, args.games, args.rules)
    print(f"\n{args.players} players ({args.rules}); the other seats: heuristic")
    print("| searcher | games | win rate, 95% CI | par | ms/decision | 95th percentile ms | "
          "decisions |")  # fmt: skip
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for tally in rows:
        print(tally.line(args.games, args.players))


if __name__ == "__main__":
    main()
