"""Bundled agents behind one batched protocol: `act(obs[N, D], mask[N, A]) -> actions[N]`."""

from noir_env._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module is imported

from .district_heuristic import DistrictHeuristicAgent  # noqa: E402
from .random_agent import RandomAgent  # noqa: E402

__all__ = ["DistrictHeuristicAgent", "RandomAgent"]
