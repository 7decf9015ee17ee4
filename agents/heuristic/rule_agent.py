"""The batched shell shared by the rule-based NOIR agents (the heuristics and the scripted
styles): argument checks, the seed's tie-break salt, and the choice between a parallel and
a serial numba kernel.

A rule agent is a kernel pair `(parallel, serial)` with the signature
`kernel(obs float32[N, D], mask bool[N, A], weights float64[W], salt float, out int64[N])`
that writes one legal action per row, plus the weight vector it reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from agents.finished import act_on_live_rows
from agents.games import check_observation
from noir_env.spaces import NUM_ACTIONS
from noir_env.threads import use_parallel

RowKernel = Callable[[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray], None]


def seed_salt(seed: int | None) -> float:
    """A number in [0, 1) derived from the seed (None is seed 0) that varies the kernels'
    tie-breaks: an agent loaded by name keeps an environment's games a function of their
    seeds."""
    seq = np.random.SeedSequence(0 if seed is None else seed)
    return float(seq.generate_state(1, np.uint32)[0]) / 4294967296.0


class RuleAgent:
    """Batched protocol `act(obs[N, D], mask[N, A]) -> actions[N]` over a numba kernel pair;
    subclasses set `name`, `_kernels` and `_weights` (a float64 vector)."""

    name = "rule"
    game = "noir"  # agents.games: the game whose observations it reads
    _kernels: tuple[RowKernel, RowKernel]
    _weights: np.ndarray
    _salt: float = 0.0

    def _use_style(self, style, styles: dict, style_type: type, noise: float | None,
                   seed: int | None) -> None:  # fmt: skip
        """Set `style` (`resolve_style`), the weights it gives and the seed's salt."""
        self.style = resolve_style(style, styles, style_type, noise, "heuristic")
        self._weights = self.style.weights()
        self._salt = seed_salt(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray | int:
        """One legal action per row (an int for a 1-D obs/mask); -1 for a row without a
        legal action (a finished game: `agents.finished`). Raises ValueError for arrays of
        the wrong shape."""
        obs = np.asarray(obs)
        mask = np.asarray(mask)
        if obs.ndim == 1 and mask.ndim == 1:
            return int(cast(np.ndarray, self.act(obs[None], mask[None]))[0])  # a batch: an array
        check_observation(self.name, self.game, obs)
        if mask.shape != (obs.shape[0], NUM_ACTIONS):
            want = (obs.shape[0], NUM_ACTIONS)
            raise ValueError(f"mask must have shape {want}, got {mask.shape}")
        mask = mask.astype(np.bool_, copy=False)
        return act_on_live_rows(self._act_rows, obs, mask)

    def _act_rows(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """One legal action per row of `mask`, each of which has one."""
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        out = np.empty(obs.shape[0], np.int64)
        parallel, serial = self._kernels
        kernel = parallel if use_parallel(obs.shape[0]) else serial
        kernel(obs, np.ascontiguousarray(mask), self._weights, self._salt, out)
        return out


def resolve_style(style, styles: dict, style_type: type[Any], noise: float | None, who: str):
    """The style object named by `style` (a key of `styles`) or `style` itself if it is a
    `style_type`, with its `noise` field replaced when `noise` is given. ValueError names
    `who` and the known styles."""
    import dataclasses

    if isinstance(style, str):
        if style not in styles:
            raise ValueError(f"unknown {who} style {style!r}; styles: {sorted(styles)}")
        style = styles[style]
    if not isinstance(style, style_type):
        raise ValueError(f"style must be a name or a {style_type.__name__}, got {style!r}")
    if noise is not None:
        if not np.isfinite(noise) or noise < 0:
            raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")
        style = dataclasses.replace(style, noise=float(noise))
    return style
