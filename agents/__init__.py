"""Bundled agents behind one batched protocol: `act(obs[N, D], mask[N, A]) -> actions[N]`."""

from .random_agent import RandomAgent

__all__ = ["RandomAgent"]
