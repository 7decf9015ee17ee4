"""What `train.ppo --resume` and train.export_policy read back: a checkpoint that would run
code when loaded is refused, a damaged one is a clear error; every file a run writes is
replaced atomically, so a SIGKILL at any moment, during a save included, leaves a run that
`--resume` continues, and eval.csv never lists an update twice."""

from __future__ import annotations

import csv
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from agents.ppo.net import PolicyNet
from noir_env._atomic import TEMP_SUFFIX, atomic_write, atomic_write_bytes, atomic_write_text
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


KILLS = 3  # kills of the training subprocess per test run (each start costs seconds)


NEW_SAVE_TIMEOUT_S = 60.0  # a run that never saves again after a resume has failed


# a checkpoint (a few MB: network, optimizer, 2 snapshots) and an evaluation after every update
RUN_FLAGS = ["--run-name", "k", "--num-envs", "4", "--num-steps", "8", "--num-minibatches", "1",
             "--update-epochs", "1", "--hidden", "128", "--snapshots-kept", "2",
             "--league", "random:1,self:1",
             "--snapshot-interval", "1", "--checkpoint-interval", "1", "--eval-interval", "1",
             "--eval-games", "2", "--threads", "1", "--no-progress"]  # fmt: skip


def test_atomic_write_keeps_the_old_file_when_the_writer_fails(tmp_path):
    path = tmp_path / "f.bin"
    atomic_write_bytes(path, b"old")

    def half_then_fail(f):
        f.write(b"new, half written")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_write(path, half_then_fail)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]  # no temporary file left
    atomic_write_text(path, "new")
    assert path.read_text() == "new"


def _start(cwd: Path, *flags: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "train.ppo", *RUN_FLAGS, *flags], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip


def _wait_for_write(proc: subprocess.Popen, path: Path) -> None:
    """Wait until the running `proc` writes `path` anew (fails if it stops or never does)."""
    before = path.stat().st_mtime_ns if path.exists() else None
    deadline = time.monotonic() + NEW_SAVE_TIMEOUT_S
    while not path.exists() or path.stat().st_mtime_ns == before:
        if proc.poll() is not None:
            pytest.fail(f"the run stopped by itself: {proc.stderr.read().decode()[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the run did not write {path.name}")
        time.sleep(0.002)


def _kill_during_a_save(proc: subprocess.Popen, run: Path, rng: random.Random) -> None:
    """Wait until the run saves a checkpoint (so its start, a resume included, worked), then
    until it logs its next evaluation, which the checkpoint's save follows at once, and
    SIGKILL it a random moment later: mostly during that save, else in the next update."""
    _wait_for_write(proc, run / "checkpoint.pt")
    _wait_for_write(proc, run / "eval.csv")
    time.sleep(rng.uniform(0.0, 0.1))
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run ended before the kill"
    proc.stderr.close()


def _eval_updates(run: Path) -> list[int]:
    with (run / "eval.csv").open() as f:
        return [int(row["update"]) for row in csv.DictReader(f)]


def test_killed_runs_always_resume(tmp_path):
    rng = random.Random(20)
    run = tmp_path / "runs" / "k"
    checkpoint = run / "checkpoint.pt"
    for k in range(KILLS):  # each resume must get as far as its next save
        resume = ["--resume"] if k else []
        _kill_during_a_save(_start(tmp_path, *resume, "--total-steps", str(10**9)), run, rng)
        # a kill during a save leaves its temporary file (never read); a resume removes it
        assert len(_partial_files(run)) <= 1
        updates = _eval_updates(run)  # rows after the checkpoint are dropped at a resume
        assert updates == list(range(1, len(updates) + 1)), updates
    ckpt = torch.load(checkpoint, map_location="cpu", weights_only=True)
    assert ckpt["update"] >= KILLS and set(ckpt["net"]) == set(PolicyNet(1, 1, (128,)).state_dict())


def _partial_files(run: Path) -> list[str]:
    return [p.name for p in run.iterdir() if p.name.endswith(TEMP_SUFFIX)]
