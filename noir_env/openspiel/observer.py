"""The observer OpenSpiel asks a Python game for (`make_py_observer`): the core's observation
as the observation tensor, the renderer's board as the strings, and for the information state
the board plus the player's digest of everything it has observed (perfect recall), as a
string only."""

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

    Only the player's own view is offered (its private information and the public one).
    The information state (`perfect_recall=True`) has strings and no tensor: its `tensor`
    is None, as OpenSpiel's Python observers say so, and `set_from` raises
    `pyspiel.SpielError`, as a C++ game without the tensor does (so
    `state.information_state_tensor()` raises rather than giving an empty list)."""

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
        self.title = game.core_game.title
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        core = game.core_game
        if self.perfect_recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(core.obs_size, np.float32)
            self.dict = {name: self.tensor[part] for name, part in core.obs_slices.items()}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill `tensor` with `player`'s observation of `state` (zeros before the deal).
        The information state has no tensor: pyspiel.SpielError."""
        if self.tensor is None:  # perfect recall
            raise pyspiel.SpielError(
                f"InformationStateTensor unimplemented: {self.title} offers the information "
                "state as a string (information_state_string); the observation tensor is "
                "the core's observation of the present"
            )
        self.tensor[:] = state.observation(player)

    def string_from(self, state: SpielState, player: int) -> str:
        """The board from `player`'s view; for the information state, with the digest of
        the player's observation history."""
        text = state.board(player)
        if self.perfect_recall and state.core_state is not None:
            text += f"\nobserved so far: {state.history_digest(player)}"
        return text
