"""The uniform random agent: picks one legal action per game, uniformly."""

from __future__ import annotations

import numpy as np
from numba import prange

from noir_env.engine.jit import kernel
from noir_env.engine.sampling import count_legal, nth_legal
from noir_env.threads import use_parallel


@kernel
def _pick(mask_row, u):
    """The floor(u * count)-th legal action of one mask row (u uniform in [0, 1))."""
    count = count_legal(mask_row)
    return nth_legal(mask_row, int(u * count)) if count else -1


@kernel(parallel=True)
def sample_legal(mask, uniforms, out):
    """out[i] = a uniformly chosen legal action of mask[i] (-1 if none is legal)."""
    for i in prange(mask.shape[0]):
        out[i] = _pick(mask[i], uniforms[i])


@kernel
def sample_legal_serial(mask, uniforms, out):
    for i in range(mask.shape[0]):
        out[i] = _pick(mask[i], uniforms[i])


class RandomAgent:
    """Uniform over legal actions. `act(obs, mask)` takes batched arrays [N, ...]."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray | None, mask: np.ndarray) -> np.ndarray:
        mask = np.asarray(mask)
        if mask.ndim == 1:
            return self.act(obs, mask[None])[0]
        out = np.empty(mask.shape[0], np.int64)
        u = self.rng.random(mask.shape[0])
        kernel = sample_legal if use_parallel(mask.shape[0]) else sample_legal_serial
        kernel(mask.astype(np.bool_, copy=False), u, out)
        return out
