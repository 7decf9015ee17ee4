"""A train.ppo run that cannot write a file (a full disk) or cannot start (`--resume` with no
checkpoint, a folder holding a run) stops with one line on stderr and exit code 2, naming the
file and the reason. Under it, the atomic write (noir_env/_atomic.py) reports a failed write as
an OSError naming the user's path (not its temporary file), also where torch.save words it
as a RuntimeError, and leaves no partial file and the previous content as it was.

A full disk is the kernel's own: the temporary file's descriptor is /dev/full, whose every
write fails with ENOSPC."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest
import torch

from agents.ppo.file import save_atomic
from noir_env import _atomic
from noir_env._atomic import TEMP_SUFFIX, atomic_write_text
from train import ppo

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@pytest.fixture
def full_disk(monkeypatch):
    """Writes of files named in the returned set go to /dev/full (the temporary file itself
    is created, so that its removal is seen)."""
    names: set[str] = set()
    real_mkstemp = tempfile.mkstemp

    def mkstemp(prefix="", suffix="", dir=None):
        fd, temp = real_mkstemp(prefix=prefix, suffix=suffix, dir=dir)
        if prefix.strip(".") in names:
            os.close(fd)
            fd = os.open("/dev/full", os.O_WRONLY)
        return fd, temp

    monkeypatch.setattr(_atomic.tempfile, "mkstemp", mkstemp)
    return names


def _partial_files(folder: Path) -> list[Path]:
    return list(folder.glob(f"*{TEMP_SUFFIX}"))


@pytest.mark.parametrize(
    "write",
    [
        # 4 MB of tensors: torch's writer meets the failure and words it as a RuntimeError
        lambda path: save_atomic({"net": torch.ones(1 << 20)}, path),
        # a few bytes: the failure comes at the flush, a plain OSError
        lambda path: atomic_write_text(path, "new"),
    ],
    ids=["torch.save", "text"],
)
def test_a_full_disk_is_an_oserror_naming_the_file_and_keeps_the_old_one(tmp_path, full_disk,
                                                                         write):  # fmt: skip
    path = tmp_path / "checkpoint.pt"
    path.write_text("the previous checkpoint")
    full_disk.add(path.name)
    with pytest.raises(OSError) as err:
        write(path)
    assert err.value.errno == errno.ENOSPC
    assert str(err.value) == f"could not write {path}: No space left on device"
    assert path.read_text() == "the previous checkpoint"
    assert _partial_files(tmp_path) == []


def test_a_failed_write_names_the_users_path_not_the_temporary_file(tmp_path):
    for target, why in [(tmp_path / "missing" / "game.html", "No such file or directory"),
                        (tmp_path, "Is a directory")]:  # fmt: skip
        with pytest.raises(OSError) as err:
            atomic_write_text(target, "<html>")
        assert str(err.value) == f"could not write {target}: {why}"
        assert TEMP_SUFFIX not in str(err.value)


def _tiny(run_name: str) -> list[str]:
    return ["--run-name", run_name, "--total-steps", "64", "--num-envs", "4", "--num-steps",
            "8", "--num-minibatches", "2", "--update-epochs", "1", "--league", "random:1",
            "--eval-games", "0", "--checkpoint-interval", "1", "--hidden", "8",
            "--no-progress"]  # fmt: skip


def _exit_line(capsys, argv: list[str]) -> str:
    """train.ppo's exit code must be 2 and its stderr one line: that line."""
    with pytest.raises(SystemExit) as exit_info:
        ppo.main(argv)
    assert exit_info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_train_ppo_full_disk_and_resume_without_checkpoint_exit_2(tmp_path, monkeypatch,
                                                                  full_disk, capsys):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    run = Path("runs") / "full"
    full_disk.add("checkpoint.pt")
    line = _exit_line(capsys, _tiny("full"))
    assert line == (f"python -m train.ppo: error: could not write {run / 'checkpoint.pt'}: "
                    "No space left on device")  # fmt: skip
    assert not (run / "checkpoint.pt").exists() and _partial_files(run) == []
    # the run wrote its settings but no checkpoint: --resume has nothing to continue
    line = _exit_line(capsys, ["--run-name", "full", "--resume"])
    assert line.startswith(f"python -m train.ppo: error: --resume: no checkpoint at {run}")
    full_disk.clear()
    (run / "checkpoint.pt").write_bytes(b"")  # a run is there now: a new one must not mix in
    line = _exit_line(capsys, _tiny("full"))
    assert "already holds a run" in line
