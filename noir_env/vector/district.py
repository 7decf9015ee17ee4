"""The Gymnasium 1.x `VectorEnv` of District Noir: N games, one learner seat in each, the
other seat played inside by an opponent, batched (`district_engine.DistrictGames`).

    from noir_env.vector import make_district_vector_env

    envs = make_district_vector_env(1024, opponents="district-heuristic", seed=0)
    obs, infos = envs.reset()                    # obs float32 [N, OBS_SIZE]
    actions = policy(obs, infos["action_mask"])  # int8 mask [N, 14]
    obs, rewards, terminated, truncated, infos = envs.step(actions)

The Gymnasium plumbing is NOIR's `gym_vector.NoirVectorEnv` (same autoreset, infos and
episode statistics); only the games differ. Autoreset: `AutoresetMode.SAME_STEP`
(`metadata["autoreset_mode"]`): an ended game is dealt again in the same step, `obs` and
`infos["action_mask"]` are the new game's, the last observation is in `infos["final_obs"]`
(`_final_obs` marks the slots) and the end of the game in `infos["final_info"]`.

Rewards follow `district_noir_v0`: 0 until the game ends, then +1 for a win, -1 for a loss,
0 for a draw. A game ends within 48 decisions, so episodes are never truncated.

infos (every step): `action_mask` int8 [N, 14], `learner_seat` int8 [N]. When games end,
`final_info` holds for those slots `result` ("game_over"), `scores` [2] (final points by
seat), `winners` [2] (bool), `winner` (seat, -1 for a draw), `win_reason` ("buildings",
"points", "tiebreak", "draw"), `learner_won`, `game_length` (decisions by both players),
`learner_seat`, `game_seed` and `opponent`, each with its `_key` mask; and `episode` =
{"r", "l", "t"} with `_episode` (`gymnasium.wrappers.vector.RecordEpisodeStatistics`'s
format; `episode_statistics=False` leaves it out).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector.utils import batch_space

from ..district import spaces as dn_spaces
from .district_engine import DistrictGames
from .gym_vector import NoirVectorEnv

FINAL_KEYS = (
    "result",
    "scores",
    "winners",
    "winner",
    "win_reason",
    "learner_won",
    "game_length",
    "learner_seat",
    "game_seed",
    "opponent",
)


class DistrictVectorEnv(NoirVectorEnv):
    """N District Noir games with one learner seat each, the opponent played inside (module
    docstring). Arguments as `make_district_vector_env`."""

    final_keys = FINAL_KEYS

    def __init__(
        self,
        num_envs: int,
        opponents: Any = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
        episode_statistics: bool = True,
        copy: bool = True,
    ):
        self.games = DistrictGames(num_envs, opponents, seed, learner_seat, True, copy)
        self.num_envs = self.games.num_envs
        self.episode_statistics = bool(episode_statistics)
        self.single_observation_space = dn_spaces.observation_space()
        self.single_action_space = dn_spaces.action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask: np.ndarray | None = None

    def _step_infos(self) -> dict[str, Any]:
        return {"action_mask": self._mask, "learner_seat": self.games.learner.astype(np.int8)}


def make_district_vector_env(
    num_envs: int,
    opponents: Any = "random",
    seed: int | None = None,
    learner_seat: str | int = "random",
    episode_statistics: bool = True,
    copy: bool = True,
) -> DistrictVectorEnv:
    """A Gymnasium VectorEnv of `num_envs` District Noir games, the learner in one seat of
    each (module docstring).

    opponents: "random", "district-heuristic", a batched policy / callable act(obs, mask),
    or a mix {opponent: probability} drawn per game. seed: the first reset's seed (None:
    fresh entropy). learner_seat: "random" (per game) or 0 / 1. episode_statistics: add
    `episode` infos. copy: observation and mask arrays that no later step writes
    while the caller holds them (False: two buffers overwritten by the next step).
    """
    return DistrictVectorEnv(num_envs, opponents, seed, learner_seat, episode_statistics, copy)
