"""train.ppo --init: a run that starts from a policy file (fine-tuning), adopting its
weights, widths and prior; files and flags that do not fit are refused before any work."""

import json
import subprocess
import sys

import pytest
import torch

from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import PolicyNet
from noir_env.district.spaces import NUM_ACTIONS as DISTRICT_ACTIONS
from noir_env.district.spaces import OBS_SIZE as DISTRICT_OBS
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from train.ppo import Args, parse_args, train


def small_args(**kw) -> Args:
    base = dict(total_steps=16 * 8, num_envs=16, num_steps=8, num_minibatches=2,
                update_epochs=1, league="random:1", eval_games=0, progress=False)  # fmt: skip
    return Args(**{**base, **kw})


@pytest.fixture
def start_policy(tmp_path):
    torch.manual_seed(5)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (24, 16), "noir", prior="heuristic")
    with torch.no_grad():
        net.prior_weight.fill_(1.25)
    save_policy(net, tmp_path / "start.pt")
    return tmp_path / "start.pt"


def test_a_run_starts_from_the_policy_file(tmp_path, monkeypatch, start_policy):
    monkeypatch.chdir(tmp_path)
    start = load_policy(start_policy).state_dict()
    policy = train(small_args(run_name="ft", init=str(start_policy), learning_rate=1e-9))
    net = load_policy(policy)
    assert net.config["hidden"] == [24, 16] and net.config["prior"] == "heuristic"
    for name, value in net.state_dict().items():
        if not name.startswith("obs_"):  # the observation statistics keep counting
            torch.testing.assert_close(value, start[name], atol=1e-5, rtol=0, msg=name)
    config = json.loads((tmp_path / "runs" / "ft" / "config.json").read_text())
    assert (config["hidden"], config["prior"]) == ("24,16", "heuristic")
    # a fresh run with the same seed and widths is another network
    fresh = load_policy(train(small_args(run_name="fresh", hidden="24,16", prior="heuristic")))
    assert not torch.allclose(fresh.state_dict()["pi.weight"], start["pi.weight"])
    # the fine-tuning run resumes from its checkpoint with the file's widths and prior
    resumed = parse_args(["--run-name", "ft", "--resume", "--total-steps", str(2 * 16 * 8)])
    resumed = load_policy(train(resumed))
    assert resumed.config["hidden"] == [24, 16] and resumed.config["prior"] == "heuristic"


@pytest.mark.parametrize(
    "flags, message",
    [
        (dict(init="missing.pt"), "--init: missing.pt: no policy file there"),
        (dict(hidden="64"), "--hidden 64: has 1 layers, the --init policy 2; its widths are 24,16"),
        (dict(hidden="32,8"), "--hidden 32,8: narrows a layer of the --init policy"),
        (dict(prior="random"), "--prior random: the --init policy's prior is heuristic"),
    ],
)
def test_files_and_flags_that_do_not_fit_are_refused(tmp_path, monkeypatch, start_policy,
                                                     flags, message):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=message):
        train(small_args(run_name="x", **{"init": str(start_policy), **flags}))
    assert not (tmp_path / "runs" / "x").exists()  # refused before any work


def test_a_policy_of_the_other_game_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_policy(PolicyNet(DISTRICT_OBS, DISTRICT_ACTIONS, (8,), "district_noir"), "d.pt")
    with pytest.raises(ValueError, match="is a policy for district_noir"):
        train(small_args(run_name="x", init="d.pt"))


def test_the_cli_names_a_bad_init_in_one_line(tmp_path):
    (tmp_path / "text.pt").write_text("not a policy")
    out = subprocess.run([sys.executable, "-m", "train.ppo", "--init", str(tmp_path / "text.pt")],
                         capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "--init:" in out.stderr
    assert "Traceback" not in out.stderr


def test_init_snapshot_puts_the_start_network_in_the_league(tmp_path, monkeypatch, start_policy):
    """--init-snapshot: `self` plays a frozen copy of the --init network from the first
    update (without it, `self` has no snapshot until --snapshot-interval updates)."""
    from train.ppo_run import read_checkpoint

    monkeypatch.chdir(tmp_path)
    start = load_policy(start_policy).state_dict()
    flags = dict(init=str(start_policy), league="self:1", snapshot_interval=50)
    train(small_args(run_name="seeded", init_snapshot=True, **flags))
    train(small_args(run_name="plain", **flags))
    (kept,) = read_checkpoint(tmp_path / "runs" / "seeded" / "checkpoint.pt")["snapshots"]
    for name, value in start.items():
        torch.testing.assert_close(kept[name], value, atol=0, rtol=0, msg=name)
    assert read_checkpoint(tmp_path / "runs" / "plain" / "checkpoint.pt")["snapshots"] == []
    # a resumed run holds the checkpoint's snapshots, not a second copy of the start
    train(parse_args(["--run-name", "seeded", "--resume", "--total-steps", str(2 * 16 * 8)]))
    assert len(read_checkpoint(tmp_path / "runs" / "seeded" / "checkpoint.pt")["snapshots"]) == 1
    for flags, message in [
        (dict(init_snapshot=True), "--init-snapshot: needs --init"),
        (dict(init_snapshot=True, init=str(start_policy)), "--init-snapshot: needs `self`"),
    ]:
        with pytest.raises(ValueError, match=message):
            train(small_args(run_name="x", **flags))
