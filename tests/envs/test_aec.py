"""The PettingZoo AEC environment noir_v2: PettingZoo's own API, seed and render tests, the
agreement with the core, truncation, eliminations, illegal actions, the game log, replays
and a scripted game through every kind of interrupt.
Copies (deepcopy, pickle) of every AEC env continue the game, closed envs refuse to be used,
calls before reset or after the game name the problem, and a history that lacks a key or
holds a bad value is a ValueError naming it."""

from __future__ import annotations

import copy
import functools
import json
import pickle
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

import noir_env.core as core
from noir_env import district_noir_v0, noir_v2
from noir_env.aec import GameAECEnv
from noir_env.core import constants as C
from noir_env.core.log import game_log
from noir_env.core.validate import game_problems
from noir_env.history import rules_from_json
from noir_env.spaces import ACTION_NAMES, OBS_SIZE, action_id
from tests.race.game import RACE  # registers the test game "race" (tests/race)

PRESETS = ["noirburg", "noirbrough", "original"]


SIZES = [3, 4, 5, 6]


def random_action(obs, rng) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


def play(env, rng, max_iter=100_000):
    """Random legal play to the end; returns the rewards each agent saw in last()."""
    total: dict[str, float] = {}
    for agent in env.agent_iter(max_iter):
        obs, reward, term, trunc, _ = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        env.step(None if term or trunc else random_action(obs, rng))
    return total


# --- PettingZoo's own tests ------------------------------------------------------------------
# api_test warns that a Dict observation is not a Box / not an array: that is the
# {observation, action_mask} layout of PettingZoo's own classic environments.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("n", SIZES)
def test_pettingzoo_api(n, rules):
    api_test(noir_v2.env(num_players=n, rules=rules), num_cycles=200)


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("n", SIZES)
def test_pettingzoo_seed(n, rules):
    seed_test(functools.partial(noir_v2.env, num_players=n, rules=rules), num_cycles=100)


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("n", SIZES)
def test_pettingzoo_render(n, rules, capsys):
    render_test(
        functools.partial(noir_v2.env, num_players=n, rules=rules),
        custom_tests={"ansi": lambda text: "Bank" in text and "player_0" in text},
    )
    assert "Hideout" in capsys.readouterr().out  # "human" printed the board


def test_spaces_same_for_every_size():
    spaces = [noir_v2.raw_env(num_players=n).observation_space(f"player_{n - 1}") for n in SIZES]
    assert all(s == spaces[0] for s in spaces)
    assert spaces[0]["observation"].shape == (OBS_SIZE,)
    assert spaces[0]["action_mask"].shape == (C.NUM_ACTIONS,)
    env = noir_v2.env()
    assert env.metadata["name"] == "noir_v2"
    assert env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"human", "ansi", "rgb_array"}
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


# --- the environment is the core -------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "rules", "seed"),
    [(3, "noirburg", 1), (4, "noirbrough", 2), (5, "original", 3), (6, "noirburg", 4)],
)
def test_agrees_with_core_step_for_step(n, rules, seed):
    env = noir_v2.env(num_players=n, rules=rules)
    env.reset(seed=seed)
    ref = core.init(1, n, rules, seeds=seed, ask_all=True)
    assert env.unwrapped.state.tobytes() == ref.tobytes()  # the same deal as core.init
    rng = np.random.default_rng(seed)
    agents = env.possible_agents
    core_rewards = None
    final: dict[str, float] = {}
    eliminated = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            if "winners" not in info:  # out before the end of the game
                eliminated.append(agent)
            env.step(None)
            continue
        seat = agents.index(agent)
        assert seat == int(core.current_player(ref)[0])
        assert info["phase"] == C.Phase(int(ref.phase[0])).name
        np.testing.assert_array_equal(obs["action_mask"], core.legal_action_mask(ref)[0])
        np.testing.assert_array_equal(obs["observation"], core.observe(ref, seat)[0])
        other = agents[(seat + 1) % n]
        other_obs = env.observe(other)
        assert not other_obs["action_mask"].any()
        np.testing.assert_array_equal(
            other_obs["observation"], core.observe(ref, (seat + 1) % n)[0]
        )
        a = random_action(obs, rng)
        env.step(a)
        rewards, done, _ = core.step(ref, np.array([a]))
        assert env.unwrapped.state.tobytes() == ref.tobytes()
        if done[0]:
            core_rewards = rewards[0]
    assert core_rewards is not None
    assert abs(float(core_rewards.sum())) < 1e-6
    # the core's rewards; an agent eliminated earlier got -1/(n-1), the difference shared
    seat = {a: q for q, a in enumerate(agents)}
    d = sum(float(core_rewards[seat[a]]) + 1 / (n - 1) for a in eliminated)
    d /= n - len(eliminated)
    expected = {
        a: -1 / (n - 1) if a in eliminated else float(core_rewards[seat[a]]) + d for a in agents
    }
    assert final == pytest.approx(expected)


