"""The fixed protocol of the ladder and of rating an agent against it: the rungs, the kinds of
table, the deals and who sits where.

**Rungs.** Every bundled baseline (`RUNGS`); the search rungs (`ismcts` at three budgets) are
the expensive ones: they cost seconds a game where the others cost milliseconds. They are
the search with the heuristic as its model of every other seat and no safety term
(`opponents=heuristic,safety=0`), the play the ladder was measured with; the default
`ismcts` (opponent models fitted to the table, the Hideout's safety) is rated like any agent
(`python -m train.rate ismcts`).

**Tables.** A protocol is a list of table kinds, each a set of players always seated (none,
one search rung, the agent being rated, ...) and a number of deals per player count. The
other seats of a deal are drawn, without replacement, from the cheap rungs; then the deal is
played once per seat rotation (n games at n players), so each player of the deal sits in
every seat once on the same cards. The search rungs get few deals of their own kind, which
keeps their cost bounded while every cheap table stays plentiful.

**Seeds.** Deal d of kind t at n players is dealt, and its other seats drawn, from
`SeedSequence([seed, t, n, d])`: the same protocol and seed give the same deals and the same
opponents whatever else is played, so two agents rated with one seed met the same tables.
Games are played in batches of deals (`batches`); each batch's agents are seeded from the
batch, so a batch is the same whether it is played first, last, alone or after a resume.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass

import numpy as np

LADDER_VERSION = 1
GAME = "noir"
RULES = "noirburg"
PLAYERS = (3, 4, 5, 6)
AGENT = "agent"  # the seat label of the agent being rated


@dataclass(frozen=True)
class Rung:
    """A player of the ladder: its label, the agent spec `agents.load` reads (through
    `train.tournament.parse_agent_spec`) and its rough cost in CPU ms per game it sits in at
    4 players (for the progress bar's time left)."""

    name: str
    spec: str
    ms_per_game: float = 2.0

    @property
    def search(self) -> bool:
        return self.ms_per_game > 100


RUNGS: tuple[Rung, ...] = (
    Rung("random", "random"),
    Rung("style-rusher", "style-rusher"),
    Rung("style-turtle", "style-turtle"),
    Rung("style-hoarder", "style-hoarder"),
    Rung("style-racer", "style-racer"),
    Rung("style-bully", "style-bully"),
    Rung("heuristic-v1", "heuristic-v1"),
    Rung("heuristic-aggressive", "heuristic-aggressive"),
    Rung("heuristic-economic", "heuristic-economic"),
    Rung("heuristic", "heuristic"),
    Rung("ppo", "ppo", 6.0),
    Rung("ismcts-16", "ismcts:budget=16,opponents=heuristic,safety=0", 550.0),
    Rung("ismcts-64", "ismcts:budget=64,opponents=heuristic,safety=0", 2000.0),
    Rung("ismcts-200", "ismcts:budget=200,opponents=heuristic,safety=0", 6000.0),
)
ANCHOR, ANCHOR_RATING = "heuristic-v1", 1000.0  # frozen code: its rating does not drift


def rung(name: str) -> Rung:
    """The rung of that name; ValueError listing the rungs for another."""
    for r in RUNGS:
        if r.name == name:
            return r
    raise ValueError(f"no rung {name!r}; rungs: {[r.name for r in RUNGS]}")


CHEAP = tuple(r.name for r in RUNGS if not r.search)
SEARCH = tuple(r.name for r in RUNGS if r.search)


@dataclass(frozen=True)
class TableKind:
    """Deals with `fixed` players always seated (rung names, or `AGENT`), the other seats
    drawn from the cheap rungs; `deals` deals per player count, `batch` deals a batch."""

    fixed: tuple[str, ...]
    deals: int
    batch: int


def ladder_kinds(scale: float = 1.0) -> list[TableKind]:
    """The ladder's tables: the cheap rungs among themselves, each search rung with cheap
    rungs, and each pair of search rungs with cheap rungs (so that they meet)."""
    kinds = [TableKind((), _count(1000, scale), 100)]
    for name, deals in zip(SEARCH, (16, 10, 4), strict=True):
        kinds.append(TableKind((name,), _count(deals, scale), 1))
    pairs = [(a, b) for i, a in enumerate(SEARCH) for b in SEARCH[i + 1 :]]
    kinds += [TableKind(pair, _count(2, scale), 1) for pair in pairs]
    return kinds


def rate_kinds(scale: float = 1.0, search: bool = True) -> list[TableKind]:
    """The tables of rating an agent: the agent with cheap rungs, and (search=True) the
    agent with each search rung and cheap rungs."""
    kinds = [TableKind((AGENT,), _count(150, scale), 25)]
    if search:
        for name, deals in zip(SEARCH, (4, 3, 2), strict=True):
            kinds.append(TableKind((AGENT, name), _count(deals, scale), 1))
    return kinds


def _count(deals: int, scale: float) -> int:
    return max(1, round(deals * scale))


@dataclass(frozen=True)
class Batch:
    """Deals first..last-1 of kind `kind` at `players` players; `key` names it in a
    results file."""

    kind: int
    players: int
    first: int
    last: int

    @property
    def key(self) -> str:
        return f"{self.kind}.{self.players}.{self.first}"


def batches(kinds: list[TableKind], players: tuple[int, ...]) -> Iterator[Batch]:
    """Every batch of the protocol, the cheap kinds first."""
    for t, kind in enumerate(kinds):
        for n in players:
            if len(kind.fixed) > n:
                continue
            for first in range(0, kind.deals, kind.batch):
                yield Batch(t, n, first, min(first + kind.batch, kind.deals))


@dataclass
class Deal:
    """One deal: its seed, its key (the cluster of its games) and the players in seat order of
    its first game; game j seats `players[(j + s) % n]` in seat s."""

    key: str
    seed: int
    players: list[str]


def deal(kind: TableKind, t: int, n: int, d: int, seed: int) -> Deal:
    """Deal d of kind t at n players (module docstring: **Seeds**)."""
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), t, n, d]))
    deal_seed = int(rng.integers(0, 2**62))
    pool = [name for name in CHEAP if name not in kind.fixed]
    drawn = [pool[i] for i in rng.choice(len(pool), n - len(kind.fixed), replace=False)]
    members = list(kind.fixed) + drawn
    order = rng.permutation(n)
    return Deal(f"{t}.{n}.{d}", deal_seed, [members[i] for i in order])


