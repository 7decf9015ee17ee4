"""The training layer refuses what would hurt it (issue 20): checkpoints that would run code
when loaded (defect 2)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
import torch

from train.export_policy import export_policy
from train.export_policy import main as export_main
from train.ppo import Args, train
from train.ppo_run import read_checkpoint


class RunsCode:
    """Unpickling it calls os.mkdir(marker): what a crafted checkpoint can do."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


@pytest.fixture()
def crafted_run(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """runs/evil/ with a config and a checkpoint that creates `marker` when unpickled."""
    monkeypatch.chdir(tmp_path)
    run, marker = tmp_path / "runs" / "evil", tmp_path / "pwned"
    run.mkdir(parents=True)
    (run / "config.json").write_text('{"run_name": "evil", "hidden": "16"}')
    torch.save({"net": {}, "args": {"hidden": "16"}, "payload": RunsCode(marker)},
               run / "checkpoint.pt")  # fmt: skip
    return run, marker


def test_a_checkpoint_that_would_run_code_is_refused(crafted_run, capsys):
    run, marker = crafted_run
    with pytest.raises(ValueError, match="refused.*could run code"):
        read_checkpoint(run / "checkpoint.pt")
    with pytest.raises(ValueError, match="refused"):
        export_policy(run)
    with pytest.raises(SystemExit) as exit_info:
        export_main([str(run)])
    assert exit_info.value.code == 2 and "refused" in capsys.readouterr().err
    with pytest.raises(ValueError, match="--resume: .*refused"):
        train(Args(run_name="evil", resume=True, hidden="16", progress=False, num_envs=2))
    assert not marker.exists()  # the payload never ran
    # the file is a real threat: it carries a call of os.mkdir (torch's safe loader names
    # it), and unpickling that payload runs it; no unsafe loader is needed to show this
    with pytest.raises(pickle.UnpicklingError, match="mkdir"):
        torch.load(run / "checkpoint.pt", weights_only=True)
    pickle.loads(pickle.dumps(RunsCode(marker)))
    assert marker.exists()


@pytest.mark.parametrize("content", [b"", b"not a checkpoint", b"PK\x03\x04truncated"])
def test_a_damaged_checkpoint_is_a_clear_error(tmp_path, content):
    (tmp_path / "checkpoint.pt").write_bytes(content)
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        read_checkpoint(tmp_path / "checkpoint.pt")
