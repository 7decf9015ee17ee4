"""The invalid-move policy warns, loudly and once per player, when the fallback takes more
than `warn_rate` of a player's decisions after `warn_after` of them."""

from __future__ import annotations

import logging
import warnings

import pytest

from agents import TextAgent
from noir_env.game import get_game
from noir_env.text import FallbackWarning, InvalidMovePolicy


def play(agent: TextAgent, decisions: int) -> None:
    """`decisions` decisions of District Noir games, every seat played by `agent`."""
    game = get_game("district_noir")
    taken, seed = 0, 0
    while taken < decisions:
        state = game.init(1, 2, seeds=[seed], ask_all=True)
        seed += 1
        while game.current_player(state)[0] >= 0 and taken < decisions:
            game.step(state, agent.act_on_state(state, [0]))
            taken += 1


def replier(bad_every: int):
    """Replies with move 1, but names no move in one reply of every `bad_every`."""
    asked = [0]

    def fn(prompt: str) -> str:
        asked[0] += 1
        return "hmm, no idea" if asked[0] % bad_every == 0 else "I pick [1]"

    return fn


def test_a_player_mostly_falling_back_is_warned_once_and_logged(caplog):
    agent = TextAgent(lambda prompt: "no idea", retries=0, name="my-llm")
    caplog.set_level(logging.WARNING, logger="noir_env.text")
    with pytest.warns(FallbackWarning) as warned:
        play(agent, 19)
        assert not warned  # fewer than warn_after decisions
        play(agent, 60)
    assert len(warned) == 1
    message = str(warned[0].message)
    assert message.startswith("TextAgent 'my-llm': the fallback ('first') took 20 of its 20")
    assert "(100%, more than 10%)" in message
    assert caplog.text.count("TextAgent 'my-llm'") == 1


@pytest.mark.parametrize(
    ("bad_every", "settings", "warns"),
    [
        (10, {}, False),  # 10%: not more than the threshold
        (5, {}, True),  # 20%
        (5, {"warn_rate": 0.25}, False),
        (5, {"warn_rate": None}, False),  # off
        (2, {"warn_after": 1000}, False),  # not enough decisions yet
    ],
)
def test_the_threshold_is_configurable(bad_every, settings, warns):
    agent = TextAgent(replier(bad_every), retries=0, **settings)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        play(agent, 100)
    assert any(issubclass(w.category, FallbackWarning) for w in seen) == warns
    assert agent.counts.fallbacks == 100 // bad_every


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ({"warn_rate": 1.5}, "warn_rate must be a number in"),
        ({"warn_rate": "0.1"}, "warn_rate must be a number in"),
        ({"warn_rate": True}, "warn_rate must be a number in"),
        ({"warn_after": -1}, "warn_after must be an int >= 0"),
        ({"warn_after": 2.0}, "warn_after must be an int >= 0"),
    ],
)
def test_bad_settings_are_refused(settings, why):
    with pytest.raises(ValueError, match=why):
        InvalidMovePolicy(**settings)
