"""Bundled agents behind one batched protocol: `act(obs[N, D], mask[N, A]) -> actions[N]`.

`load(name, seed=None, **kwargs)` builds an agent by name (`"random"`); the vector
environments resolve opponent names through it."""

from noir_env._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module is imported

from .district_heuristic import DistrictHeuristicAgent  # noqa: E402
from .random_agent import RandomAgent  # noqa: E402
from .registry import load, names  # noqa: E402

__all__ = ["DistrictHeuristicAgent", "RandomAgent", "load", "names"]
