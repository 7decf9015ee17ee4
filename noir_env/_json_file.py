"""Reading a JSON file from outside (a game's history, a policy table, a run's settings, a
tournament's results): bounded before it is parsed, and every way it can be malformed a
ValueError naming the file.

The file's size is checked before it is read (`max_bytes`), so a huge file costs nothing;
the text must be UTF-8 and standard JSON (NaN and Infinity, which Python's `json` accepts,
are refused: no JSON writer produces them); and its nesting is at most `MAX_DEPTH` levels (a
deeply nested file would exhaust the parser's recursion, or that of whatever walks the
result after it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

MAX_DEPTH = 32  # the formats read this way nest at most a few levels


def read_json_file(path: str | os.PathLike, what: str, max_bytes: int, nan: bool = False) -> Any:
    """The JSON value of the file at `path`, a `what` (e.g. "game history") of at most
    `max_bytes` bytes (`nan=True`: NaN and Infinity read as floats, for files written with
    them). ValueError naming the file and what is wrong for a file that is missing, too
    large, not UTF-8, not JSON, or nested deeper than `MAX_DEPTH`."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no {what} there")
    size = path.stat().st_size
    if size > max_bytes:
        raise ValueError(f"{path}: not a {what}: {size:,} bytes, a {what} is at most "
                         f"{max_bytes:,}")  # fmt: skip
    with open(path, "rb") as f:
        raw = f.read(max_bytes + 1)  # the file may have grown since its size was read
    if len(raw) > max_bytes:
        raise ValueError(f"{path}: not a {what}: more than {max_bytes:,} bytes")
    try:
        return parse_json(raw.decode("utf-8"), nan)
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not a {what}: not UTF-8 text ({err.reason} at byte "
                         f"{err.start})") from None  # fmt: skip
    except ValueError as err:
        raise ValueError(f"{path}: not a {what}: {err}") from None


def parse_json(text: str, nan: bool = False) -> Any:
    """The JSON value of `text`; ValueError (one line) if it is not standard JSON (NaN and
    Infinity allowed with `nan=True`) or nests deeper than `MAX_DEPTH`."""
    try:
        value = json.loads(text, parse_constant=float if nan else _refuse_constant)
    except RecursionError:
        raise ValueError(f"not JSON it can read: nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON ({err.msg}: line {err.lineno} column {err.colno})") from None
    depth = nesting(value)
    if depth > MAX_DEPTH:
        raise ValueError(f"not JSON it can read: nested {depth} levels, at most {MAX_DEPTH}")
    return value


def nesting(value: Any) -> int:
    """How many levels of lists and dicts `value` nests (0 for a number or a string)."""
    deepest, todo = 0, [(value, 0)]
    while todo:  # iterative: the value may nest deeper than Python's recursion limit
        item, depth = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            todo.extend((child, depth + 1) for child in item)
    return deepest


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")
