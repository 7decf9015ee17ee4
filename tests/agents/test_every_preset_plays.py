"""The shipped PPO policy, the IS-MCTS search (a small budget) and the heuristic play a
4-player game of every preset to its end at one table (the arena rejects any illegal
action)."""

import pytest

import agents
from noir_env.core.rules import PRESETS
from train.match import play


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ppo_ismcts_and_heuristic_finish_a_game_of_every_preset(preset, one_thread):
    table = [
        agents.load("ppo"),
        agents.load("ismcts", budget=8, horizon=4, seed=1),
        agents.load("heuristic", seed=2),
    ]
    result = play(table, [0, 1, 2, 2], 2, rules=preset, seed=5)
    assert result.finished.all(), preset
