"""The District Noir single-seat environments (noir_env.vector, game="district_noir"): decision for
decision the same games as district_noir_v0, same-step autoreset with final infos and
episode statistics, reproducible seeding whatever N, opponents by name, callable and mix,
the registered single env, SB3's MaskablePPO, agents by name refusing the other game."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import agents
from noir_env import district, district_noir_v0
from noir_env.vector import make_sb3_vec_env, make_vector_env

N = 16


def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A deterministic batched policy: the lowest legal action id."""
    return np.argmax(np.asarray(mask, bool), axis=1)


def pick(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in np.asarray(mask, bool)])


def play(env, steps: int, seed: int, action_seed: int = 0) -> list:
    """Run `steps` random learner steps; return everything the env said, step by step."""
    rng = np.random.default_rng(action_seed)
    obs, infos = env.reset(seed=seed)
    out = [(obs.copy(), infos["action_mask"].copy(), infos["learner_seat"].copy())]
    for _ in range(steps):
        obs, rew, term, trunc, infos = env.step(pick(rng, infos["action_mask"]))
        out.append((obs.copy(), rew.copy(), term.copy(), trunc.copy(), infos["action_mask"].copy()))
    return out


def aec_replay(seed: int, learner: int, learner_actions: list[int], opponent) -> list:
    """Replay one game in district_noir_v0: the learner's actions in order, the opponent's
    from `opponent` on the AEC observation. Returns (obs, mask) at each learner decision,
    the learner's observation of the end and its final reward."""
    env = district_noir_v0.env()
    env.reset(seed=seed)
    seen, actions, reward = [], iter(learner_actions), None
    for agent in env.agent_iter():
        ob, rew, term, trunc, _ = env.last()
        if term or trunc:
            reward = rew if agent == f"player_{learner}" else reward
            env.step(None)
            continue
        if agent == f"player_{learner}":
            seen.append((ob["observation"], ob["action_mask"]))
            env.step(int(next(actions)))
        else:
            env.step(int(opponent.act(ob["observation"][None], ob["action_mask"][None])[0]))
    last = env.unwrapped.observe(f"player_{learner}")["observation"]
    return seen, last, reward


def test_vector_env_matches_district_noir_v0_decision_for_decision():
    """Every learner decision of the vector env (observation and mask) and every outcome is
    district_noir_v0's on the same seed, learner actions and opponent policy."""
    opponent = agents.load("district-heuristic")
    env = make_vector_env(N, game="district_noir", opponents=opponent, seed=100)
    obs, infos = env.reset()
    seats = infos["learner_seat"].copy()
    assert set(seats.tolist()) == {0, 1}  # random seats, both drawn
    rng = np.random.default_rng(5)
    trace = [[(obs[i], infos["action_mask"][i])] for i in range(N)]
    actions: list[list[int]] = [[] for _ in range(N)]
    final: dict[int, float] = {}
    final_obs: dict[int, np.ndarray] = {}
    while len(final) < N:
        acts = pick(rng, infos["action_mask"])
        obs, rew, term, _, infos = env.step(acts)
        for i in range(N):
            if i in final:
                continue
            actions[i].append(int(acts[i]))
            if term[i]:
                final[i] = float(rew[i])
                final_obs[i] = infos["final_obs"][i]
            else:
                trace[i].append((obs[i], infos["action_mask"][i]))
    for i in range(N):
        seen, last, reward = aec_replay(100 + i, int(seats[i]), actions[i], opponent)
        assert len(seen) == len(trace[i]) == len(actions[i])
        for (o_vec, m_vec), (o_aec, m_aec) in zip(trace[i], seen, strict=True):
            np.testing.assert_array_equal(o_vec, o_aec)
            np.testing.assert_array_equal(m_vec, m_aec)
        assert final[i] == reward
        np.testing.assert_array_equal(final_obs[i], last)


def test_same_step_autoreset_final_infos_and_episode_statistics():
    env = make_vector_env(N, game="district_noir", opponents="random", seed=7, learner_seat=1)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = env.reset()
    assert (infos["learner_seat"] == 1).all()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(80):
        obs, rew, term, trunc, infos = env.step(pick(rng, infos["action_mask"]))
        assert not trunc.any()
        assert infos["action_mask"].any(axis=1).all()  # the new games' masks at once
        if not term.any():
            assert (rew == 0).all() and "final_info" not in infos
            continue
        ended += int(term.sum())
        fi, ep = infos["final_info"], infos["episode"]
        assert (fi["_result"] == term).all() and (infos["_episode"] == term).all()
        for i in np.flatnonzero(term):
            won, seat = bool(fi["learner_won"][i]), int(fi["learner_seat"][i])
            assert fi["result"][i] == "game_over" and seat == 1
            assert won == (fi["winner"][i] == seat) == fi["winners"][i, seat]
            assert rew[i] == ep["r"][i] == (1.0 if won else (0.0 if fi["winner"][i] < 0 else -1.0))
            assert fi["win_reason"][i] in ("buildings", "points", "tiebreak", "draw")
            assert fi["opponent"][i] == "random"
            assert 1 <= ep["l"][i] <= fi["game_length"][i] <= 48
            if fi["win_reason"][i] == "points":
                assert fi["scores"][i, fi["winner"][i]] > fi["scores"][i, 1 - fi["winner"][i]]
            assert infos["final_obs"][i].shape == obs[i].shape
            assert not np.array_equal(infos["final_obs"][i], obs[i])  # the new game's
    assert ended >= N  # every slot went through at least one game


