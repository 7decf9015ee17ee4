"""The one rule for finished games, kept by every agent: a mask row with no legal action
(a game that is over) gets the action -1, which the cores' `step` ignores for a finished
game. So a loop over a batch where some games have ended (the README's core loop) runs any
agent unchanged."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

NO_ACTION = -1  # the action of a row with no legal action


def act_on_live_rows(
    act_rows: Callable[[np.ndarray, np.ndarray], np.ndarray], obs: np.ndarray, mask: np.ndarray
) -> np.ndarray:
    """int64 [N]: `act_rows(obs[rows], mask[rows])` on the rows of `mask` [N, A] with a
    legal action, NO_ACTION on the others (`act_rows` never sees an empty row)."""
    live = mask.any(axis=1)
    if live.all():
        return np.asarray(act_rows(obs, mask), dtype=np.int64)
    out = np.full(mask.shape[0], NO_ACTION, np.int64)
    if live.any():
        out[live] = act_rows(obs[live], mask[live])
    return out
