"""Feature sets a PPO policy reads besides the observation (agents/ppo/features.py) and the
--features growth of a trained network (train/widen.py `add_features`): the scores are R6.4's
as the core computes them, the grown net plays exactly as the file's, files round-trip and bad
configs are refused."""

import numpy as np
import pytest
import torch

import agents
from agents import RandomAgent
from agents.ppo.features import (
    FEATURE_SETS,
    feature_values,
    score_features,
    seat_scores,
    seat_summaries,
    with_features,
)
from agents.ppo.file import load_policy, save_policy
from noir_env import core
from noir_env.core.rules import get_rules
from tests.train.test_ppo_init import small_args
from tests.train.test_widen import _observations, _trained_like_net
from train.ppo import parse_args, train
from train.ppo_args import check_args
from train.widen import add_features, observation_sample


@pytest.mark.parametrize("preset", ["noirburg", "noirbrough", "original"])
def test_scores_are_the_cores_along_random_games(preset):
    """Every seat's score as the features read it from the observation is core.scores
    (R6.4), seat-relative, for every living seat, at every decision of random games."""
    n = np.arange(24) % 4 + 3
    state = core.init(24, n, preset, seeds=5)
    driver, checked = RandomAgent(1), 0
    for _ in range(3000):
        actor = core.current_player(state)
        live = actor >= 0
        if not live.any():
            break
        obs = core.observe(state)
        scores, alive = seat_scores(obs)
        true = core.scores(state)
        for g in np.flatnonzero(live):
            rel = np.roll(true[g, : n[g]], -actor[g]) * alive[g, : n[g]]
            np.testing.assert_array_equal(scores[g, : n[g]], rel)
            assert not scores[g, n[g] :].any() and not alive[g, n[g] :].any()
            checked += 1
        features = score_features(obs)
        assert features.shape == (len(obs), FEATURE_SETS["score-v1"])
        assert (features >= 0).all()  # the policy's sparse first layer needs it
        core.step(state, driver.act(None, core.legal_action_mask(state)))
    assert checked > 1000


def test_the_lead_the_shortfall_and_the_rank_follow_the_scores():
    obs = _observations(64, seed=7)
    scores, alive = seat_scores(obs)
    f = score_features(obs)
    for row in range(len(obs)):
        others = [scores[row, r] for r in range(1, 6) if alive[row, r]]
        lead = scores[row, 0] - max(others)
        assert (f[row, 6], f[row, 7]) == (max(lead, 0), max(-lead, 0))
        assert f[row, 15] == sum(s > scores[row, 0] for s in others)
        players = int(alive[row].sum())  # nobody is eliminated a few moves in
        threshold = get_rules("noirburg").money_threshold(players)
        money = obs[row, [core_money_column(r) for r in range(players)]]
        np.testing.assert_array_equal(f[row, 8 : 8 + players], threshold - money)
        assert f[row, 14] == min(threshold - money[1:])


def test_the_threat_values_follow_the_defenses_and_powers():
    """threat-v1 = score-v1, then each seat's Hideout defense, attack power and power for a
    certain elimination, and how they compare with the observer's Hideout."""
    from agents.heuristic.view import I_ALIVE, I_DEF, I_ITOP, I_MONEY, I_THREAT

    obs = _observations(256, seed=9)
    t = feature_values("threat-v1", obs)
    assert t.shape == (len(obs), FEATURE_SETS["threat-v1"]) and (t >= 0).all()
    np.testing.assert_array_equal(t[:, :16], score_features(obs))
    info = seat_summaries(obs)
    alive = info[..., I_ALIVE] > 0
    np.testing.assert_array_equal(t[:, 16:22], info[..., I_DEF] * alive)
    np.testing.assert_array_equal(t[:, 22:28], info[..., I_THREAT] * alive)
    sure = info[..., I_DEF] + np.maximum(info[..., I_MONEY] - info[..., I_ITOP], 0)
    np.testing.assert_array_equal(t[:, 28:34], sure * alive)
    assert (t[:, 16:22][alive] >= 3).all()  # a Hideout alone defends with 3
    strongest = (info[:, 1:, I_THREAT] * alive[:, 1:]).max(1)
    np.testing.assert_allclose(t[:, 34] - t[:, 35], strongest - info[:, 0, I_DEF])
    np.testing.assert_allclose(t[:, 36] - t[:, 37], strongest - sure[:, 0])
    others = alive[:, 1:]
    breach_me = (info[:, 1:, I_THREAT] >= info[:, :1, I_DEF]) & others
    i_breach = (info[:, :1, I_THREAT] >= info[:, 1:, I_DEF]) & others
    np.testing.assert_array_equal(t[:, 38], breach_me.sum(1))
    np.testing.assert_array_equal(t[:, 39], i_breach.sum(1))
    assert t[:, 38].mean() > 0 and t[:, 39].mean() > 0  # both happen in these games
    grown = with_features("threat-v1", obs)
    np.testing.assert_array_equal(grown[:, obs.shape[1] :], t)


