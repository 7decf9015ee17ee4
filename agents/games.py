"""Which game an agent plays: the observation size of each game and the check that turns a
wrong-game observation into a clear error (a NOIR agent handed District Noir observations,
or the other way round), before any kernel reads it."""

from __future__ import annotations

import numpy as np

from noir_env.core.observe import OBS_SIZE as NOIR_OBS_SIZE
from noir_env.district.observe import OBS_SIZE as DISTRICT_OBS_SIZE

GAME_TITLES = {"noir": "NOIR", "district_noir": "District Noir"}
OBS_SIZES = {"noir": NOIR_OBS_SIZE, "district_noir": DISTRICT_OBS_SIZE}


def check_observation(agent: str, game: str, obs: np.ndarray) -> None:
    """Raise ValueError unless `obs` is a batch [N, D] of `game`'s observations; the message
    names the agent, its game and, for the other game's observations, that game."""
    want = OBS_SIZES[game]
    if obs.ndim == 2 and obs.shape[1] == want:
        return
    size = obs.shape[-1] if obs.ndim else None
    other = [g for g, n in OBS_SIZES.items() if g != game and n == size]
    hint = f": that is a {GAME_TITLES[other[0]]} observation" if other else ""
    raise ValueError(
        f"obs must have shape (N, {want}), got {obs.shape}{hint}; agent {agent!r} plays "
        f"{GAME_TITLES[game]} only"
    )
