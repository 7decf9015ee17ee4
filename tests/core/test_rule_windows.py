"""The reaction-window rule fields (R5.2): `attack_window` and `end_turn_window` turn the
windows (a) and (b) off; with them on, a player holding a playable reaction is asked."""

import numpy as np
import pytest

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.serialize import state_from_dict
from noir_env.spaces import action_id


def position(phase, rules, hand=None):
    hand6 = hand or {"gangster_1": 2, "moonshine_still": 2, "bootlegger": 2}
    return state_from_dict(
        {
            "num_players": 3,
            "phase": phase,
            "active": 0,
            "rules": rules,
            "players": [
                {
                    "money": 3,
                    "hand": hand6,
                    "businesses": [{"slot": 0, "income": 2, "gangsters": [2]}],
                },
                {
                    "money": 3,
                    "hand": {"police": 1, "driveby": 1},
                    "businesses": [{"slot": 0, "income": 1}],
                },
                {"money": 3},
            ],
        }
    )


def act(s, name):
    core.step(s, np.array([action_id(name)]))


@pytest.mark.parametrize("window", [1, 0])
def test_attack_window_asks_the_defender_only_when_on(window):
    s = position("attack", {"attack_window": window})
    act(s, "target:+1:slot0")  # the lone attacker and the confirm are forced (R2.5)
    if window:
        assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 1
        assert s.atk_player[0] == 1  # still pending
        act(s, "pass")
    # resolved; with no gangster left to attack with, the Attack step ends by itself (R2.5)
    assert s.atk_player[0] == -1 and s.phase[0] == C.PH_DEPLOY and s.actor[0] == 0
    assert s.biz[0, 1, 0] == 0, "the Moonshine Still (income 1) fell to 2 damage"
    assert s.hidden[0, 0].tolist() == [0, 1, 0, 0]


@pytest.mark.parametrize("window", [1, 0])
def test_end_of_turn_window_asks_the_others_only_when_on(window):
    # five cards in hand: drawing one is a real choice, so the loaded Draw step waits
    hand5 = {"gangster_1": 1, "moonshine_still": 2, "bootlegger": 2}
    s = position("draw", {"end_turn_window": window}, hand5)
    act(s, "end")
    if window:
        assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 1 and s.active[0] == 0
        act(s, "pass")
    assert s.active[0] == 1, "the next player's turn has begun"
