"""A search-style agent shared by the tests of every harness that seats agents through their
state hook (`uses_state`, `act_on_state(state, games)`): the arena and the vector envs."""

from __future__ import annotations

import numpy as np


class LowestLegalOnState:
    """A state-hook agent (`uses_state`) that plays the lowest legal action, as
    `first_legal` does through act(obs, mask); with wreck=True it then scribbles over the
    state it was handed, which must not reach the games of the harness that handed it."""

    uses_state = True

    def __init__(self, wreck: bool = False):
        self.wreck = wreck
        self.asked = 0

    def act_on_state(self, state, games):
        assert (state.actor[games] >= 0).all()  # every listed game waits for this seat
        self.asked += len(games)
        actions = np.argmax(state.mask[games], axis=1)
        if self.wreck:
            state.hand[:] = 0
            state.mask[:] = 0
            state.actor[:] = 0
        return actions
