"""Rate an agent on the published ladder: one command gives its rating on the fixed scale of
the bundled baselines, with a 95% interval.

    python -m train.rate heuristic                       # a registered name (with options)
    python -m train.rate runs/my_run/policy.pt           # a policy file or policy table
    python -m train.rate mypkg.bots:MyAgent              # a class, a factory or an agent
    python -m train.rate mypkg.llm:ask --text            # fn(prompt) -> str, as a TextAgent
    python -m train.rate heuristic --players 4 --games 1000 --out runs/rate/h4

The agent plays a fixed protocol (`train.ladder.protocol.rate_kinds`): at every player count
(or those of --players), deals where it sits with rungs drawn from the cheap baselines, and a
few deals with each search rung; every deal is played once per seat rotation. The rungs'
ratings stay frozen at the published ones (`train/ladder/ladder.json`); only the agent's
rating is fitted (`train.ladder.model`). Printed: its rating and 95% interval, the rungs
around it, its results per rung and per player count. Written to --out: results.jsonl (the
games, appended per batch: run the same command again to resume a killed run), rating.json
and rating.md (versions, seeds, games, the command line), for a paper to cite.

The defaults play about 2,900 games, about eight CPU-minutes for a fast agent, most of them
at the search rungs' tables; --no-search leaves those out, --games scales the protocol.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from train.ladder import protocol as P
from train.ladder import published, thetas, versions
from train.ladder.agent_spec import agent_factory
from train.ladder.model import Z95, fit, to_rating
from train.ladder.play import merge, run, to_games
from train.ladder.report import markdown, text_report

from .cli import Parser, first_paragraph

MAX_GAMES = 10_000_000  # a week of play for a fast agent: beyond it, a typo


@dataclass
class Rating:
    """An agent's place on the ladder: its rating with the 95% interval [low, high], the games
    it played and won, the rungs just below and above it (None past the ends), its results
    per rung and per player count, and the settings (versions, protocol, seed, command)."""

    agent: str
    rating: float
    low: float
    high: float
    games: int
    wins: int
    below: str | None
    above: str | None
    per_rung: list[dict] = field(default_factory=list)
    per_players: list[dict] = field(default_factory=list)
    settings: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """JSON-ready values (rating.json)."""
        return asdict(self)

    def markdown(self) -> str:
        """A Markdown report (rating.md)."""
        return markdown(self)

    def __str__(self) -> str:
        return text_report(self)


def default_games(players: tuple[int, ...] = P.PLAYERS, search: bool = True) -> int:
    """The games of the default protocol at these player counts."""
    kinds = P.rate_kinds(1.0, search)
    return sum((b.last - b.first) * b.players for b in P.batches(kinds, players))


def rate(
    agent: Any,
    games: int | None = None,
    players: int | list[int] | None = None,
    seed: int = 0,
    search: bool = True,
    out: str | Path | None = None,
    progress: bool = False,
    ladder: str | Path | None = None,
    text: bool = False,
    shard: tuple[int, int] = (0, 1),
    command: str | None = None,
) -> Rating:
    """Rate `agent` on the ladder (module docstring) and return its `Rating`.

    agent: a registered name with options, a policy file or table, `module:attr`, an agent
    object or a factory (`train.ladder.agent_spec`). games: the games to play (None: the
    default protocol; more games, tighter interval), spread as the default's are. players:
    a player count or several (default 3..6). seed: the deals and opponents (the same seed
    gives every agent the same tables). search: also play the search rungs' tables. out: a
    folder for results.jsonl (resumed if present), rating.json and rating.md (None: nothing
    written, nothing resumed). ladder: another published ladder file. text: the agent is
    `module:fn` with fn(prompt) -> str (a TextAgent). shard: (i, k) plays every k-th batch
    from the i-th (partial runs to `merge_results`). Raises ValueError for a bad agent or
    setting.
    """
    counts = _player_counts(players)
    label, make_agent = agent_factory(agent, text)
    table = published(ladder)
    games_default = default_games(counts, search)
    if games is not None and (isinstance(games, bool) or not isinstance(games, int)
                              or not 1 <= games <= MAX_GAMES):  # fmt: skip
        raise ValueError(f"games must be an int in 1..{MAX_GAMES:,}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    scale = 1.0 if games is None else games / games_default
    kinds = P.rate_kinds(scale, search)
    header = {**P.describe(kinds, counts, seed), "agent": label, "ladder": table["versions"]}
    shard = _check_shard(shard)
    from train.ladder import make_rung

    def make(name: str, agent_seed: int) -> Any:
        return make_agent(agent_seed) if name == P.AGENT else make_rung(name, agent_seed)

    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / "results.jsonl" if out is not None else _scratch()
    try:
        done = run(path, header, kinds, counts, make, shard=shard, progress=progress)
    finally:
        if out is None:
            path.unlink(missing_ok=True)
    result = rating_of(label, list(done.values()), table, header)
    result.settings.update({"command": command, "games_requested": games,
                            "complete": _complete(done, kinds, counts)})  # fmt: skip
    if out is not None:
        write_report(result, out)
    return result


def _scratch() -> Path:
    import os
    import tempfile

    fd, name = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    Path(name).unlink()  # the run creates it with its header
    return Path(name)


def _complete(done: dict, kinds: list[P.TableKind], counts: tuple[int, ...]) -> bool:
    return all(b.key in done for b in P.batches(kinds, counts))


def _player_counts(players: int | list[int] | None) -> tuple[int, ...]:
    if players is None:
        return P.PLAYERS
    counts = [players] if isinstance(players, int) else list(players)
    bad = [n for n in counts if isinstance(n, bool) or n not in P.PLAYERS]
    if bad or not counts:
        raise ValueError(f"players must be among {list(P.PLAYERS)}, got {players!r}")
    return tuple(sorted(set(counts)))


def _check_shard(shard: tuple[int, int]) -> tuple[int, int]:
    i, k = shard
    if not (isinstance(i, int) and isinstance(k, int) and k >= 1 and 0 <= i < k):
        raise ValueError(f"a shard is I/K with 0 <= I < K, got {i}/{k}")
    return i, k


def rating_of(label: str, entries: list[dict], table: dict, header: dict) -> Rating:
    """The agent's Rating from its results lines, the rungs frozen at the `table`'s ratings."""
    anchor_rating = float(table.get("anchor", {}).get("rating", P.ANCHOR_RATING))
    fixed_theta = thetas(table)
    names = [r.name for r in P.RUNGS] + [P.AGENT]
    games = to_games(entries, names)
    if games.deals.size == 0:
        raise ValueError("no games played yet: nothing to rate")
    fixed = {k: fixed_theta[name] for k, name in enumerate(names[:-1])}
    agent = len(names) - 1
    theta, half = _fit_agent(games, names, fixed, agent)
    rating = float(to_rating(theta, 0.0, anchor_rating))
    seat = games.players == agent
    rungs = sorted(table["rungs"], key=lambda r: r["rating"])
    below = [r["name"] for r in rungs if r["rating"] <= rating]
    above = [r["name"] for r in rungs if r["rating"] > rating]
    return Rating(
        agent=label,
        rating=round(rating, 1),
        low=round(rating - half, 1),
        high=round(rating + half, 1),
        games=int(seat.any(1).sum()),
        wins=int((seat & games.won).sum()),
        below=below[-1] if below else None,
        above=above[0] if above else None,
        per_rung=_per_rung(games, names, agent, theta, fixed),
        per_players=_per_players(games, names, fixed, agent, anchor_rating),
        settings={
            **header,
            "versions": versions(),
            "games": int(games.deals.size),
            "deals": int(np.unique(games.deals).size),
        },  # fmt: skip
    )


def _fit_agent(games: Any, names: list[str], fixed: dict, agent: int) -> tuple[float, float]:
    """(theta, half width of its 95% interval in rating points)."""
    result = fit(games, len(names), fixed)
    return float(result.theta[agent]), float(Z95 * to_rating(result.std()[agent], 0.0, 0.0))


def _per_rung(games: Any, names: list[str], agent: int, theta: float, fixed: dict) -> list[dict]:
    """Per rung met, strongest first: games together, the games each of the two won, the
    agent's share of those with its Wilson interval (None if neither won), and the share
    the ratings predict (the same at every table: module `train.ladder.model`)."""
    from train.tournament.statistics import wilson_interval

    rows = []
    a_seat = games.players == agent
    a_won = (a_seat & games.won).any(1)
    for k, name in enumerate(names[:-1]):
        seat = games.players == k
        both = seat.any(1) & a_seat.any(1)
        if not both.any():
            continue
        mine, theirs = int(a_won[both].sum()), int((seat & games.won).any(1)[both].sum())
        low, high = wilson_interval(mine, mine + theirs)
        rows.append({"rung": name, "games": int(both.sum()), "agent_won": mine,
                     "rung_won": theirs,
                     "share": mine / (mine + theirs) if mine + theirs else None,
                     "ci_low": float(low), "ci_high": float(high),
                     "expected": float(1 / (1 + np.exp(fixed[k] - theta)))})  # fmt: skip
    return sorted(rows, key=lambda x: x["expected"])


def _per_players(games: Any, names: list[str], fixed: dict, agent: int,
                 anchor_rating: float) -> list[dict]:  # fmt: skip
    """Per player count: games, wins, win rate with its Wilson interval, par, and the rating
    fitted on that count's games alone."""
    from train.tournament.statistics import wilson_interval

    rows = []
    count = (games.players >= 0).sum(1)
    for n in sorted(set(count.tolist())):
        sel = count == n
        sub = games.subset(sel)
        theta, half = _fit_agent(sub, names, fixed, agent)
        played = int(sel.sum())
        wins = int(((sub.players == agent) & sub.won).sum())
        low, high = wilson_interval(wins, played)
        rating = float(to_rating(theta, 0.0, anchor_rating))
        rows.append({"players": int(n), "games": played, "wins": wins, "win_rate": wins / played,
                     "ci_low": float(low), "ci_high": float(high), "par": 1.0 / n,
                     "rating": round(rating, 1), "low": round(rating - half, 1),
                     "high": round(rating + half, 1)})  # fmt: skip
    return rows


