"""The batched self-play API: N games in which the caller decides for every seat.

    from noir_env.vector import make_selfplay_env

    env = make_selfplay_env(1024, num_players=(3, 4, 5, 6), seed=0)
    obs, infos = env.reset()          # obs of the seat to act, infos["seat"], ["action_mask"]
    while training:
        actions = policy(obs, infos["action_mask"])       # one policy plays every seat
        obs, rewards, terminated, truncated, infos = env.step(actions)
        # rewards [N, 6]: what each seat earned on this step; infos["seat_done"] [N, 6]

Each step reports, per game, which seat must act (`infos["seat"]`, absolute seat number), its
observation (seat-relative, so one policy serves every seat) and its legal actions. Rewards
are attributed per seat as in noir_v1, so every seat's return is right (not only the last
mover's): a seat eliminated during the game gets -1/(n-1) on that step and its episode ends
(`seat_done`); when the game ends every seat still in gets the zero-sum outcome plus its share
of what the eliminated players were paid above theirs (0 plus that share on truncation after
`max_steps` decisions). Per game, the seats' returns sum to zero. A seat's episode ends
terminated, except at a truncation (`truncated[i]`), where the seats still in are truncated.

The game asks every living player in every reaction window and presents every turn step
that is not skipped for a public reason (`core.init(..., ask_all=True)`): who is asked
reveals nothing about hidden hands, which matters when the caller sees every seat's
decisions. Decisions with a single legal action are then presented too.

Autoreset is same-step, as in the single-seat envs: an ended game is dealt again at once;
`infos["final_info"]` holds, for those slots, `returns` [6], `scores` [6], `winners` [6],
`win_reason`, `result` ("game_over" or "truncated"), `game_length`, `num_players`,
`game_seed`, and `infos["final_obs"]` each seat's last observation ([num_players, OBS_SIZE]).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import core
from ..core import constants as C
from ..core.rules import Rules, get_rules
from ..core.state import allocate, kernel_view
from ..spaces import NUM_ACTIONS, OBS_SIZE
from . import _kernels as K
from .engine import PARALLEL_MIN, SeedStreams, check_player_counts, draw
from .gym_vector import final_info

_SALT_PLAYERS = np.uint64(0x5EED0001)  # the same draw as the single-seat engine's
_WIN_REASONS = np.array(C.WIN_REASONS, object)
_SEATS = np.arange(C.MAX_PLAYERS)


def seat_rewards(
    num_players: np.ndarray,
    alive_before: np.ndarray,
    alive_after: np.ndarray,
    outcome: np.ndarray,
    over: np.ndarray,
    truncated: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """(rewards float32 [N, 6], seat_done bool [N, 6]) of one step by noir_v1's rules:
    -1/(n-1) to a seat eliminated while the game goes on; at the end, to every seat still
    in, the outcome (the core's, 0 on truncation) plus an equal share of what the seats
    eliminated earlier were paid above their outcome."""
    n = num_players.astype(np.float64)[:, None]
    present = _SEATS[None, :] < n
    lose = -1.0 / (n - 1)
    ended = (over | truncated)[:, None]
    newly_out = alive_before & ~alive_after & present & ~over[:, None]
    out_before = np.where(over[:, None], ~alive_before, ~alive_after) & present
    live = present & ~out_before
    result = np.where(over[:, None], outcome, 0.0)
    share = ((result - lose) * out_before).sum(1, keepdims=True)
    share /= np.maximum(live.sum(1, keepdims=True), 1)
    final = ended & live
    rewards = np.where(final, result + share, np.where(newly_out, lose, 0.0))
    return rewards.astype(np.float32), newly_out | final


class SelfPlayEnv:
    """N games, every seat's decisions supplied by the caller (module docstring).
    Arguments as `make_selfplay_env`."""

    def __init__(
        self,
        num_envs: int,
        num_players: int | Iterable[int] = 4,
        rules: str | Rules = "noirburg",
        seed: int | None = None,
        max_steps: int = 10_000,
    ):
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        if int(max_steps) < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        self.num_envs = int(num_envs)
        self.player_counts = check_player_counts(num_players)
        self.rules = get_rules(rules)
        self.max_steps = int(max_steps)
        self.seed = seed
        self.seeds = SeedStreams(self.num_envs)
        self.state = None
        self.game_seed = np.zeros(self.num_envs, np.int64)
        self.returns = np.zeros((self.num_envs, C.MAX_PLAYERS), np.float64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal N games (seeds as the single-seat envs: s + i, then per-slot streams)."""
        if seed is None:
            seed = self.seed  # the constructor's seed applies to the first reset only
        self.seed = None
        if seed is not None or not self.seeds.started:
            self.seeds.restart(seed)
            self.state = allocate(self.num_envs)
        self._deal(np.arange(self.num_envs))
        obs, mask = self._observe()
        return obs, self._infos(mask)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in every game by its acting seat. Returns (obs of the next seat to
        act, rewards [N, 6] per seat, terminated [N] (game over), truncated [N], infos).
        Raises ValueError, changing nothing, if an action is illegal."""
        if self.state is None:
            raise ValueError("call reset() before step()")
        alive_before = self.state.alive.astype(np.bool_)
        outcome, over, _ = core.step(self.state, actions)  # checks every action first
        truncated = ~over & (self.state.steps >= self.max_steps)
        rewards, seat_done = seat_rewards(
            self.state.num_players, alive_before, self.state.alive.astype(np.bool_),
            outcome, over, truncated,
        )  # fmt: skip
        self.returns += rewards
        ended = np.flatnonzero(over | truncated)
        extra = self._ended(ended, over) if ended.size else {}
        if ended.size:
            self._deal(ended)
        obs, mask = self._observe()
        infos = self._infos(mask)
        infos["seat_done"] = seat_done
        infos.update(extra)
        return obs, rewards, over, truncated, infos

    # --- internals --------------------------------------------------------------------------
    def _deal(self, games: np.ndarray) -> None:
        seeds = self.seeds.next(games)
        counts = self.player_counts
        nps = counts[draw(seeds, _SALT_PLAYERS, counts.size)]
        self.state[games] = core.init(games.size, nps, self.rules, seeds=seeds, ask_all=True)
        self.game_seed[games] = seeds
        self.returns[games] = 0.0

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        """The acting seat's observation and mask in every game."""
        n = self.num_envs
        obs = np.empty((n, OBS_SIZE), np.float32)
        mask = np.empty((n, NUM_ACTIONS), np.int8)
        kernel = K.observe_rows_serial if n < PARALLEL_MIN else K.observe_rows
        seats = self.state.actor.astype(np.int64)
        kernel(kernel_view(self.state), np.arange(n, dtype=np.int64), seats, obs, mask)
        return obs, mask

    def _infos(self, mask: np.ndarray) -> dict[str, Any]:
        return {
            "seat": self.state.actor.copy(),
            "action_mask": mask,
            "num_players": self.state.num_players.copy(),
        }

    def _ended(self, games: np.ndarray, over: np.ndarray) -> dict[str, Any]:
        """final_info / final_obs of the games in `games`, before they are dealt again."""
        done = self.state[games]
        final_obs = np.full(self.num_envs, None, object)
        kv = kernel_view(self.state)
        for g in games:  # only the games that ended: each seat's last view
            n = int(self.state.num_players[g])
            obs = np.empty((n, OBS_SIZE), np.float32)
            mask = np.empty((n, NUM_ACTIONS), np.int8)
            K.observe_rows_serial(kv, np.full(n, g, np.int64), np.arange(n), obs, mask)
            final_obs[g] = obs
        ended = _EndedGames(
            games=games,
            returns=self.returns[games].copy(),
            scores=core.scores(done),
            winners=done.winners.astype(np.bool_),
            win_reason=_WIN_REASONS[done.win_reason],
            result=np.where(over[games], "game_over", "truncated").astype(object),
            game_length=done.steps.astype(np.int32),
            num_players=done.num_players.astype(np.int8),
            game_seed=self.game_seed[games].copy(),
        )
        mark = np.zeros(self.num_envs, np.bool_)
        mark[games] = True
        return {
            "final_obs": final_obs,
            "_final_obs": mark,
            "final_info": final_info(ended, self.num_envs, _FINAL_KEYS),
            "_final_info": mark,
        }


_FINAL_KEYS = (
    "returns",
    "scores",
    "winners",
    "win_reason",
    "result",
    "game_length",
    "num_players",
    "game_seed",
)


class _EndedGames:
    """The ended games' arrays, by name (what `final_info` reads)."""

    def __init__(self, games: np.ndarray, **arrays: np.ndarray):
        self.games = games
        self.__dict__.update(arrays)


def make_selfplay_env(
    num_envs: int,
    num_players: int | Iterable[int] = 4,
    rules: str | Rules = "noirburg",
    seed: int | None = None,
    max_steps: int = 10_000,
) -> SelfPlayEnv:
    """N NOIR games in which the caller plays every seat (module docstring).

    num_players: 3..6, or a set to draw each game's count from. rules: preset name or
    `core.Rules`. seed: the first reset's seed (None: fresh entropy). max_steps: decisions
    after which a game is truncated.
    """
    return SelfPlayEnv(num_envs, num_players, rules, seed, max_steps)
