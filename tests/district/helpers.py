"""Hand-written District Noir positions and driving them by action name.

    s = position(round=3, players=[{"hand": {"gang_5": 1}, "actions": 4, ...}, {...}],
                 line=["gang_8", "port"], deck=[])
    rewards = act(s, "play:gang_5", "take")

`position` is `state_from_dict` (defaults documented in noir_env/district/serialize.py); with
`deck=[]` every card placed nowhere else is boxed, so a last-round position needs only the
cards it is about. `act` steps strictly (an illegal action raises) and checks the invariants
after every action.
"""

from __future__ import annotations

import numpy as np

from noir_env import district
from noir_env.district import constants as C
from noir_env.district.spaces import action_id
from noir_env.district.validate import check_invariants


def position(**d) -> district.State:
    """A batch of one game from the dict form (see noir_env/district/serialize.py)."""
    return district.state_from_dict(d)


def act(state: district.State, *names: str) -> np.ndarray:
    """Play the named actions in order; returns the rewards [2] of the last one."""
    rewards = np.zeros(2, np.float32)
    for name in names:
        r, _, _ = district.step(state, np.array([action_id(name)]))
        assert check_invariants(state) == []
        rewards = r[0]
    return rewards


def legal(state: district.State) -> list[str]:
    """The names of the legal actions of game 0."""
    return [district.ACTION_NAMES[a] for a in np.flatnonzero(district.legal_action_mask(state)[0])]


def cards(counts) -> dict[str, int]:
    """{card name: count} of a row of counts per card type (zeros left out)."""
    return {C.CARD_NAMES[t]: int(n) for t, n in enumerate(counts) if n}


def line(state: district.State) -> list[str]:
    """The line of game 0, oldest first."""
    g = state[0]
    return [C.CARD_NAMES[t] for t in g.line[: g.line_n]]