def write_report(result: Rating, out: str | Path) -> dict[str, Path]:
    """Write rating.json and rating.md into the folder `out`, atomically; their paths."""
    import json

    from noir_env._atomic import atomic_write

    out = Path(out)
    paths = {"json": out / "rating.json", "markdown": out / "rating.md"}
    body = json.dumps(result.to_json(), indent=1) + "\n"
    atomic_write(paths["json"], lambda f: f.write(body.encode()))
    atomic_write(paths["markdown"], lambda f: f.write(result.markdown().encode()))
    return paths


def merge_results(paths: list[str | Path], out: str | Path) -> int:
    """Merge partial results files of one protocol into out/results.jsonl (`rate` then
    resumes from it); returns the number of batches."""
    Path(out).mkdir(parents=True, exist_ok=True)
    return merge(paths, Path(out) / "results.jsonl")


def _shard(text: str) -> tuple[int, int]:
    i, sep, k = text.partition("/")
    if not sep or not i.strip().isdigit() or not k.strip().isdigit():
        raise ValueError(f"--shard: I/K such as 0/2, got {text!r}")
    return _check_shard((int(i), int(k)))


def parse_args(argv: list[str] | None) -> Any:
    p = Parser(prog="python -m train.rate", description=first_paragraph(__doc__))
    p.add_argument(
        "agent",
        metavar="AGENT",
        help="a registered name (options as name:key=value,...), a policy file or "
        "table, or module:attr (a class, a factory or an agent object)",
    )
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help=f"games to play, spread as the default protocol's ({default_games()} "
        "at 3-6 players); more: a tighter interval",
    )
    p.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=None,
        metavar="N",
        help="player counts (default: 3 4 5 6)",
    )
    p.add_argument("--seed", type=int, default=0, help="deals and opponents (default 0)")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder of results.jsonl, rating.json, rating.md (default "
        "runs/rate/<agent>); an existing one is resumed",
    )
    p.add_argument(
        "--no-search", action="store_true", help="leave out the search rungs' tables (much faster)"
    )
    p.add_argument(
        "--text",
        action="store_true",
        help="AGENT is module:function, a fn(prompt) -> str played as a TextAgent",
    )
    p.add_argument(
        "--shard",
        type=str,
        default="0/1",
        metavar="I/K",
        help="play every K-th batch from the I-th (partial runs; --merge joins them)",
    )
    p.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        default=None,
        metavar="RESULTS",
        help="results.jsonl files of partial runs of this protocol, joined into --out first",
    )
    p.add_argument(
        "--ladder", type=Path, default=None, help="a ladder file other than the published one"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p, p.parse_args(argv)  # fmt: skip


def default_out(label: str) -> Path:
    import re

    return Path("runs") / "rate" / re.sub(r"[^A-Za-z0-9_.=-]+", "-", label)[:100]


def main(argv: list[str] | None = None) -> int:
    """Rate the agent the arguments name; print and write its report."""
    from noir_env.threads import set_threads
    from train.evaluate import prefer_workqueue_threads

    parser, args = parse_args(argv)
    prefer_workqueue_threads()
    parser.run(set_threads)
    shard = parser.run(lambda: _shard(args.shard))
    out = args.out or default_out(args.agent)
    if args.merge:
        merged = parser.run(lambda: merge_results(args.merge, out))
        print(f"merged {merged} batches into {out / 'results.jsonl'}")
    command = "python -m train.rate " + shlex.join(sys.argv[1:] if argv is None else argv)
    result = parser.run(lambda: rate(
        args.agent, games=args.games, players=args.players, seed=args.seed,
        search=not args.no_search, out=out, progress=not args.no_progress,
        ladder=args.ladder, text=args.text, shard=shard, command=command))  # fmt: skip
    print(result)
    print(f"\nwritten: {out / 'rating.json'}, {out / 'rating.md'}, {out / 'results.jsonl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
