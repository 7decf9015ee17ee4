"""District Noir behind the game protocol (`noir_env.engine.protocol.Game`): its
declarations, its kernels (`kernels.py`) and what only it knows of its states. Registered
as "district_noir".

The core takes every decision with one legal action itself (DN5.1) and has no rule
presets and no eliminations; a game ends within 48 decisions.
"""

from __future__ import annotations

import numpy as np

from ..engine.protocol import Game
from ..engine.registry import register
from . import constants as C
from . import serialize
from . import spaces as dn_spaces
from . import state as S
from .kernels import KERNELS, scores_batch
from .validate import MESSAGES


class DistrictNoirGame(Game):
    """District Noir, 2 players (docs/DISTRICT_NOIR.md)."""

    name = "district_noir"
    title = "District Noir"
    min_players = C.NUM_PLAYERS
    max_players = C.NUM_PLAYERS
    default_players = C.NUM_PLAYERS
    obs_size = dn_spaces.OBS_SIZE
    num_actions = C.NUM_ACTIONS
    action_names = tuple(dn_spaces.ACTION_NAMES)
    obs_slices = dn_spaces.OBS_SLICES
    win_reasons = tuple(C.WIN_REASONS)
    turn_word = "rounds"
    heuristic = "district-heuristic"
    # with + 1 (the player-count draw, moot with one count) the engines' draws are the ones
    # of District Noir's former engine (salts 0xD1570001..4), so its games stay the same
    seed_salt = 0xD1570000 - 1
    hidden_fields = ("hand", "deck", "removed", "rng", "mask")  # DN5.3; mask: from the hand
    layout = S.LAYOUT
    kernels = KERNELS
    violation_messages = MESSAGES

    def num_players(self, state):
        return np.full(len(state), C.NUM_PLAYERS, np.int8)

    def scores(self, state):
        """int32 [N, 2]: each seat's points by DN4.2-DN4.5 on the current collections (the
        final count once the game has ended on points)."""
        kv = self.kernel_view(state)
        out = np.zeros((kv.shape[0], C.NUM_PLAYERS), np.int32)
        scores_batch(kv, out)
        return out

    def winners(self, state):
        winner = self.kernel_view(state)["winner"].astype(np.int64)
        return winner[:, None] == np.arange(C.NUM_PLAYERS)[None, :]

    def win_reason(self, state):
        return self.kernel_view(state)["win_reason"].astype(np.int64)

    def turns(self, state):
        return self.kernel_view(state)["round_no"].astype(np.int64) + 1

    def describe_illegal(self, state, game, action):
        return dn_spaces.describe_illegal(state, game, action)

    def state_to_dict(self, state, i=0):
        return serialize.state_to_dict(state, i)

    def state_from_dict(self, data):
        return serialize.state_from_dict(data)


DISTRICT_NOIR = register(DistrictNoirGame())
