"""The rating ladder: the bundled baselines rated on one fixed scale, and the published table
that `train.rate` places other agents on.

The rungs (`protocol.RUNGS`) play the ladder's protocol (`protocol.ladder_kinds`: mixed tables
of 3 to 6 seats, seats rotated over each deal) into a results file; `fit_ladder` fits their
ratings (`model`: who wins each table, a Luce choice; 400 points a factor of ten in the odds,
`heuristic-v1` = 1000), and the table ships as `ladder.json` beside this module, with the
versions it was measured under. `python bench/ladder.py` plays and fits it again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from noir_env._json_file import read_json_file

from . import protocol as P
from .model import Z95, fit, to_rating
from .play import to_games

PUBLISHED = Path(__file__).with_name("ladder.json")
MAX_LADDER_BYTES = 1 << 20


def make_rung(label: str, seed: int) -> Any:
    """A new agent of the rung `label`, seeded."""
    from agents import load
    from train.tournament import parse_agent_spec

    name, options = parse_agent_spec(P.rung(label).spec)
    return load(name, seed=seed, **options)


def versions() -> dict:
    """The versions a rating is measured under: package, environment id, rules preset, ladder
    protocol."""
    import noir_env

    return {
        "package": noir_env.__version__,
        "env_id": noir_env.ENV_ID,
        "rules": P.RULES,
        "ladder_version": P.LADDER_VERSION,
    }


def fit_ladder(entries: Iterable[dict]) -> list[dict]:
    """One row per rung that played, strongest first: rating, 95% interval, theta (the
    model's strength, the anchor's 0), games and wins, from the ladder's results lines."""
    entries = list(entries)
    seated = {who for e in entries for _, seats, _, _ in e["games"] for who in seats}
    names = [r.name for r in P.RUNGS if r.name in seated]
    if P.ANCHOR not in names:
        raise ValueError(f"the anchor {P.ANCHOR} played no game: nothing to rate against")
    games = to_games(entries, names)
    anchor = names.index(P.ANCHOR)
    result = fit(games, len(names), {anchor: 0.0})
    rating = to_rating(result.theta, 0.0, P.ANCHOR_RATING)
    half = Z95 * to_rating(result.std(), 0.0, 0.0)
    present = games.players >= 0
    rows = []
    for k, name in enumerate(names):
        mine = present & (games.players == k)
        rows.append({
            "name": name,
            "spec": P.rung(name).spec,
            "rating": round(float(rating[k]), 1),
            "low": round(float(rating[k] - half[k]), 1),
            "high": round(float(rating[k] + half[k]), 1),
            "theta": float(result.theta[k]),
            "games": int(mine.sum()),
            "wins": int((mine & games.won).sum()),
        })  # fmt: skip
    rows.sort(key=lambda r: -float(r["rating"]))  # type: ignore[arg-type]
    return rows


def published(path: str | Path | None = None) -> dict:
    """The published ladder (`ladder.json`, or the file at `path`): its versions, protocol,
    games and rungs. ValueError naming the file if it is not a ladder."""
    path = PUBLISHED if path is None else Path(path)
    data = read_json_file(path, "ladder", MAX_LADDER_BYTES)
    rungs = data.get("rungs") if isinstance(data, dict) else None
    ok = isinstance(rungs, list) and all(
        isinstance(r, dict) and isinstance(r.get("name"), str)
        and all(isinstance(r.get(k), int | float) for k in ("rating", "low", "high", "theta"))
        for r in rungs
    )  # fmt: skip
    if not ok or not isinstance(rungs, list):
        raise ValueError(f"{path}: not a ladder: a JSON object with a list of rungs is needed")
    known = {r["name"] for r in rungs}
    missing = [r.name for r in P.RUNGS if r.name not in known]
    if missing:
        raise ValueError(f"{path}: the ladder lacks the rungs {missing}")
    return data


def write_published(data: dict, path: str | Path | None = None) -> Path:
    """Write a ladder table atomically (`published` reads it)."""
    from noir_env._atomic import atomic_write

    path = PUBLISHED if path is None else Path(path)
    text = json.dumps(data, indent=1) + "\n"
    atomic_write(path, lambda f: f.write(text.encode()))
    return path


def thetas(ladder: dict) -> dict[str, float]:
    """Each rung's strength (theta) in a published ladder."""
    return {r["name"]: float(r["theta"]) for r in ladder["rungs"]}


def head_to_head(entries: Iterable[dict]) -> dict[tuple[str, str], tuple[int, int]]:
    """(a, b) -> (games a won, games b won) among the games both sat in: the model's
    pairwise comparison (the chance that a rather than b wins, when one of them does, is the
    same at every table)."""
    wins: dict[tuple[str, str], list[int]] = {}
    for entry in entries:
        for _, seats, _, won in entry["games"]:
            for i, a in enumerate(seats):
                for j, b in enumerate(seats):
                    if i != j:
                        cell = wins.setdefault((a, b), [0, 0])
                        cell[0] += won[i]
                        cell[1] += won[j]
    return {pair: (a, b) for pair, (a, b) in wins.items()}


def order_disagreements(rows: list[dict], entries: list[dict]) -> list[dict]:
    """Pairs of rungs whose rating order disagrees with their head-to-head result: the higher
    rated won fewer of the games they shared than the lower rated. `significant`: the share
    is below one half beyond its 95% Wilson interval."""
    from train.tournament.statistics import wilson_interval

    h2h = head_to_head(entries)
    out = []
    for i, hi in enumerate(rows):
        for lo in rows[i + 1 :]:
            a, b = h2h.get((hi["name"], lo["name"]), (0, 0))
            if a < b:
                _, high = wilson_interval(a, a + b)
                out.append({"higher": hi["name"], "lower": lo["name"], "wins": a,
                            "wins_lower": b, "significant": bool(high < 0.5)})  # fmt: skip
    return out