def batch_seed(seed: int, batch: Batch) -> int:
    """The seed of the agents of one batch."""
    ss = np.random.SeedSequence([int(seed), 1 << 20, batch.kind, batch.players, batch.first])
    return int(ss.generate_state(1)[0])


def batch_cost(kinds: list[TableKind], batch: Batch, agent_ms: float = 2.0) -> float:
    """Rough CPU seconds of a batch (for the time left): the fixed players' costs plus the
    cheap seats', per game, times the games."""
    kind = kinds[batch.kind]
    ms = sum(agent_ms if f == AGENT else rung(f).ms_per_game for f in kind.fixed)
    ms += 2.0 * (batch.players - len(kind.fixed))
    games = (batch.last - batch.first) * batch.players
    return games * ms * batch.players / 4 / 1000


def describe(kinds: list[TableKind], players: tuple[int, ...], seed: int) -> dict:
    """The protocol as JSON-ready values (a results file's header; a report's settings)."""
    return {
        "ladder_version": LADDER_VERSION,
        "game": GAME,
        "rules": RULES,
        "players": list(players),
        "seed": int(seed),
        "rungs": [{"name": r.name, "spec": r.spec} for r in RUNGS],
        "kinds": [asdict(k) for k in kinds],
    }


def seatings(d: Deal) -> list[list[str]]:
    """The games of a deal: the players by seat, rotated once per game."""
    n = len(d.players)
    return [[d.players[(j + s) % n] for s in range(n)] for j in range(n)]
