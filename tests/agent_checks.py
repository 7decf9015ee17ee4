"""Checks shared by the agent tests: ask agents along random games and check every answer."""

from __future__ import annotations

import numpy as np

from agents import RandomAgent
from noir_env import core
from noir_env.core import constants as C
from noir_env.core.observe import O_PHASE

PRESETS = ("noirburg", "noirbrough", "original")
DECISION_PHASES = set(range(C.NUM_PHASES)) - {C.PH_GAME_OVER}


def ask_along_random_games(preset, num_players, ask_all, games, seed, agents):
    """Play random games; at every decision ask each agent with the real observation and
    mask and check that its answer is legal. Returns the phases seen."""
    state = core.init(games, num_players, preset, seeds=seed, ask_all=ask_all)
    driver = RandomAgent(seed)
    seen = set()
    for step in range(3000):
        live = core.current_player(state) >= 0
        if not live.any():
            break
        obs = core.observe(state)[live]
        mask = core.legal_action_mask(state)[live]
        seen.update(np.argmax(obs[:, O_PHASE : O_PHASE + C.NUM_PHASES], axis=1).tolist())
        for agent in agents:
            picks = agent.act(obs, mask)
            assert mask[np.arange(len(picks)), picks].all(), (agent.name, preset, num_players)
            if step % 37 == 0:  # the 1-D call gives the batched answer
                assert agent.act(obs[0], mask[0]) == picks[0]
        core.step(state, driver.act(None, core.legal_action_mask(state)))
    return seen


def expected_phases(preset):
    """The decision phases random games of `preset` reach: only raze-first rules ask
    whether to go on into a Hideout; `original` has no mulligan."""
    absent = {C.PH_CONTINUE} if preset != "original" else {C.PH_MULLIGAN}
    return DECISION_PHASES - absent


def phases_seen(preset, agents, games, seed):
    """`ask_along_random_games` at 3 to 6 players in both presentation modes (R2.5): the
    union of the phases seen."""
    seen = set()
    for num_players in (3, 4, 5, 6):
        for ask_all in (False, True):
            seen |= ask_along_random_games(preset, num_players, ask_all, games, seed, agents)
    return seen
