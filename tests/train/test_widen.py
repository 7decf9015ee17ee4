"""train.ppo --init with a wider --hidden (train/widen.py): the widened network plays and
values every observation exactly as the file's network, and training reaches its new units."""

import numpy as np
import pytest
import torch

from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import PolicyNet
from noir_env import core
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from tests.train.test_ppo_init import small_args
from train.ppo import train
from train.widen import widen


def _trained_like_net(hidden=(24, 16)) -> PolicyNet:
    """A net with nonzero everything (the init's heads are near zero) and real statistics."""
    torch.manual_seed(3)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, hidden, "noir", prior="heuristic")
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.3)
        net.update_obs_stats(torch.from_numpy(_observations(64, seed=1)))
    return net


def _observations(n: int, seed: int) -> np.ndarray:
    """Observations of random NOIR positions at 3-6 players (a few random moves in)."""
    s = core.init(n, np.arange(n) % 4 + 3, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        mask = core.legal_action_mask(s)
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        core.step(s, acts)
    return core.observe(s)


def test_the_wider_net_computes_what_the_file_computes():
    net = _trained_like_net()
    wide = widen(net, [40, 31], seed=0)
    assert wide.config == {**net.config, "hidden": [40, 31]}
    obs = torch.from_numpy(_observations(48, seed=2))
    with torch.no_grad():
        (logits, value), (wide_logits, wide_value) = net(obs), wide(obs)
    torch.testing.assert_close(wide_logits, logits, atol=1e-5, rtol=0)
    torch.testing.assert_close(wide_value, value, atol=1e-5, rtol=0)
    assert wide.prior_weight.item() == net.prior_weight.item()
    # the new units are live: a loss reaches the heads' new columns at once
    logits, value = wide(obs)
    (logits.logsumexp(1).sum() + value.sum()).backward()
    assert wide.pi.weight.grad[:, 16:].abs().sum() > 0
    assert wide.v.weight.grad[:, 16:].abs().sum() > 0


@pytest.mark.parametrize("hidden", [[24], [24, 16, 8], [20, 16]])
def test_only_a_widening_is_accepted(hidden):
    with pytest.raises(ValueError, match="--hidden"):
        widen(_trained_like_net(), hidden)


def test_a_run_widens_its_init_and_resumes_wide(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    start = _trained_like_net()
    save_policy(start, "start.pt")
    start = load_policy("start.pt")  # the float16 weights the run reads
    policy = load_policy(train(small_args(run_name="wide", init="start.pt", hidden="48,16",
                                          learning_rate=1e-9)))  # fmt: skip
    assert policy.config["hidden"] == [48, 16]
    obs = torch.from_numpy(_observations(32, seed=4))
    policy.obs_mean.copy_(start.obs_mean)  # the run kept counting observations
    policy.obs_var.copy_(start.obs_var)
    policy.eval()
    with torch.no_grad():
        (logits, value), (wide_logits, wide_value) = start.eval()(obs), policy(obs)
    torch.testing.assert_close(wide_logits, logits, atol=2e-2, rtol=1e-2)
    torch.testing.assert_close(wide_value, value, atol=2e-2, rtol=1e-2)
    from train.ppo import parse_args

    resumed = parse_args(["--run-name", "wide", "--resume", "--total-steps", str(2 * 16 * 8)])
    assert load_policy(train(resumed)).config["hidden"] == [48, 16]
