"""District Noir behind the game protocol (`noir_env.game.Game`): its batched core, names
and text as the layers above read them. Registered as "district_noir".

The core takes every decision with one legal action itself (DN5.1) and has no rule
presets and no eliminations; a game ends within 48 decisions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..game import CoreGame, register
from ..lockstep import GameKernels
from . import api, rollout, serialize
from . import constants as C
from . import spaces as dn_spaces
from . import state as S
from .belief import sample_hidden
from .observe import write_observation


@njit(cache=True)
def seat_alive(s, i, q):
    """Nobody leaves a District Noir game before it ends."""
    return True


class DistrictNoirGame(CoreGame):
    """District Noir, 2 players (docs/DISTRICT_NOIR.md)."""

    name = "district_noir"
    title = "District Noir"
    min_players = C.NUM_PLAYERS
    max_players = C.NUM_PLAYERS
    default_players = C.NUM_PLAYERS
    presets = ()
    default_rules = None
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
    kernels = GameKernels(api.step_one, write_observation, seat_alive)
    api, state_module, serialize, rollout = api, S, serialize, rollout
    elimination = False
    hidden_fields = ("hand", "deck", "removed", "rng", "mask")  # DN5.3; mask: from the hand

    def init(self, num_games, num_players=None, rules=None, seeds=0, ask_all=False):
        self.player_counts(num_players)  # checks the count (always 2)
        self.check_rules(rules)
        return api.init(num_games, seeds)  # forced decisions are always the core's (DN5.1)

    def num_players(self, state):
        return np.full(S.batch_size(state), C.NUM_PLAYERS, np.int8)

    def outcome(self, state):
        winner = state.winner.astype(np.int64)[:, None]
        over = (state.actor < 0)[:, None]
        seats = np.arange(C.NUM_PLAYERS)[None, :]
        won = np.where(seats == winner, 1.0, -1.0)  # DN5.2: +1 / -1, 0 each in a draw
        return np.where(over & (winner >= 0), won, 0.0).astype(np.float32)

    def winners(self, state):
        return state.winner.astype(np.int64)[:, None] == np.arange(C.NUM_PLAYERS)[None, :]

    def alive(self, state):
        return np.ones((S.batch_size(state), C.NUM_PLAYERS), np.bool_)

    def turns(self, state):
        return state.round_no.astype(np.int64) + 1

    def check_rules(self, rules):
        if rules is not None:
            raise ValueError(f"{self.title} has no rule presets, got rules={rules!r}")
        return None

    def rules_name(self, rules: Any) -> None:
        return None

    def describe_illegal(self, state, game, action):
        return dn_spaces.describe_illegal(state, game, action)

    def sample_hidden(self, state, seats, seeds=0):
        return sample_hidden(state, seats, seeds)

    def render(self, state, game=0, seat=None, rules=None):
        from ..district_noir_v0 import render_table  # the table text lives with the AEC env

        return render_table(state, game, seat)

    def history(self, state, game, rules, seed, actions) -> dict[str, Any]:
        return {"env": "district_noir_v0", "seed": int(seed), "actions": list(actions)}

    def aec_env(self, num_players=None, rules=None, **kwargs):
        from .. import district_noir_v0

        self.player_counts(num_players)
        self.check_rules(rules)
        return district_noir_v0.raw_env(**kwargs)

    def observation_space(self):
        return dn_spaces.observation_space()


DISTRICT_NOIR = register(DistrictNoirGame())