def test_rewards_zero_sum_and_core_outcome():
    for seed in range(6):
        env = noir_v2.env(num_players=4)
        env.reset(seed=seed)
        total = play(env, np.random.default_rng(seed))
        assert len(total) == 4
        assert abs(sum(total.values())) < 1e-6
        g = env.unwrapped.state[0]
        winners = [f"player_{q}" for q in range(4) if g.winners[q]]
        for agent, r in total.items():
            assert (r > 0) == (agent in winners)


def test_score_rewards():
    env = noir_v2.env(num_players=3, reward="score")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            if "scores" in info:
                assert reward == info["scores"][agent]
            env.step(None)
        else:
            env.step(random_action(obs, rng))
    assert env.unwrapped.state.phase[0] == C.PH_GAME_OVER


def test_max_steps_truncates_every_remaining_agent():
    env = noir_v2.env(num_players=5, max_steps=40)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(random_action(obs, rng))
        steps += 1
    assert steps == 40
    assert env.agents and all(env.truncations[a] for a in env.agents)
    assert not any(env.terminations[a] for a in env.agents)
    total = play(env, rng)
    assert set(total) <= set(env.possible_agents)
    assert not env.agents
    assert agent is not None


def test_elimination_terminates_at_once():
    n = 3
    for seed in range(200):
        env = noir_v2.env(num_players=n)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            env.step(random_action(obs, rng))
        alive = env.unwrapped.state.alive[0]
        if env.unwrapped.state.phase[0] != C.PH_GAME_OVER and alive[:n].sum() == n - 1:
            break
    else:
        pytest.skip("no elimination before the end in these games")
    out = env.agent_selection
    assert out == f"player_{int(np.flatnonzero(alive[:n] == 0)[0])}"
    _, reward, term, trunc, info = env.last()
    assert term and not trunc
    assert reward == pytest.approx(-1 / (n - 1))
    assert info["eliminated_by"] in env.possible_agents
    assert not env.last()[0]["action_mask"].any()
    env.step(None)
    assert out not in env.agents
    assert env.agent_selection == f"player_{int(core.current_player(env.unwrapped.state)[0])}"
    total = play(env, rng)
    assert abs(sum(total.values()) + reward) < 1e-6


# --- illegal actions ---------------------------------------------------------------------------
def test_illegal_action_raises_and_changes_nothing():
    env = noir_v2.env(num_players=4)
    env.reset(seed=11)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.state.tobytes()
    agent = env.agent_selection
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    msg = str(err.value)
    assert ACTION_NAMES[illegal] in msg
    assert C.Phase(int(env.unwrapped.state.phase[0])).name in msg
    for a in np.flatnonzero(obs["action_mask"]):
        assert ACTION_NAMES[a] in msg
    assert env.unwrapped.state.tobytes() == before
    assert env.agent_selection == agent
    assert env.unwrapped.history["actions"] == []


def test_terminate_illegal_wrapper_on_raw_env():
    raw = noir_v2.raw_env(num_players=4)
    env = wrappers.OrderEnforcingWrapper(wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1))
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(10):  # a few legal moves pass through
        obs, *_ = env.last()
        env.step(random_action(obs, rng))
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    seen = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term or trunc
        seen[agent] = reward
        env.step(None)
    assert seen[offender] == -1
    assert all(r == 0 for a, r in seen.items() if a != offender)
    assert not env.agents


# --- game log, rendering, history --------------------------------------------------------------
def test_game_log_and_render_hide_private_cards():
    env = noir_v2.env(num_players=4, render_mode="ansi")
    env.reset(seed=8)
    play(env, np.random.default_rng(8))
    log = env.unwrapped.game_log
    assert log[-1].startswith("Game over")
    draws = [line for line in log if " draws " in line and "replace" not in line]
    assert draws
    for line in draws:
        assert re.fullmatch(r"player_\d draws \d cards? (for free|for \d+ coins?)", line), line
    env.reset(seed=9)
    text = env.unwrapped.board_text("player_2")
    assert text.count("your hand") == 1
    assert "your hand" in text.split("player_2:")[1].split("player_3:")[0]
    seat = int(env.agent_selection[-1])
    text = env.render()
    assert text.count("your hand") == 1
    assert "your hand" in text.split(f"player_{seat}:")[1].split("\n\n")[0]


