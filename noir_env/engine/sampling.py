"""Mask-row kernels every game and every compiled policy shares: count the legal actions
of a mask row, pick the k-th, and pick one uniformly with an agent's own random stream."""

from __future__ import annotations

import numpy as np

from .jit import kernel


@kernel
def nth_legal(mask_row, k):
    """The k-th (0-based) legal action of a mask row, -1 if there are fewer (samplers)."""
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@kernel
def count_legal(mask_row):
    """The number of legal actions in a mask row."""
    count = 0
    for a in range(mask_row.shape[0]):
        count += mask_row[a]
    return count


@kernel
def count_and_last(mask_row):
    """(number of legal actions, the action itself when there is exactly one, else -1)."""
    count = count_legal(mask_row)
    return count, (nth_legal(mask_row, 0) if count == 1 else -1)


@kernel(inline="always")
def xorshift(x):
    """One step of xorshift64 (a non-zero state stays non-zero)."""
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    return x


@kernel
def random_legal_action(mask_row, agent_rng, i):
    """A uniformly chosen legal action; `agent_rng[i]` is the agent's own generator (kept
    apart from the game's, so the game stays a function of its seed and actions)."""
    agent_rng[i] = xorshift(agent_rng[i])
    return nth_legal(mask_row, np.int64(agent_rng[i] % np.uint64(count_legal(mask_row))))


def agent_streams(n: int, seed: int) -> np.ndarray:
    """uint64 [n]: the built-in random policy's generator state of each of n games, from a
    seed (odd, so never zero)."""
    rng = (np.arange(n, dtype=np.uint64) + np.uint64(seed)) * np.uint64(2654435761)
    return rng | np.uint64(1)
