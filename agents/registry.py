"""Agents by name: `load("random", seed=0)` returns a ready agent with the batched protocol
`act(obs[N, D], mask[N, A]) -> actions[N]`.

The vector environments resolve opponent names such as `opponents="random"` here, so an agent
added to `_FACTORIES` becomes available as an opponent everywhere at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .random_agent import RandomAgent


def _random(seed: int | None = None, **kwargs: Any) -> RandomAgent:
    if kwargs:
        raise ValueError(f"agent 'random' takes no options besides seed, got {sorted(kwargs)}")
    return RandomAgent(seed=seed)


_FACTORIES: dict[str, Callable[..., Any]] = {"random": _random}


def names() -> list[str]:
    """The agent names `load` knows."""
    return sorted(_FACTORIES)


def load(name: str, seed: int | None = None, **kwargs: Any) -> Any:
    """A new agent by name (`names()` lists them); `seed` seeds its own randomness and
    `kwargs` are the agent's options. Raises ValueError for an unknown name."""
    if not isinstance(name, str):
        raise ValueError(f"an agent name is a string, got {name!r}")
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known agents: {names()}") from None
    return factory(seed=seed, **kwargs)