def test_print_log(capsys):
    env = noir_v2.env(num_players=3)
    env.reset(seed=4)
    play(env, np.random.default_rng(4))
    env.unwrapped.print_log()
    out = capsys.readouterr().out.splitlines()
    assert out == env.unwrapped.game_log
    # the ring buffer alone: its last LOG_LEN events (businesses gone by now are named
    # by their slot)
    tail = game_log(env.unwrapped.state, 0)
    assert len(tail) == min(C.LOG_LEN, int(env.unwrapped.state.log_n[0]))
    assert tail[-1] == env.unwrapped.game_log[-1]


def test_history_json_replay(tmp_path):
    env = noir_v2.env(num_players=5, rules="noirbrough")
    env.reset(seed=21)
    play(env, np.random.default_rng(21))
    path = tmp_path / "game.json"
    env.unwrapped.save_history(path)
    history = noir_v2.load_history(path)
    assert history["seed"] == 21 and history["rules"] == "noirbrough"
    frames = list(noir_v2.replay(history))
    assert len(frames) == len(history["actions"]) + 1
    assert [line for f in frames for line in f.log] == env.unwrapped.game_log
    assert frames[-1].board.startswith("NOIR (noirbrough rules), 5 players: game over")
    again = list(noir_v2.replay(21, history["actions"], num_players=5, rules="noirbrough"))
    assert [f.board for f in again] == [f.board for f in frames]


def test_history_with_custom_rules():
    rules = core.NOIRBURG.replace(
        end_turn_window=False,
        money_win_threshold=(20, 25, 30, 35),
        step_windows=("move_gangsters", "attack"),
    )
    env = noir_v2.env(num_players=3, rules=rules)
    env.reset(seed=5)
    play(env, np.random.default_rng(5))
    history = json.loads(json.dumps(env.unwrapped.history))
    assert history["rules"]["money_win_threshold"] == [20, 25, 30, 35]
    assert rules_from_json(history["rules"]) == rules
    hash(rules_from_json(history["rules"]))
    frames = list(noir_v2.replay(history))
    assert [line for f in frames for line in f.log] == env.unwrapped.game_log


