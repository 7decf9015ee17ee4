"""Action and observation spaces of District Noir: the stable action table, the observation
layout as named slices, Gymnasium space builders and the declared game properties.

Actions are one flat Discrete(14) space; names are stable across versions:

    play:<card>     put a card of that type from the hand at the end of the line (DN3.2)
    take            take the last five cards of the line, or all if fewer (DN3.3)

Cards: gang_5, gang_6, gang_7, gang_8, alliance_2, alliance_3, alliance_4, betrayal_1,
betrayal_2, betrayal_3, port, police_hq, city_hall (ids 0..12; `play:<card>` has the card's
id and `take` is 13).
"""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from ..engine.layout import ActionTable, named_slices
from ..spaces import GameInfo
from . import constants as C
from .observe import GLOBAL_OFFSETS, GLOBAL_SIZE, OBS_SIZE, SEAT_OFFSETS, SEAT_SIZE
from .state import State

NUM_ACTIONS = C.NUM_ACTIONS
ACTION_NAMES: list[str] = [f"play:{c}" for c in C.CARD_NAMES] + ["take"]
_TABLE = ActionTable(ACTION_NAMES)
action_name = _TABLE.action_name
action_id = _TABLE.action_id
legal_action_names = _TABLE.legal_action_names
MAX_GAME_LENGTH = C.NUM_ROUNDS * C.NUM_PLAYERS * C.ACTIONS_PER_ROUND  # 48 actions at most


def describe_illegal(state: State, game: int, action: int) -> str:
    """The message of the ValueError for an illegal action in game `game`."""
    name = _TABLE.name_or_id(action)
    legal = legal_action_names(state.mask[game])
    where = f" in game {game}" if state.shape[0] > 1 else ""
    return (
        f"illegal action {name!r} (id {action}){where}: phase "
        f"{C.PHASE_NAMES[int(state.phase[game])]}, player {int(state.actor[game])} to act; "
        f"legal: {legal}"
    )


OBS_SIZE = OBS_SIZE
OBS_SLICES = named_slices(GLOBAL_OFFSETS, GLOBAL_SIZE, SEAT_OFFSETS, SEAT_SIZE, C.NUM_PLAYERS)
"""Named parts of an observation: global fields, then `seat0.<field>` (the observer) and
`seat1.<field>` (the opponent). `line` reshapes to (LINE_CAP, 13), newest card first."""

OBS_LOW = -32.0  # points can be negative (betrayal cards): at least -17
OBS_HIGH = 127.0


def observation_space() -> gym.spaces.Box:
    """The flat observation (counts, points and one-hots)."""
    return gym.spaces.Box(low=OBS_LOW, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32)


def action_space() -> gym.spaces.Discrete:
    return gym.spaces.Discrete(NUM_ACTIONS)


def action_mask_space() -> gym.spaces.Box:
    return gym.spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)


@dataclass(frozen=True)
class DistrictGameInfo(GameInfo):
    """NOIR's OpenSpiel-style declaration, plus the longest possible game."""

    max_game_length: int = MAX_GAME_LENGTH


GAME_INFO = DistrictGameInfo(
    short_name="district_noir",
    long_name="District Noir",
    min_players=C.NUM_PLAYERS,
    max_players=C.NUM_PLAYERS,
    num_actions=NUM_ACTIONS,
    observation_size=OBS_SIZE,
    dynamics="sequential, strictly alternating",
    chance_mode="explicit stochastic (one shuffle and one coin toss at set-up), seeded per game",
    information="imperfect (hidden hands, hidden deck order, three boxed cards)",
    utility="zero-sum (+1 winner, -1 loser, 0 each in a draw)",
    reward_model="terminal",
)
