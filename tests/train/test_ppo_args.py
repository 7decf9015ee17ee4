"""`train.ppo --resume` reads the run's config.json as settings of the kinds `Args` declares:
a value of another kind (`"hidden": 5`, `"num_envs": true`, a rate as a string) is one line
and exit 2 naming the file and the key, where `"hidden": 5` crashed with an AttributeError
(train/ppo_args.py)."""

from __future__ import annotations

import json

import pytest

from train.ppo_args import parse_args


@pytest.mark.parametrize(
    "saved, says",
    [
        ({"hidden": 5}, "'hidden' must be a str, got 5"),
        ({"num_envs": True}, "'num_envs' must be an int, got True"),
        ({"num_envs": 4.0}, "'num_envs' must be an int, got 4.0"),
        ({"learning_rate": "0.1"}, "'learning_rate' must be a float, got '0.1'"),
        ({"progress": 1}, "'progress' must be a bool, got 1"),
        ({"league": None}, "'league' must be a str, got None"),
    ],
)
def test_a_setting_of_another_kind_is_one_line_and_exit_2(saved, says, tmp_path, monkeypatch,
                                                          capsys):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "r").mkdir(parents=True)
    (tmp_path / "runs" / "r" / "config.json").write_text(json.dumps({"run_name": "r", **saved}))
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--run-name", "r", "--resume"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and len(err.strip().splitlines()) == 1
    assert "config.json: " + says in err, err


def test_settings_of_their_kinds_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "r").mkdir(parents=True)
    saved = {"run_name": "r", "learning_rate": 1, "num_envs": 8, "progress": False,
             "hidden": "16", "unknown_old_setting": [1]}  # fmt: skip
    (tmp_path / "runs" / "r" / "config.json").write_text(json.dumps(saved))
    args = parse_args(["--run-name", "r", "--resume"])
    assert (args.learning_rate, args.num_envs, args.progress, args.hidden) == (1, 8, False, "16")
