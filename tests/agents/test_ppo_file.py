"""Policy files (agents/ppo/file.py). A broken file is refused with a ValueError naming the
file and what is wrong, before any net is built: `load_policy` and `agents.load("path.pt")`
read them without running code, bound the config's sizes, check every tensor's shape
against the config and its values for finiteness, and verify the checksum `save_policy`
writes (files without one, as the shipped policy, still load). Files made before NOIR's
action table grew (384 actions, rules v1-v2) load as nets over today's table
(`with_appended_actions`): the same logits for every earlier action, a new action only where
nothing else is legal."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import torch

import agents
from agents.policies import PPO_V1_POLICY as SHIPPED_PPO_POLICY
from agents.policies import PPO_V2_POLICY
from agents.ppo import file as ppo_file
from agents.ppo.agent import PPOAgent
from agents.ppo.file import (
    FORMAT,
    MAX_WIDTH,
    load_policy,
    parameter_shapes,
    policy_checksum,
    save_policy,
)
from agents.ppo.net import ILLEGAL_LOGIT, PolicyNet
from noir_env import core
from noir_env.core import constants as C
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from noir_env.vector import make_vector_env

OBS, ACTIONS, HIDDEN = 40, 12, (16, 8)


class RunsCode:
    """A pickle that would call a function when loaded (print here, harmless)."""

    def __reduce__(self):
        return (print, ("a policy file ran code",))


def small_net() -> PolicyNet:
    torch.manual_seed(0)
    net = PolicyNet(OBS, ACTIONS, HIDDEN)
    net.update_obs_stats(torch.rand(20, OBS) * 5)
    return net


def file_content(net: PolicyNet) -> dict:
    """What save_policy writes for `net` (format, config, state_dict, sha256)."""
    state = {k: (v.half() if k.startswith(("body", "pi", "v.")) else v.clone())
             for k, v in net.state_dict().items()}  # fmt: skip
    config = dict(net.config)
    return {"format": FORMAT, "config": config, "state_dict": state,
            "sha256": policy_checksum(config, state)}  # fmt: skip


def resealed(data: dict) -> dict:
    """`data` with a checksum that matches its (changed) content: only the other checks
    can refuse it."""
    return {**data, "sha256": policy_checksum(data["config"], data["state_dict"])}


def without_checksum(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "sha256"}


def changed(data: dict, **state_changes) -> dict:
    state = dict(data["state_dict"])
    for name, value in state_changes.items():
        if value is None:
            del state[name]
        else:
            state[name] = value
    return {**data, "state_dict": state}


def with_config(data: dict, **config_changes) -> dict:
    return {**data, "config": {**data["config"], **config_changes}}


def nan_weight(data: dict) -> dict:
    w = data["state_dict"]["body.2.weight"].clone()
    w[3, 1] = float("nan")
    return changed(data, **{"body.2.weight": w})


def flipped_weight(data: dict) -> dict:
    """One weight changed after the file was written (its checksum kept)."""
    w = data["state_dict"]["pi.weight"].clone()
    w[0, 0] += 1.0
    return changed(data, **{"pi.weight": w})


# kind -> (how to make the file's bytes from a sound file's content, what the error says)
def saved(transform):
    def make(path, good):
        torch.save(transform(good), path)

    return make


def raw(content: bytes):
    def make(path, good):
        path.write_bytes(content)

    return make


def truncated(path, good):
    torch.save(good, path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


BROKEN = {
    "empty": (raw(b""), "not a readable policy file: the file is empty"),
    "text": (raw(b"hidden = [256, 256]\nthis is not a policy\n"), "not a readable policy file"),
    "truncated": (truncated, "not a readable policy file"),
    "runs code": (raw(pickle.dumps(RunsCode(), protocol=2)), "not a readable policy file"),
    "another format": (saved(lambda d: {**d, "format": "other/1"}), "not a NOIR PPO policy"),
    "a list": (saved(lambda d: [d]), "not a NOIR PPO policy"),
    "NaN weight": (saved(lambda d: without_checksum(nan_weight(d))), "not finite"),
    "NaN weight, sealed": (saved(lambda d: resealed(nan_weight(d))), "not finite"),
    "inf statistics": (
        saved(lambda d: resealed(changed(d, obs_mean=torch.full((OBS,), float("inf"))))),
        "'obs_mean' has 40 values that are not finite",
    ),
    "negative variance": (
        saved(lambda d: resealed(changed(d, obs_var=-torch.ones(OBS)))),
        "observation statistics are damaged",
    ),
    "1e7-wide layer": (
        saved(lambda d: resealed(with_config(d, hidden=[10_000_000, 8]))),
        f"config 'hidden[0]' must be an int in 1..{MAX_WIDTH}, got 10000000",
    ),
    "huge observation": (
        saved(lambda d: resealed(with_config(d, obs_size=2**40))),
        "config 'obs_size' must be an int",
    ),
    "huge action count": (
        saved(lambda d: resealed(with_config(d, num_actions=10**9))),
        "config 'num_actions' must be an int",
    ),
    "100 layers": (
        saved(lambda d: resealed(with_config(d, hidden=[8] * 100))),
        "config 'hidden' must list 1..16 widths, got 100 widths",
    ),
    "wide layers, small tensors": (  # within bounds, but not what the file holds
        saved(lambda d: resealed(with_config(d, hidden=[MAX_WIDTH, MAX_WIDTH]))),
        "tensor 'body.0.weight' has shape (16, 40), the config's net (16384, 40)",
    ),
    "float size": (saved(lambda d: resealed(with_config(d, obs_size=40.0))), "'obs_size'"),
    "bool size": (saved(lambda d: resealed(with_config(d, num_actions=True))), "'num_actions'"),
    "config missing a key": (
        saved(lambda d: {**d, "config": {"obs_size": OBS, "hidden": [16, 8]}}),
        "config keys missing ['num_actions']",
    ),
    "config not a dict": (saved(lambda d: {**d, "config": "big"}), "'config' is not a dict"),
    "misshapen tensor": (
        saved(lambda d: resealed(changed(d, **{"pi.bias": torch.zeros(ACTIONS + 1)}))),
        "tensor 'pi.bias' has shape (13,), the config's net (12,)",
    ),
    "missing tensor": (
        saved(lambda d: resealed(changed(d, **{"v.bias": None}))),
        "tensors missing ['v.bias']",
    ),
    "extra tensor": (
        saved(lambda d: resealed(changed(d, **{"body.4.weight": torch.zeros(2, 2)}))),
        "unknown ['body.4.weight']",
    ),
    "integer tensor": (
        saved(lambda d: resealed(changed(d, obs_count=torch.tensor(5)))),
        "'obs_count' is torch.int64, not floating point",
    ),
    "not tensors": (
        saved(lambda d: {**d, "state_dict": {"pi.bias": [0.0] * ACTIONS}}),
        "'state_dict' is not a dict of named tensors",
    ),
    "changed weight": (saved(flipped_weight), "the checksum does not match"),
    "changed config": (
        saved(lambda d: with_config(d, game="district_noir")),
        "the checksum does not match",
    ),
}


@pytest.fixture
def no_net_built(monkeypatch):
    """Fails the test if load_policy builds a net (it must refuse before)."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"a net was built for a broken file: {args}")

    monkeypatch.setattr(ppo_file, "PolicyNet", refuse)


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_policy_file_is_a_value_error_naming_it(kind, tmp_path, no_net_built):
    make, says = BROKEN[kind]
    path = tmp_path / "policy.pt"
    make(path, file_content(small_net()))
    for load in (load_policy, lambda p: agents.load(str(p))):
        with pytest.raises(ValueError) as err:
            load(path)
        assert str(path) in str(err.value) and says in str(err.value), str(err.value)


