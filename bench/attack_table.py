"""How an agent holds up against attack-heavy tables: the agent under test alone against n-1
copies of an attack bot (`bench/bots/attack.py`), or a mixed table of them, at 3-6
players, seats rotated over fixed deals (`train.tournament.run_tournament`).

    python bench/attack_table.py --agent heuristic                          # held-out bots, 3-6
    python bench/attack_table.py --agent heuristic --bots raider hunter --players 4
    python bench/attack_table.py --agent heuristic --bots bruiser --players 4 5 6
    python bench/attack_table.py --agent ismcts:budget=200 --players 4 --games 40
    python bench/attack_table.py --bot-stats --bots raider reactor          # the bots themselves

Prints, per field and table size, the agent's win rate with its 95% Wilson interval, par
(1/n), how often it was eliminated, and what the field did: business and Hideout attacks
per bot seat and game, reaction cards played per bot seat and game, and the share of the
field's wins by eliminating two players. `--mixed` adds a table of the bots named in
`--bots` together (seat k of the field plays bot k mod len). `--bot-stats`: each bot alone
against n-1 `heuristic` (its own win rate, with the same attack counts).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from noir_env.threads import set_threads
from train.cli import first_paragraph

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))

from bench.bots.attack import HELD_OUT, load_bot  # noqa: E402
from noir_env.core import constants as C  # noqa: E402
from noir_env.core.observe import O_PHASE  # noqa: E402

TARGET_END = C.A_TARGET + (C.MAX_PLAYERS - 1) * C.NUM_TARGETS


class Counted:
    """An agent that counts the attacks it declares and the reaction cards it plays."""

    def __init__(self, agent):
        self.agent = agent
        self.name = getattr(agent, "name", "bot")
        self.biz = self.hideout = self.reactions = 0

    def act(self, obs, mask):
        acts = np.asarray(self.agent.act(obs, mask))
        ph = np.argmax(obs[:, O_PHASE : O_PHASE + C.NUM_PHASES], axis=1)
        attack = (ph == C.PH_ATTACK) & (acts >= C.A_TARGET) & (acts < TARGET_END)
        t = (acts - C.A_TARGET) % C.NUM_TARGETS
        self.hideout += int((attack & (t == C.TGT_HIDEOUT)).sum())
        self.biz += int((attack & (t < C.NUM_SLOTS)).sum())
        self.reactions += int(((acts >= C.A_PLAY) & (acts < C.A_PLAY + 6)).sum())
        return acts


def load_entrant(spec: str, seed: int):
    from train.tournament import parse_agent_spec

    name, options = parse_agent_spec(spec)
    if options:
        from agents import load

        return load(name, seed=seed, **options)
    return load_bot(name, seed)


def play_table(lone, field: list, players: int, games: int, seed: int, rules: str | None):
    """Tournament of `lone` against the field seats (cycled to n-1); returns its summary rows
    (lone first) and the wrapped field agents."""
    from train.tournament import run_tournament

    counted = [Counted(f) for f in field]
    entrants = {"lone": lone}
    for k in range(players - 1):
        entrants[f"field#{k + 1}"] = counted[k % len(counted)]
    result = run_tournament(entrants, num_players=players, games=games, rules=rules, seed=seed,
                            ratings=False)  # fmt: skip
    return result, counted


def describe(rows: list[dict], counted: list[Counted], seats: int) -> dict:
    """The lone agent's figures (rows[0]) and what the counted seats did: attacks and
    reactions per seat and game over `seats` counted seats a game, and the share of their
    wins (rows[1:], or rows[0] alone) that came by eliminating two players."""
    from train.tournament import wilson_interval

    lone = rows[0]
    games = lone["games"]
    them = rows[1:] or rows[:1]
    field_wins = sum(r["wins"] for r in them)
    field_elim = sum(r.get("wins_eliminated_two_players", 0) for r in them)
    seat_games = games * seats
    lo, hi = wilson_interval(lone["wins"], games)
    return {
        "games": games,
        "win": lone["wins"] / games,
        "lo": float(lo),
        "hi": float(hi),
        "par": 1.0 / (len(rows) if len(rows) > 1 else seats + 1),
        "elim": lone["eliminated"] / games,
        "biz": sum(c.biz for c in counted) / seat_games,
        "ho": sum(c.hideout for c in counted) / seat_games,
        "react": sum(c.reactions for c in counted) / seat_games,
        "field_elim_wins": field_elim / max(field_wins, 1),
    }


def line(label: str, players: int, d: dict) -> str:
    return (f"| {label} | {players} | {100 * d['win']:.1f}% [{100 * d['lo']:.1f}, "
            f"{100 * d['hi']:.1f}] | {100 * d['par']:.1f}% | {100 * d['elim']:.1f}% | "
            f"{d['biz']:.2f} | {d['ho']:.2f} | {d['react']:.2f} | "
            f"{100 * d['field_elim_wins']:.0f}% | {d['games']} |")  # fmt: skip


HEADER = ("| field | players | win [95% CI] | par | eliminated | field biz attacks/g | "
          "field Hideout attacks/g | field reactions/g | field wins by elim | games |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--agent", default="heuristic", help="agent under test (a spec)")
    parser.add_argument("--bots", nargs="+", default=list(HELD_OUT))
    parser.add_argument("--players", nargs="+", type=int, default=[3, 4, 5, 6])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--rules", default=None)
    parser.add_argument("--mixed", action="store_true", help="also a table of all --bots")
    parser.add_argument("--no-single", action="store_true", help="only the mixed table")
    parser.add_argument("--bot-stats", action="store_true",
                        help="each bot alone against n-1 heuristic")  # fmt: skip
    args = parser.parse_args(argv)
    set_threads(1)
    if args.games < 1:
        print("attack_table: --games must be at least 1", file=sys.stderr)
        return 2
    if any(n < 3 or n > 6 for n in args.players):
        print("attack_table: --players must be between 3 and 6", file=sys.stderr)
        return 2
    try:
        fields = [] if args.no_single else [[b] for b in args.bots]
        if args.mixed or args.no_single:
            fields.append(list(args.bots))
        bots = {b: load_entrant(b, 100 + k) for k, b in enumerate(args.bots)}
    except ValueError as err:
        print(f"attack_table: {err}", file=sys.stderr)
        return 2
    t0 = time.time()
    if args.bot_stats:
        from agents import load

        print("each bot alone against n-1 heuristic (win, eliminated, attacks, reactions and "
              "wins by elimination: the bot's)\n" + HEADER)  # fmt: skip
        for b in args.bots:
            for n in args.players:
                counted = Counted(bots[b])
                result, _ = play_table(counted, [load("heuristic", seed=1)], n, args.games,
                                       args.seed, args.rules)  # fmt: skip
                d = describe(result.summary[:1], [counted], 1)
                d["par"] = 1.0 / n
                print(line(b, n, d) + f" {time.time() - t0:.0f}s", flush=True)
        return 0
    lone = load_entrant(args.agent, 1)
    print(f"{args.agent} alone against n-1 attack bots\n" + HEADER)
    for field in fields:
        label = "+".join(field)
        for n in args.players:
            result, counted = play_table(lone, [bots[b] for b in field], n, args.games,
                                         args.seed, args.rules)  # fmt: skip
            d = describe(result.summary[:n], counted, n - 1)
            print(line(label, n, d) + f" {time.time() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