def _first_legal_game(env, seed: int) -> tuple[int, dict]:
    """Play one game from reset(seed) with every agent's first legal action: (steps, the
    rewards each agent collected)."""
    env.reset(seed=seed)
    steps, total = 0, {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    return steps, total


@pytest.mark.parametrize("make", [lambda: noir_v2.env(num_players=4), district_noir_v0.env])
def test_a_game_after_a_finished_one_plays_as_in_a_fresh_env(make):
    env = make()
    _first_legal_game(env, seed=1)  # a whole game first: nothing of its end may carry over
    again = _first_legal_game(env, seed=2)
    assert again == _first_legal_game(make(), seed=2) and again[0] > 20


def test_reset_seeds():
    env = noir_v2.raw_env()
    env.reset(seed=7)
    first = env.state.tobytes()
    env.reset()
    second_seed = env.game_seed
    env.reset(seed=7)
    assert env.state.tobytes() == first
    env.reset()
    assert env.game_seed == second_seed  # unseeded resets follow the last seed
    fresh = noir_v2.raw_env()
    fresh.reset()
    other = noir_v2.raw_env()
    other.reset()
    assert fresh.game_seed != other.game_seed


# --- a scripted game through every interrupt ---------------------------------------------------
def _clear_table(st):
    for field in (
        "hand",
        "biz",
        "biz_g",
        "ho_g",
        "hidden",
        "trophies",
        "kills",
        "attacked",
        "atk_g",
        "known",
        "discard",
        "removed",
        "lock",
    ):
        st[field][0] = 0
    st.ho_top[0] = -1


def _deal_rest_to_deck(st):
    """Every card not on the table or in a hand goes to the draw pile (conservation)."""
    g = st[0]
    used = g.hand.sum(axis=0).astype(np.int64)
    for inc in range(1, 5):
        used[C.B1 + inc - 1] += int((g.biz == inc).sum())
    used[: C.G4 + 1] += g.biz_g.sum(axis=(0, 1)) + g.ho_g.sum(axis=0) + g.hidden.sum(axis=0)
    rest = C.DECK_COUNTS.astype(np.int64) - used
    assert (rest >= 0).all()
    deck = np.repeat(np.arange(C.NUM_CARD_TYPES), rest)
    st.deck[0, : len(deck)] = deck
    st.deck_n[0] = len(deck)


def _scripted_position(env):
    """player_0 in the Attack step (turn 9); businesses, gangsters and reaction cards
    arranged so that each interrupt below has a player to play it."""
    st = env.unwrapped.state
    _clear_table(st)
    st.biz[0, 0, :3] = [4, 3, 2]  # player_0: Casino, Speakeasy, Bootlegger
    st.biz_g[0, 0, 0] = [0, 0, 0, 1]
    st.biz_g[0, 0, 1] = [1, 1, 0, 0]
    st.biz_g[0, 0, 2] = [0, 1, 0, 0]
    st.ho_g[0, 0] = [1, 1, 0, 0]
    st.biz[0, 1, :2] = [2, 4]  # player_1: Bootlegger, Casino (one 1-gangster)
    st.biz_g[0, 1, 1] = [1, 0, 0, 0]
    st.biz[0, 2, 0] = 1
    st.biz[0, 3, 0] = 1
    st.hand[0, 1, [C.POLICE, C.TURNCOAT]] = 1
    st.hand[0, 2, [C.BRIBE, C.DRIVEBY, C.POKER]] = 1
    st.hand[0, 3, [C.BRIBE, C.DRIVEBY]] = 1
    st.money[0, :4] = [10, 6, 6, 6]
    st.bank[0] = 60 - 28
    _deal_rest_to_deck(st)
    st.phase[0] = C.PH_ATTACK
    st.actor[0] = st.active[0] = 0
    st.turn_no[0] = 8
    st.step_idx[0] = list(C.STEP_ORDER_NOIRBURG).index(C.ST_ATTACK)
    st.atk_player[0] = -1
    st.win_kind[0] = C.WIN_NONE
    st.rq_n[0] = 0
    st.cd_on[0] = 0
    assert game_problems(st, 0) == []
    core.refresh(st)


def test_scripted_interrupts():
    # the printed rules with the web rules' Turncoat on pending attackers (R5.7, D15)
    env = noir_v2.env(num_players=4, rules=core.NOIRBURG.replace(turncoat_attackers=True))
    env.reset(seed=0)
    _scripted_position(env)
    assert env.agent_selection == "player_0"
    log_start = len(env.unwrapped.game_log)

    def act(agent, name):
        assert env.agent_selection == agent, (env.agent_selection, agent, name)
        obs, _, term, trunc, info = env.last()
        assert not (term or trunc)
        assert obs["action_mask"][action_id(name)], (agent, name, env.unwrapped.infos[agent])
        env.step(action_id(name))
        return info

    def new_log():
        nonlocal log_start
        out = env.unwrapped.game_log[log_start:]
        log_start = len(env.unwrapped.game_log)
        return out

    # 1. Police blocks an attack on a Hideout; a Bribe cancels it; a second Bribe cancels that
    act("player_0", "target:+1:hideout")
    act("player_0", "from:g1@hideout")
    act("player_0", "from:g2@hideout")
    act("player_0", "confirm_attack")
    info = act("player_1", "play:police_cancel")  # reacting in player_0's turn
    assert info["window"] == "attack" and info["turn_of"] == "player_0"
    assert info["attack"]["target"] == "player_1" and info["attack"]["place"] == "hideout"
    assert info["attack"]["attackers"] == [1, 1, 0, 0]
    info = act("player_2", "play:bribe")  # the only Police: `bribe:1` is taken unasked
    police = {"card": 1, "kind": "police_cancel", "player": "player_1", "standing": True}
    assert info["queue"] == [police | {"target": "player_1", "place": "hideout"}]
    info = act("player_3", "play:bribe")
    assert info["queue"][0]["standing"] is False
    assert env.unwrapped.infos["player_0"] == {"phase": "reaction_window"}
    for agent in ("player_1", "player_2", "player_3"):  # holding cards: asked again (R2.5)
        act(agent, "pass")
    lines = new_log()
    assert "player_1 calls the Police to stop the attack on player_1's Hideout" in lines
    assert "player_2 plays a Bribe: player_1's Police (card 1 of the window) is called off" in (
        lines
    )
    assert (
        "player_3 plays a Bribe on the Bribe: player_1's Police (card 1 of the window) stands "
        "again" in lines
    )
    assert any(line.startswith("player_1's Police cancels player_0's attack") for line in lines)
    st = env.unwrapped.state
    assert list(st.hidden[0, 0]) == [1, 1, 0, 0]  # the cancelled attackers hid
    assert env.agent_selection == "player_0"

    # 2. a Poker Night out of turn (queued: it acts at the close, in play order), then two
    # players' Drive-bys played one after the other, rolling together
    act("player_0", "target:+1:slot0")
    act("player_0", "from:g2@slot2")
    act("player_0", "confirm_attack")
    act("player_1", "pass")
    act("player_2", "play:poker_night")
    assert new_log()[-1] == "player_2 hosts a Poker Night"
    act("player_3", "play:driveby")
    info = act("player_3", "target:+2:slot1")  # player_1's Casino
    assert info["phase"] == "reaction_target" and info["reaction"] == "driveby"
    act("player_1", "pass")
    info = act("player_2", "play:driveby")
    poker = {"card": 1, "kind": "poker_night", "player": "player_2"}
    driveby = {"card": 2, "kind": "driveby", "player": "player_3", "dice": 1}
    assert info["queue"] == [poker, driveby | {"target": "player_1", "place": "slot1"}]
    act("player_2", "target:+3:slot1")
    assert st.rq_n[0] == 2 and st.rq_dice[0, 1] == 2  # rolled together, at the first one
    act("player_1", "pass")  # players 0, 2 and 3 hold no card now: not asked (R2.5)
    lines = new_log()
    at_close = [line for line in lines if line.startswith(("Poker Night", "Drive-by on"))]
    assert at_close[0].startswith("Poker Night at player_2's")  # the first card, first
    drivebys = [line for line in lines if line.startswith("Drive-by")]
    assert len(drivebys) == 1 and drivebys[0].startswith("Drive-by on player_1's Casino")
    damage = int(re.search(r"(\d+) damage", drivebys[0]).group(1))
    assert 2 <= damage <= 12
    assert any(line.startswith("player_0 attacks player_1's Bootlegger") for line in lines)
    assert env.agent_selection == "player_0"

    # 3. a Turncoat takes an attacking gangster
    act("player_0", "target:+2:slot0")
    act("player_0", "from:g1@slot1")
    act("player_0", "from:g2@slot1")
    act("player_0", "confirm_attack")
    act("player_1", "play:turncoat")
    info = act("player_1", "target:+3:attack")
    assert info["reaction"] == "turncoat"
    info = act("player_1", "power:2")  # queued; nobody holds a card: the window closes
    assert info["phase"] == "turncoat_power"
    assert info["turncoat_target"] == {"player": "player_0", "place": "attack"}
    lines = new_log()
    assert "player_1 plays a Turncoat and takes a 2-gangster from player_0's attack into hand" in (
        lines
    )
    assert any(
        line.startswith("player_0 attacks player_2's Moonshine Still with 1 ") for line in lines
    ), lines
    assert st.hand[0, 1, C.G2] == 1
    assert env.agent_selection == "player_0"
    assert game_problems(st, 0) == []


def test_shared_win_after_elimination_stays_zero_sum():
    """player_0 breaks into player_3's Hideout (player_3 is out: -1/3), then the countdown
    ends in a tie between player_0 and player_1: the core gives the winners +1/2 and the
    losers -1/2; player_3's missing -1/6 is shared by the three players still in."""
    env = noir_v2.env(num_players=4)
    env.reset(seed=0)
    st = env.unwrapped.state
    _clear_table(st)
    st.ho_g[0, 0] = [1, 1, 0, 0]
    st.money[0, :4] = [2, 2, 2, 0]
    st.bank[0] = 60 - 6
    _deal_rest_to_deck(st)
    st.phase[0] = C.PH_ATTACK
    st.actor[0] = st.active[0] = 0
    st.turn_no[0] = 8
    st.step_idx[0] = list(C.STEP_ORDER_NOIRBURG).index(C.ST_ATTACK)
    st.atk_player[0] = -1
    st.win_kind[0] = C.WIN_NONE
    st.cd_on[0] = 0
    assert game_problems(st, 0) == []
    core.refresh(st)
    for name in ("target:+3:hideout", "from:g1@hideout", "from:g2@hideout"):
        assert env.agent_selection == "player_0"
        env.step(action_id(name))  # the last gangster added, confirming is forced (R2.5)
    assert any(
        line.startswith("player_0 breaks into player_3's Hideout with 2+1")
        for line in (env.unwrapped.game_log)
    )
    assert env.agent_selection == "player_3"
    _, reward, term, _, info = env.last()
    assert term and reward == pytest.approx(-1 / 3) and info["eliminated_by"] == "player_0"
    env.step(None)
    assert env.agent_selection == "player_0" and st.cd_on[0] == 1
    # a tie on score (10 per trophy + money), business value and money; the last token
    st.trophies[0, :3] = [1, 1, 0]
    st.money[0, :4] = [5, 5, 3, 0]
    st.bank[0] = 60 - 13
    st.cd_holder[0] = 0
    st.cd_tokens[0] = 1
    st.cd_turn[0] = st.turn_no[0] - 1
    core.refresh(st)
    while env.unwrapped.state.phase[0] != C.PH_GAME_OVER:
        obs, *_ = env.last()
        env.step(action_id("end") if obs["action_mask"][action_id("end")] else action_id("pass"))
    assert list(st.winners[0, :4]) == [1, 1, 0, 0]
    rewards = {}
    for agent in env.agent_iter():
        _, reward, term, _, info = env.last()
        assert term and info["winners"] == ["player_0", "player_1"]
        rewards[agent] = reward
        env.step(None)
    share = (-1 / 2 + 1 / 3) / 3
    assert rewards == pytest.approx(
        {"player_0": 1 / 2 + share, "player_1": 1 / 2 + share, "player_2": -1 / 2 + share}
    )
    assert sum(rewards.values()) - 1 / 3 == pytest.approx(0)


def test_a_search_agent_plays_a_seat_through_act_in_aec():
    """ismcts beside a batched heuristic and random player in one AEC loop: only legal
    actions, None for dead steps, the env's game untouched by the agents, the game ends."""
    import agents

    searcher = agents.load("ismcts", budget=8, horizon=2, seed=0)
    seats = {"player_0": searcher, "player_1": agents.load("heuristic", seed=1),
             "player_2": agents.load("random", seed=2)}  # fmt: skip
    env = noir_v2.env(num_players=3)
    env.reset(seed=3)
    with pytest.raises(ValueError, match="act_on_state"):
        noir_v2.act_in_aec(env, object())
    for name in env.agent_iter(100_000):
        obs, _, term, trunc, _ = env.last()
        before = env.unwrapped.state.tobytes()
        action = noir_v2.act_in_aec(env, seats[name])
        assert env.unwrapped.state.tobytes() == before
        if term or trunc:
            assert action is None
        else:
            assert obs["action_mask"][action] == 1
        env.step(action)
    assert not env.agents and searcher.stats.searched > 0


ENVS = {
    "noir_v2": lambda: noir_v2.raw_env(num_players=3, max_steps=400),
    "noir_v2 wrapped": lambda: noir_v2.env(num_players=5, max_steps=400),
    "district_noir_v0": district_noir_v0.raw_env,
    "district_noir_v0 wrapped": district_noir_v0.env,
    "race (GameAECEnv)": lambda: GameAECEnv(RACE, num_players=3),
}


COPIES = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
}


