"""The first heuristic (agents/heuristic/v1/agent.py, `heuristic-v1`): always legal in every phase,
preset and player count; strong against random play on fixed seeds; deterministic; clear
errors. The heuristic that replaced it and the scripted styles: tests/agents/test_baselines.py."""

from __future__ import annotations

import numpy as np
import pytest

from agents import HeuristicV1Agent, RandomAgent, load, names
from agents.heuristic.v1.agent import STYLES, Style
from noir_env import core
from noir_env.core import constants as C
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from tests.agent_checks import PRESETS, expected_phases, phases_seen
from train.match import play, seat_agents


@pytest.mark.parametrize("preset", PRESETS)
def test_always_legal_in_every_phase(preset, one_thread):
    seen = phases_seen(preset, [HeuristicV1Agent(style, seed=3) for style in STYLES], 12, 100)
    assert seen >= expected_phases(preset), sorted(expected_phases(preset) - seen)


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_when_heuristics_play(preset, one_thread):
    """Heuristics of every style at one table, every count: the core rejects any illegal
    action (strict step), and every game ends."""
    agents = [HeuristicV1Agent(style, seed=k) for k, style in enumerate(STYLES)]
    for n in (3, 5, 6):
        result = play(agents, [k % 3 for k in range(n)], 24, rules=preset, seed=7)
        assert result.finished.all()


def test_strength_against_random(one_thread):
    """One heuristic among three random players wins >= 90% of 4-player games;
    one random player among three heuristics wins <= 3% (fixed seeds)."""
    h, r = load("heuristic-v1", seed=0), load("random", seed=1)
    alone = play([h, r], [0, 1, 1, 1], 240, seed=10_000)
    assert alone.finished.all()
    assert alone.win_share[:, 0].mean() >= 0.90
    outnumbered = play([h, r], [1, 0, 0, 0], 240, seed=20_000)
    assert outnumbered.finished.all()
    assert outnumbered.win_share[:, 1].mean() <= 0.03


def test_deterministic_and_independent_of_the_batch(one_thread):
    state = core.init(200, 5, "noirbrough", seeds=5)
    driver = RandomAgent(0)
    for _ in range(40):
        core.step(state, driver.act(None, core.legal_action_mask(state)))
    obs, mask = core.observe(state), core.legal_action_mask(state).copy()
    first = HeuristicV1Agent("aggressive", seed=9).act(obs, mask)
    again = HeuristicV1Agent("aggressive", seed=9).act(obs, mask)
    np.testing.assert_array_equal(first, again)
    order = np.random.default_rng(1).permutation(200)
    shuffled = HeuristicV1Agent("aggressive", seed=9).act(obs[order], mask[order])
    np.testing.assert_array_equal(shuffled, first[order])  # a row's answer ignores the rest
    singles = [HeuristicV1Agent("aggressive", seed=9).act(obs[k], mask[k]) for k in range(10)]
    np.testing.assert_array_equal(singles, first[:10])


def test_match_seats_rotate():
    seats = seat_agents([0, 1, 1, 1], 8)
    assert (seats == 0).sum(axis=0).tolist() == [2, 2, 2, 2]
    assert ((seats == 0).sum(axis=1) == 1).all()


def test_registry_and_styles():
    assert {"heuristic-v1", "heuristic-aggressive", "heuristic-economic"} <= set(names())
    assert isinstance(load("heuristic-v1"), HeuristicV1Agent)
    assert load("heuristic-economic").style == STYLES["economic"]
    assert load("heuristic-v1", style="aggressive").style == STYLES["aggressive"]
    assert load("heuristic-v1", noise=0.0).style.noise == 0.0
    custom = HeuristicV1Agent(Style(attack_min=5.0))
    assert custom.style.attack_min == 5.0
    with pytest.raises(ValueError, match="unknown heuristic style"):
        load("heuristic-v1", style="timid")
    with pytest.raises(ValueError, match="takes style, noise and seed"):
        load("heuristic-v1", depth=3)
    with pytest.raises(ValueError, match="noise"):
        HeuristicV1Agent(noise=-1.0)


def test_bad_arrays_raise():
    agent = HeuristicV1Agent()
    obs = np.zeros((2, OBS_SIZE), np.float32)
    mask = np.zeros((2, NUM_ACTIONS), np.int8)
    mask[:, C.A_END] = 1
    with pytest.raises(ValueError, match="obs must have shape"):
        agent.act(obs[:, :10], mask)
    with pytest.raises(ValueError, match="mask must have shape"):
        agent.act(obs, mask[:1])
    mask[1] = 0
    actions = agent.act(obs, mask)  # a finished game's row: -1 (agents.finished)
    assert actions[1] == -1 and mask[0, actions[0]]


def test_heuristic_opponents_in_the_vector_env(one_thread):
    """`opponents="heuristic"` in the single-seat vector env: games stay a function of the
    seed (two envs agree step by step) and the heuristic opponents act legally."""
    from noir_env.vector import make_vector_env

    runs = []
    for _ in range(2):
        env = make_vector_env(8, num_players=4, opponents="heuristic", seed=3)
        obs, infos = env.reset(seed=3)
        learner = RandomAgent(0)
        seen = [obs.copy()]
        for _ in range(60):
            obs, _, _, _, infos = env.step(learner.act(obs, infos["action_mask"]))
            seen.append(obs.copy())
        env.close()
        runs.append(np.stack(seen))
    np.testing.assert_array_equal(runs[0], runs[1])
