"""Bundled agents behind one batched protocol: `act(obs[N, D], mask[N, A]) -> actions[N]`.

`load(name, seed=None, **kwargs)` builds an agent by name or from a PPO policy file's path
(`runs/<name>/policy.pt`); `names()` lists the names: `"random"`; `"heuristic"` (the
table-aware heuristic, `agents/heuristic/v2/agent.py`); `"heuristic-v1"` (the first one, with its
styles `"heuristic-aggressive"` and `"heuristic-economic"`, `agents/heuristic/v1/agent.py`); the
scripted styles `"style-rusher"`, `"style-turtle"`, `"style-hoarder"`, `"style-racer"`,
`"style-bully"` (`agents/styles/agent.py`); `"ppo"` (the shipped policy, a network per table size,
`agents/ppo/by_players.py`) and the policies shipped before it, `"ppo-v2"` and `"ppo-v1"`;
`"ismcts"` (the search agent, `agents/search/ismcts.py`). `TextAgent(fn)` plays
by text through any `fn(prompt) -> str` (`agents/text_agent.py`). The vector environments
and the tournament resolve agent names through it; `bench/strength.py` plays them all
against each other."""

from noir_env._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module is imported

from agents.heuristic.district import DistrictHeuristicAgent  # noqa: E402
from agents.heuristic.v1.agent import HeuristicV1Agent  # noqa: E402
from agents.heuristic.v2.agent import HeuristicAgent  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from agents.registry import load, names  # noqa: E402
from agents.text_agent import TextAgent  # noqa: E402

__all__ = [
    "DistrictHeuristicAgent",
    "HeuristicAgent",
    "HeuristicV1Agent",
    "PPOAgent",
    "RandomAgent",
    "TextAgent",
    "load",
    "names",
]


def __getattr__(name: str):
    if name == "PPOAgent":  # torch is imported only when the PPO agent is asked for
        from agents.ppo.agent import PPOAgent

        return PPOAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
