"""The single-seat Gymnasium env of any game of the protocol (`noir_env.game`): one game,
the learner in one seat, every other decision taken inside by opponent policies. Registered
as "noir_env/Noir-v2" (NOIR) and "noir_env/DistrictNoir-v0" (District Noir); for standard
single-env tools (SB3's `make_vec_env`, Gymnasium wrappers; Gymnasium's and SB3's
`check_env` with `illegal_action="terminate"`, since they step unmasked actions):

    import gymnasium as gym

    env = gym.make("noir_env:noir_env/Noir-v2", num_players=4, opponents="random")
    obs, info = env.reset(seed=0)  # "noir_env:" imports noir_env, which registers the ids
    legal = env.action_masks()  # bool [num_actions], the same as info["action_mask"]
    obs, reward, terminated, truncated, info = env.step(int(legal.argmax()))

`action_masks()` gives the legal actions as bool [num_actions] (sb3-contrib's contract).
`gymnasium.make` returns the env itself, without Gymnasium's order and passive checks (the
env makes its own: `step` or `action_masks` before `reset` raise ValueError), because Gymnasium
1.x wrappers hide every method they do not define, `action_masks` included.
Observation, action space, rewards, episode ends and the final `info` keys are those of
`noir_env.vector.gym_vector` for one game (no autoreset: call `reset()`). The same engine runs
the vector envs, so a batch of these is the slow way to get what `make_vector_env` gives.
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np

from ..game import Game
from ..views import action_space, board_text, observation_space
from .engine import SingleSeatGames
from .episodes import Ended
from .gym_vector import FINAL_KEYS

ILLEGAL_ACTIONS = ("raise", "terminate")  # what an illegal action does (SingleSeatEnv)


class SingleSeatEnv(gymnasium.Env):
    """One game from one learner seat (module docstring).

    num_players: a count or a list to draw from per game (listed twice: drawn twice as
    often; None: the game's default). rules: preset name (None: the default). opponents:
    "random", a name for `agents.load`, a batched policy / callable act(obs, mask), or a
    mix {opponent: probability}.
    learner_seat: "random" or a seat. max_steps: decisions (all players) before truncation.
    illegal_action: "raise" (ValueError naming the action, the state unchanged) or
    "terminate" (the episode ends at once with reward `illegal_reward` and
    `info["illegal_action"]` True, the game unchanged; PettingZoo's TerminateIllegalWrapper
    does the same), for tools that step unmasked actions, Gymnasium's and SB3's `check_env`
    among them.
    render_mode: None, "ansi" (render() returns the game as text from the learner's seat),
    "human" (prints it) or "rgb_array" (NOIR and District Noir: the board as a picture from
    the spectator's view, uint8 [720, 1280, 3], for Gymnasium's `RecordVideo`; needs Pillow,
    the `render` extra). game: a game name or `Game`.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}
    final_keys: tuple[str, ...] = FINAL_KEYS  # the game's end, in the last step's info

    def __init__(
        self,
        num_players: int | list[int] | None = None,
        rules: Any = None,
        opponents: Any = "random",
        learner_seat: str | int = "random",
        max_steps: int = 10_000,
        render_mode: str | None = None,
        core_kwargs: dict | None = None,
        game: str | Game = "noir",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            # TypeError, as for an unknown keyword: SB3's make_vec_env, asking for a render
            # mode an env lacks, makes the env again without one on TypeError
            modes = self.metadata["render_modes"]
            raise TypeError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {illegal_action!r}"
            )
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise ValueError(f"illegal_reward must be a number, got {illegal_reward!r}")
        if not np.isfinite(illegal_reward):
            raise ValueError(f"illegal_reward must be finite, got {illegal_reward!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.games = SingleSeatGames(
            1, num_players, rules, opponents, None, learner_seat, max_steps,
            autoreset=False, core_kwargs=core_kwargs, game=game,
        )  # fmt: skip
        self.game = self.games.game
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = action_space(self.game)
        self._mask: np.ndarray | None = None
        self._obs: np.ndarray | None = None
        self._ended = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a game: `seed` is the game's seed; without one the seed stream goes on.
        options: {"opponents": spec} sets the opponents first."""
        obs, mask = self.games.reset(seed, options)  # checks every argument first
        super().reset(seed=None if seed is None else int(seed))
        self._mask = mask[0].copy()  # the engine's buffers are reused: return data of its own
        self._obs = obs[0].copy()
        self._ended = False
        return self._obs.copy(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.illegal_action == "terminate":
            if self._mask is None or self._obs is None:
                raise ValueError("call reset() first")
            if self._ended:
                raise ValueError("the episode ended on an illegal action: call reset()")
            if not _legal(action, self._mask):
                return self._end_on_illegal(action, self._obs, self._mask)
        out = self.games.step(np.array([action]))
        self._obs = out.obs[0].copy()
        self._mask = out.mask[0].copy()
        info = self._info()
        if out.ended is not None:
            info.update(_final(out.ended, self.final_keys))
        if self.render_mode == "human":
            self.render()
        terminated, truncated = bool(out.terminated[0]), bool(out.truncated[0])
        return self._obs.copy(), float(out.reward[0]), terminated, truncated, info

    def _end_on_illegal(
        self, action: Any, obs: np.ndarray, mask: np.ndarray
    ) -> tuple[np.ndarray, float, bool, bool, dict]:
        """illegal_action="terminate": the episode ends, the game stays as it was (its
        observation `obs`; `mask` the legal actions it had)."""
        self._ended = True
        self._mask = np.zeros_like(mask)
        info = {**self._info(), "illegal_action": True, "action": repr(action)}
        return obs.copy(), self.illegal_reward, True, False, info

    def close(self) -> None:
        """Close the game: `reset` and `step` raise ValueError from now on."""
        self.games.close()

    def action_masks(self) -> np.ndarray:
        """bool [num_actions]: the learner's legal actions (all False once the episode is
        over)."""
        if self._mask is None:
            raise ValueError("call reset() first")
        return self._mask.view(np.bool_)

    def set_opponents(self, opponents: Any) -> None:
        """Opponents of the games dealt from now on."""
        self.games.set_opponents(opponents)

    def render(self) -> str | np.ndarray | None:
        """The board as text from the learner's seat ("ansi"), printed ("human"), or as a
        picture from the spectator's view ("rgb_array", `noir_env.picture`)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode")
            return None
        if self.games.state is None:
            raise ValueError("call reset() before render()")
        g = self.games
        if self.render_mode == "rgb_array":
            from ..picture import board  # Pillow is imported only here

            return board(g.state, 0, None, rules_name=getattr(g.rules, "name", "") or "").rgb()
        text = board_text(self.game, g.state, 0, int(g.learner[0]), g.rules)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _info(self) -> dict[str, Any]:
        g = self.games
        return {
            "action_mask": self._mask,
            "learner_seat": int(g.learner[0]),
            "num_players": int(self.game.num_players(g.state)[0]),
            "game_seed": int(g.game_seed[0]),
        }


def _legal(action: Any, mask: np.ndarray) -> bool:
    """Whether `action` is one of the legal action ids of `mask`."""
    if isinstance(action, bool | np.bool_):
        return False
    try:
        a = operator.index(action)
    except TypeError:
        return False
    return 0 <= a < mask.shape[0] and bool(mask[a])


def _final(ended: Ended, keys: tuple[str, ...] = FINAL_KEYS) -> dict[str, Any]:
    info = {key: getattr(ended, key)[0] for key in keys}
    info["episode_length"] = int(ended.episode_length[0])
    return info


class NoirEnv(SingleSeatEnv):
    """`SingleSeatEnv` of NOIR (the entry point of "noir_env/Noir-v2")."""

    def __init__(self, **kwargs: Any):
        super().__init__(game="noir", **kwargs)


class DistrictEnv(SingleSeatEnv):
    """`SingleSeatEnv` of District Noir (the entry point of "noir_env/DistrictNoir-v0")."""

    def __init__(self, **kwargs: Any):
        super().__init__(game="district_noir", **kwargs)
