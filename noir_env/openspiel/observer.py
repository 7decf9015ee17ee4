"""The observer OpenSpiel asks a Python game for (`make_py_observer`): the core's observation
as the observation tensor, the renderer's board as the strings, and for the information state
the board plus the player's digest of everything it has observed (perfect recall)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

if TYPE_CHECKING:
    from .game import SpielGame
    from .state import SpielState


class Observer:
    """What one player sees, as OpenSpiel's `PyObserver` interface asks: `tensor` (with
    named views in `dict`), `set_from(state, player)`, `string_from(state, player)`.

    Only the default observation type is offered (the player's private information and the
    public one); the information state (`perfect_recall=True`) has strings and no tensor."""

    def __init__(self, game: SpielGame, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "only the player's own view is offered (private_info SINGLE_PLAYER, "
                f"public_info True), got {iig_obs_type}"
            )
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        core = game.core_game
        self.tensor = np.zeros(0 if self.perfect_recall else core.obs_size, np.float32)
        self.dict = {} if self.perfect_recall else {
            name: self.tensor[part] for name, part in core.obs_slices.items()
        }  # fmt: skip

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill `tensor` with `player`'s observation of `state` (no tensor for the
        information state)."""
        if not self.perfect_recall:
            self.tensor[:] = state.observation(player)

    def string_from(self, state: SpielState, player: int) -> str:
        """The board from `player`'s view; for the information state, with the digest of
        the player's observation history."""
        text = state.board(player)
        if self.perfect_recall:
            text += f"\nobserved so far: {state.history_digest(player)}"
        return text
