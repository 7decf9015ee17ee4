"""The Gymnasium 1.x `VectorEnv` over N games of any game of the protocol
(`noir_env.game`), one learner seat per game, opponents played inside, batched.

    from noir_env.vector import make_vector_env

    envs = make_vector_env(1024, num_players=4, opponents="random", seed=0)   # NOIR
    envs = make_vector_env(1024, game="district_noir", opponents="district-heuristic")
    obs, infos = envs.reset()                    # obs float32 [N, obs_size]
    actions = policy(obs, infos["action_mask"])  # int8 mask [N, num_actions]
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Autoreset: `AutoresetMode.SAME_STEP` (`metadata["autoreset_mode"]`). A game whose learner
episode ends is dealt again in the same step: `obs` and `infos["action_mask"]` are the new
game's, the last observation is in `infos["final_obs"]` (object array, `_final_obs` marks the
slots) and the end of the episode in `infos["final_info"]`. Same-step because a policy must
always see at least one legal action: a next-step terminal observation would come with an
all-zero mask. `autoreset_mode=AutoresetMode.NEXT_STEP` (for trainers that expect
Gymnasium's default, such as RLlib's env runners): the step that ends an episode returns its
last observation in `obs` with an all-zero mask, and the next step deals that slot a new
game, ignoring its action (reward 0, not done); no `final_obs` key.

Rewards and episode ends follow the game's AEC env (noir_v2, district_noir_v0): 0 until the
learner's episode ends; then the zero-sum outcome (NOIR: +1 for a sole winner, -1/(n-1) for
a loser, shares on ties, including noir_v2's share of what eliminated players were paid;
District Noir: +1, -1, 0 for a draw), or -1/(n-1) when the learner is eliminated
(terminated, the game is abandoned), or 0 plus that share on truncation after `max_steps`
decisions.

infos (every step): `action_mask` int8 [N, A], `learner_seat` int8 [N], `num_players` int8
[N]. When episodes end, `final_info` holds for those slots `result` ("game_over",
"eliminated", "truncated"), `scores` [P], `winners` [P], `winner` (the sole winner's seat,
-1 for none), `win_reason`, `learner_won`, `game_length` (decisions by all players),
`learner_seat`, `num_players`, `game_seed`, `opponent`, each with its `_key` mask; and
`episode` = {"r", "l", "t"} with `_episode`, in the format of
`gymnasium.wrappers.vector.RecordEpisodeStatistics` (pass `episode_statistics=False` to use
that wrapper instead).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..game import Game
from ..views import action_space, observation_space
from .engine import Ended, SingleSeatGames, StepOut

FINAL_KEYS = (
    "result",
    "scores",
    "winners",
    "winner",
    "win_reason",
    "learner_won",
    "game_length",
    "learner_seat",
    "num_players",
    "game_seed",
    "opponent",
)


class EndedRows(Protocol):
    """What `final_info` reads: `games`, the slots that ended, and for each of its keys an
    array attribute with one row per slot in `games` (`Ended`, or the self-play env's)."""

    games: np.ndarray


def final_info(
    ended: EndedRows, num_envs: int, keys: tuple[str, ...] = FINAL_KEYS
) -> dict[str, np.ndarray]:
    """Gymnasium's dict-of-arrays form of the ended episodes' information (`keys` of
    `ended`): each key an array over all slots, `_key` marking the slots it is set for."""
    mark = np.zeros(num_envs, np.bool_)
    mark[ended.games] = True
    info: dict[str, np.ndarray] = {}
    for key in keys:
        values = getattr(ended, key)
        full = np.zeros((num_envs, *values.shape[1:]), values.dtype)
        if values.dtype == object:
            full[:] = None
        full[ended.games] = values
        info[key] = full
        info[f"_{key}"] = mark
    return info


class GameVectorEnv(VectorEnv):
    """N games with one learner seat each, opponents played inside (module docstring).
    Arguments as `make_vector_env`."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}
    final_keys: tuple[str, ...] = FINAL_KEYS  # what `final_info` reports of an episode

    def __init__(
        self,
        num_envs: int,
        num_players: int | list[int] | None = None,
        rules: Any = None,
        opponents: Any = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
        max_steps: int = 10_000,
        episode_statistics: bool = True,
        core_kwargs: dict | None = None,
        copy: bool = True,
        game: str | Game = "noir",
        mixed_tables: float = 0.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
    ):
        mode = _autoreset_mode(autoreset_mode)
        self.games = SingleSeatGames(
            num_envs, num_players, rules, opponents, seed, learner_seat, max_steps,
            autoreset="next_step" if mode is AutoresetMode.NEXT_STEP else True,
            core_kwargs=core_kwargs, copy=copy, game=game, mixed_tables=mixed_tables,
        )  # fmt: skip
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.game = self.games.game
        self.num_envs = self.games.num_envs
        self.episode_statistics = bool(episode_statistics)
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = action_space(self.game)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask: np.ndarray | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal N new games. `seed` s gives slot i the game seed s + i (later games follow
        per-slot streams); without a seed the streams continue. options: {"opponents":
        spec} sets the opponents first (see `set_opponents`)."""
        obs, self._mask = self.games.reset(seed, options)  # checks every argument first
        super().reset(seed=None if seed is None else int(seed))
        return obs, self._step_infos()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner decision in every game (module docstring)."""
        out = self.games.step(actions)
        self._mask = out.mask
        return out.obs, out.reward, out.terminated, out.truncated, self._infos(out)

    def close_extras(self, **kwargs: Any) -> None:
        """`close()`: the games are closed; `reset` and `step` raise ValueError from now on."""
        self.games.close()

    def set_opponents(self, opponents: Any, mixed_tables: float | None = None) -> None:
        """Opponents of the games dealt from now on: a name ("random"), a policy with a
        batched act(obs, mask), such a callable, or a mix {opponent: probability} from which
        each game draws one. mixed_tables: the share of new games that draw one opponent
        per seat from the mix instead (None: unchanged). Games in progress keep theirs."""
        self.games.set_opponents(opponents, mixed_tables)

    def action_masks(self) -> np.ndarray:
        """bool [N, num_actions]: the learner's legal actions now."""
        if self._mask is None:
            raise ValueError("call reset() first")
        return self._mask.view(np.bool_)

    def _step_infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._mask,
            "learner_seat": self.games.learner.astype(np.int8),
            "num_players": self.game.num_players(self.games.state),
        }

    def _infos(self, out: StepOut) -> dict[str, Any]:
        infos = self._step_infos()
        ended = out.ended
        if ended is None:
            return infos
        n = self.num_envs
        done = out.terminated | out.truncated
        if self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP:
            final_obs = np.full(n, None, object)
            for j, g in enumerate(ended.games):  # only the slots whose episode ended
                final_obs[g] = ended.final_obs[j]
            infos["final_obs"] = final_obs
            infos["_final_obs"] = done
        infos["final_info"] = final_info(ended, n, self.final_keys)
        infos["_final_info"] = done
        if self.episode_statistics:
            infos["episode"] = episode_statistics(ended, n)
            infos["_episode"] = done
        return infos


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    """SAME_STEP or NEXT_STEP (the enum or its value); ValueError naming the others."""
    try:
        checked = AutoresetMode(mode)
    except ValueError:
        checked = None
    if checked not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        raise ValueError(
            "autoreset_mode must be AutoresetMode.SAME_STEP or NEXT_STEP ('SameStep' or "
            f"'NextStep'), got {mode!r}"
        )
    return checked


