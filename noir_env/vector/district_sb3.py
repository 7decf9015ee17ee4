"""A Stable-Baselines3 `VecEnv` of District Noir with `action_masks()`, for sb3-contrib's
MaskablePPO unchanged:

    from sb3_contrib import MaskablePPO
    from noir_env.vector import make_district_sb3_vec_env

    env = make_district_sb3_vec_env(64, opponents="district-heuristic", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64).learn(100_000)

NOIR's `sb3.NoirSB3VecEnv` over the District Noir engine: the same contract (episodes reset
in the step they end, `infos[i]["terminal_observation"]`, `"TimeLimit.truncated"`,
`"episode"`), with the end of the game as in `district.FINAL_KEYS`. Needs the `train` extra.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from ..district import spaces as dn_spaces
from .district import FINAL_KEYS
from .district_engine import DistrictGames
from .sb3 import NoirSB3VecEnv


class DistrictSB3VecEnv(NoirSB3VecEnv):
    """N District Noir games, the learner in one seat of each, as an SB3 VecEnv (module
    docstring). Arguments as `make_district_sb3_vec_env`."""

    final_keys = FINAL_KEYS

    def __init__(
        self,
        num_envs: int,
        opponents: Any = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
    ):
        # copy: SB3 keeps the last observation while it steps again
        self.games = DistrictGames(num_envs, opponents, seed, learner_seat, True, copy=True)
        self.render_mode = None
        VecEnv.__init__(
            self, self.games.num_envs, dn_spaces.observation_space(), dn_spaces.action_space()
        )
        self._actions: np.ndarray | None = None
        self._mask: np.ndarray | None = None


def make_district_sb3_vec_env(
    num_envs: int,
    opponents: Any = "random",
    seed: int | None = None,
    learner_seat: str | int = "random",
) -> DistrictSB3VecEnv:
    """An SB3 VecEnv of `num_envs` District Noir games with `action_masks()` (arguments as
    `noir_env.vector.make_district_vector_env`)."""
    return DistrictSB3VecEnv(num_envs, opponents, seed, learner_seat)
