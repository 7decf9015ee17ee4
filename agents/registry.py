"""Agents by name: `load("random", seed=0)`, `load("heuristic")` or
`load("heuristic-v1", style="economic")` returns a ready agent with the batched protocol
`act(obs[N, D], mask[N, A]) -> actions[N]`. Names hold no ':' (the tournament's agent specs
use it for options: "heuristic-v1:style=economic"), hence `style-rusher` for a style.

Agents that fit one game only say which in their `game` attribute ("noir" for the NOIR
heuristics and PPO policies, "district_noir" for "district-heuristic") and refuse the other
game's observations with a ValueError naming both; "random" reads the mask only and plays
either game.

The vector environments resolve opponent names such as `opponents="random"` here, so an agent
added to `_FACTORIES` becomes available as an opponent everywhere at once. A name that is
the path of an existing file is a checkpoint, loaded by the loader registered for its file
suffix in `_CHECKPOINT_LOADERS`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.heuristic.district import DistrictHeuristicAgent
from agents.heuristic.v1.agent import HeuristicV1Agent
from agents.heuristic.v2.agent import HeuristicAgent
from agents.policies import PPO_V1_POLICY, PPO_V2_POLICY, SHIPPED_PPO_POLICY
from agents.random_agent import RandomAgent
from agents.styles.agent import STYLE_NAMES, StyleAgent
from noir_env._shown import shown


def _random(seed: int | None = None, **kwargs: Any) -> RandomAgent:
    if kwargs:
        raise ValueError(f"agent 'random' takes no options besides seed, got {sorted(kwargs)}")
    return RandomAgent(seed=seed)


def _heuristic(style: str = "balanced", agent: type = HeuristicAgent, name: str = "heuristic"):
    def factory(seed: int | None = None, **kwargs: Any):
        unknown = sorted(set(kwargs) - {"style", "noise"})
        if unknown:
            raise ValueError(f"agent {name!r} takes style, noise and seed; got {unknown}")
        chosen = kwargs.get("style", style)
        return agent(style=chosen, seed=seed, noise=kwargs.get("noise"))

    return factory


def _style(style: str):
    def factory(seed: int | None = None, **kwargs: Any) -> StyleAgent:
        if kwargs:
            raise ValueError(
                f"agent 'style-{style}' takes no options besides seed, got {sorted(kwargs)}"
            )
        return StyleAgent(style, seed=seed)

    return factory


def _district_heuristic(seed: int | None = None, **kwargs: Any) -> DistrictHeuristicAgent:
    """The District Noir heuristic (deterministic: `seed` is accepted and unused)."""
    if kwargs:
        raise ValueError(
            f"agent 'district-heuristic' takes no options besides seed, got {sorted(kwargs)}"
        )
    return DistrictHeuristicAgent()


def _ismcts(seed: int | None = None, **kwargs: Any) -> Any:
    """The IS-MCTS search agent (agents/search/ismcts.py); kwargs are its `SearchConfig` options
    (budget, time_ms, rollout, horizon, ...) and `style`. It plays through
    `act_on_state(state, games)`, not `act(obs, mask)`."""
    from agents.search.ismcts import ISMCTSAgent

    default = kwargs.pop("default", "heuristic")
    if isinstance(default, str) and default != "heuristic":
        default = load(default, seed=seed)  # the registry resolves the name, not the search
    return ISMCTSAgent(seed=seed, default=default, **kwargs)


def _ppo(seed: int | None = None, path: str | None = None, greedy: bool = True) -> Any:
    """The shipped PPO policy (or the policy file or policy table at `path`); torch is
    imported here only."""
    path = str(SHIPPED_PPO_POLICY) if path is None else path
    if Path(path).suffix == ".json":  # a network per player count
        from agents.ppo.by_players import PPOByPlayers

        return PPOByPlayers(path, greedy=greedy, seed=seed, prior_of=prior_of)
    from agents.ppo.agent import PPOAgent
    from agents.ppo.file import load_policy

    if not Path(path).is_file():
        raise ValueError(f"no PPO policy file at {path}")
    net = load_policy(path)
    return PPOAgent(net=net, greedy=greedy, seed=seed, prior=prior_of(net.config, seed))


# the files whose priors are being loaded (a prior may be another policy file, whose own
# prior may be a file too): a chain that leads back to one of them is refused
_PRIOR_FILES: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar(
    "prior_files", default=()
)


def prior_of(config: dict, seed: int | None = None) -> Any:
    """The agent a policy's config names as its prior (`"prior"`), loaded by name; None
    without one. The registry resolves it, so a composite agent never calls back here. A
    prior that is a policy file is loaded with its own prior; a chain of priors that leads
    back to a file on it raises ValueError."""
    name = config.get("prior")
    if not name:
        return None
    if name in _FACTORIES or not _is_file(name):
        return load(name, seed=seed)
    key = str(Path(name).resolve())
    chain = _PRIOR_FILES.get()
    if key in chain:
        raise ValueError(f"the prior {shown(name)} leads back to itself: priors {list(chain)}")
    token = _PRIOR_FILES.set((*chain, key))
    try:
        return load(name, seed=seed)
    finally:
        _PRIOR_FILES.reset(token)


_FACTORIES: dict[str, Callable[..., Any]] = {
    "random": _random,
    "heuristic": _heuristic("balanced"),
    "heuristic-v1": _heuristic("balanced", HeuristicV1Agent, "heuristic-v1"),
    "heuristic-aggressive": _heuristic("aggressive", HeuristicV1Agent, "heuristic-aggressive"),
    "heuristic-economic": _heuristic("economic", HeuristicV1Agent, "heuristic-economic"),
    "district-heuristic": _district_heuristic,  # District Noir only
    **{f"style-{style}": _style(style) for style in STYLE_NAMES},  # agents/styles/agent.py
    "ismcts": _ismcts,  # a search agent: act_on_state(state, games)
}

if SHIPPED_PPO_POLICY.is_file():  # "ppo" is a name only while a trained policy ships
    _FACTORIES["ppo"] = _ppo


def _ppo_file(path: Path) -> Callable[..., Any]:
    """The factory of an earlier shipped policy: its file, greedy or sampling."""

    def factory(seed: int | None = None, greedy: bool = True) -> Any:
        return _ppo(seed=seed, path=str(path), greedy=greedy)

    return factory


# the policies shipped before, kept loadable to compare against: v1 (rules v1's observation,
# read through its column map) and v2 (one network at every player count)
for _name, _path in (("ppo-v1", PPO_V1_POLICY), ("ppo-v2", PPO_V2_POLICY)):
    if _path.is_file():
        _FACTORIES[_name] = _ppo_file(_path)

# checkpoint file suffix (".zip", ".pt", ...) -> loader(path, seed=None, **kwargs) -> agent
_CHECKPOINT_LOADERS: dict[str, Callable[..., Any]] = {
    ".pt": lambda path, seed=None, **kwargs: _ppo(seed=seed, path=str(path), **kwargs),
    ".json": lambda path, seed=None, **kwargs: _ppo(seed=seed, path=str(path), **kwargs),
}


def names() -> list[str]:
    """The agent names `load` knows."""
    return sorted(_FACTORIES)


def load(name: str, seed: int | None = None, **kwargs: Any) -> Any:
    """A new agent by name (`names()` lists them) or from a checkpoint file's path; `seed`
    seeds its own randomness and `kwargs` are the agent's options. Raises ValueError for an
    unknown name or a checkpoint no loader reads."""
    if not isinstance(name, str):
        raise ValueError(f"an agent name is a string, got {shown(name)}")
    if name not in _FACTORIES and _is_file(name):
        return _load_checkpoint(Path(name), seed, **kwargs)
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown agent {shown(name)}; known agents: {names()}") from None
    return factory(seed=seed, **kwargs)


def _is_file(name: str) -> bool:
    """Whether `name` is the path of a file (a name the file system cannot hold, too long
    or with a NUL, is none)."""
    try:
        return Path(name).is_file()
    except (OSError, ValueError):
        return False


def _load_checkpoint(path: Path, seed: int | None, **kwargs: Any) -> Any:
    loader = _CHECKPOINT_LOADERS.get(path.suffix)
    if loader is None:
        readable = sorted(_CHECKPOINT_LOADERS) or "none yet"
        raise ValueError(
            f"{str(path)!r} is a file, but no agent loader reads {path.suffix or 'suffix-less'}"
            f" checkpoints (checkpoint types: {readable}; agent names: {names()})"
        )
    return loader(path, seed=seed, **kwargs)
