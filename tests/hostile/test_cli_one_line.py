"""A user's mistake on train.play, train.demo and train.sb3_ppo is one line on stderr and
exit status 2, found before any work starts (argparse's usage block and tracebacks were
printed before); a CLI error line is cut at `MAX_ERROR` characters whatever the value."""

from __future__ import annotations

import pytest

from train import demo, play, sb3_ppo
from train.cli import MAX_ERROR, Parser


def _one_line(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2, (argv, err)
    assert err.count("\n") == 1 and "error: " in err and "Traceback" not in err, (argv, err)
    return err


@pytest.mark.parametrize("argv", [["--players", "x"], ["--game", "nope"], ["--seat", "1e999"],
                                  ["--players", "99"], ["--ask-forced=x"]])  # fmt: skip
def test_play_flags(argv, capsys):
    _one_line(play.main, argv, capsys)


@pytest.mark.parametrize("argv", [["--games", "-5"], ["--games", "x"], ["--players", "9"],
                                  ["--train-steps", "0"], ["--eval-games", "10" * 20]])  # fmt: skip
def test_demo_flags(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _one_line(demo.main, argv, capsys)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("argv", [["--game", "nope"], ["--rules", "nope"],
                                  ["--opponents", "nope"], ["--eval-opponents", "nope"],
                                  ["--threads", "9" * 30], ["--players", "99"],
                                  ["--num-envs", "0"], ["--total-steps", "-1"]])  # fmt: skip
def test_sb3_ppo_flags(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _one_line(sb3_ppo.main, argv, capsys)


def test_a_long_error_is_cut(capsys):
    err = _one_line(lambda argv: Parser(prog="p").error("x" * 10_000), [], capsys)
    assert len(err) <= len("p: error: ") + MAX_ERROR + 1
