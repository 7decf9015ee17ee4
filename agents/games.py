"""Which game an agent plays: each registered game's observation size (`noir_env.game`) and
the check that turns a wrong-game observation into a clear error (a NOIR agent handed
District Noir observations, or the other way round), before any kernel reads it."""

from __future__ import annotations

import numpy as np

from noir_env.game import game_names, get_game


def obs_sizes() -> dict[str, int]:
    """{game name: observation size} of every registered game."""
    return {name: get_game(name).obs_size for name in game_names()}


GAME_TITLES = {name: get_game(name).title for name in game_names()}  # the built-in games
OBS_SIZES = obs_sizes()  # the built-in games'; `obs_sizes()` also sees games added later


def game_of_observation(size: int | None, but: str = "") -> str | None:
    """The title of a registered game (other than `but`) whose observations have `size`
    entries, or None."""
    for name, n in obs_sizes().items():
        if name != but and n == size:
            return get_game(name).title
    return None


def check_observation(agent: str, game: str, obs: np.ndarray) -> None:
    """Raise ValueError unless `obs` is a batch [N, D] of `game`'s observations; the message
    names the agent, its game and, for another game's observations, that game."""
    want = get_game(game).obs_size
    if obs.ndim == 2 and obs.shape[1] == want:
        return
    other = game_of_observation(obs.shape[-1] if obs.ndim else None, but=game)
    hint = f": that is a {other} observation" if other else ""
    raise ValueError(
        f"obs must have shape (N, {want}), got {obs.shape}{hint}; agent {agent!r} plays "
        f"{get_game(game).title} only"
    )
