"""Without Ray installed (the main venv), `python -m train.rllib_ppo` says how to get it in
one line, exit code 2; its flags are still checked first. (The RLlib tests proper run in
.venv-rllib: tests/rllib.)"""

import importlib.util

import pytest

from train import rllib_ppo

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is not None,
                                reason="ray is installed here")  # fmt: skip


def test_missing_ray_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        rllib_ppo.main(["--total-steps", "10"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1 and "noir_env[rllib]" in err, err


def test_flags_are_checked_before(capsys):
    with pytest.raises(SystemExit) as info:
        rllib_ppo.main(["--mode", "nope"])
    assert info.value.code == 2 and "--mode" in capsys.readouterr().err
