"""Naming helpers every game's core uses for its data: a table of stable action names and
the observation's named slices. Data only; nothing here knows a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


class ActionTable:
    """The stable, readable names of a flat action space, id by id."""

    def __init__(self, names: Sequence[str]):
        self.names = list(names)
        self._ids = {name: k for k, name in enumerate(self.names)}

    def action_name(self, action: int) -> str:
        """The name of an action id; ValueError outside the space."""
        if not 0 <= int(action) < len(self.names):
            raise ValueError(f"action id {action} is outside 0..{len(self.names) - 1}")
        return self.names[int(action)]

    def action_id(self, name: str) -> int:
        """The id of an action name (inverse of `action_name`); ValueError naming the
        actions for an unknown one."""
        try:
            return self._ids[name]
        except KeyError:
            raise ValueError(f"unknown action name {name!r}; actions: {self.names}") from None

    def legal_action_names(self, mask_row: np.ndarray) -> list[str]:
        """The names of the actions set in one mask row."""
        return [self.names[k] for k in np.flatnonzero(mask_row)]

    def name_or_id(self, action: int) -> str:
        """The action's name, or `<id k>` for an id outside the space (error messages)."""
        return self.names[action] if 0 <= action < len(self.names) else f"<id {action}>"


def field_offsets(fields: Sequence[tuple[str, int]]) -> tuple[dict[str, tuple[int, int]], int]:
    """({name: (offset, size)}, total size) of fields laid out one after another in a flat
    observation, in the order given."""
    out, k = {}, 0
    for name, size in fields:
        out[name] = (k, size)
        k += size
    return out, k


def named_slices(
    global_offsets: Mapping[str, tuple[int, int]],
    global_size: int,
    seat_offsets: Mapping[str, tuple[int, int]],
    seat_size: int,
    seats: int,
) -> dict[str, slice]:
    """Named parts of a flat observation laid out as global fields (name: (offset, size))
    and then one block of `seat_size` per seat relative to the observer: `<field>` and
    `seat<r>.<field>`."""
    out = {name: slice(k, k + n) for name, (k, n) in global_offsets.items()}
    for rel in range(seats):
        base = global_size + rel * seat_size
        for name, (k, n) in seat_offsets.items():
            out[f"seat{rel}.{name}"] = slice(base + k, base + k + n)
    return out
