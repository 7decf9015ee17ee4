"""The search's models of the other seats and of its own safety (agents/search/tree.py):
attack rates read from the game's public log, rollouts that play opponents as attacking
styles ("mix", "fitted"), the horizon value weighted by the Hideout's survival (`safety`):
legal, deterministic choices and clear errors for bad options."""

from typing import Any

import numpy as np
import pytest

from agents.heuristic.table import hideout_hazard
from agents.heuristic.v2.agent import STYLES
from agents.heuristic.v2.economy import W2_AIM, W2_REACH, W2_SPREAD
from agents.heuristic.view import SEAT_INFO, summarize
from agents.search.ismcts import ISMCTSAgent
from agents.search.tree import attack_rates, evaluate
from noir_env import core
from noir_env.core import constants as C
from noir_env.core import random_playout
from noir_env.core.observe import OBS_SIZE, write_observation
from noir_env.core.state import kernel_view


def test_attack_rates_count_declared_attacks_per_turn_from_the_log():
    s = core.init(1, 4, "noirburg", seeds=5)
    random_playout(s, seed=5, max_steps=400, parallel=False)
    kv = kernel_view(s)
    rates = np.zeros(C.MAX_PLAYERS)
    attack_rates(kv, rates)
    log = kv["log"][0][: min(int(kv["log_n"][0]), C.LOG_LEN)]
    declared_any = False
    for q in range(4):
        declared = ((log[:, 0] == C.EV_DECLARE) & (log[:, 1] == q)).sum()
        turns = ((log[:, 0] == C.EV_TURN) & (log[:, 1] == q)).sum()
        declared_any |= declared > 0
        assert rates[q] == pytest.approx(declared / max(turns, 1))
    assert declared_any
    assert rates[4:].sum() == 0.0


@pytest.mark.parametrize("opponents", ["mix", "fitted"])
def test_search_with_opponent_models_is_legal_and_deterministic(opponents):
    s = core.init(6, np.arange(6) % 4 + 3, "noirburg", seeds=21)
    random_playout(s, seed=6, max_steps=150, parallel=False)
    games = np.flatnonzero(core.current_player(s) >= 0)
    opts = {"budget": 10, "horizon": 3, "opponents": opponents, "attackers": 0.8}
    a = ISMCTSAgent(seed=1, **opts).act_on_state(s, games)
    assert core.legal_action_mask(s)[games, a].all()
    np.testing.assert_array_equal(ISMCTSAgent(seed=1, **opts).act_on_state(s, games), a)


def test_bad_opponent_options_are_named():
    with pytest.raises(ValueError, match="opponents must be one of"):
        ISMCTSAgent(opponents="styles")
    with pytest.raises(ValueError, match="attackers must be a number >= 0"):
        ISMCTSAgent(opponents="mix", attackers=-1.0)


def test_the_horizon_value_weighs_the_hideouts_survival_by_safety():
    """safety=0 is the score softmax; safety=k multiplies it by the heuristic's chance that
    the seat's Hideout survives the next round, to the power k: lower where an opponent can
    breach it, unchanged where none can."""
    s = core.init(24, 4, "noirburg", seeds=33)
    for k in range(24):
        part = core.take(s, k)
        random_playout(part, seed=k, max_steps=60 + 10 * k, parallel=False)
        s[k] = part[0]
    weights = STYLES["balanced"].weights()
    obs = np.zeros(OBS_SIZE, np.float32)
    info = np.zeros((C.MAX_PLAYERS, SEAT_INFO))
    threatened = safe = 0
    for g in np.flatnonzero(core.current_player(s) >= 0):
        kv = kernel_view(core.take(s, int(g)))
        for seat in np.flatnonzero(kv["alive"][0][:4]):
            plain = evaluate(kv, seat, 4.0, 0.0, weights, obs, info)
            write_observation(kv, 0, seat, obs)
            summarize(obs, info)
            hazard = hideout_hazard(info, 0, 0.0, 0.0, 0.0, weights[W2_REACH], weights[W2_SPREAD],
                                    weights[W2_AIM])  # fmt: skip
            for safety in (1.0, 2.0):
                v = evaluate(kv, seat, 4.0, safety, weights, obs, info)
                assert v == pytest.approx(plain * np.exp(-safety * hazard))
            threatened += hazard > 0
            safe += hazard == 0
    assert threatened > 0 and safe > 0


def test_safety_lowers_the_values_of_threatened_positions_on_the_same_rollouts():
    """The safety factor changes no rollout (the same worlds, the same play), only the value
    at the horizon: every root action's mean value is at most the plain one, and lower for
    some; the choices stay legal and deterministic."""
    s = core.init(12, 4, "noirburg", seeds=8)
    for k in range(12):
        part = core.take(s, k)
        random_playout(part, seed=k, max_steps=80 + 12 * k, parallel=False)
        s[k] = part[0]
    mask = core.legal_action_mask(s)
    games = np.flatnonzero((core.current_player(s) >= 0) & (mask.sum(axis=1) > 1))
    assert games.size >= 4
    opts: dict[str, Any] = {"budget": 24, "horizon": 4}
    lower = 0
    for g in games.tolist():
        plain = ISMCTSAgent(seed=2, safety=0.0, **opts).analyse(s, g)
        careful = ISMCTSAgent(seed=2, safety=4.0, **opts).analyse(s, g)
        np.testing.assert_array_equal(careful.actions, plain.actions)
        np.testing.assert_array_equal(careful.worlds, plain.worlds)
        assert (careful.value <= plain.value + 1e-12).all()
        lower += int((careful.value < plain.value - 1e-9).any())
        assert mask[g, careful.choice]
        assert ISMCTSAgent(seed=2, safety=4.0, **opts).analyse(s, g).choice == careful.choice
    assert lower > 0
    with pytest.raises(ValueError, match="safety must be a number >= 0"):
        ISMCTSAgent(safety=-0.5)
