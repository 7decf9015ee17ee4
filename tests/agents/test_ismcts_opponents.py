"""The search's models of the other seats (agents/search/tree.py): attack rates read from the
game's public log, and rollouts that play opponents as attacking styles ("mix", "fitted"):
legal, deterministic choices and clear errors for bad options."""

import numpy as np
import pytest

from agents.search.ismcts import ISMCTSAgent
from agents.search.tree import attack_rates
from noir_env import core
from noir_env.core import constants as C
from noir_env.core import random_playout
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
