"""Opponents of the single-seat environments: a name, a policy, or a mix to draw from.

An opponent spec is one of
- a name known to `agents.load` (`"random"`; `"heuristic"` once it exists);
- an object with a batched `act(obs[N, D], mask[N, A]) -> actions[N]` method, or such a
  callable itself (a frozen torch policy wrapped in a function, say);
- a mix `{opponent: probability, ...}` (or a list of `(opponent, probability)` pairs for
  opponents that cannot be dict keys): each game draws one opponent, which then plays every
  seat but the learner's for the whole game.

A uniform random agent (`"random"` or an `agents.RandomAgent`) is played inside the compiled
engine with one random stream per game, so a game stays a function of its seed whatever the
number of games; every other policy is called once per decision round with the batch of all
games in which one of its seats must act.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

OpponentSpec = Any  # str | policy object | callable | Mapping | Sequence of pairs


@dataclass(frozen=True)
class OpponentMix:
    """Resolved opponents: their batched `act` functions, names, draw probabilities, and
    which of them the engine plays itself (uniform random)."""

    acts: tuple[Callable[[np.ndarray, np.ndarray], Any] | None, ...]
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


def _resolve_one(spec) -> tuple[Callable | None, str, bool]:
    """(act function or None for the built-in random policy, name, built-in?)."""
    policy = _load_agent(spec) if isinstance(spec, str) else spec
    if _is_uniform_random(policy):
        return None, _name_of(spec, policy), True
    act = getattr(policy, "act", None)
    if act is None and callable(policy):
        act = policy
    if act is None or not callable(act):
        raise ValueError(
            "an opponent is a name (e.g. 'random'), an object with act(obs, mask), a callable "
            f"act(obs, mask), or a mix {{opponent: probability}}; got {spec!r}"
        )
    return act, _name_of(spec, policy), False


def _pairs(spec) -> list[tuple[Any, float]]:
    if isinstance(spec, Mapping):
        return list(spec.items())
    if isinstance(spec, Sequence) and not isinstance(spec, str):
        pairs = list(spec)
        if not pairs or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            raise ValueError(
                f"a list of opponents must hold (opponent, probability) pairs, got {spec!r}"
            )
        return pairs
    return [(spec, 1.0)]


def resolve(spec: OpponentSpec) -> OpponentMix:
    """Resolve an opponent spec (see the module docstring); raises ValueError naming what
    is wrong with it."""
    pairs = _pairs(spec)
    if not pairs:
        raise ValueError("the opponent mix is empty")
    probs = np.array([float(p) for _, p in pairs], np.float64)
    if not np.isfinite(probs).all() or (probs < 0).any() or probs.sum() <= 0:
        raise ValueError(
            f"opponent probabilities must be >= 0 with a positive sum, got {probs.tolist()}"
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