def snapshot(env) -> tuple:
    """Everything an agent and an observer can read of the env now."""
    agent = env.agent_selection
    obs = env.observe(agent)
    return (
        agent,
        list(env.agents),
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        dict(env.rewards),
        dict(env.unwrapped._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        repr(env.infos),
        list(env.unwrapped.game_log),
    )


def advance(env, rng: np.random.Generator, steps: int) -> list[tuple]:
    """Up to `steps` random steps (dead steps included); the snapshot after each."""
    seen = []
    for _ in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        if env.agents:
            seen.append(snapshot(env))
    return seen


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("name", ENVS)
def test_a_copy_mid_game_continues_as_the_original(name, how):
    env = ENVS[name]()
    env.reset(seed=11)
    advance(env, np.random.default_rng(0), 9)
    before = snapshot(env)
    twin = COPIES[how](env)
    assert type(twin) is type(env)
    assert snapshot(twin) == before
    # the same actions from here: the same game to its end (or 1000 steps)
    assert advance(twin, np.random.default_rng(1), 1000) == advance(
        env, np.random.default_rng(1), 1000
    )
    assert not env.agents or len(env.unwrapped.game_log) > len(before[-1])
    if hasattr(env.unwrapped, "history"):
        assert twin.unwrapped.history == env.unwrapped.history
    # the copy also took the seeds of the games to come
    env.reset()
    twin.reset()
    assert snapshot(twin) == snapshot(env)


@pytest.mark.parametrize("name", ENVS)
def test_a_copy_before_reset_and_of_a_finished_game(name):
    env = ENVS[name]()
    fresh = copy.deepcopy(env)  # no game yet: the copy deals as the original does
    fresh.reset(seed=3)
    env.reset(seed=3)
    assert snapshot(fresh) == snapshot(env)
    advance(env, np.random.default_rng(2), 5000)
    assert not env.agents
    done = pickle.loads(pickle.dumps(env))
    assert done.agents == [] and done.unwrapped.game_log == env.unwrapped.game_log


@pytest.mark.parametrize("name", ENVS)
def test_a_closed_env_refuses_reset_step_and_observe(name):
    env = ENVS[name]()
    env.reset(seed=1)
    agent = env.agent_selection
    action = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    env.close()
    env.close()  # closing twice is fine
    state = copy.deepcopy(env.unwrapped.state)
    for call in (lambda: env.step(action), lambda: env.reset(seed=2),
                 lambda: env.observe(agent)):  # fmt: skip
        with pytest.raises(ValueError, match="closed env"):
            call()
    np.testing.assert_array_equal(env.unwrapped.state, state)  # nothing changed


# --- the AEC env: copies, pickles, bad calls ---------------------------------------------------
def play_env(e, rng, steps: int) -> list:
    """Random legal play for `steps` agent steps (dead steps included); returns what each
    step saw, to compare two envs."""
    seen = []
    for _ in range(steps):
        if not e.agents:
            break
        obs, reward, term, trunc, info = e.last()
        seen.append((e.agent_selection, obs["observation"].tobytes(), reward, term, trunc))
        if term or trunc:
            e.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(legal.size)]))
    return seen


