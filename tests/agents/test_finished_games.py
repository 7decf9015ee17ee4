"""One rule for finished games (agents.finished): every agent answers a mask row with no
legal action with -1, so the README's core loop, a batch stepped until every game is over,
runs with any agent of either game."""

import numpy as np
import pytest

import agents
from agents import TextAgent
from noir_env.game import get_game

ACT_AGENTS = ["random", "heuristic", "heuristic-v1", "style-bully", "ppo", "ppo-v1"]


def _play_to_the_end(game_name: str, agent, batch: int = 6) -> np.ndarray:
    """The README's core loop over a batch whose games end at different steps; the actions
    given to the finished games."""
    game = get_game(game_name)
    state = game.init(batch, seeds=3)
    given_to_finished: list[int] = []
    while (game.current_player(state) >= 0).any():
        over = game.current_player(state) < 0
        actions = agent.act(game.observe(state), game.legal_action_mask(state))
        given_to_finished += np.asarray(actions)[over].tolist()
        game.step(state, actions)
    return np.array(given_to_finished, np.int64)


@pytest.mark.parametrize("name", ACT_AGENTS)
def test_noir_agents_answer_a_finished_game_with_minus_one(name):
    given = _play_to_the_end("noir", agents.load(name, seed=0))
    assert given.size and (given == -1).all()


def test_district_heuristic_answers_a_finished_game_with_minus_one():
    given = _play_to_the_end("district_noir", agents.load("district-heuristic"))
    assert given.size and (given == -1).all()


def test_state_agents_answer_a_finished_game_with_minus_one():
    game = get_game("noir")
    state = game.init(2, seeds=0)
    state.actor[1] = -1  # game 1 is over
    text = TextAgent(lambda prompt: "end")
    assert text.act_on_state(state, [1]).tolist() == [-1]
    search = agents.load("ismcts", budget=4, seed=0)
    assert search.act_on_state(state, [1]).tolist() == [-1]