def episode_statistics(ended: Ended, num_envs: int) -> dict[str, np.ndarray]:
    """{"r": returns, "l": lengths, "t": seconds} over all slots, 0 where nothing ended."""
    r = np.zeros(num_envs, np.float64)
    length = np.zeros(num_envs, np.int64)
    t = np.zeros(num_envs, np.float64)
    r[ended.games] = ended.reward  # the only reward of an episode is its last
    length[ended.games] = ended.episode_length
    t[ended.games] = np.round(ended.episode_time, 6)
    return {"r": r, "l": length, "t": t}


def make_vector_env(
    num_envs: int,
    num_players: int | list[int] | None = None,
    rules: Any = None,
    opponents: Any = "random",
    seed: int | None = None,
    learner_seat: str | int = "random",
    max_steps: int = 10_000,
    episode_statistics: bool = True,
    core_kwargs: dict | None = None,
    copy: bool = True,
    game: str | Game = "noir",
    mixed_tables: float = 0.0,
    autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
) -> GameVectorEnv:
    """A Gymnasium VectorEnv of `num_envs` games of `game`, the learner in one seat of each.

    num_players: a count, or a list such as (3, 4, 5, 6) to draw each game's count from (a
    count listed twice is drawn twice as often; None: the game's default). rules: a preset
    name (None: the game's default). opponents: "random", a name for `agents.load`, a
    batched policy / callable act(obs, mask), or a mix {opponent: probability} drawn per
    game. seed: the first reset's seed (None: fresh entropy). learner_seat: "random" (per
    game) or a seat number. max_steps: decisions (all players) before truncation.
    episode_statistics: add `episode` infos. core_kwargs: extra keywords for the game's
    `init`. copy: observation and mask arrays that no later step writes while the caller
    holds them (False: two buffers overwritten by the next step, as Gymnasium's
    SyncVectorEnv(copy=False)). game: "noir", "district_noir" or any registered game.
    mixed_tables: the share of games (0..1) whose seats each draw an opponent from the mix,
    a table of different opponents; those games report their opponent as "mixed".
    autoreset_mode: SAME_STEP (default) or NEXT_STEP (module docstring).
    """
    return GameVectorEnv(
        num_envs, num_players, rules, opponents, seed, learner_seat, max_steps,
        episode_statistics, core_kwargs, copy, game, mixed_tables, autoreset_mode,
    )  # fmt: skip


class NoirVectorEnv(GameVectorEnv):
    """`GameVectorEnv` of NOIR (the vector entry point of "noir_env/Noir-v2")."""

    def __init__(self, num_envs: int, **kwargs: Any):
        super().__init__(num_envs, game="noir", **kwargs)


class DistrictVectorEnv(GameVectorEnv):
    """`GameVectorEnv` of District Noir (the vector entry point of
    "noir_env/DistrictNoir-v0")."""

    def __init__(self, num_envs: int, **kwargs: Any):
        super().__init__(num_envs, game="district_noir", **kwargs)
