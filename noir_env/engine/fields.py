"""Checks of the values of a state's JSON form, for every game's `state_from_dict`: each
refuses a value of the wrong kind (a bool, float or string where an int is meant is refused,
never converted) or out of range with a ValueError naming the key, and bounds every list
and string it reads."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._shown import shown

DEFAULT_RNG = 0x2545F4914F6CDD1D  # the xorshift state of a position that names none


def known_keys(d: dict, allowed: set[str], what: str) -> None:
    """ValueError naming the keys of `d` that are not `allowed`."""
    unknown = set(d) - allowed
    if unknown:
        names = sorted(map(str, unknown))
        raise ValueError(f"{what}: unknown keys {names}; keys: {sorted(allowed)}")


def int_in(value, key: str, lo: int, hi: int) -> int:
    """`value` as an int in lo..hi: a bool, float or str is refused, not converted."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{key}={shown(value)}: must be an int")
    if not lo <= value <= hi:
        raise ValueError(f"{key}={shown(value)}: must be in {lo}..{hi}")
    return int(value)


def flag(value, key: str) -> int:
    """A JSON bool (or 0 / 1) as 0 / 1."""
    if isinstance(value, bool | np.bool_ | int | np.integer) and value in (0, 1):
        return int(value)
    raise ValueError(f"{key}={shown(value)}: must be true or false")


def dict_of(value, key: str, allowed: set[str]) -> dict:
    """`value` as a dict whose keys are all `allowed`."""
    if not isinstance(value, dict):
        raise ValueError(f"{key}={shown(value)}: must be a dict with keys {sorted(allowed)}")
    known_keys(value, allowed, key)
    return value


def list_of(value, key: str, most: int) -> list:
    """`value` as a list of at most `most` entries."""
    if not isinstance(value, list | tuple) or len(value) > most:
        raise ValueError(f"{key}={shown(value)}: must be a list of at most {most} entries")
    return list(value)


def name_index(value, names: Sequence[str], what: str) -> int:
    """The index of the name `value` in `names`."""
    if not isinstance(value, str) or value not in names:
        raise ValueError(f"{what}: {shown(value)} is not one of {list(names)}")
    return list(names).index(value)


def card_counts(d, key: str, names: Sequence[str], most: Sequence[int] | np.ndarray) -> np.ndarray:
    """{card name: count} as int8 counts per card type, each at most the deck's `most[t]`."""
    out = np.zeros(len(names), np.int8)
    if not isinstance(d, dict):
        raise ValueError(f"{key}={shown(d)}: must be a dict {{card name: count}}")
    for name, k in d.items():
        if name not in names:
            raise ValueError(f"{key}: unknown card {shown(name, 40)}; cards: {list(names)}")
        t = list(names).index(name)
        out[t] = int_in(k, f"{key}.{name}", 0, int(most[t]))
    return out


def rng_state(value) -> int:
    """A game's xorshift64 state: a hex string ('0x2545f4914f6cdd1d') or an int, non-zero."""
    if isinstance(value, str):
        try:
            number = int(value, 16) if len(value) <= 40 else None
        except ValueError:
            number = None
        if number is None:
            why = "must be a hex string like '0x2545f4914f6cdd1d'"
            raise ValueError(f"rng={shown(value, 40)}: {why}")
        value = number
    return int_in(value, "rng (xorshift64 state, non-zero)", 1, 2**64 - 1)
