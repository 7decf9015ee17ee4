"""train.soup: the soup's every tensor is the weighted mean of its files' tensors, a soup of
one network with itself plays as that network, and files that cannot be averaged are
refused with a one-line reason."""

import pytest
import torch
from test_widen import _observations, _trained_like_net

from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import PolicyNet
from train import soup as soup_cli
from train.soup import soup


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
