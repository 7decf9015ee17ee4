"""Batched two-player play of scheduled District Noir games, every seat played by one of K
policies, many games in lockstep: the engine of District Noir tournaments
(`train.tournament`, game="district_noir"). NOIR's counterpart is `arena.py`.

    records = play_district_games(seeds, lineups, [ArenaPolicy("mine", my_act), RANDOM])
    records.winners        # bool [G, 2], in schedule order

Game g is dealt with `seeds[g]` (`district.init(seeds=...)`: the same seed is the same deal
whatever the lineup) and seat q is played by policy `lineups[g, q]`. Games run in `slots`
lanes; when one ends, the next scheduled game is dealt into its lane. The core takes every
decision with a single legal action itself (DN5.1), so policies see real choices only.

The built-in uniform random policy (`ArenaPolicy(act=None)`) plays inside the compiled loop
(`noir_env.district.lockstep`) with one random stream per game, keyed by the game's seed and
its place in the schedule: a game between built-in players depends on the schedule alone,
whatever `slots`. Every other policy is called once per decision round with the batch of all
games in which it must act: `act(obs[E, OBS_SIZE] or None, mask bool[E, 14]) -> actions[E]`
(obs None for a policy declared `observes=False`).

The records are NOIR's `GameRecords` with two seat columns: `out_at` is always -1 (no one is
eliminated), `turns` counts the rounds begun (1..4), `truncated` is always False (a game has
at most 48 decisions) and `win_reason` indexes `district.constants.WIN_REASONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import district
from ..district import constants as C
from ..district import lockstep as L
from ..district.observe import OBS_SIZE
from ..district.spaces import describe_illegal
from ..district.state import allocate, kernel_view
from .arena import ArenaPolicy, GameRecords
from .engine import PARALLEL_MIN, splitmix64
from .opponents import as_actions

_SALT_RANDOM = np.uint64(0xD157_0004)  # the built-in random policy's stream, per game seed


def check_district_schedule(
    seeds: np.ndarray, lineups: np.ndarray, num_policies: int
) -> tuple[np.ndarray, np.ndarray]:
    """(seeds int64 [G], lineups int64 [G, 2]) checked: one policy index per seat. Raises
    ValueError naming the first bad game."""
    seeds = np.asarray(seeds)
    lineups = np.asarray(lineups)
    if seeds.ndim != 1 or not np.issubdtype(seeds.dtype, np.integer):
        raise ValueError(f"seeds must be a 1-D integer array, got {seeds.dtype} {seeds.shape}")
    if lineups.shape != (seeds.size, C.NUM_PLAYERS) or not np.issubdtype(lineups.dtype, np.integer):
        raise ValueError(
            f"lineups must be policy indices of shape ({seeds.size}, 2), got {lineups.dtype} "
            f"{lineups.shape}"
        )
    bad = np.flatnonzero(((lineups < 0) | (lineups >= num_policies)).any(1))
    if bad.size:
        g = int(bad[0])
        raise ValueError(
            f"game {g}: lineup {lineups[g].tolist()} must seat two policies (indices "
            f"0..{num_policies - 1})"
        )
    return seeds.astype(np.int64), lineups.astype(np.int64)


class _Lanes:
    """The games in play: one District Noir state of `size` lanes and their bookkeeping."""

    def __init__(self, size: int, policies: Sequence[ArenaPolicy]):
        self.size = size
        self.state = allocate(size)
        self.game = np.full(size, -1, np.int64)
        self.lineup = np.zeros((size, C.NUM_PLAYERS), np.int64)
        self.builtin = np.zeros((size, C.NUM_PLAYERS), np.bool_)
        self.agent_rng = np.ones(size, np.uint64)
        self.status = np.full(size, L.ST_IDLE, np.int8)
        self.core_out = (
            np.zeros((size, C.NUM_PLAYERS), np.float32),
            np.zeros(size, np.bool_),
            np.zeros(size, np.bool_),
        )
        self.policy_builtin = np.array([p.act is None for p in policies], np.bool_)

    def deal(self, lanes: np.ndarray, games: np.ndarray, seeds, lineups) -> None:
        """Deal scheduled games `games` into `lanes` and play them to a Python decision."""
        self.state[lanes] = district.init(lanes.size, seeds=seeds[games])
        self.game[lanes] = games
        self.lineup[lanes] = lineups[games]
        self.builtin[lanes] = self.policy_builtin[self.lineup[lanes]]
        keyed = splitmix64(seeds[games].astype(np.uint64) ^ _SALT_RANDOM)
        self.agent_rng[lanes] = splitmix64(keyed + games.astype(np.uint64)) | np.uint64(1)
        self.run(lanes, np.full(lanes.size, -1, np.int64))

    def run(self, lanes: np.ndarray, actions: np.ndarray) -> None:
        kernel = L.run_serial if lanes.size < PARALLEL_MIN else L.run_parallel
        kernel(kernel_view(self.state), lanes, actions, self.builtin, self.agent_rng,
               self.status, *self.core_out)  # fmt: skip

    def ask(self, policy: ArenaPolicy, lanes: np.ndarray) -> np.ndarray:
        """`policy`'s actions for the seats to act in `lanes`, checked."""
        kv = kernel_view(self.state)
        if policy.observes:
            obs = np.empty((lanes.size, OBS_SIZE), np.float32)
            mask = np.empty((lanes.size, C.NUM_ACTIONS), np.int8)
            seats = self.state.actor[lanes].astype(np.int64)
            kernel = L.observe_rows_serial if lanes.size < PARALLEL_MIN else L.observe_rows
            kernel(kv, lanes, seats, obs, mask)
        else:
            obs, mask = None, self.state.mask[lanes]
        acts = as_actions(
            f"agent {policy.name!r}", policy.act(obs, mask.view(np.bool_)), lanes.size
        )
        bad = L.first_illegal(kv, lanes, acts)
        if bad >= 0:
            msg = describe_illegal(self.state, int(lanes[bad]), int(acts[bad]))
            raise ValueError(f"agent {policy.name!r} chose an illegal action: {msg}")
        return acts

    def record(self, lanes: np.ndarray, out: GameRecords) -> None:
        """Write the ended games in `lanes` into their rows of `out`."""
        games = self.game[lanes]
        done = self.state[lanes]
        out.winners[games] = done.winner[:, None] == np.arange(C.NUM_PLAYERS)[None, :]
        out.win_reason[games] = done.win_reason
        out.scores[games] = district.scores(done)
        out.length[games] = done.steps
        out.turns[games] = done.round_no + 1


