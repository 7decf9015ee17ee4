"""What a policy file's config names is checked: its game must be a registered game, and a
prior that is another policy file must not lead back to a file on the chain (a file naming
itself as its prior was a RecursionError)."""

from __future__ import annotations

import pytest
import torch

import agents
from agents.ppo.file import FORMAT, load_policy, policy_checksum, save_policy
from agents.ppo.net import PolicyNet
from noir_env.game import get_game

DN = get_game("district_noir")


def _policy(path, **config):
    save_policy(PolicyNet(DN.obs_size, DN.num_actions, (8,), game="district_noir"), path)
    data = torch.load(path, weights_only=True)
    data["config"] |= config
    if "prior" in config:
        data["state_dict"]["prior_weight"] = torch.tensor(0.5)
    data["sha256"] = policy_checksum(data["config"], data["state_dict"])
    assert data["format"] == FORMAT
    torch.save(data, path)
    return path


@pytest.mark.parametrize("game", ["x", "", "noir\x00", "__import__('os')"])
def test_a_config_naming_no_registered_game_is_refused(tmp_path, game):
    with pytest.raises(ValueError, match="config 'game' must be a game's name"):
        load_policy(_policy(tmp_path / "p.pt", game=game))


def test_a_prior_leading_back_to_its_own_file_is_refused(tmp_path):
    path = tmp_path / "self.pt"
    _policy(path, prior=str(path))
    with pytest.raises(ValueError, match="leads back to itself"):
        agents.load(str(path))
    a, b = tmp_path / "a.pt", tmp_path / "b.pt"
    _policy(a, prior=str(b))
    _policy(b, prior=str(a))
    with pytest.raises(ValueError, match="leads back to itself"):
        agents.load(str(a))


def test_a_prior_that_is_another_policy_file_still_loads(tmp_path):
    inner = _policy(tmp_path / "inner.pt")
    outer = _policy(tmp_path / "outer.pt", prior=str(inner))
    agent = agents.load(str(outer))
    state = DN.init(2, seeds=0)
    mask = DN.legal_action_mask(state)
    actions = agent.act(DN.observe(state), mask)
    assert all(mask[i, a] for i, a in enumerate(actions))


@pytest.mark.parametrize("name", ["x" * 5000, "a\x00b"])
def test_an_agent_name_no_file_system_can_hold_is_an_unknown_agent(name):
    with pytest.raises(ValueError, match="unknown agent"):
        agents.load(name)
