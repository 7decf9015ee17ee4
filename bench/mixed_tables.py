"""Mixed 4-player tables: one agent (default `ppo`) with `heuristic`, one scripted style and
`random` at the same table, seats rotated over the same deals, one table per style.

    python bench/mixed_tables.py                        # ppo, 1000 games a table
    python bench/mixed_tables.py --agent ismcts --games 200

Prints, per table, each entrant's share of the games won with its 95% Wilson interval,
and whether the agent came first (par 25%). The target of the shipped PPO policy: first at
every table.
"""

from __future__ import annotations

import argparse
import time

from noir_env.threads import set_threads

STYLES = ["style-rusher", "style-turtle", "style-hoarder", "style-racer", "style-bully"]


def play_tables(agent: str, styles: list[str], games: int, rules: str, seed: int) -> list[dict]:
    """One tournament per style; returns a row per (table, entrant)."""
    from train.tournament import run_tournament, wilson_interval

    rows = []
    for k, style in enumerate(styles):
        t0 = time.perf_counter()
        result = run_tournament([agent, "heuristic", style, "random"], num_players=4,
                                games=games, rules=rules, seed=seed + 1000 * k,
                                ratings=False)  # fmt: skip
        table = sorted(result.summary, key=lambda r: -r["win_rate"])
        for rank, r in enumerate(table, 1):
            lo, hi = wilson_interval(r["wins"], r["games"])
            rows.append({"table": style, "rank": rank, "agent": r["agent"], "games": r["games"],
                         "win_rate": r["win_rate"], "ci_low": float(lo),
                         "ci_high": float(hi)})  # fmt: skip
        first = table[0]["agent"]
        print(f"table with {style}: {first} first ({time.perf_counter() - t0:.0f} s)", flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    set_threads()  # the project's thread choice (noir_env.threads), as the CLIs take it
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--agent", default="ppo", help="the agent under test (agents.load name)")
    p.add_argument("--styles", nargs="+", default=STYLES, help="one table per style")
    p.add_argument("--games", type=int, default=1000, help="games per table")
    p.add_argument("--rules", default="noirburg")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if a.games < 4:
        p.error("--games: at least 4 (one game in every seat)")
    rows = play_tables(a.agent, a.styles, a.games, a.rules, a.seed)
    print()
    print("| table (with heuristic, random) | 1st | 2nd | 3rd | 4th |")
    print("|---|---|---|---|---|")
    for style in a.styles:
        mine = [r for r in rows if r["table"] == style]
        cells = [f"{r['agent']} {r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
                 for r in mine]  # fmt: skip
        print(f"| {style} | " + " | ".join(cells) + " |")
    firsts = sum(r["rank"] == 1 and r["agent"] == a.agent for r in rows)
    print(f"\n{a.agent} first at {firsts} of {len(a.styles)} tables ({a.games} games each)")


if __name__ == "__main__":
    main()
