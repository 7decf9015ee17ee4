"""NOIR behind the game protocol (`noir_env.game.Game`): the batched core, its names and its
text as the layers above read them. Registered as "noir".

Sizes, names and reasons are read from the core's modules, never written here, so a change
of the rules or of the observation layout reaches every layer through this one object.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..game import CoreGame, register
from ..lockstep import GameKernels
from . import api, rollout, serialize
from . import constants as C
from . import state as S
from .belief import sample_hidden
from .names import ACTION_NAMES, OBS_SIZE, OBS_SLICES, describe_illegal, observation_high
from .observe import write_observation
from .rules import PRESETS, Rules, get_rules


@njit(cache=True)
def seat_alive(s, i, q):
    """Whether seat q is still in game i (R6.1: eliminated players leave)."""
    return s[i].alive[q] != 0


class NoirGame(CoreGame):
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
    kernels = GameKernels(api.step_one, write_observation, seat_alive)
    api, state_module, serialize, rollout = api, S, serialize, rollout
    elimination = True
    hidden_fields = ("hand", "deck", "rng", "mask")  # R7.1; mask: the actor's, from its hand

    def init(self, num_games, num_players=None, rules=None, seeds=0, ask_all=False):
        players = self.default_players if num_players is None else num_players
        return api.init(num_games, players, self.check_rules(rules), seeds, ask_all)

    def num_players(self, state):
        return state.num_players.astype(np.int8)

    def outcome(self, state):
        out = np.zeros((S.batch_size(state), C.MAX_PLAYERS), np.float32)
        _outcomes(self.kernel_view(state), out)
        return out

    def winners(self, state):
        return state.winners.astype(np.bool_)

    def alive(self, state):
        return state.alive.astype(np.bool_)

    def turns(self, state):
        return state.turn_no.astype(np.int64) + 1

    def check_rules(self, rules):
        return get_rules(self.default_rules if rules is None else rules)

    def rules_name(self, rules: Rules) -> str:
        return rules.name

    def describe_illegal(self, state, game, action):
        return describe_illegal(state, game, action)

    def sample_hidden(self, state, seats, seeds=0):
        return sample_hidden(state, seats, seeds)

    def render(self, state, game=0, seat=None, rules=None):
        from ..render import render_board  # the board as noir_v1 shows it

        return render_board(state, game, seat, rules_name=self.rules_name(self.check_rules(rules)))

    def history(self, state, game, rules, seed, actions) -> dict[str, Any]:
        from ..history import rules_to_json  # the one home of noir_v1's history format

        return {
            "env": "noir_v1",
            "num_players": int(state.num_players[game]),
            "rules": rules_to_json(self.check_rules(rules)),
            "seed": int(seed),
            # false in the engines' fast mode: `actions` holds the real choices only, and
            # noir_v1.replay lets the core take the forced decisions as it did here
            "ask_all": bool(state.ask_all[game]),
            "actions": list(actions),
        }

    def aec_env(self, num_players=None, rules=None, **kwargs):
        from .. import noir_v1

        players = self.default_players if num_players is None else num_players
        return noir_v1.raw_env(num_players=players, rules=self.check_rules(rules), **kwargs)

    def observation_space(self):
        import gymnasium

        return gymnasium.spaces.Box(low=0.0, high=observation_high(), dtype=np.float32)


@njit(cache=True)
def _outcomes(s, out):
    for i in range(s.shape[0]):
        if s[i].actor < 0:
            api.write_outcome(s, i, out[i])


NOIR = register(NoirGame())
