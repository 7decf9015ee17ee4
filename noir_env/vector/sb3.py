"""A Stable-Baselines3 `VecEnv` over the batched single-seat engine, for sb3-contrib's
MaskablePPO unchanged:

    from sb3_contrib import MaskablePPO
    from noir_env.vector import make_sb3_vec_env

    env = make_sb3_vec_env(64, num_players=4, opponents="random", seed=0)  # or game=...
    model = MaskablePPO("MlpPolicy", env, n_steps=64).learn(100_000)

Any game of the protocol (`noir_env.game`): `game="district_noir"`.
`action_masks()` returns the bool [N, num_actions] masks of the learner's next decisions, and
`env_method("action_masks")` the same as a list of rows (sb3-contrib's contract). Episodes
reset in the step they end, as every SB3 VecEnv does: the ended episode's last observation is
`infos[i]["terminal_observation"]`, `infos[i]["TimeLimit.truncated"]` says whether it was
truncated, and `infos[i]["episode"]` = {"r", "l", "t"} (Monitor's format) together with the
game's end as in the Gymnasium VectorEnv's `final_info` (`gym_vector.FINAL_KEYS`). Rewards
and episode ends are those of `noir_env.vector.gym_vector`.

Needs the `train` extra (stable-baselines3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from ..game import Game
from ..views import action_space, observation_space
from .engine import Ended, SingleSeatGames
from .gym_vector import FINAL_KEYS


class GameSB3VecEnv(VecEnv):
    """N games, the learner in one seat of each, as an SB3 VecEnv (module docstring).
    Arguments as `make_sb3_vec_env`."""

    final_keys: tuple[str, ...] = FINAL_KEYS  # the game's end, in each ended slot's info

    def __init__(
        self,
        num_envs: int,
        num_players: int | list[int] | None = None,
        rules: Any = None,
        opponents: Any = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
        max_steps: int = 10_000,
        core_kwargs: dict | None = None,
        game: str | Game = "noir",
    ):
        self.games = SingleSeatGames(
            num_envs, num_players, rules, opponents, seed, learner_seat, max_steps,
            autoreset=True, core_kwargs=core_kwargs, copy=True, game=game,
        )  # fmt: skip  # copy: SB3 keeps the last observation while it steps again
        self.game = self.games.game
        self.render_mode = None
        super().__init__(self.games.num_envs, observation_space(self.game), action_space(self.game))
        self._actions: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    # --- VecEnv -----------------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        """Deal N new games; the seed set by `seed(s)` gives slot i the game seed s + i,
        otherwise each slot's seed stream continues."""
        obs, self._mask = self.games.reset(self._seeds[0])  # checks the seed first
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise ValueError("step_wait() without step_async(actions)")
        out = self.games.step(self._actions)
        self._actions = None
        self._mask = out.mask
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if out.ended is not None:
            _add_ended(infos, out.ended, self.final_keys)
        return out.obs, out.reward, out.terminated | out.truncated, infos

    def close(self) -> None:
        """Close the games: `reset` and `step` raise ValueError from now on."""
        self.games.close()

    def action_masks(self) -> np.ndarray:
        """bool [N, num_actions]: the learner's legal actions now."""
        if self._mask is None:
            raise ValueError("call reset() first")
        return self._mask.view(np.bool_)

    def set_opponents(self, opponents: Any) -> None:
        """Opponents of the games dealt from now on (`GameVectorEnv.set_opponents`)."""
        self.games.set_opponents(opponents)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of this (single, batched) environment, once per index."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the batched environment (shared by every index)."""
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs
    ) -> list[Any]:
        """`action_masks`: one mask row per index (sb3-contrib's contract). Any other method
        of this environment is called once, its result repeated per index."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices


def _add_ended(
    infos: list[dict[str, Any]], ended: Ended, keys: tuple[str, ...] = FINAL_KEYS
) -> None:
    """Fill the infos of the slots whose episode ended (SB3's keys and the game's end)."""
    for j, g in enumerate(ended.games):  # only the slots whose episode ended
        info = infos[g]
        info["terminal_observation"] = ended.final_obs[j]
        info["TimeLimit.truncated"] = not bool(ended.terminated[j])
        info["episode"] = {
            "r": float(ended.reward[j]),
            "l": int(ended.episode_length[j]),
            "t": round(float(ended.episode_time[j]), 6),
        }
        for key in keys:
            info[key] = getattr(ended, key)[j]


def make_sb3_vec_env(
    num_envs: int,
    num_players: int | list[int] | None = None,
    rules: Any = None,
    opponents: Any = "random",
    seed: int | None = None,
    learner_seat: str | int = "random",
    max_steps: int = 10_000,
    core_kwargs: dict | None = None,
    game: str | Game = "noir",
) -> GameSB3VecEnv:
    """An SB3 VecEnv of `num_envs` games of `game` with `action_masks()` (arguments as
    `noir_env.vector.make_vector_env`)."""
    return GameSB3VecEnv(
        num_envs, num_players, rules, opponents, seed, learner_seat, max_steps, core_kwargs, game
    )