def test_seeding_is_reproducible_and_independent_of_the_number_of_envs():
    env = make_vector_env(N, game="district_noir", opponents={"random": 0.5, first_legal: 0.5})
    first, again = play(env, 60, seed=11), play(env, 60, seed=11)
    for a, b in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    # slot i's games do not depend on N: the first 4 slots of a 4-env batch are the same
    # games; with actions drawn per slot, compare the first observation and seats
    small = make_vector_env(4, game="district_noir", opponents={"random": 0.5, first_legal: 0.5})
    obs_s, inf_s = small.reset(seed=11)
    np.testing.assert_array_equal(obs_s, first[0][0][:4])
    np.testing.assert_array_equal(inf_s["learner_seat"], first[0][2][:4])
    other = play(env, 5, seed=12)
    assert not np.array_equal(other[0][0], first[0][0])


def test_one_env_and_the_registered_single_env_and_copy_false():
    env = make_vector_env(
        1, game="district_noir", opponents="district-heuristic", seed=3, copy=False
    )
    out = play(env, 100, seed=3)
    assert sum(int(step[2][0]) for step in out[1:]) >= 2  # at least two whole games
    single = gymnasium.make("noir_env/DistrictNoir-v0", opponents="district-heuristic")
    obs, info = single.reset(seed=3)
    np.testing.assert_array_equal(obs, out[0][0][0])
    assert info["learner_seat"] == out[0][2][0] and info["game_seed"] == 3
    mask = single.unwrapped.action_masks()
    assert mask.dtype == np.bool_ and mask.shape == (district.NUM_ACTIONS,)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = single.step(a)
    assert info["result"] == "game_over" and reward == (
        0.0 if info["winner"] < 0 else (1.0 if info["learner_won"] else -1.0)
    )
    vec = gymnasium.make_vec("noir_env/DistrictNoir-v0", num_envs=3, opponents="random")
    assert vec.reset(seed=0)[0].shape == (3, district.OBS_SIZE)


def test_opponent_mix_is_drawn_per_game_and_bad_input_is_refused():
    mix = {"random": 0.25, "district-heuristic": 0.5, first_legal: 0.25}
    env = make_vector_env(64, game="district_noir", opponents=mix, seed=0)
    _, infos = env.reset()
    names = np.array(env.games.opponent_names, object)[env.games.opponent]
    counts = {n: int((names == n).sum()) for n in set(names)}
    assert set(counts) == {"random", "district-heuristic", "first_legal"}, counts
    assert counts["district-heuristic"] > counts["random"] > 5
    rng = np.random.default_rng(1)
    for _ in range(30):  # all three kinds of opponent play in one batch
        _, _, _, _, infos = env.step(pick(rng, infos["action_mask"]))
    assert not env.games._core_out[2].any()  # the core never saw an illegal action
    acts = pick(rng, infos["action_mask"])
    acts[3] = 99
    with pytest.raises(ValueError, match=r"illegal action '<id 99>' \(id 99\) in game 3"):
        env.step(acts)
    with pytest.raises(ValueError, match="actions must have shape"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="learner_seat"):
        make_vector_env(2, game="district_noir", learner_seat=2)
    with pytest.raises(ValueError, match="unknown agent"):
        make_vector_env(2, game="district_noir", opponents="nobody")
    illegal = make_vector_env(
        2, game="district_noir", opponents=lambda o, m: np.full(len(m), 99), seed=0
    )
    with pytest.raises(ValueError, match="chose an illegal action"):
        _, inf = illegal.reset(seed=1)  # seat 1 for one of them: the opponent acts first
        for _ in range(3):
            illegal.step(pick(rng, inf["action_mask"]))


def test_agents_load_district_heuristic_and_refuse_the_other_game():
    dn = agents.load("district-heuristic")
    assert dn.game == "district_noir" and "district-heuristic" in agents.names()
    s = district.init(2, seeds=0)
    obs, mask = district.observe(s), district.legal_action_mask(s)
    assert mask[np.arange(2), dn.act(obs, mask)].all()
    assert mask[np.arange(2), agents.load("random", seed=0).act(obs, mask)].all()
    noir_obs = np.zeros((2, agents.games.OBS_SIZES["noir"]), np.float32)
    with pytest.raises(ValueError, match="that is a NOIR observation.*District Noir only"):
        dn.act(noir_obs, mask)
    with pytest.raises(ValueError, match="that is a District Noir observation.*NOIR only"):
        agents.load("heuristic").act(obs, np.ones((2, 9), bool))
    with pytest.raises(ValueError, match="no options"):
        agents.load("district-heuristic", style="x")


@pytest.mark.slow
def test_maskable_ppo_learns_a_few_hundred_steps_on_the_sb3_vec_env():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = make_sb3_vec_env(8, game="district_noir", opponents="district-heuristic", seed=0)
    env.reset()
    assert env.action_masks().shape == (8, district.NUM_ACTIONS)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    masks = env.env_method("action_masks")
    assert len(masks) == 8 and masks[0].shape == (district.NUM_ACTIONS,)
    obs, rew, done, infos = env.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert obs.shape == (8, district.OBS_SIZE) and len(infos) == 8