def clones(e):
    return {
        "deepcopy": copy.deepcopy(e),
        "pickle": pickle.loads(pickle.dumps(e)),
    }


@pytest.mark.parametrize("make", [noir_v2.raw_env, noir_v2.env])
def test_deepcopy_and_pickle_continue_the_same_game(make):
    e = make(num_players=4, max_steps=100_000)
    e.reset(seed=7)
    play_env(e, np.random.default_rng(0), 60)
    copies = clones(e)
    rest = play_env(e, np.random.default_rng(1), 100_000)
    assert not e.agents  # played to the end
    for name, c in copies.items():
        assert play_env(c, np.random.default_rng(1), 100_000) == rest, name
        assert c.unwrapped.game_log == e.unwrapped.game_log, name
        assert c.unwrapped.history == e.unwrapped.history, name
        assert c.unwrapped.state.tobytes() == e.unwrapped.state.tobytes(), name


def test_a_copy_is_independent_of_its_original():
    e = noir_v2.raw_env(num_players=3)
    e.reset(seed=1)
    c = copy.deepcopy(e)
    before = e.state.tobytes()
    play_env(c, np.random.default_rng(0), 30)
    assert e.state.tobytes() == before
    assert len(e.history["actions"]) == 0 < len(c.history["actions"])


def test_a_pickled_env_before_reset_still_needs_reset():
    e = pickle.loads(pickle.dumps(noir_v2.raw_env(num_players=5)))
    with pytest.raises(RuntimeError, match="call reset"):
        e.observe("player_0")
    e.reset(seed=3)
    assert e.agent_selection == "player_0" or e.agent_selection in e.agents


