"""Playing a protocol in batches into a results file that a killed run resumes from.

The results file is JSON lines: a header `{"protocol": ...}` (what is played: rungs, tables,
seed, the agent's label), then one line per finished batch `{"batch": key, "games": [[deal,
[players by seat], [places], [won: 1 or 0]], ...], "cpu_s": ...}` (places: the tournament's
finishing order, 1 = first), appended and synced when the batch ends.
A run given an existing file plays only the batches it lacks; a torn last line (a kill in
mid-write) is ignored and its batch played again. `merge` joins files of the same protocol
(partial runs on other machines, `shard`s of one protocol).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from . import protocol as P
from .model import Games

MAX_LINE = 64 << 20  # one batch's games: well under a megabyte


def read_results(path: str | Path) -> tuple[dict | None, dict[str, dict]]:
    """(protocol header or None, {batch key: batch line}) of a results file; an absent or
    empty file has neither. ValueError naming the file for a line that is not a batch
    (except a torn last line)."""
    path = Path(path)
    if not path.is_file():
        return None, {}
    lines = path.read_bytes().split(b"\n")
    header, done = None, dict[str, dict]()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            if number >= len(lines) - 1:  # the last line, torn by a kill: played again
                continue
            raise ValueError(
                f"{path}: line {number} is not JSON: not a ladder results file"
            ) from None
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: line {number} is not a JSON object")
        if "protocol" in entry and header is None and not done:
            header = entry["protocol"]
        elif _is_batch(entry):
            done[entry["batch"]] = entry
        else:
            raise ValueError(f"{path}: line {number} is neither the header nor a batch")
    if done and header is None:
        raise ValueError(f"{path}: batches without the protocol header")
    return header, done


def _is_batch(entry: dict) -> bool:
    games = entry.get("games")
    return isinstance(entry.get("batch"), str) and isinstance(games, list) and all(
        isinstance(g, list) and len(g) == 4 and isinstance(g[0], str)
        and all(isinstance(x, list) and len(x) == len(g[1]) for x in g[1:])
        for g in games
    )  # fmt: skip


def _append(path: Path, entry: dict) -> None:
    """One line, written and synced at once: the file holds whole batches only (and at worst
    a torn last line, which `read_results` drops)."""
    data = (json.dumps(entry, separators=(",", ":")) + "\n").encode()
    with open(path, "ab") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def open_results(path: str | Path, header: dict) -> dict[str, dict]:
    """The batches already in the results file at `path` (created with `header` if absent);
    ValueError if it holds another protocol's games."""
    path = Path(path)
    header = json.loads(json.dumps(header))  # as the file holds it: tuples read as lists
    old, done = read_results(path)
    if old is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()  # empty, or a torn header alone
        _append(path, {"protocol": header})
    elif old != header:
        differ = sorted(k for k in set(old) | set(header) if old.get(k) != header.get(k))
        raise ValueError(f"{path} holds games of another protocol (differs in {differ}); "
                         "give another output, or the same settings to resume")  # fmt: skip
    return done


def merge(paths: Iterable[str | Path], out: str | Path) -> int:
    """Write to `out` the union of the batches of results files of one protocol; returns the
    number of batches. ValueError if their protocols differ or a batch differs between
    them."""
    header, union = None, dict[str, Any]()
    for path in paths:
        h, done = read_results(path)
        if h is None:
            raise ValueError(f"{path}: no ladder results there")
        if header is not None and h != header:
            raise ValueError(f"{path}: another protocol than the first file's")
        header = h
        for key, entry in done.items():
            if key in union and union[key]["games"] != entry["games"]:
                raise ValueError(f"{path}: batch {key} differs from another file's")
            union.setdefault(key, entry)
    if header is None:
        raise ValueError("merge needs at least one results file")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".merging")
    tmp.unlink(missing_ok=True)
    _append(tmp, {"protocol": header})
    for entry in union.values():
        _append(tmp, entry)
    os.replace(tmp, out)
    return len(union)


