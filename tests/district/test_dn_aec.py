"""The PettingZoo AEC environment district_noir_v0: PettingZoo's own API, seed and render
tests, agreement with the core, rewards and the dead-step protocol, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from noir_env import district, district_noir_v0
from noir_env.district import constants as C


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
def test_pettingzoo_api():
    api_test(district_noir_v0.env(), num_cycles=200)


def test_pettingzoo_seed():
    seed_test(district_noir_v0.env, num_cycles=100)


def test_pettingzoo_render(capsys):
    render_test(
        district_noir_v0.env,
        custom_tests={"ansi": lambda text: "Line" in text and "your hand" in text},
    )
    assert "District Noir" in capsys.readouterr().out


def play(env, rng):
    """Random legal play to the end; returns the rewards each agent saw, the actions and
    the infos each agent saw when it was done."""
    total, actions, final = {}, [], {}
    for agent in env.agent_iter(1000):
        obs, reward, term, trunc, info = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        action = None
        if term or trunc:
            final[agent] = info
        if not (term or trunc):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(action)
        env.step(action)
    return total, actions, final


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_env_agrees_with_the_core_and_rewards_are_zero_sum(seed):
    env = district_noir_v0.env()
    env.reset(seed=seed)
    core_state = district.init(1, seeds=[seed])
    rng = np.random.default_rng(seed)
    total, actions, final = play(env, rng)
    for a in actions:
        district.step(core_state, np.array([a]))
    raw = env.unwrapped
    np.testing.assert_array_equal(raw.state, core_state)
    assert sum(total.values()) == 0 and set(total.values()) <= {-1.0, 0.0, 1.0}
    assert env.agents == [], "both agents removed by the dead-step protocol"
    assert final["player_0"] == final["player_1"]
    info = final["player_0"]
    w = int(core_state.winner[0])
    assert info["winner"] == (None if w < 0 else f"player_{w}")
    assert info["win_reason"] == C.WIN_REASONS[int(core_state.win_reason[0])]
    if w >= 0:
        assert total[f"player_{w}"] == 1.0


def test_observation_is_the_cores_and_the_mask_only_for_the_agent_to_act():
    env = district_noir_v0.env()
    env.reset(seed=5)
    raw = env.unwrapped
    actor = env.agent_selection
    other = next(a for a in env.agents if a != actor)
    obs = env.observe(actor)
    seat = int(actor[-1])
    np.testing.assert_array_equal(obs["observation"], district.observe(raw.state, seat)[0])
    np.testing.assert_array_equal(
        obs["action_mask"], district.legal_action_mask(raw.state)[0].astype(np.int8)
    )
    assert not env.observe(other)["action_mask"].any()
    assert env.observation_space(actor)["observation"].shape == (district.OBS_SIZE,)


def test_an_illegal_action_raises_and_changes_nothing():
    env = district_noir_v0.env()
    env.reset(seed=5)
    raw = env.unwrapped
    before = raw.state.copy()
    bad = int(np.flatnonzero(raw.action_mask() == 0)[0])
    with pytest.raises(ValueError, match=r"player_\d: illegal action 'play:"):
        env.step(bad)
    with pytest.raises(ValueError, match="an action is an integer id"):
        raw.step("take")
    np.testing.assert_array_equal(raw.state, before)


def test_a_hand_edit_is_followed_after_refresh():
    env = district_noir_v0.env()
    env.reset(seed=5)
    raw = env.unwrapped
    raw.state = district.state_from_dict(
        {
            "start_player": 1,
            "players": [{"hand": {"gang_8": 5}}, {"hand": {"gang_7": 4, "port": 1}}],
            "line": ["city_hall", "police_hq"],
        }
    )
    raw.refresh()
    assert env.agent_selection == "player_1"
    assert "play:port" in [district.ACTION_NAMES[a] for a in np.flatnonzero(raw.action_mask())]


def test_render_shows_only_the_hand_of_the_agent_to_act():
    env = district_noir_v0.env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    seat = int(env.agent_selection[-1])
    lines = text.splitlines()
    k = next(j for j, line in enumerate(lines) if line.startswith(f"player_{seat}: hand"))
    assert text.count("your hand") == 1 and lines[k + 2].startswith("  your hand: ")
    assert "Line (oldest -> newest" in text and "Draw pile 30" in text
