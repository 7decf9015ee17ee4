"""Agents on District Noir: the batched heuristic beats the random agent, both always pick
legal actions, and the heuristic takes one observation row as well as a batch."""

from __future__ import annotations

import numpy as np
import pytest

from agents import DistrictHeuristicAgent, RandomAgent
from noir_env import district
from noir_env.district import constants as C


def match(agent_a, agent_b, games: int, seed: int) -> tuple[np.ndarray, district.State]:
    """Batched games, agent_a in seat 0 of even games and seat 1 of odd ones; returns
    agent_a's final reward per game and the final states."""
    s = district.init(games, seeds=seed)
    a_seat = np.arange(games) % 2
    reward_a = np.zeros(games, np.float32)
    while (s.phase == C.PH_PLAY).any():
        live = s.phase == C.PH_PLAY
        obs, mask = district.observe(s), district.legal_action_mask(s)
        acts = np.zeros(games, np.int64)
        for agent, turn in (
            (agent_a, live & (s.actor == a_seat)),
            (agent_b, live & (s.actor != a_seat)),
        ):
            if turn.any():
                acts[turn] = agent.act(obs[turn], mask[turn])
        rewards, _, _ = district.step(s, acts)  # strict: an illegal pick raises
        reward_a += rewards[np.arange(games), a_seat]
    return reward_a, s


def test_heuristic_beats_random_at_least_80_percent():
    reward, s = match(DistrictHeuristicAgent(), RandomAgent(seed=0), 400, seed=31_337)
    win_rate = (reward > 0).mean()
    assert win_rate >= 0.80, win_rate
    assert (district.scores(s)[np.arange(400), np.arange(400) % 2].mean()) > 15


def test_random_agent_plays_district_noir_legally_and_evenly():
    reward, _ = match(RandomAgent(seed=1), RandomAgent(seed=2), 400, seed=4)
    assert 0.35 < (reward > 0).mean() < 0.65


def test_heuristic_takes_one_row_and_checks_shapes():
    s = district.init(3, seeds=8)
    obs, mask = district.observe(s), district.legal_action_mask(s)
    agent = DistrictHeuristicAgent()
    batch = agent.act(obs, mask)
    assert [agent.act(obs[i], mask[i]) for i in range(3)] == batch.tolist()
    assert all(mask[i, a] for i, a in enumerate(batch))
    with pytest.raises(ValueError, match="obs must have shape"):
        agent.act(obs[:, :10], mask)
    assert (agent.act(obs, np.zeros_like(mask)) == -1).all()  # finished: agents.finished


def test_heuristic_dumps_a_betrayal_into_a_line_the_opponent_must_take():
    """The opponent has an empty hand and has not taken: whatever is played now is theirs."""
    s = district.state_from_dict(
        {
            "round": 3,
            "deck": [],
            "start_player": 1,
            "players": [
                {"actions": 4, "taken": True, "hand": {"gang_8": 1, "betrayal_3": 1}},
                {"actions": 5, "taken": False, "hand": {}},
            ],
            "line": ["gang_5", "gang_6"],
        }
    )
    a = DistrictHeuristicAgent().act(district.observe(s, 0)[0], district.legal_action_mask(s)[0])
    assert district.ACTION_NAMES[a] == "play:betrayal_3"


def test_heuristic_takes_the_third_building():
    s = district.state_from_dict(
        {
            "round": 3,
            "deck": [],
            "players": [
                {"hand": {"gang_5": 5}, "collection": {"port": 1, "police_hq": 1}},
                {"hand": {"gang_6": 5}},
            ],
            "line": ["city_hall", "betrayal_3", "betrayal_3"],
        }
    )
    a = DistrictHeuristicAgent().act(district.observe(s, 0)[0], district.legal_action_mask(s)[0])
    assert district.ACTION_NAMES[a] == "take"
