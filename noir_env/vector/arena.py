"""Batched multi-agent play: a list of scheduled games, every seat played by one of K
policies, many games in lockstep on the batched core. The engine of tournaments
(`train.tournament`).

    records = play_games(seeds, lineups, [ArenaPolicy("mine", my_act), RANDOM], rules="noirburg")
    records.winners        # bool [G, 6], in schedule order

Game g is dealt with `seeds[g]` (`core.init(seeds=...)`, so the same seed is the same deal
whatever the lineup) and seat q is played by policy `lineups[g, q]` (-1 past the table's
size: a row [0, 1, 2, -1, -1, -1] is a 3-player game). Games are played in `slots` lanes:
when a game ends, the next scheduled game is dealt into its lane, so the batch stays full
while short and long games mix.

Games are dealt with `ask_all=True` (R2.5, the multi-agent presentation): every decision a
player is presented with is a decision of its policy. A decision with a single legal action
is answered by the engine itself unless `ask_forced=True`: a policy with the memoryless
protocol `act(obs, mask)` has no other answer, so the game is the same, only faster.

The built-in uniform random policy (`ArenaPolicy(act=None)`, `RANDOM`) plays inside the
compiled kernel with one random stream per game, keyed by the game's seed and its place in
the schedule (so one deal replayed at several tables is not played the same way at each): a
game between built-in random players is a function of the schedule alone, whatever `slots`.
Every other policy is called once per decision round with the batch of all games in which
one of its seats must act: `act(obs[E, OBS_SIZE] or None, mask bool[E, NUM_ACTIONS]) ->
actions[E]`; obs is None for a policy declared `observes=False`, which saves writing
observations it never reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange

from .. import core
from ..core import constants as C
from ..core.api import step_one
from ..core.mask import count_legal, nth_legal
from ..core.refcount import borrowed
from ..core.rollout import random_legal_action
from ..core.rules import Rules, get_rules
from ..core.state import allocate, kernel_view
from ..spaces import NUM_ACTIONS, OBS_SIZE, describe_illegal
from . import _kernels as K
from .engine import PARALLEL_MIN, splitmix64

ST_EXTERNAL = 0  # a policy called from Python must decide
ST_OVER = 1  # the game is over
ST_TRUNCATED = 2  # max_steps decisions were taken
ST_IDLE = 3  # no game in the lane
_SALT_RANDOM = np.uint64(0x5EED0005)  # the built-in random policy's stream, per game seed


@dataclass(frozen=True)
class ArenaPolicy:
    """A player of `play_games`: `act(obs, mask) -> actions` batched, or None for the
    built-in uniform random policy; `observes=False` passes obs=None (the policy reads the
    mask only)."""

    name: str
    act: Callable[[np.ndarray | None, np.ndarray], Any] | None = None
    observes: bool = True


RANDOM = ArenaPolicy("random")


@dataclass
class GameRecords:
    """What happened in each scheduled game (rows in schedule order)."""

    num_players: np.ndarray  # int8 [G]
    winners: np.ndarray  # bool [G, 6]: the winners (none on truncation)
    win_reason: np.ndarray  # int8 [G]: index into constants.WIN_REASONS (0 on truncation)
    scores: np.ndarray  # int32 [G, 6]: each seat's R6.4 score at the end (0 if eliminated)
    out_at: np.ndarray  # int32 [G, 6]: the decision after which the seat was eliminated, -1
    length: np.ndarray  # int32 [G]: decisions presented to the players
    turns: np.ndarray  # int32 [G]: turns begun
    truncated: np.ndarray  # bool [G]: stopped after max_steps decisions


# --- kernels ----------------------------------------------------------------------------------
@njit(cache=True)
def _play(s, i, a, out_at, rew, done, ill):
    """One decision of game i; a seat eliminated by it gets out_at = the decision count."""
    alive_before = 0  # a bit per seat: no array allocated per decision
    for q in range(C.MAX_PLAYERS):
        if s[i].alive[q]:
            alive_before |= 1 << q
    step_one(s, i, a, rew, done, ill)
    for q in range(C.MAX_PLAYERS):
        if alive_before & (1 << q) and not s[i].alive[q]:
            out_at[i, q] = s[i].steps


@njit(cache=True)
def _advance(s, i, builtin, ask_forced, agent_rng, out_at, max_steps, rew, done, ill):
    """Play game i's built-in random seats and (unless ask_forced) its single-choice
    decisions until a Python policy must decide or the game stops; return the status."""
    while True:
        if s[i].phase == C.PH_GAME_OVER:
            return ST_OVER
        if s[i].steps >= max_steps:
            return ST_TRUNCATED
        if builtin[i, s[i].actor]:
            a = random_legal_action(s[i].mask, agent_rng, i)
        elif not ask_forced and count_legal(s[i].mask) == 1:
            a = nth_legal(s[i].mask, 0)
        else:
            return ST_EXTERNAL
        _play(s, i, a, out_at, rew, done, ill)


@njit(cache=True)
def _run_one(s, i, a, builtin, ask_forced, agent_rng, out_at, max_steps, status, rew, done,
             ill):  # fmt: skip
    s, builtin, agent_rng = borrowed(s), borrowed(builtin), borrowed(agent_rng)
    out_at = borrowed(out_at)
    rew, done, ill = borrowed(rew), borrowed(done), borrowed(ill)
    if a >= 0:
        _play(s, i, a, out_at, rew, done, ill)
    status[i] = _advance(s, i, builtin, ask_forced, agent_rng, out_at, max_steps, rew, done, ill)


@njit(cache=True, parallel=True)
def run_parallel(s, idx, actions, builtin, ask_forced, agent_rng, out_at, max_steps, status,
                 rew, done, ill):  # fmt: skip
    """Play actions[j] in game idx[j] (none if -1), then advance it (`_advance`)."""
    for j in prange(idx.shape[0]):
        _run_one(s, idx[j], actions[j], builtin, ask_forced, agent_rng, out_at, max_steps,
                 status, rew, done, ill)  # fmt: skip


@njit(cache=True)
def run_serial(s, idx, actions, builtin, ask_forced, agent_rng, out_at, max_steps, status,
               rew, done, ill):  # fmt: skip
    for j in range(idx.shape[0]):
        _run_one(s, idx[j], actions[j], builtin, ask_forced, agent_rng, out_at, max_steps,
                 status, rew, done, ill)  # fmt: skip


# --- the lockstep loop -------------------------------------------------------------------------
def check_schedule(seeds, lineups, num_policies: int) -> tuple[np.ndarray, np.ndarray]:
    """(seeds int64 [G], lineups int64 [G, 6]) checked: a policy index per seat, filled
    from seat 0, 3..6 seats per game. Raises ValueError naming the first bad game."""
    seeds = np.asarray(seeds)
    lineups = np.asarray(lineups)
    if seeds.ndim != 1 or not np.issubdtype(seeds.dtype, np.integer):
        raise ValueError(f"seeds must be a 1-D integer array, got {seeds.dtype} {seeds.shape}")
    if lineups.shape != (seeds.size, C.MAX_PLAYERS):
        raise ValueError(f"lineups must have shape ({seeds.size}, 6), got {lineups.shape}")
    if not np.issubdtype(lineups.dtype, np.integer):
        raise ValueError(f"lineups must hold policy indices, got dtype {lineups.dtype}")
    seated = lineups >= 0
    n = seated.sum(1)
    prefix = seated == (np.arange(C.MAX_PLAYERS)[None, :] < n[:, None])
    bad = np.flatnonzero(~prefix.all(1) | (n < C.MIN_PLAYERS) | (lineups >= num_policies).any(1))
    if bad.size:
        g = int(bad[0])
        raise ValueError(
            f"game {g}: lineup {lineups[g].tolist()} must seat 3..6 players from seat 0 "
            f"(policy indices 0..{num_policies - 1}, -1 for no player)"
        )
    return seeds.astype(np.int64), lineups.astype(np.int64)


class _Lanes:
    """The games in play: one core state of `size` lanes and each lane's bookkeeping."""

    def __init__(self, size: int, policies: Sequence[ArenaPolicy], ask_forced: bool):
        self.size = size
        self.state = allocate(size)
        self.game = np.full(size, -1, np.int64)  # scheduled game in each lane (-1: none)
        self.lineup = np.full((size, C.MAX_PLAYERS), -1, np.int64)
        self.builtin = np.zeros((size, C.MAX_PLAYERS), np.bool_)
        self.agent_rng = np.ones(size, np.uint64)
        self.out_at = np.full((size, C.MAX_PLAYERS), -1, np.int32)
        self.status = np.full(size, ST_IDLE, np.int8)
        self.core_out = (
            np.zeros((size, C.MAX_PLAYERS), np.float32),
            np.zeros(size, np.bool_),
            np.zeros(size, np.bool_),
        )
        self.policy_builtin = np.array([p.act is None for p in policies] + [False], np.bool_)
        self.ask_forced = bool(ask_forced)

    def deal(self, lanes, games, seeds, lineups, rules: Rules, max_steps: int) -> None:
        """Deal scheduled games `games` into `lanes` and advance them to a Python decision."""
        nps = (lineups[games] >= 0).sum(1)
        self.state[lanes] = core.init(lanes.size, nps, rules, seeds=seeds[games], ask_all=True)
        self.game[lanes] = games
        self.lineup[lanes] = lineups[games]
        self.builtin[lanes] = self.policy_builtin[self.lineup[lanes]]  # -1 -> the False pad
        keyed = splitmix64(seeds[games].astype(np.uint64) ^ _SALT_RANDOM)
        self.agent_rng[lanes] = splitmix64(keyed + games.astype(np.uint64)) | np.uint64(1)
        # (| 1: xorshift needs a non-zero state)
        self.out_at[lanes] = -1
        self.run(lanes, np.full(lanes.size, -1, np.int64), max_steps)

    def run(self, lanes: np.ndarray, actions: np.ndarray, max_steps: int) -> None:
        kernel = run_serial if lanes.size < PARALLEL_MIN else run_parallel
        kernel(kernel_view(self.state), lanes, actions, self.builtin, self.ask_forced,
               self.agent_rng, self.out_at, max_steps, self.status,
               *self.core_out)  # fmt: skip

    def observe(self, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The observations of the seats to act in `lanes` and their masks."""
        obs = np.empty((lanes.size, OBS_SIZE), np.float32)
        mask = np.empty((lanes.size, NUM_ACTIONS), np.int8)
        seats = self.state.actor[lanes].astype(np.int64)
        kernel = K.observe_rows_serial if lanes.size < PARALLEL_MIN else K.observe_rows
        kernel(kernel_view(self.state), lanes, seats, obs, mask)
        return obs, mask


def _ask(policy: ArenaPolicy, lanes: np.ndarray, box: _Lanes) -> np.ndarray:
    """`policy`'s actions in `lanes`, checked (shape, integers, legality)."""
    if policy.observes:
        obs, mask = box.observe(lanes)
    else:
        obs, mask = None, box.state.mask[lanes]
    actions = policy.act(obs, mask.view(np.bool_))
    try:
        acts = np.asarray(actions).reshape(lanes.size)
    except ValueError:
        raise ValueError(
            f"agent {policy.name!r} returned actions of shape {np.shape(actions)} for "
            f"{lanes.size} decisions"
        ) from None
    if not np.issubdtype(acts.dtype, np.integer):
        raise ValueError(f"agent {policy.name!r} returned non-integer actions ({acts.dtype})")
    acts = acts.astype(np.int64, copy=False)
    bad = K.first_illegal(kernel_view(box.state), lanes, acts)
    if bad >= 0:
        msg = describe_illegal(box.state, int(lanes[bad]), int(acts[bad]))
        raise ValueError(f"agent {policy.name!r} chose an illegal action: {msg}")
    return acts


def _external_round(box: _Lanes, policies: Sequence[ArenaPolicy], max_steps: int) -> None:
    """Every lane waiting for a Python policy: ask the policies, batched, then play on."""
    lanes = np.flatnonzero(box.status == ST_EXTERNAL)
    if not lanes.size:
        return
    seats = box.state.actor[lanes].astype(np.int64)
    owner = box.lineup[lanes, seats]
    acts = np.empty(lanes.size, np.int64)
    for k in np.unique(owner):
        rows = np.flatnonzero(owner == k)
        acts[rows] = _ask(policies[int(k)], lanes[rows], box)
    box.run(lanes, acts, max_steps)


def _record(box: _Lanes, lanes: np.ndarray, out: GameRecords) -> None:
    games = box.game[lanes]
    done = box.state[lanes]
    out.winners[games] = done.winners.astype(np.bool_)
    out.win_reason[games] = done.win_reason
    out.scores[games] = core.scores(done)
    out.out_at[games] = box.out_at[lanes]
    out.length[games] = done.steps
    out.turns[games] = done.turn_no + 1
    out.truncated[games] = box.status[lanes] == ST_TRUNCATED


def play_games(
    seeds: np.ndarray,
    lineups: np.ndarray,
    policies: Sequence[ArenaPolicy],
    rules: str | Rules = "noirburg",
    max_steps: int = 10_000,
    slots: int = 2048,
    ask_forced: bool = False,
    progress: Callable[[int], Any] | None = None,
) -> GameRecords:
    """Play every scheduled game (module docstring) and return what happened.

    seeds: int [G], the deal of each game. lineups: int [G, 6], the policy index of each
    seat (-1 past the table's size). policies: the players. max_steps: decisions after
    which a game is truncated. slots: games played at once. ask_forced: also call the
    policies on decisions with one legal action. progress: called with the number of games
    just finished. Raises ValueError for a bad schedule or a policy's bad or illegal answer.
    """
    if not policies:
        raise ValueError("play_games needs at least one policy")
    if int(max_steps) < 1 or int(slots) < 1:
        raise ValueError(f"max_steps and slots must be >= 1, got {max_steps} and {slots}")
    seeds, lineups = check_schedule(seeds, lineups, len(policies))
    rules = get_rules(rules)
    total = seeds.size
    out = GameRecords(
        num_players=(lineups >= 0).sum(1).astype(np.int8),
        winners=np.zeros((total, C.MAX_PLAYERS), np.bool_),
        win_reason=np.zeros(total, np.int8),
        scores=np.zeros((total, C.MAX_PLAYERS), np.int32),
        out_at=np.full((total, C.MAX_PLAYERS), -1, np.int32),
        length=np.zeros(total, np.int32),
        turns=np.zeros(total, np.int32),
        truncated=np.zeros(total, np.bool_),
    )
    box = _Lanes(min(int(slots), max(total, 1)), policies, ask_forced)
    next_game = 0
    free = np.arange(box.size)
    while True:
        if free.size and next_game < total:
            take = free[: total - next_game]
            games = np.arange(next_game, next_game + take.size)
            next_game += take.size
            box.deal(take, games, seeds, lineups, rules, max_steps)
        ended = np.flatnonzero((box.status == ST_OVER) | (box.status == ST_TRUNCATED))
        if ended.size:
            _record(box, ended, out)
            box.status[ended] = ST_IDLE
            if progress is not None:
                progress(int(ended.size))
        free = np.flatnonzero(box.status == ST_IDLE)
        if free.size == box.size and next_game >= total:
            return out
        _external_round(box, policies, max_steps)