def core_money_column(seat: int) -> int:
    from noir_env.spaces import OBS_SLICES

    return OBS_SLICES[f"seat{seat}.money"].start


def test_with_features_refuses_what_is_not_a_noir_batch():
    with pytest.raises(ValueError, match="unknown feature set 'nope'"):
        with_features("nope", _observations(2, seed=1))
    with pytest.raises(ValueError, match="reads NOIR observations"):
        with_features("score-v1", np.zeros((2, 50), np.float32))
    obs = _observations(2, seed=1)
    assert with_features("", obs) is obs


@pytest.mark.parametrize("features", sorted(FEATURE_SETS))
def test_the_grown_net_computes_what_the_file_computes(features):
    net = _trained_like_net()
    sample = observation_sample([4], None, seed=0, games=8)
    grown = add_features(net, features, sample)
    assert grown.config == {**net.config, "features": features}
    width = FEATURE_SETS[features]
    obs = _observations(48, seed=2)
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs))
        grown_logits, grown_value = grown(torch.from_numpy(grown.inputs(obs)))
    # zero weights add exactly 0; the sums' order over more columns moves the last bits
    torch.testing.assert_close(grown_logits, logits, atol=1e-4, rtol=0)
    torch.testing.assert_close(grown_value, value, atol=1e-4, rtol=0)
    new = grown.obs_mean[-width:]
    assert new[0] > 0 and new[5] == 0  # seat 0's score seen; seat 5 absent at 4 players
    assert grown.obs_var[-width:][5] == 1.0  # a constant input scales as in a fresh net
    with pytest.raises(ValueError, match="already reads"):
        add_features(grown, features, sample)
    # the new inputs are live: a loss reaches their weights at once
    logits, value = grown(torch.from_numpy(grown.inputs(obs)))
    (logits.logsumexp(1).sum() + value.sum()).backward()
    assert grown.body[0].weight.grad[:, -width:].abs().sum() > 0


def test_a_policy_file_with_features_round_trips_and_plays(tmp_path):
    grown = add_features(_trained_like_net(), "score-v1", _observations(32, seed=3))
    save_policy(grown, tmp_path / "f.pt")
    agent = agents.load(str(tmp_path / "f.pt"))
    assert agent.net.config["features"] == "score-v1"
    obs = _observations(16, seed=5)
    s = core.init(16, np.arange(16) % 4 + 3, seeds=5)
    mask = core.legal_action_mask(s)
    picks = agent.act(core.observe(s), mask)
    assert mask[np.arange(16), picks].all()
    with torch.no_grad():
        want = grown.eval()(torch.from_numpy(grown.inputs(obs)))[0]
    np.testing.assert_allclose(agent.policy.logits(agent.net.inputs(obs)), want, atol=2e-2)


@pytest.mark.parametrize(
    ("features", "game", "match"),
    [("nope", "noir", "must be a feature set"), (3, "noir", "must be a feature set"),
     ("score-v1", "district_noir", "reads NOIR observations")],
)  # fmt: skip
def test_the_loader_refuses_a_bad_features_config(tmp_path, features, game, match):
    net = _trained_like_net()
    save_policy(net, tmp_path / "p.pt")
    data = torch.load(tmp_path / "p.pt", weights_only=True)
    data["config"] |= {"features": features, "game": game}
    del data["sha256"]
    torch.save(data, tmp_path / "bad.pt")
    with pytest.raises(ValueError, match=match):
        load_policy(tmp_path / "bad.pt")


def test_the_cli_refuses_an_unknown_feature_set_and_district():
    with pytest.raises(ValueError, match="--features: unknown feature set"):
        check_args(small_args(features="nope"))
    with pytest.raises(ValueError, match="--features"):
        check_args(
            small_args(features="score-v1", game="district_noir", players="2", league="random")
        )


def test_a_run_grows_its_init_and_resumes_with_features(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_policy(_trained_like_net(), "start.pt")
    start = load_policy("start.pt")
    policy = load_policy(train(small_args(run_name="feat", init="start.pt", features="score-v1",
                                          players="4", learning_rate=1e-9)))  # fmt: skip
    assert policy.config["features"] == "score-v1"
    obs = _observations(32, seed=4)
    with torch.no_grad():
        want = start.eval()(torch.from_numpy(obs))[0]
        policy.obs_mean[: start.obs_mean.shape[0]] = start.obs_mean  # the run kept counting
        policy.obs_var[: start.obs_var.shape[0]] = start.obs_var
        got = policy.eval()(torch.from_numpy(policy.inputs(obs)))[0]
    # the features' weights moved by at most a step of 1e-9: the play is the file's
    torch.testing.assert_close(got, want, atol=2e-2, rtol=1e-2)
    resumed = parse_args(["--run-name", "feat", "--resume", "--total-steps", str(2 * 16 * 8)])
    assert load_policy(train(resumed)).config["features"] == "score-v1"
    from train.export_policy import export_policy

    exported = load_policy(export_policy("runs/feat", "exported.pt"))
    assert exported.config == policy.config
