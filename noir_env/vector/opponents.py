"""Opponents of the single-seat environments: a name, a policy, or a mix to draw from.

An opponent spec is one of
- a name known to `agents.load` (`"random"`, a game's heuristic such as `"heuristic"` or
  `"district-heuristic"`, ...);
- an object with a batched `act(obs[N, D], mask[N, A]) -> actions[N]` method, or such a
  callable itself (a frozen torch policy wrapped in a function, say);
- a mix `{opponent: probability, ...}` (or a list of `(opponent, probability)` pairs for
  opponents that cannot be dict keys): each game draws one opponent, which then plays every
  seat but the learner's for the whole game.

Mixed tables: with `mixed_tables=p` (`set_opponents(spec, mixed_tables=p)`, or the envs'
argument of that name), a share p of new games draws an opponent for each seat instead, from
the same mix: a table of, say, a heuristic, a rusher and a random player. Those games report
their opponent as "mixed".

A uniform random agent (`"random"` or an `agents.RandomAgent`) is played inside the compiled
engine with one random stream per game, so a game stays a function of its seed whatever the
number of games; every other policy is called once per decision round with the batch of all
games in which one of its seats must act. A search agent (`uses_state = True`, e.g.
`agents.load("ismcts", budget=32)`) is called through its hook `act_on_state(state, games)`
with a copy of the games waiting for it, as in the arena (`noir_env.vector.arena`). The copy
holds every hand: the agent is trusted to read only its seat's information (`ismcts` re-deals
what its seat cannot see before it searches). Agents that draw from their own random streams
(search, sampled snapshots) make a game depend on which games share their calls, not on its
seed alone.
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._shown import shown

OpponentSpec = Any  # str | policy object | callable | Mapping | Sequence of pairs


@dataclass(frozen=True)
class SearchHook:
    """A search agent's `act_on_state(state, games) -> actions`, as an opponent: the engine
    calls it with a copy of the games to decide and their indices in that copy."""

    act_on_state: Callable[[Any, np.ndarray], Any]


@dataclass(frozen=True)
class OpponentMix:
    """Resolved opponents: their batched `act` functions, names, draw probabilities, and
    which of them the engine plays itself (uniform random)."""

    acts: tuple[Callable[[np.ndarray, np.ndarray], Any] | SearchHook | None, ...]
    names: tuple[str, ...]
    probs: np.ndarray  # float64 [K], sums to 1
    builtin: np.ndarray  # bool [K]: played by the compiled uniform random policy

    def draw(self, uniforms: np.ndarray) -> np.ndarray:
        """int8 [N]: the opponent index of each game, from uniforms in [0, 1)."""
        edges = np.cumsum(self.probs)
        return np.minimum(np.searchsorted(edges, uniforms, side="right"), len(edges) - 1).astype(
            np.int8
        )


def _load_agent(name: str):
    # agents sit above the environment in the data flow (core -> env -> agents), so the
    # env imports them only when a name has to be resolved, never at module import
    from agents import load

    return load(name)


def _is_uniform_random(policy) -> bool:
    from agents.random_agent import RandomAgent  # lazy for the same reason as _load_agent

    return type(policy) is RandomAgent


def _name_of(spec, policy) -> str:
    if isinstance(spec, str):
        return spec
    name = getattr(policy, "name", None) or getattr(policy, "__name__", None)
    return str(name) if name else type(policy).__name__


def _resolve_one(spec) -> tuple[Callable | SearchHook | None, str, bool]:
    """(act function, a search agent's hook, or None for the built-in random policy, name,
    built-in?)."""
    policy = _load_agent(spec) if isinstance(spec, str) else spec
    if _is_uniform_random(policy):
        return None, _name_of(spec, policy), True
    if getattr(policy, "uses_state", False):
        hook = getattr(policy, "act_on_state", None)
        if not callable(hook):
            raise ValueError(
                f"opponent {shown(_name_of(spec, policy))} declares uses_state but has no "
                "act_on_state(state, games)"
            )
        return SearchHook(hook), _name_of(spec, policy), False
    act = getattr(policy, "act", None)
    if act is None and callable(policy):
        act = policy
    if act is None or not callable(act):
        raise ValueError(
            "an opponent is a name (e.g. 'random'), an object with act(obs, mask), a callable "
            f"act(obs, mask), or a mix {{opponent: probability}}; got {shown(spec)}"
        )
    return act, _name_of(spec, policy), False


def _pairs(spec) -> list[tuple[Any, float]]:
    if isinstance(spec, Mapping):
        return list(spec.items())
    if isinstance(spec, Sequence) and not isinstance(spec, str):
        pairs = list(spec)
        if not pairs or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            raise ValueError(
                f"a list of opponents must hold (opponent, probability) pairs, got {shown(spec)}"
            )
        return pairs
    return [(spec, 1.0)]


def resolve(spec: OpponentSpec) -> OpponentMix:
    """Resolve an opponent spec (see the module docstring); raises ValueError naming what
    is wrong with it."""
    pairs = _pairs(spec)
    if not pairs:
        raise ValueError("the opponent mix is empty")
    given = [p for _, p in pairs]
    if not all(isinstance(p, numbers.Real) and not isinstance(p, bool | np.bool_) for p in given):
        raise ValueError(f"opponent probabilities must be numbers, got {shown(given, 200)}")
    probs = np.array([float(p) for p in given], np.float64)
    total = sum(probs.tolist())  # Python's float sum: inf on overflow, with no warning
    if not np.isfinite(probs).all() or (probs < 0).any() or not 0 < total < math.inf:
        raise ValueError(
            "opponent probabilities must be finite numbers >= 0 with a positive, finite sum, "
            f"got {probs.tolist()}"
        )
    if len(pairs) > 127:
        raise ValueError(f"at most 127 opponents in a mix, got {len(pairs)}")
    resolved = [_resolve_one(opp) for opp, _ in pairs]
    return OpponentMix(
        acts=tuple(r[0] for r in resolved),
        names=tuple(r[1] for r in resolved),
        probs=probs / probs.sum(),
        builtin=np.array([r[2] for r in resolved], np.bool_),
    )


def check_share(mixed_tables: Any) -> float:
    """`mixed_tables` as a float in [0, 1], or ValueError naming it."""
    if isinstance(mixed_tables, bool) or not isinstance(mixed_tables, int | float | np.number):
        raise ValueError(f"mixed_tables must be a number in [0, 1], got {shown(mixed_tables)}")
    share = float(mixed_tables)
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"mixed_tables must be in [0, 1], got {shown(mixed_tables)}")
    return share


def as_actions(who: str, actions: Any, count: int) -> np.ndarray:
    """A policy's answer for `count` decisions as int64 [count]; raises ValueError naming
    `who` for the wrong number of actions or non-integers (legality is the caller's)."""
    try:
        acts = np.asarray(actions).reshape(count)
    except ValueError:
        raise ValueError(
            f"{who} returned actions of shape {np.shape(actions)} for {count} decisions"
        ) from None
    if not np.issubdtype(acts.dtype, np.integer):
        raise ValueError(f"{who} returned non-integer actions ({acts.dtype})")
    return acts.astype(np.int64, copy=False)


class OpponentTable(ABC):
    """The opponents of a batch of single-seat games: every policy set so far (kept while a
    game uses it), the mix new games draw from, each game's opponent index (`opponent`), and
    the batched calls of the Python policies. The single-seat engine
    (`engine.SingleSeatGames`) builds on it and provides `state` (with an `actor` field),
    `observe_rows`, `illegal_position` and `illegal_message`."""

    state: Any
    opponent: np.ndarray  # int16 [N]: index into the policies of each game's opponent
    seat_opponent: np.ndarray  # int16 [N, P]: the policy of each seat (the learner's unused)
    mixed_table: np.ndarray  # bool [N]: the game's seats drew their opponents one by one

    def __init__(self) -> None:
        self._acts: list = []  # every policy ever set; games keep an index into it
        self._names: list[str] = []
        self._builtin: list[bool] = []
        self.mixed_tables = 0.0  # share of new games seating a drawn opponent per seat

    @abstractmethod
    def observe_rows(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Observations of `seats` in `games` and those games' masks (the engine's)."""

    @abstractmethod
    def illegal_position(self, games: np.ndarray, actions: np.ndarray) -> int:
        """Position of the first action its game cannot take (-1 if none; the engine's)."""

    @abstractmethod
    def illegal_message(self, game: int, action: int) -> str:
        """Why `action` is illegal in `game` (the engine's)."""

    def set_opponents(self, opponents: OpponentSpec, mixed_tables: float | None = None) -> None:
        """Draw the opponents of games dealt from now on from `opponents` (a name, a policy,
        or a mix {opponent: probability}); games in progress keep theirs. mixed_tables: the
        share of new games whose seats draw their opponents one by one (None: unchanged)."""
        share = self.mixed_tables if mixed_tables is None else check_share(mixed_tables)
        self._set_mix(resolve(opponents))
        self.mixed_tables = share

    def _set_mix(self, mix: OpponentMix) -> None:
        """Draw new games' opponents from the resolved `mix`."""
        index = []
        for act, name, builtin in zip(mix.acts, mix.names, mix.builtin, strict=True):
            index.append(self._policy_index(act, name, bool(builtin)))
        self._mix = mix
        self._mix_index = np.array(index, np.int16)
        self._drop_unused_policies()

    def _drop_unused_policies(self) -> None:
        """Forget policies neither the mix nor a game in progress uses (a league sets new
        snapshot policies again and again: keep neither them alive nor the list growing)."""
        used = np.zeros(len(self._acts), np.bool_)
        used[self._mix_index] = True
        if self.state is not None:
            used[self.opponent] = True
            used[self.seat_opponent] = True
        if used.all():
            return
        remap = (np.cumsum(used) - 1).astype(np.int16)
        self._acts = [a for a, u in zip(self._acts, used, strict=True) if u]
        self._names = [nm for nm, u in zip(self._names, used, strict=True) if u]
        self._builtin = [b for b, u in zip(self._builtin, used, strict=True) if u]
        self._mix_index = remap[self._mix_index]
        if self.state is not None:
            self.opponent, self.seat_opponent = remap[self.opponent], remap[self.seat_opponent]
        else:
            self.opponent, self.seat_opponent = self.opponent * 0, self.seat_opponent * 0

    def _policy_index(self, act, name: str, builtin: bool) -> int:
        for k, (a, nm, b) in enumerate(zip(self._acts, self._names, self._builtin, strict=True)):
            if b == builtin and nm == name and (builtin or a == act):
                return k
        if len(self._acts) >= np.iinfo(np.int16).max:
            raise ValueError("too many different opponents set on one environment")
        self._acts.append(act)
        self._names.append(name)
        self._builtin.append(builtin)
        return len(self._acts) - 1

    @property
    def opponent_names(self) -> list[str]:
        """Names of the opponents each game's `opponent` index refers to."""
        return list(self._names)

    def _external_actions(self, games: np.ndarray) -> np.ndarray:
        """Ask each Python opponent policy for its seats' decisions in `games`, batched."""
        acts = np.empty(games.size, np.int64)
        seats = self.state.actor[games].astype(np.int64)
        owner = self.seat_opponent[games, seats]
        for k in np.unique(owner):
            rows = np.flatnonzero(owner == k)
            sub, act = games[rows], self._acts[k]
            if isinstance(act, SearchHook):
                # a copy (an index array copies): the search simulates on it, never on ours
                answer = act.act_on_state(self.state[sub], np.arange(sub.size))
            else:
                obs, mask = self.observe_rows(sub, seats[rows])
                answer = act(obs, mask.view(np.bool_))
            acts[rows] = self._checked(int(k), answer, sub)
        return acts

    def _checked(self, k: int, actions, games: np.ndarray) -> np.ndarray:
        name = self._names[k]
        acts = as_actions(f"opponent {shown(name)}", actions, games.size)
        bad = self.illegal_position(games, acts)
        if bad >= 0:
            msg = self.illegal_message(int(games[bad]), int(acts[bad]))
            raise ValueError(f"opponent {shown(name)} chose an illegal action: {msg}")
        return acts
