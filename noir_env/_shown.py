"""A value from outside as an error message shows it: its repr, bounded in length and depth
whatever the value (a string of megabytes, a list nested past Python's recursion limit),
so that reporting a bad value costs little and cannot fail itself. A small value is shown
exactly as `repr` shows it."""

from __future__ import annotations

import reprlib
from typing import Any


def shown(value: Any, width: int = 80) -> str:
    """The repr of `value` in at most `width` characters (module docstring)."""
    bounded = reprlib.Repr()  # one per call: its limits are attributes (thread safety)
    bounded.maxlevel = 3  # nesting shown; deeper levels are "..."
    bounded.maxdict = bounded.maxlist = bounded.maxtuple = bounded.maxset = 8
    bounded.maxfrozenset = bounded.maxdeque = bounded.maxarray = 8
    bounded.maxlong = 40  # digits of an int
    bounded.maxstring = bounded.maxother = max(width, 8)
    try:
        text = bounded.repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still shown
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[: width - 3] + "..."
