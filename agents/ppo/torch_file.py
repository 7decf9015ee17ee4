"""Reading a torch file from outside (a policy file, a training checkpoint): no code runs, and
nothing is allocated that the file's bytes do not hold.

`torch.save` writes a zip archive: the pickled object (`data.pkl`) and one record per tensor
storage (`data/<n>`), each stored uncompressed. `load_torch_file` checks the archive before
torch reads it and the tensors after:

- the archive: every record stored (a compressed record could inflate a small file a
  thousandfold: a zip bomb), the records' sizes together at most the file's size (records
  that overlap would count one byte several times);
- the object: read with torch's `weights_only` (tensors and plain data: anything that
  would import code is refused);
- every tensor: a dense (strided) tensor whose strides are exactly the contiguous ones, so
  that it holds no element its storage does not (an expanded view, stride 0, shows a
  one-element storage as a matrix of any size), and all tensors together at most the file's
  bytes (so views that share a storage cannot multiply it either).

So the work and the memory of whatever reads the object are bounded by the file's size.
"""

from __future__ import annotations

import os
import pickle
import zipfile
from pathlib import Path
from typing import Any

import torch


def load_torch_file(path: str | os.PathLike, what: str) -> Any:
    """The object a torch file holds, checked as the module docstring says. A file that is
    missing, empty, not a torch zip archive, damaged, holding code, or holding tensors its
    bytes do not hold raises ValueError naming the file, `what` it should be (e.g. "policy
    file") and what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no {what} there")
    size = path.stat().st_size
    if size == 0:
        raise ValueError(f"{path}: not a readable {what}: the file is empty")
    _check_archive(path, size, what)
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch reports a damaged or refused file in many ways
        unsafe = _unsafe_globals(path) if isinstance(err, pickle.UnpicklingError) else []
        if unsafe:
            raise ValueError(
                f"{path}: refused, it holds objects other than tensors and plain data "
                f"({', '.join(unsafe[:3])}: loading them could run code)"
            ) from None
        reason = (str(err).strip() or "no detail").splitlines()[0][:200]
        raise ValueError(f"{path}: not a readable {what}: a damaged torch archive "
                         f"({type(err).__name__}: {reason})") from None  # fmt: skip
    _check_tensors(data, size, path, what)
    return data


def _check_archive(path: Path, size: int, what: str) -> None:
    """ValueError unless `path` is a zip archive of stored records whose sizes together
    fit in the file's `size` bytes."""
    try:
        with zipfile.ZipFile(path) as archive:
            records = archive.infolist()
    except Exception as err:  # zipfile reports a damaged directory in many ways
        if isinstance(err, OSError) and not path.is_file():
            raise
        with open(path, "rb") as f:
            zipped = f.read(4) == b"PK\x03\x04"
        kind = "a damaged zip archive" if zipped else "not a torch zip archive"
        raise ValueError(f"{path}: not a readable {what}: {kind} ({err})") from None
    packed = [r.filename for r in records if r.compress_type != zipfile.ZIP_STORED]
    if packed:
        raise ValueError(f"{path}: not a {what} as torch.save writes it: the record "
                         f"{packed[0]!r} is compressed (torch stores its records as they "
                         "are)")  # fmt: skip
    total = sum(r.file_size for r in records)
    if total > size or any(r.file_size != r.compress_size for r in records):
        raise ValueError(f"{path}: not a readable {what}: its records claim {total:,} bytes, "
                         f"the file has {size:,}")  # fmt: skip


def _check_tensors(data: Any, size: int, path: Path, what: str) -> None:
    """ValueError unless every tensor in `data` (through dicts, lists, tuples and sets) is
    dense and contiguous, and all of them together hold at most `size` bytes."""
    total = 0
    seen: set[int] = set()
    todo = [data]
    while todo:  # iterative: a crafted object may nest deeply or refer to itself
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, torch.Tensor):
            _check_tensor(obj, path, what)
            total += obj.numel() * obj.element_size()
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            todo.extend(obj)
    if total > size:
        raise ValueError(f"{path}: not a sound {what}: its tensors hold {total:,} bytes, the "
                         f"file has {size:,} (tensors that share their storage)")  # fmt: skip


def _check_tensor(t: torch.Tensor, path: Path, what: str) -> None:
    """ValueError unless `t` is a dense tensor whose strides are the contiguous ones, exactly
    (also along dimensions of size 1, where torch would not mind: code that views the tensor
    as bytes would)."""
    if t.layout != torch.strided or t.is_quantized or t.is_nested:
        raise ValueError(f"{path}: not a sound {what}: a tensor of layout {t.layout} (only "
                         "dense tensors are read)")  # fmt: skip
    if t.stride() != _contiguous_strides(t.shape):
        raise ValueError(
            f"{path}: not a sound {what}: a tensor of shape {tuple(t.shape)} has strides "
            f"{t.stride()}, not contiguous ones (a view that repeats its storage's "
            f"{t.untyped_storage().nbytes():,} bytes)"
        )


def _contiguous_strides(shape: torch.Size) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def _unsafe_globals(path: Path) -> list[str]:
    """The code a torch file would import when unpickled, beyond what `weights_only`
    allows ([] for a file torch cannot read)."""
    try:
        return torch.serialization.get_unsafe_globals_in_checkpoint(path)
    except Exception:  # not a readable archive: nothing it could import
        return []