def test_a_missing_file(tmp_path):
    with pytest.raises(ValueError, match="no policy file there"):
        load_policy(tmp_path / "none.pt")


def test_a_saved_policy_has_a_checksum_and_loads(tmp_path):
    net = small_net()
    path = tmp_path / "p.pt"
    save_policy(net, path)
    data = torch.load(path, weights_only=True)
    assert data["sha256"] == policy_checksum(data["config"], data["state_dict"])
    back = load_policy(path)
    x = torch.rand(3, OBS) * 5
    torch.testing.assert_close(back(x)[0], net(x)[0].half().float(), atol=0.05, rtol=0.05)
    # a file without the checksum (written before it existed) loads the same net
    torch.save(without_checksum(data), tmp_path / "old.pt")
    torch.testing.assert_close(load_policy(tmp_path / "old.pt")(x)[0], back(x)[0])


def test_the_shapes_are_the_nets():
    for hidden in [(16,), (16, 8), (4, 5, 6, 7)]:
        net = PolicyNet(OBS, ACTIONS, hidden)
        want = {k: tuple(v.shape) for k, v in net.state_dict().items()}
        assert parameter_shapes(net.config) == want


def test_the_shipped_policy_still_loads_and_plays():
    data = torch.load(SHIPPED_PPO_POLICY, weights_only=True)
    assert "sha256" not in data  # written before checksums: loaded on the other checks
    agent = PPOAgent(SHIPPED_PPO_POLICY)
    import agents

    assert type(agents.load("ppo-v1")) is PPOAgent  # kept by name beside the new policy
    envs = make_vector_env(4, seed=1, opponents="random")
    obs, info = envs.reset()
    for _ in range(5):
        actions = agent.act(obs, info["action_mask"])
        assert info["action_mask"][np.arange(4), actions].all()
        obs, _, _, _, info = envs.step(actions)


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
