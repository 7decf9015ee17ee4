"""Search distillation (train/distill.py): labels of a search that improves the policy, in
shards that resume, and a fine-tuned policy file; one-line errors for bad input."""

import subprocess
import sys

import numpy as np
import pytest
import torch

import agents
from train.distill import FitArgs, LabelArgs, fit, label, load_positions

TINY = {"budget": 6, "players": "3", "league": "heuristic:1", "games_per_shard": 2}


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_labels_are_the_search_on_the_policys_own_positions(in_tmp):
    folder = label(LabelArgs(run_name="t", labels=1, **TINY))
    assert [f.name for f in folder.glob("*.npz")] == ["shard_00000.npz"]
    data = load_positions([folder])
    assert len(data) > 20
    rows = np.arange(len(data))
    x = data.dense(rows, 2631)
    mask = np.zeros((len(data), 384), bool)
    for k in rows:
        mask[k, data.legal[k][data.valid[k]].numpy()] = True
    assert (mask.sum(1) >= 2).all()  # only decisions with a choice are labelled
    # the played action is the policy's greedy choice on that very observation
    played = data.legal.gather(1, data.played_pos[:, None]).squeeze(1).numpy()
    np.testing.assert_array_equal(agents.load("ppo").act(x.numpy(), mask), played)
    # the search overrode the policy somewhere, and kept its choice elsewhere
    overridden = (data.label_pos != data.played_pos).float().mean()
    assert 0 < overridden < 0.6
    # a second call resumes: the next shard, the first one untouched
    before = (folder / "shard_00000.npz").read_bytes()
    label(LabelArgs(run_name="t", labels=len(data) + 1, **TINY))
    assert sorted(f.name for f in folder.glob("*.npz")) == ["shard_00000.npz", "shard_00001.npz"]
    assert (folder / "shard_00000.npz").read_bytes() == before


def test_fit_learns_what_the_labels_teach(in_tmp):
    """Labels of a plain rule (the highest legal action) on real positions: the fitted
    policy follows the rule on held-out positions far more often than the shipped one."""
    folder = label(LabelArgs(run_name="t", labels=400, **TINY))
    for f in folder.glob("*.npz"):
        shard = dict(np.load(f))
        ends = shard["legal_start"][1:] - 1
        shard["label"] = shard["legal"][ends].astype(np.int64)
        np.savez(f, **shard)
    data = load_positions([folder])
    highest = data.valid.sum(1) - 1
    before = (data.played_pos == highest).float().mean()
    path = fit(FitArgs(run_name="t", epochs=6, learning_rate=3e-3, holdout=0.3, batch_size=64))
    tuned = agents.load(str(path))
    shipped = agents.load("ppo").net
    assert tuned.net.config == shipped.config
    assert torch.equal(tuned.net.obs_mean, shipped.obs_mean)  # the policy's statistics kept
    x = data.dense(np.arange(len(data)), 2631).numpy()
    mask = np.zeros((len(data), 384), bool)
    for k in range(len(data)):
        mask[k, data.legal[k][data.valid[k]].numpy()] = True
    follows = (tuned.act(x, mask) == mask.shape[1] - 1 - np.argmax(mask[:, ::-1], 1)).mean()
    assert follows > before + 0.25, (follows, before)


def test_bad_input_is_one_line_and_exit_2(in_tmp):
    def run(*argv):
        return subprocess.run([sys.executable, "-m", "train.distill", *argv],
                              capture_output=True, text=True, cwd=in_tmp,
                              env={"PYTHONPATH": str(_root())})  # fmt: skip

    for argv, words in ((["fit", "--run-name", "none"], "no label shards"),
                        (["label", "--players", "2"], "players"),
                        (["label", "--policy", "heuristic"], "not a policy with a network"),
                        (["nope"], "usage")):  # fmt: skip
        proc = run(*argv)
        assert proc.returncode == 2, proc.stderr
        assert words in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[1]
