"""The batched NOIR rules core: fixed-shape arrays, numba kernels, one code path for N games."""

from .._numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module is imported

# ruff: noqa: E402

from ..engine.records import batch_size, clone, concat, take
from .api import (
    current_player,
    init,
    legal_action_mask,
    observe,
    random_playout,
    refresh,
    sample_hidden,
    scores,
    settle_forced,
    step,
)
from .rules import NOIRBROUGH, NOIRBURG, ORIGINAL, PRESETS, Rules, get_rules
from .state import State

__all__ = [
    "NOIRBROUGH",
    "NOIRBURG",
    "ORIGINAL",
    "PRESETS",
    "Rules",
    "State",
    "batch_size",
    "clone",
    "concat",
    "current_player",
    "get_rules",
    "init",
    "legal_action_mask",
    "observe",
    "random_playout",
    "refresh",
    "sample_hidden",
    "scores",
    "settle_forced",
    "step",
    "take",
]
