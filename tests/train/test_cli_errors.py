"""A user's mistake on a training command line is one line on stderr and exit code 2, found
before any work starts, never a traceback: every flag of
train.ppo, train.export_policy, train.curves and train.evaluate with bad values, and
train.sb3_ppo's --threads."""

from __future__ import annotations

import pytest
import torch

from train import curves, evaluate, export_policy, ppo, sb3_ppo

PPO_BAD = [
    ["--total-steps", "-5"], ["--total-steps", "0"], ["--total-steps", "x"],
    ["--num-envs", "0"], ["--num-envs", "2.5"], ["--num-steps", "0"], ["--update-epochs", "0"],
    ["--num-minibatches", "0"], ["--num-minibatches", "100000"],
    ["--hidden", "0"], ["--hidden", "a,b"], ["--hidden", ""], ["--hidden", "10000000"],
    ["--hidden", "64,-1"],
    ["--gamma", "5"], ["--gamma", "0"], ["--gamma", "nan"], ["--gae-lambda", "1.5"],
    ["--learning-rate", "0"], ["--learning-rate", "inf"], ["--clip-coef", "-1"],
    ["--ent-coef", "-1"], ["--vf-coef", "nan"], ["--max-grad-norm", "0"], ["--target-kl", "-1"],
    ["--eval-interval", "-1"], ["--eval-games", "-1"], ["--eval-opponents", "nope"],
    ["--eval-opponents", "random,nope"], ["--eval-players", "9"], ["--eval-players", "-1"],
    ["--checkpoint-interval", "0"], ["--snapshot-interval", "0"], ["--snapshots-kept", "0"],
    ["--run-name", "../escape"], ["--run-name", "/tmp/abs"], ["--run-name", ""],
    ["--run-name", "."], ["--run-name", "a/../../b"],
    ["--game", "chess"], ["--players", "9"], ["--players", "x"], ["--players", "3,9"],
    ["--game", "district_noir", "--players", "4"], ["--rules", "nope"],
    ["--league", "nope:1"], ["--league", "random:-1"], ["--league", "random:x"],
    ["--imitation-updates", "3"], ["--imitation-updates", "-1"],
    ["--imitate", "nope", "--imitation-updates", "1"], ["--threads", "0"], ["--seed", "-1"],
    ["--seed", "abc"], ["--resume"], ["--bogus"], ["--progress", "1"],
]  # fmt: skip


def _exits_with_one_line(main, argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, (argv, exit_info.value.code, err)
    assert err.count("\n") == 1 and "error: " in err and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize("argv", PPO_BAD, ids=" ".join)
def test_train_ppo_flags(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _exits_with_one_line(ppo.main, ["--run-name", "r", *argv], capsys)  # the last name counts
    assert not (tmp_path / "runs").exists()  # checked before any work


@pytest.fixture()
def broken_runs(tmp_path, monkeypatch):
    """runs/ with an empty folder, a damaged checkpoint and a damaged eval.csv."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "empty").mkdir(parents=True)
    (tmp_path / "runs" / "bad").mkdir()
    (tmp_path / "runs" / "bad" / "checkpoint.pt").write_bytes(b"\x00garbage")
    (tmp_path / "runs" / "bad" / "eval.csv").write_text("update,x\n1,2\n")
    (tmp_path / "runs" / "nothing").mkdir()
    (tmp_path / "runs" / "nothing" / "eval.csv").write_text("update\n")
    torch.save({"net": {}}, tmp_path / "runs" / "empty" / "other.pt")
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["runs/none"],
        ["runs/empty"],
        ["runs/bad"],
        ["runs/bad", "--out", "/proc/x/p.pt"],
        ["runs/bad", "--bogus"],
    ],  # fmt: skip
    ids=" ".join,
)
def test_export_policy_flags(argv, broken_runs, capsys):
    _exits_with_one_line(export_policy.main, argv, capsys)


@pytest.mark.parametrize(
    "argv",
    [[], ["runs/none"], ["runs/bad"], ["runs/nothing"], ["runs/empty"], ["--table"]],
    ids=" ".join,
)
def test_curves_flags(argv, broken_runs, capsys):
    _exits_with_one_line(curves.main, argv, capsys)


EVALUATE_BAD = [
    [], ["--agents"], ["--agents", "nope", "random"], ["--agents", "random", "--players", "9"],
    ["--agents", "random", "--players", "x"], ["--agents", "random", "--games", "-5"],
    ["--agents", "random", "--games", "0"], ["--agents", "random", "--slots", "0"],
    ["--agents", "random", "--max-steps", "0"], ["--agents", "random", "--game", "chess"],
    ["--agents", "random", "--rules", "nope"], ["--agents", "random", "--seed", "abc"],
    ["--agents", "random", "--seed", "-1"], ["--agents", "random", "--bogus"],
    ["--agents", "random", "--game", "district_noir", "--players", "4"],
]  # fmt: skip


@pytest.mark.parametrize("argv", EVALUATE_BAD, ids=" ".join)
def test_evaluate_flags(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _exits_with_one_line(evaluate.main, argv, capsys)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("argv", [["--threads", "0"], ["--threads", "x"]], ids=" ".join)
def test_sb3_ppo_threads_flag(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _exits_with_one_line(sb3_ppo.main, argv, capsys)
    assert not (tmp_path / "runs").exists()