@pytest.mark.parametrize("action", [True, False, np.True_, np.bool_(False)])
def test_a_bool_is_not_an_action(action):
    e = noir_v2.raw_env()
    e.reset(seed=0)
    before = e.state.tobytes()
    with pytest.raises(ValueError, match="an action is an integer id"):
        e.step(action)
    assert e.state.tobytes() == before


def test_raw_env_before_reset_names_the_missing_reset():
    e = noir_v2.raw_env()
    with pytest.raises(AttributeError, match="call it first"):
        _ = e.agent_selection
    assert not hasattr(e, "agent_selection")
    for call in (
        lambda: e.observe("player_0"),
        lambda: e.step(0),
        lambda: e.last(),
        e.board_text,
        lambda: e.game_log,
        e.refresh,
        e.action_mask,
    ):
        with pytest.raises(RuntimeError, match="call reset"):
            call()


def test_last_and_step_after_the_game_name_the_problem():
    e = noir_v2.raw_env(num_players=3)
    e.reset(seed=2)
    play_env(e, np.random.default_rng(0), 100_000)
    assert not e.agents
    with pytest.raises(RuntimeError, match="after the game"):
        e.last()
    with pytest.raises(RuntimeError, match="after the game"):
        e.step(0)


@pytest.mark.parametrize(
    "seed, error", [(2**63, ValueError), (-1, ValueError), (1.5, TypeError), ("3", TypeError)]
)
def test_reset_rejects_bad_seeds(seed, error):
    e = noir_v2.raw_env()
    with pytest.raises(error, match="seed"):
        e.reset(seed=seed)


