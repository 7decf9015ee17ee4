"""The entrants of a tournament: agent specs ("name:key=value,..."), objects or callables
resolved into arena players with labels ("random", "random#2")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from noir_env.vector.arena import ArenaPolicy, policy_of


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'heuristic:style=aggressive,depth=2' -> ('heuristic', {'style': 'aggressive',
    'depth': 2}); values are read as int, float, true/false, or else kept as strings."""
    name, _, opts = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, opts.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"agent options are key=value pairs, got {item!r} in {spec!r}")
        kwargs[key.strip()] = _option_value(value.strip())
    if not name:
        raise ValueError(f"an agent spec starts with the agent's name, got {spec!r}")
    return name, kwargs


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _as_policy(label: str, agent: Any) -> ArenaPolicy:
    """An agent object (or callable) as an arena player (`arena.policy_of`: a search agent
    through its state hook); the uniform random agent runs inside the compiled loop."""
    from agents.random_agent import RandomAgent

    if type(agent) is RandomAgent:
        return ArenaPolicy(label, None, observes=False)
    return policy_of(label, agent)


def label_of(agent: Any) -> str:
    if isinstance(agent, str):
        return agent
    name = getattr(agent, "name", None) or getattr(agent, "__name__", None)
    return str(name) if name else type(agent).__name__


def resolve_entrants(
    agents: Sequence[Any] | Mapping[str, Any], seed: int
) -> tuple[list[str], list[ArenaPolicy]]:
    """(labels, arena players) of the entrants; names are loaded with `agents.load` and a
    seed derived from `seed` and the entrant's position. Repeated labels get '#2', '#3'."""
    from agents import load

    pairs = list(agents.items()) if isinstance(agents, Mapping) else [(None, a) for a in agents]
    if not pairs:
        raise ValueError("a tournament needs at least one agent")
    labels: list[str] = []
    policies: list[ArenaPolicy] = []
    for k, (label, agent) in enumerate(pairs):
        base = str(label) if label is not None else label_of(agent)
        count = sum(1 for x in labels if x == base or x.startswith(base + "#"))
        label = base if count == 0 else f"{base}#{count + 1}"
        if isinstance(agent, str):
            name, kwargs = parse_agent_spec(agent)
            agent_seed = int(np.random.SeedSequence([seed, k]).generate_state(1)[0])
            agent = load(name, seed=agent_seed, **kwargs)
        labels.append(label)
        policies.append(_as_policy(label, agent))
    return labels, policies
