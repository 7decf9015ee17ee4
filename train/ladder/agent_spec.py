"""What `train.rate` accepts as the agent to rate, turned into a factory `make(seed)`.

- a registered name with options (`heuristic`, `ismcts:budget=64`: `agents.load`),
- a policy file or policy table (`runs/x/policy.pt`, `table.json`: the registry's loaders),
- `module:attr` (`mypkg.bots:MyAgent`): a class is built with `seed=` if its constructor
  takes one (else with no arguments); a function taking no required argument is a factory,
  called the same way; anything else (an agent object, an `act(obs, mask)` callable) is
  the agent itself. With `text=True` the attribute is a `fn(prompt) -> str` and plays
  through `agents.TextAgent`,
- in Python, an agent object (used as it is, in every batch) or such a factory.

`module:attr` is told from a name with options by its right side, which holds no `=`.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

_MODULE_ATTR = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def is_module_attr(spec: str) -> bool:
    """Whether `spec` reads as `module:attr` (not a name with `key=value` options)."""
    return bool(_MODULE_ATTR.match(spec)) and not Path(spec).exists()


def _import_attr(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as err:  # the user's module may fail in any way while it loads
        raise ValueError(
            f"{spec}: cannot import module {module_name!r} ({type(err).__name__}: {err})"
        ) from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{spec}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def _takes_seed(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _no_required_args(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in params)  # fmt: skip


def _factory_of(obj: Any, where: str) -> Callable[[int], Any]:
    """make(seed) for an imported attribute or a Python object (module docstring)."""
    if inspect.isclass(obj) or (inspect.isfunction(obj) and _no_required_args(obj)):
        make: Callable[..., Any] = obj
        if _takes_seed(obj):
            return lambda seed: _built(make(seed=seed), where)
        return lambda seed: _built(make(), where)
    _built(obj, where)
    return lambda seed: obj


def _built(agent: Any, where: str) -> Any:
    """The agent if the arena can seat it; ValueError naming `where` otherwise."""
    from noir_env.vector.arena import policy_of

    policy_of(where, agent)
    return agent


def agent_factory(agent: Any, text: bool = False) -> tuple[str, Callable[[int], Any]]:
    """(label, make(seed)) of an agent spec or object (module docstring). ValueError for a
    spec that names nothing loadable."""
    if not isinstance(agent, str):
        from train.tournament.entrants import label_of

        return label_of(agent), _factory_of(agent, label_of(agent))
    spec = agent.strip()
    if not spec:
        raise ValueError("the agent to rate is empty: give a name, a policy file or module:attr")
    if text or is_module_attr(spec):
        if not _MODULE_ATTR.match(spec):
            raise ValueError(f"{spec}: --text needs module:function naming fn(prompt) -> str")
        obj = _import_attr(spec)
        if text:
            from agents import TextAgent

            if not callable(obj):
                raise ValueError(f"{spec}: not a callable fn(prompt) -> str")
            return spec, lambda seed: TextAgent(obj, seed=seed, name=spec)
        return spec, _factory_of(obj, spec)
    from agents import load
    from train.tournament import parse_agent_spec

    name, options = parse_agent_spec(spec)
    load(name, seed=0, **options)  # a bad name or option fails here, before any game
    return spec, lambda seed: load(name, seed=seed, **options)
