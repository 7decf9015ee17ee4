"""PPO policy files made before NOIR's action table grew (384 actions, rules v1-v2) load as
nets over today's table (`agents.ppo.file.with_appended_actions`): the same logits for
every earlier action, a new action only where nothing else is legal."""

import numpy as np
import torch

import agents
from agents.policies import PPO_V2_POLICY
from agents.ppo.agent import PPOAgent
from agents.ppo.file import load_policy
from agents.ppo.net import ILLEGAL_LOGIT, PolicyNet
from noir_env import core
from noir_env.core import constants as C
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE


def _as_written(path) -> PolicyNet:
    """The file's net exactly as written (its own action count)."""
    data = torch.load(path, map_location="cpu", weights_only=True)
    net = PolicyNet.from_config(data["config"])
    net.load_state_dict({k: v if k == "obs_count" else v.float()
                         for k, v in data["state_dict"].items()})  # fmt: skip
    return net.eval()


def test_a_384_action_policy_loads_over_todays_table():
    old = _as_written(PPO_V2_POLICY)
    assert old.config["num_actions"] == 384 < NUM_ACTIONS
    net = load_policy(PPO_V2_POLICY)
    assert net.config["num_actions"] == NUM_ACTIONS
    s = core.init(8, 4, "noirbrough", seeds=3)
    obs = torch.from_numpy(core.observe(s))
    with torch.no_grad():
        before, value_before = old(obs)
        after, value = net(obs)
    torch.testing.assert_close(after[:, :384], before)
    torch.testing.assert_close(value, value_before)
    assert (after[:, 384:] == ILLEGAL_LOGIT).all()


def test_an_old_policy_takes_a_new_action_only_when_it_is_the_only_one():
    agent = PPOAgent(PPO_V2_POLICY, prior=agents.load("heuristic"))
    obs = core.observe(core.init(2, 4, "noirbrough", seeds=1))
    mask = np.zeros((2, NUM_ACTIONS), bool)
    mask[:, C.A_DISCARD_AWAY] = True
    mask[0, C.A_TO] = True  # row 0: a place too
    assert agent.act(obs, mask).tolist() == [C.A_TO, C.A_DISCARD_AWAY]


def test_the_shipped_table_and_a_new_net_play_todays_actions():
    """agents.load("ppo") (files of 384 actions) and a net made today agree on the size."""
    table = agents.load("ppo")
    obs = core.observe(core.init(1, 3, seeds=0))
    mask = core.legal_action_mask(core.init(1, 3, seeds=0))
    assert mask.shape == (1, NUM_ACTIONS) and mask[0, table.act(obs, mask)[0]]
    assert PolicyNet(OBS_SIZE, NUM_ACTIONS, (8,)).config["num_actions"] == 385
