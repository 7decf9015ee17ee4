"""Crash-safe file writes: a file is either its previous content or its complete new content,
never a mix or a truncated copy, whatever moment the process is killed (or the disk fills).

The new content goes to a temporary file in the same folder, is flushed to the disk
(fsync), and then replaces the old file with `os.replace` (atomic on POSIX and Windows);
the folder is synced too, so that the rename itself survives a power loss. Until the
rename, the previous file stays as it was; a write that fails removes its temporary file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, cast

TEMP_SUFFIX = ".partial"  # the temporary files' names end with it (left behind by a kill)


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], object]) -> None:
    """Write `path` atomically: `write(f)` fills a temporary binary file in the same folder,
    which then replaces `path` (module docstring). Exceptions of `write` propagate, leaving
    `path` unchanged; a failed write to the disk (a full disk, a folder that is missing or
    read-only) is an OSError naming `path` and the reason, also where `write` reported it
    in its own way (torch.save: a RuntimeError "file write failed")."""
    target = Path(path)
    temp = None
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX,
                                    dir=target.parent)  # fmt: skip
        with os.fdopen(fd, "wb") as f:
            recording = _RecordingFile(f)
            try:
                write(cast(BinaryIO, recording))  # a BinaryIO: it forwards what it does not wrap
            except Exception as err:
                if recording.error is None or isinstance(err, OSError):
                    raise
                raise recording.error from err  # the cause the writer reported otherwise
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException as err:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if isinstance(err, OSError):
            raise _naming(err, target) from None
        raise
    _sync_folder(target.parent)


class _RecordingFile:
    """A binary file that keeps the OSError of its last failed write, for writers that
    report such a failure in their own words."""

    def __init__(self, file: BinaryIO):
        self._file = file
        self.error: OSError | None = None

    def write(self, data) -> int:
        try:
            return self._file.write(data)
        except OSError as err:
            self.error = err
            raise

    def __getattr__(self, name: str):
        return getattr(self._file, name)


def _naming(err: OSError, target: Path) -> OSError:
    """`err` (of its own class and errno) naming `target`, not the temporary file: "could
    not write runs/a/checkpoint.pt: No space left on device"."""
    why = err.strerror or str(err) or type(err).__name__
    named = type(err)(f"could not write {target}: {why}")
    named.errno = err.errno
    return named


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Replace `path` with `data` atomically (module docstring)."""
    atomic_write(path, lambda f: f.write(data))


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Replace `path` with `text` (UTF-8) atomically (module docstring)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def remove_partial_files(folder: str | os.PathLike) -> None:
    """Delete the temporary files that writes killed before their rename left in `folder`
    (only the writer of a folder may call this: another one's write in progress would
    fail)."""
    for leftover in Path(folder).glob(f".*{TEMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _sync_folder(folder: Path) -> None:
    """fsync a folder, so that a rename in it is on the disk (a no-op where folders cannot
    be opened, as on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
