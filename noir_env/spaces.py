"""Action and observation spaces of NOIR: the stable action table, the observation layout
as named slices, Gymnasium space builders, and the game's declared properties.

The action table and the observation layout are the core's (`noir_env.core.names`, where
the action names are listed); this module re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from .core import constants as C
from .core.names import (  # noqa: F401 - the action table and layout, re-exported here
    ACTION_NAMES,
    DEST_NAMES,
    NUM_ACTIONS,
    OBS_SIZE,
    OBS_SLICES,
    QUEUE_ENTRY_SIZE,
    QUEUE_ENTRY_SLICES,
    SLOT_FEATURES,
    SLOT_NAMES,
    SOURCE_NAMES,
    TARGET_NAMES,
    WIDE_PARTS,
    action_id,
    action_name,
    describe_illegal,
    legal_action_names,
    observation_high,
    phase_name,
)


def observation_space() -> gym.spaces.Box:
    """The flat observation (raw counts: money, cards, gangsters; one-hots for categories):
    0 to 255, except the parts in `WIDE_PARTS` (up to their state field's largest value)."""
    return gym.spaces.Box(low=0.0, high=observation_high(), dtype=np.float32)


def action_space() -> gym.spaces.Discrete:
    return gym.spaces.Discrete(NUM_ACTIONS)


def action_mask_space() -> gym.spaces.Box:
    return gym.spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)


@dataclass(frozen=True)
class GameInfo:
    """OpenSpiel-style declaration of the game's properties."""

    short_name: str = "noir"
    long_name: str = "NOIR (Noirburg rules)"
    min_players: int = C.MIN_PLAYERS
    max_players: int = C.MAX_PLAYERS
    num_actions: int = NUM_ACTIONS
    observation_size: int = OBS_SIZE
    dynamics: str = "sequential, with out-of-turn reaction decisions"
    chance_mode: str = "explicit stochastic (shuffles, dice), seeded per game"
    information: str = "imperfect (hidden hands, hidden deck order)"
    utility: str = "zero-sum (winners share +1, losers share -1)"
    reward_model: str = "terminal"


GAME_INFO = GameInfo()