def test_reset_accepts_the_largest_seed_and_numpy_ints():
    e = noir_v2.raw_env()
    e.reset(seed=2**63 - 1)
    e.reset(seed=np.uint64(5))
    assert e.history["seed"] == 5


def test_a_replayed_truncated_game_shows_the_truncation(tmp_path):
    e = noir_v2.raw_env(num_players=4, max_steps=25)
    e.reset(seed=11)
    play_env(e, np.random.default_rng(0), 1000)
    assert e.history["max_steps"] == 25 and len(e.history["actions"]) == 25
    path = tmp_path / "game.json"
    e.save_history(path)
    frames = list(noir_v2.replay(noir_v2.load_history(path)))
    assert len(frames) == 26
    assert frames[-1].log[-1] == "The game is truncated after 25 decisions (max_steps)."
    assert not any("truncated" in line for f in frames[:-1] for line in f.log)


def played_history(num_players: int = 3) -> dict:
    e = noir_v2.raw_env(num_players=num_players)
    e.reset(seed=9)
    for _ in range(12):
        e.step(int(np.flatnonzero(e.action_mask())[0]))
    return e.history


@pytest.mark.parametrize("key", ["seed", "actions"])
def test_a_history_without_seed_or_actions_names_the_key(key):
    history = {k: v for k, v in played_history().items() if k != key}
    with pytest.raises(ValueError, match=f"the history has no '{key}'"):
        noir_v2.replay(history)
    with pytest.raises(ValueError, match=f"the history has no '{key}'"):
        noir_v2.play_back(history)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"seed": "9"}, "history 'seed'"),
        ({"seed": 9.0}, "history 'seed'"),
        ({"num_players": "3"}, "history 'num_players'"),
        ({"max_steps": 1.5}, "history 'max_steps'"),
        ({"ask_all": "yes"}, "history 'ask_all'"),
        ({"actions": "0 1 2"}, "history 'actions'"),
        ({"rules": {"no_such_rule": 1}}, "history 'rules'"),
        ({"env": "district_noir_v0"}, "history 'env'"),
    ],
)
def test_a_history_with_a_bad_value_names_the_key(change, named):
    with pytest.raises(ValueError, match=named):
        noir_v2.replay({**played_history(), **change})


@pytest.mark.parametrize("bad", ["12", 12.0, True, None])
def test_an_action_id_must_be_an_integer(bad):
    history = played_history()
    actions = list(history["actions"])
    where = 5
    actions[where] = bad
    with pytest.raises(ValueError, match=rf"history 'actions'\[{where}\]"):
        noir_v2.replay({**history, "actions": actions})
    with pytest.raises(ValueError, match=r"history 'actions'\[0\]"):
        noir_v2.replay(9, [bad], num_players=3)
    # numpy integers are ids: the game plays as with Python ints
    as_numpy = {**history, "actions": np.array(history["actions"], np.int16)}
    assert noir_v2.play_back(as_numpy).history == noir_v2.play_back(history).history


def test_a_history_action_that_is_not_legal_names_its_place():
    history = played_history()
    e = noir_v2.play_back({**history, "actions": history["actions"][:7]})
    illegal = int(np.flatnonzero(e.action_mask() == 0)[0])
    actions = [*history["actions"][:7], illegal]
    with pytest.raises(ValueError, match="illegal") as err:
        noir_v2.play_back({**history, "actions": actions})
    assert err.value.__notes__ == ["history 'actions'[7] is not legal where the history plays it"]
    with pytest.raises(ValueError, match=r"history 'actions'\[12\]: the game ended before it"):
        noir_v2.play_back({**history, "max_steps": 12, "actions": [*history["actions"], 0]})
