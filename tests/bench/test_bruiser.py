"""The bruiser attack bot (bench/bots/bruiser.py): legal answers everywhere, deterministic, and
it plays the way its docstring says (business raids, reaction cards)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.attack_table import Counted, play_table
from bench.bots.attack import load_bot
from bench.bots.bruiser import Bruiser
from tests.agent_checks import PRESETS, ask_along_random_games


@pytest.mark.parametrize("preset", PRESETS)
def test_bruiser_answers_legally(preset):
    for players in (3, 6):
        ask_along_random_games(preset, players, True, 8, 3, [Bruiser(seed=0)])


def test_bruiser_loads_by_name():
    assert isinstance(load_bot("bruiser", 1), Bruiser)


def test_bruiser_raids_and_reacts():
    counted = Counted(Bruiser(seed=2))
    result, _ = play_table(counted, [load_bot("heuristic", 1)], 4, 16, 11, None)
    games = result.summary[0]["games"]
    assert counted.biz / games > 1.0  # it raids businesses every game or so
    assert counted.reactions / games > 1.0


def test_bruiser_is_deterministic():
    from noir_env import core

    state = core.init(4, 4, "noirburg", seeds=5)
    obs, mask = core.observe(state), core.legal_action_mask(state)
    a, b = Bruiser(seed=1).act(obs, mask), Bruiser(seed=1).act(obs, mask)
    assert np.array_equal(a, b)
