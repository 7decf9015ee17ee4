"""Bundled agents behind one batched protocol: `act(obs[N, D], mask[N, A]) -> actions[N]`.

`load(name, seed=None, **kwargs)` builds an agent by name (`"random"`, `"heuristic"`,
`"heuristic-aggressive"`, `"heuristic-economic"`; `"ppo"` once a trained policy ships) or from
a PPO policy file's path (`runs/<name>/policy.pt`); the
vector environments and the tournament resolve agent names through it."""

from noir_env._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module is imported

from .district_heuristic import DistrictHeuristicAgent  # noqa: E402
from .heuristic import HeuristicAgent  # noqa: E402
from .heuristic_v1 import HeuristicV1Agent  # noqa: E402
from .random_agent import RandomAgent  # noqa: E402
from .registry import load, names  # noqa: E402

__all__ = [
    "DistrictHeuristicAgent",
    "HeuristicAgent",
    "HeuristicV1Agent",
    "PPOAgent",
    "RandomAgent",
    "load",
    "names",
]


def __getattr__(name: str):
    if name == "PPOAgent":  # torch is imported only when the PPO agent is asked for
        from .ppo_agent import PPOAgent

        return PPOAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
