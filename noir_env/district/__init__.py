"""District Noir, a 2-player card game, as a batched rules core in the design of
`noir_env.core` (docs/DISTRICT_NOIR.md holds the rules, DN1-DN5).

    from noir_env import district
    state = district.init(256, seeds=0)
    mask = district.legal_action_mask(state)
    rewards, done, illegal = district.step(state, actions)
"""

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
    step,
)
from .serialize import state_from_dict, state_to_dict
from .spaces import ACTION_NAMES, GAME_INFO, NUM_ACTIONS, OBS_SIZE, action_id, action_name
from .state import State

__all__ = [
    "ACTION_NAMES",
    "GAME_INFO",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "State",
    "action_id",
    "action_name",
    "batch_size",
    "clone",
    "concat",
    "current_player",
    "init",
    "legal_action_mask",
    "observe",
    "random_playout",
    "refresh",
    "sample_hidden",
    "scores",
    "state_from_dict",
    "state_to_dict",
    "step",
    "take",
]