def play_batch(
    batch: P.Batch,
    kinds: list[P.TableKind],
    seed: int,
    make: Callable[[str, int], Any],
    max_steps: int = 10_000,
    bar: Any = None,
) -> dict:
    """Play one batch; its results line. make(label, seed) builds the agent of a label (a
    rung name, or `protocol.AGENT`); a progress bar `bar` shows the search agents'
    decisions as they come (a batch of search games runs for minutes)."""
    from noir_env.vector.arena import play_games
    from train.tournament import DecisionTicker
    from train.tournament.entrants import resolve_entrants
    from train.tournament.statistics import finishing_ranks

    kind = kinds[batch.kind]
    deals = [P.deal(kind, batch.kind, batch.players, d, seed)
             for d in range(batch.first, batch.last)]  # fmt: skip
    labels = sorted({name for d in deals for name in d.players})
    agent_seed = P.batch_seed(seed, batch)
    built = {label: make(label, agent_seed + k) for k, label in enumerate(labels)}
    _, policies = resolve_entrants(built, agent_seed)
    if bar is not None:
        policies = DecisionTicker(bar).wrap_search(policies)
    index = {label: k for k, label in enumerate(labels)}
    seats = [(d, s) for d in deals for s in P.seatings(d)]
    lineups = np.full((len(seats), 6), -1, np.int64)
    for g, (_, s) in enumerate(seats):
        lineups[g, : len(s)] = [index[x] for x in s]
    seeds = np.array([d.seed for d, _ in seats], np.int64)
    t0 = time.process_time()
    records = play_games(seeds, lineups, policies, P.RULES, max_steps, game=P.GAME)
    ranks = finishing_ranks(records)
    won = records.winners.astype(np.int64)
    games = [[d.key, s, ranks[g, : len(s)].tolist(), won[g, : len(s)].tolist()]
             for g, (d, s) in enumerate(seats)]  # fmt: skip
    return {"batch": batch.key, "games": games, "cpu_s": round(time.process_time() - t0, 3)}


def run(
    path: str | Path,
    header: dict,
    kinds: list[P.TableKind],
    players: tuple[int, ...],
    make: Callable[[str, int], Any],
    agent_ms: float = 2.0,
    shard: tuple[int, int] = (0, 1),
    progress: bool = True,
) -> dict[str, dict]:
    """Play the protocol's batches the results file lacks (those of `shard` = (i, k): every
    k-th batch from the i-th), appending each; return all of the file's batches."""
    seed = header["seed"]
    done = open_results(path, header)
    todo = [b for j, b in enumerate(P.batches(kinds, players))
            if j % shard[1] == shard[0] and b.key not in done]  # fmt: skip
    cost = [P.batch_cost(kinds, b, agent_ms) for b in todo]
    bar = _bar(sum(cost), len(done)) if progress and todo else None
    for b, c in zip(todo, cost, strict=True):
        entry = play_batch(b, kinds, seed, make, bar=bar)
        _append(Path(path), entry)
        done[b.key] = entry
        if bar is not None:
            bar.update(c)
            bar.set_postfix(batches=len(done), games=sum(len(e["games"]) for e in done.values()),
                            refresh=False)  # fmt: skip
    if bar is not None:
        bar.close()
    return done


def _bar(total: float, resumed: int) -> Any:
    from tqdm import tqdm

    desc = f"resumed {resumed} batches; work" if resumed else "work"
    return tqdm(total=total, desc=desc, unit="cpu-s", smoothing=0.05,
                bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} est. cpu-s "
                           "[{elapsed}<{remaining}{postfix}]")  # fmt: skip


def to_games(entries: Iterable[dict], names: list[str]) -> Games:
    """The model's games of results lines, players as indices into `names`; ValueError for a
    player not in `names`."""
    index = {name: k for k, name in enumerate(names)}
    players, won, deals, deal_ids = [], [], [], dict[Any, int]()
    for entry in entries:
        for key, seats, _, winners in entry["games"]:
            row = np.full(6, -1, np.int64)
            flags = np.zeros(6, np.bool_)
            for s, (who, w) in enumerate(zip(seats, winners, strict=True)):
                if who not in index:
                    raise ValueError(f"game of deal {key}: player {who!r} is not rated here")
                row[s], flags[s] = index[who], bool(w)
            players.append(row)
            won.append(flags)
            deals.append(deal_ids.setdefault(key, len(deal_ids)))
    if not players:
        return Games(np.zeros((0, 6), np.int64), np.zeros((0, 6), np.bool_), np.zeros(0))
    return Games(np.stack(players), np.stack(won), np.array(deals))
