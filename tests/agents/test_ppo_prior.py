"""A PPO policy that is a residual on a prior agent (`PolicyNet(prior=...)`, train.ppo
--prior): it starts as that agent, its policy files carry the prior, and training and
playing add the same bonus."""

import numpy as np
import pytest
import torch

import agents
from agents.ppo.agent import PPOAgent
from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import PRIOR_WEIGHT_INIT, PolicyNet, legal_actions, position_in
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from noir_env.vector import make_vector_env
from train.export_policy import export_policy
from train.ppo import Args, train


def positions(games: int = 64, steps: int = 30, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of random 3-6 player games at many stages."""
    env = make_vector_env(games, num_players=[3, 4, 5, 6], opponents="heuristic", seed=seed)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    all_obs, all_masks = [], []
    for _ in range(steps):
        all_obs.append(obs.copy())
        all_masks.append(info["action_mask"].copy())
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, _, _, _, info = env.step(actions)
    env.close()
    return np.concatenate(all_obs), np.concatenate(all_masks)


def test_a_new_policy_with_a_prior_plays_as_the_prior_agent(tmp_path):
    obs, mask = positions()
    prior = agents.load("heuristic", seed=0).act(obs, mask)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (64,), "noir", prior="heuristic")
    assert net.prior_weight.item() == PRIOR_WEIGHT_INIT and net.config["prior"] == "heuristic"
    np.testing.assert_array_equal(
        PPOAgent(net=net, prior=agents.load("heuristic")).act(obs, mask), prior
    )
    # without the prior the same weights play something else
    plain = PolicyNet(OBS_SIZE, NUM_ACTIONS, (64,), "noir")
    plain.load_state_dict({k: v for k, v in net.state_dict().items() if k != "prior_weight"})
    assert (PPOAgent(net=plain).act(obs, mask) != prior).mean() > 0.2
    # the file keeps the prior and its learned weight; a changed weight changes play
    with torch.no_grad():
        net.prior_weight.fill_(-50.0)  # now it avoids the prior's choice wherever it can
    save_policy(net, tmp_path / "p.pt")
    loaded = load_policy(tmp_path / "p.pt")
    assert loaded.config["prior"] == "heuristic" and loaded.prior_weight.item() == -50.0
    avoided = agents.load(str(tmp_path / "p.pt")).act(obs, mask)
    choices = mask.sum(1) > 1
    assert (avoided[choices] != prior[choices]).all()
    assert mask[np.arange(len(mask)), avoided].all()
    sampled = agents.load(str(tmp_path / "p.pt"), greedy=False, seed=1).act(obs, mask)
    assert mask[np.arange(len(mask)), sampled].all()
    with pytest.raises(ValueError, match="consults the agent 'heuristic'"):
        PPOAgent(net=loaded)  # the prior is passed in (agents.load resolves it by name)


def test_add_prior_raises_the_prior_choice_by_the_learned_weight():
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (8,), "noir", prior="heuristic")
    legal, valid = legal_actions(torch.tensor([[1, 1, 0, 1], [0, 1, 1, 0]], dtype=torch.bool))
    logits = torch.zeros(valid.shape).masked_fill(~valid, -1e9)
    pos = position_in(legal, torch.tensor([3, 1]))
    out = net.add_prior(logits, pos)
    expected = logits.clone()
    expected[0, 2] += PRIOR_WEIGHT_INIT
    expected[1, 0] += PRIOR_WEIGHT_INIT
    torch.testing.assert_close(out, expected)
    out.sum().backward()  # the weight learns: d out.sum() / d weight = one per row
    assert float(net.prior_weight.grad) == pytest.approx(2.0)
    plain = PolicyNet(OBS_SIZE, NUM_ACTIONS, (8,), "noir")
    assert plain.add_prior(logits, pos) is logits and "prior" not in plain.config


def test_training_with_a_prior_writes_a_policy_that_starts_near_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = Args(run_name="p", total_steps=2 * 16 * 8, num_envs=16, num_steps=8,
                num_minibatches=2, update_epochs=1, league="random:1", eval_games=0,
                progress=False, hidden="32", prior="heuristic")  # fmt: skip
    policy = train(args)
    net = load_policy(policy)
    assert net.config["prior"] == "heuristic"
    assert abs(net.prior_weight.item() - PRIOR_WEIGHT_INIT) < 0.1  # two small updates
    export = load_policy(export_policy(tmp_path / "runs" / "p", tmp_path / "e.pt"))
    assert export.config["prior"] == "heuristic"
    obs, mask = positions(games=16, steps=10, seed=4)
    prior_agent = agents.load("heuristic")
    np.testing.assert_array_equal(PPOAgent(net=export, prior=prior_agent).act(obs, mask),
                                  PPOAgent(net=net, prior=prior_agent).act(obs, mask))  # fmt: skip
    with pytest.raises(ValueError, match="--prior"):
        train(Args(run_name="q", prior="nobody"))
