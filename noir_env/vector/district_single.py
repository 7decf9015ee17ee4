"""The single-seat Gymnasium env registered as "noir_env/DistrictNoir-v0": one District Noir
game, the learner in one seat, the other seat played inside by an opponent policy.

    import gymnasium as gym
    import noir_env  # registers the id

    env = gym.make("noir_env/DistrictNoir-v0", opponents="district-heuristic")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(legal_action)  # info["action_mask"]

NOIR's `single.NoirEnv` over the District Noir engine: `action_masks()` gives the legal
actions as bool [14]; rewards and the final `info` keys are those of
`noir_env.vector.district` for one game (no autoreset: call `reset()`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..district import spaces as dn_spaces
from .district import FINAL_KEYS
from .district_engine import DistrictGames
from .single import NoirEnv


class DistrictEnv(NoirEnv):
    """One District Noir game from one learner seat (module docstring).

    opponents: "random", "district-heuristic", a batched policy / callable act(obs, mask),
    or a mix {opponent: probability}. learner_seat: "random" or 0 / 1. render_mode: None,
    "ansi" (render() returns the table from the learner's seat) or "human" (prints it).
    """

    final_keys = FINAL_KEYS

    def __init__(
        self,
        opponents: Any = "random",
        learner_seat: str | int = "random",
        render_mode: str | None = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TypeError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.games = DistrictGames(1, opponents, None, learner_seat, autoreset=False)
        self.render_mode = render_mode
        self.observation_space = dn_spaces.observation_space()
        self.action_space = dn_spaces.action_space()
        self._mask: np.ndarray | None = None

    def _board_text(self) -> str:
        from ..district_noir_v0 import render_table  # the table text lives with the AEC env

        return render_table(self.games.state, 0, int(self.games.learner[0]))

    def _info(self) -> dict[str, Any]:
        g = self.games
        return {
            "action_mask": self._mask,
            "learner_seat": int(g.learner[0]),
            "game_seed": int(g.game_seed[0]),
        }
