"""train.soup: the soup's every tensor is the weighted mean of its files' tensors, a soup of
one network with itself plays as that network, and files that cannot be averaged are
refused with a one-line reason.
The weights are checked as a whole: real, finite, positive numbers whose sum is finite too
(`--weights 1e308,1e308` overflowed to an all-zero policy), turned into shares without
overflow or underflow."""

from __future__ import annotations

import math

import pytest
import torch

from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import PolicyNet
from tests.train.test_widen import _observations, _trained_like_net
from train import soup as soup_cli
from train.soup import mixing_shares, soup


def _write(tmp_path, name, seed, hidden=(24, 16), prior="heuristic"):
    torch.manual_seed(seed)
    net = _trained_like_net(hidden)
    if not prior:  # the same net without the prior's bonus
        plain = PolicyNet(net.config["obs_size"], net.config["num_actions"], hidden, "noir")
        state = {k: v for k, v in net.state_dict().items() if k != "prior_weight"}
        plain.load_state_dict(state)
        net = plain
    with torch.no_grad():  # each file its own weights and statistics
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.1)
        net.obs_mean.add_(seed)
    path = tmp_path / f"{name}.pt"
    save_policy(net, path)
    return path


def test_every_tensor_is_the_weighted_mean(tmp_path):
    a, b = _write(tmp_path, "a", 1), _write(tmp_path, "b", 2)
    sa, sb = load_policy(a).state_dict(), load_policy(b).state_dict()
    for weights, wa in ((None, 0.5), ([3, 1], 0.75)):
        state = soup([a, b], weights).state_dict()
        assert set(state) == set(sa)
        for name, t in state.items():
            want = wa * sa[name].double() + (1 - wa) * sb[name].double()
            torch.testing.assert_close(t.double(), want.to(t.dtype).double(), rtol=0, atol=1e-6)


def test_a_soup_of_one_network_with_itself_plays_as_it(tmp_path):
    a = _write(tmp_path, "a", 1)
    out = tmp_path / "soup.pt"
    soup_cli.main([str(a), str(a), "--out", str(out)])
    obs = torch.from_numpy(_observations(32, seed=4))
    with torch.no_grad():
        (logits, value), (soup_logits, soup_value) = load_policy(a)(obs), load_policy(out)(obs)
    torch.testing.assert_close(soup_logits, logits, rtol=0, atol=1e-4)
    torch.testing.assert_close(soup_value, value, rtol=0, atol=1e-4)


@pytest.mark.parametrize(
    "other, weights, message",
    [
        (None, None, "at least two policy files"),
        ("wide", None, "not the shape of"),
        ("plain", None, "not the shape of"),
        ("b", "1", "1 weights for 2 policy files"),
        ("b", "1,-1", "positive number"),
        ("b", "1,x", "not numbers"),
        ("text", None, "not a readable policy file"),
    ],
)
def test_files_that_cannot_be_averaged_are_refused(tmp_path, capsys, other, weights, message):
    (tmp_path / "t.pt").write_text("hello")
    files = {"b": lambda: _write(tmp_path, "b", 2),
             "wide": lambda: _write(tmp_path, "wide", 2, hidden=(32, 16)),
             "plain": lambda: _write(tmp_path, "plain", 2, prior=""),
             "text": lambda: tmp_path / "t.pt"}  # fmt: skip
    argv = [str(_write(tmp_path, "a", 1))] + ([str(files[other]())] if other else [])
    argv += ["--out", str(tmp_path / "out.pt")] + (["--weights", weights] if weights else [])
    with pytest.raises(SystemExit) as exit_info:
        soup_cli.main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.pt").exists()


@pytest.mark.parametrize(
    "weights, says",
    [
        ("1e308,1e308", "their sum must be a finite number"),
        ("1.7e308,1e308,1", "their sum must be a finite number"),
        ("inf,1", "every weight must be a positive number"),
        ("nan,1", "every weight must be a positive number"),
        ("0,1", "every weight must be a positive number"),
        ("1,-0.0", "every weight must be a positive number"),
    ],
)
def test_weights_that_cannot_be_shares_are_one_line_and_exit_2(weights, says, tmp_path, capsys):
    files = [str(_write(tmp_path, f"p{k}", k)) for k in range(weights.count(",") + 1)]
    with pytest.raises(SystemExit) as exit_info:
        soup_cli.main([*files, "--out", str(tmp_path / "out.pt"), "--weights", weights])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out.pt").exists()


def test_shares_keep_the_ratios_of_huge_and_tiny_weights():
    assert mixing_shares([1e307, 3e307], 2) == pytest.approx([0.25, 0.75], rel=1e-15)
    assert mixing_shares([1e-320, 3e-320], 2) == pytest.approx([0.25, 0.75], rel=1e-3)
    assert math.fsum(mixing_shares([5, 5, 5], 3)) == 1.0
    for bad in (["0.5", 0.5], [True, 1.0], [None, 1.0]):
        with pytest.raises(ValueError, match="must be a positive number"):
            mixing_shares(bad, 2)


def test_a_soup_of_huge_weights_is_the_mean(tmp_path):
    a, b = _write(tmp_path, "a", 1), _write(tmp_path, "b", 2)
    even = soup_cli.soup([a, b]).state_dict()
    for name, t in soup_cli.soup([a, b], [1e307, 1e307]).state_dict().items():
        assert torch.isfinite(t).all() and torch.equal(t, even[name]), name
