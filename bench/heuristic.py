"""Strength and speed of the heuristic agent (agents/heuristic/v2/agent.py) against random play, and
the first heuristic's three styles (agents/heuristic/v1/agent.py), for the README. Its strength
against the other baselines: bench/strength.py.

    python bench/heuristic.py                   # everything (a few minutes on 2 cores)
    python bench/heuristic.py --only speed      # decisions/s at N=4096
    python bench/heuristic.py --only random --presets noirburg --players 4 --games 1000

`random`: one heuristic among random players, and one random player among heuristics, per
preset and player count (the share of the wins of the lone agent, seats rotated, fixed
seeds). `styles`: the three styles of `heuristic-v1` at one 3-, 4- (two balanced) and
6-player table (each twice). `speed`: decisions per second of `HeuristicAgent.act` over a
batch of N=4096 positions taken from random games.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents import load
from agents.heuristic.v1.agent import STYLES
from noir_env import core
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from noir_env.threads import set_threads
from train.cli import first_paragraph
from train.match import play


def interval(share: np.ndarray) -> str:
    """Mean and a 95% normal-approximation half-width of per-game win shares."""
    half = 1.96 * share.std(ddof=1) / np.sqrt(share.size) if share.size > 1 else 0.0
    return f"{100 * share.mean():5.1f}% ± {100 * half:4.1f}"


def vs_random(presets: list[str], players: list[int], games: int) -> None:
    print("| preset | players | 1 heuristic vs random: heuristic wins | 1 random vs heuristics: "
          "random wins | games each |")  # fmt: skip
    print("| --- | --- | --- | --- | --- |")
    for preset in presets:
        for n in players:
            h, r = load("heuristic", seed=0), load("random", seed=1)
            alone = play([h, r], [0] + [1] * (n - 1), games, rules=preset, seed=1_000_000)
            among = play([h, r], [1] + [0] * (n - 1), games, rules=preset, seed=2_000_000)
            print(f"| {preset} | {n} | {interval(alone.win_share[:, 0])} | "
                  f"{interval(among.win_share[:, 1])} | {games} |", flush=True)  # fmt: skip


def styles(presets: list[str], games: int) -> None:
    agents = [load("heuristic-v1", style=name, seed=k) for k, name in enumerate(STYLES)]
    tables = {3: [0, 1, 2], 4: [0, 1, 2, 0], 6: [0, 1, 2, 0, 1, 2]}
    print("| preset | table | " + " | ".join(STYLES) + " | games | mean length |")
    print("| --- | --- | " + " | ".join("---" for _ in STYLES) + " | --- | --- |")
    for preset in presets:
        for n, lineup in tables.items():
            res = play(agents, lineup, games, rules=preset, seed=3_000_000)
            seats = [lineup.count(k) for k in range(len(STYLES))]
            cells = [f"{100 * res.win_share[:, k].mean():.1f}% ({seats[k]} seat"
                     f"{'s' if seats[k] > 1 else ''})" for k in range(len(STYLES))]  # fmt: skip
            print(f"| {preset} | {n} players | " + " | ".join(cells) +
                  f" | {games} | {res.length.mean():.0f} |", flush=True)  # fmt: skip


def positions(batch: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(obs, mask) of `batch` positions from every stage of random 4-player games: game i
    is sampled after a random number of decisions (or at its last one)."""
    state = core.init(batch, 4, "noirburg", seeds=seed)
    driver = load("random", seed=seed)
    stop = np.random.default_rng(seed).integers(0, 300, batch)
    obs = np.zeros((batch, OBS_SIZE), np.float32)
    mask = np.zeros((batch, NUM_ACTIONS), np.bool_)
    for k in range(300):
        live = core.current_player(state) >= 0
        take = live & (stop >= k)  # the latest position up to the sampling time
        obs[take] = core.observe(state)[take]
        mask[take] = core.legal_action_mask(state)[take]
        core.step(state, driver.act(None, core.legal_action_mask(state)))
    return obs, mask


def speed(batch: int = 4096, repeats: int = 5) -> None:
    obs, mask = positions(batch)
    agent = load("heuristic", seed=0)
    agent.act(obs, mask)
    start = time.perf_counter()
    for _ in range(repeats):
        agent.act(obs, mask)
    rate = repeats * batch / (time.perf_counter() - start)
    print(f"heuristic decisions/s at N={batch}: {rate:,.0f}")


def main() -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--only", choices=["random", "styles", "speed"], action="append")
    parser.add_argument("--presets", nargs="+", default=["noirburg", "noirbrough", "original"])
    parser.add_argument("--players", nargs="+", type=int, default=[3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    parts = args.only or ["random", "styles", "speed"]
    if "random" in parts:
        vs_random(args.presets, args.players, args.games)
    if "styles" in parts:
        styles(args.presets, args.games)
    if "speed" in parts:
        speed()


if __name__ == "__main__":
    main()
