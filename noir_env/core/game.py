"""NOIR behind the game protocol (`noir_env.engine.protocol.Game`): its declarations, its
kernels (`kernels.py`) and what only NOIR knows of its states. Registered as "noir".

Sizes, names and reasons are read from the core's modules, never written here, so a change
of the rules or of the observation layout reaches every layer through this one object.
"""

from __future__ import annotations

import numpy as np

from ..engine.protocol import Game
from ..engine.registry import register
from . import constants as C
from . import serialize
from . import state as S
from .kernels import KERNELS, scores_batch
from .names import ACTION_NAMES, OBS_SIZE, OBS_SLICES, describe_illegal
from .rules import PRESETS, Rules, get_rules, rules_row
from .validate import MESSAGES


class NoirGame(Game):
    """NOIR, 3 to 6 players (docs/RULES.md)."""

    name = "noir"
    title = "NOIR"
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    default_players = 4
    presets = tuple(PRESETS)
    default_rules = "noirburg"
    obs_size = OBS_SIZE
    num_actions = C.NUM_ACTIONS
    action_names = tuple(ACTION_NAMES)
    obs_slices = OBS_SLICES
    win_reasons = tuple(C.WIN_REASONS)
    turn_word = "turns"
    heuristic = "heuristic"
    seed_salt = 0x5EED0000
    elimination = True
    hidden_fields = ("hand", "deck", "rng", "mask")  # R7.1; mask: the actor's, from its hand
    layout = S.LAYOUT
    kernels = KERNELS
    violation_messages = MESSAGES

    def prepare(self, state, rules: Rules, ask_all: bool) -> None:
        state.rules[:] = rules_row(rules)
        state.ask_all[:] = 1 if ask_all else 0

    def num_players(self, state):
        return self.kernel_view(state)["num_players"].astype(np.int8)

    def scores(self, state):
        """int32 [N, 6]: each seat's score by R6.4 right now (trophies, table, money; 0 for
        absent seats). The countdown's winner is the living seat with the best score."""
        kv = self.kernel_view(state)
        out = np.zeros((kv.shape[0], C.MAX_PLAYERS), np.int32)
        scores_batch(kv, out)
        return out

    def winners(self, state):
        return self.kernel_view(state)["winners"].astype(np.bool_)

    def win_reason(self, state):
        return self.kernel_view(state)["win_reason"].astype(np.int64)

    def alive(self, state):
        return self.kernel_view(state)["alive"].astype(np.bool_)

    def turns(self, state):
        return self.kernel_view(state)["turn_no"].astype(np.int64) + 1

    def check_rules(self, rules):
        return get_rules(self.default_rules if rules is None else rules)

    def rules_name(self, rules: Rules) -> str:
        return rules.name

    def describe_illegal(self, state, game, action):
        return describe_illegal(state, game, action)

    def state_to_dict(self, state, i=0):
        return serialize.state_to_dict(state, i)

    def state_from_dict(self, data):
        return serialize.state_from_dict(data)


NOIR = register(NoirGame())
