"""train.rllib_ppo's bad flags: one line on stderr, exit code 2, before Ray starts."""

from __future__ import annotations

import pytest

from train import rllib_ppo
from train.rllib import export

BAD = [
    ["--mode", "parallel"], ["--game", "chess"], ["--players", "9"], ["--players", "x"],
    ["--rules", "nope"], ["--league", "nope:1"], ["--league", "random:-1"],
    ["--snapshot-interval", "0"], ["--snapshots-kept", "0"], ["--env-runners", "-1"],
    ["--envs-per-runner", "0"],
    ["--rollout-length", "0"], ["--total-steps", "0"], ["--minibatch-size", "0"],
    ["--epochs", "0"], ["--hidden", "a"], ["--hidden", "0"], ["--learning-rate", "0"],
    ["--gamma", "1.5"], ["--gae-lambda", "nan"], ["--clip-coef", "0"], ["--ent-coef", "-1"],
    ["--max-grad-norm", "0"], ["--seed", "-1"], ["--num-cpus", "-2"], ["--num-learners", "-1"],
    ["--gpus-per-learner", "-1"], ["--checkpoint-interval", "0"], ["--eval-games", "-1"],
    ["--run-name", "../x"], ["--run-name", "/abs"], ["--run-name", "."], ["--bogus"],
    ["--game", "district_noir", "--players", "4"],
]  # fmt: skip


@pytest.mark.parametrize("argv", BAD, ids=" ".join)
def test_bad_flags_are_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        rllib_ppo.main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_export_of_a_missing_checkpoint_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        export.main([str(tmp_path / "none")])
    err = capsys.readouterr().err
    assert info.value.code == 2 and len(err.strip().splitlines()) == 1, err