def play_district_games(
    seeds: np.ndarray,
    lineups: np.ndarray,
    policies: Sequence[ArenaPolicy],
    slots: int = 2048,
    progress: Callable[[int], Any] | None = None,
) -> GameRecords:
    """Play every scheduled District Noir game (module docstring); return what happened.

    seeds: int [G], the deal of each game. lineups: int [G, 2], the policy index of each
    seat. policies: the players. slots: games played at once. progress: called with the
    number of games just finished. Raises ValueError for a bad schedule or a policy's bad
    or illegal answer.
    """
    if not policies:
        raise ValueError("play_district_games needs at least one policy")
    if int(slots) < 1:
        raise ValueError(f"slots must be >= 1, got {slots}")
    seeds, lineups = check_district_schedule(seeds, lineups, len(policies))
    total = seeds.size
    out = GameRecords(
        num_players=np.full(total, C.NUM_PLAYERS, np.int8),
        winners=np.zeros((total, C.NUM_PLAYERS), np.bool_),
        win_reason=np.zeros(total, np.int8),
        scores=np.zeros((total, C.NUM_PLAYERS), np.int32),
        out_at=np.full((total, C.NUM_PLAYERS), -1, np.int32),
        length=np.zeros(total, np.int32),
        turns=np.zeros(total, np.int32),
        truncated=np.zeros(total, np.bool_),
    )
    box = _Lanes(min(int(slots), max(total, 1)), policies)
    next_game = 0
    while True:
        free = np.flatnonzero(box.status == L.ST_IDLE)
        if free.size and next_game < total:
            take = free[: total - next_game]
            box.deal(take, np.arange(next_game, next_game + take.size), seeds, lineups)
            next_game += take.size
        ended = np.flatnonzero(box.status == L.ST_OVER)
        if ended.size:
            box.record(ended, out)
            box.status[ended] = L.ST_IDLE
            if progress is not None:
                progress(int(ended.size))
        waiting = np.flatnonzero(box.status == L.ST_EXTERNAL)
        if not waiting.size:
            if next_game >= total:
                return out
            continue
        owner = box.lineup[waiting, box.state.actor[waiting].astype(np.int64)]
        acts = np.empty(waiting.size, np.int64)
        for k in np.unique(owner):
            rows = np.flatnonzero(owner == k)
            acts[rows] = box.ask(policies[int(k)], waiting[rows])
        box.run(waiting, acts)
