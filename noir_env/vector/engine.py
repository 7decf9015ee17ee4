"""The batched single-seat engine behind every single-seat environment (Gymnasium VectorEnv,
SB3 VecEnv, the registered single env): N games of the core, one learner seat in each, every
other decision taken inside by opponent policies, batched across games.

One `step` plays the learner's action in every game and then the opponents' decisions until
each game is back at a learner decision or the learner's episode is over (game over, learner
eliminated, or `max_steps` decisions). The built-in uniform random opponent runs inside the
compiled kernel; other policies are called once per decision round with every game in which
one of their seats must act. Ended games are dealt again at once when `autoreset` is on.

The games run in the core's fast presentation mode (`core.init(..., ask_all=False)`): the
core takes every decision with a single legal action and the passes of players without a
reaction card, so the learner and the opponents see only real choices. The learner never
observes who else was asked, so this reveals nothing, and it is faster. noir_v1 presents
those decisions too (ask_all=True); the game is the same for the same choices, and
`max_steps` here counts real choices only.

Seeds: `reset(seed=s)` deals slot i the game with seed s + i (as `core.init(seeds=s)` and
`noir_v1`'s `reset(seed=s + i)`); its later games get seeds from a stream keyed by (s, i), so
a slot's games do not depend on the number of slots. The player count, the learner's seat,
the opponent drawn from the mix and the random opponents' choices all derive from the game's
seed: a game is a function of its seed and the learner's actions.
"""

from __future__ import annotations

import sys
import time
from abc import abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import core
from ..core import constants as C
from ..core.rules import Rules, get_rules
from ..core.state import allocate, kernel_view
from ..spaces import NUM_ACTIONS, OBS_SIZE, describe_illegal
from . import _kernels as K
from .opponents import OpponentSpec, OpponentTable

PARALLEL_MIN = 64  # below this many games the serial kernels beat numba's thread launch
SEED_LIMIT = 2**62  # game seeds stay in 0 .. 2**62 - 1
_SALT_PLAYERS, _SALT_SEAT, _SALT_OPPONENT, _SALT_RNG = (
    np.uint64(0x5EED0001),
    np.uint64(0x5EED0002),
    np.uint64(0x5EED0003),
    np.uint64(0x5EED0004),
)
MAX_REDEALS = 1000  # a slot whose games keep ending before the learner acts is an error
_STATUS_NAMES = np.array(K.STATUS_NAMES, object)
_WIN_REASONS = np.array(C.WIN_REASONS, object)


def _reference_counts(pair: tuple[np.ndarray, ...]) -> list[int]:
    return [sys.getrefcount(a) for a in pair]


# with copy=True, the newest output pairs an engine keeps for reuse: the caller usually still
# holds the last one while it steps, and has let go of the one before
KEPT_OUTPUTS = 2
_REFS_OF_A_KEPT_PAIR = max(_reference_counts((np.empty(0), np.empty(0))))


def held_outside(pair: tuple[np.ndarray, ...]) -> bool:
    """Whether anything besides the tuple `pair` refers to one of its arrays: a name, a
    container, a view (it refers to its base), a torch tensor made from it (CPython
    reference counts)."""
    return max(_reference_counts(pair)) > _REFS_OF_A_KEPT_PAIR


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 mixer over uint64 arrays (wrapping arithmetic): decorrelated draws
    from consecutive seeds."""
    z = np.asarray(x, np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def check_player_counts(num_players: int | Iterable[int]) -> np.ndarray:
    """int8 [K]: the player counts to draw from (one int, or a set of them, each 3..6)."""
    counts = np.atleast_1d(np.asarray(list(num_players) if not np.isscalar(num_players)
                                      else num_players))  # fmt: skip
    if counts.size == 0 or counts.ndim != 1 or not np.issubdtype(counts.dtype, np.integer):
        raise ValueError(f"num_players must be an int or a set of ints in 3..6, got {num_players}")
    bad = counts[(counts < C.MIN_PLAYERS) | (counts > C.MAX_PLAYERS)]
    if bad.size:
        raise ValueError(f"num_players must be in 3..6, got {int(bad[0])}")
    return np.unique(counts).astype(np.int8)


def draw(seeds: np.ndarray, salt: np.uint64, k: np.ndarray | int) -> np.ndarray:
    """uint64 draws in 0..k-1 keyed by each game's seed and a salt (one salt per use)."""
    return splitmix64(seeds.astype(np.uint64) ^ salt) % np.asarray(k, np.uint64)


class SeedStreams:
    """The game seeds of N slots: after `restart(s)` slot i's first game has the seed s + i
    (as `core.init(seeds=s)`), its later games seeds from a splitmix stream keyed by s + i,
    so a slot's games never depend on the number of slots."""

    def __init__(self, num_slots: int):
        self.num_slots = num_slots
        self.base = 0
        self.dealt = np.zeros(num_slots, np.int64)  # games dealt so far in each slot
        self.started = False

    def restart(self, seed: int | None) -> None:
        """Start every stream again from `seed` (None: fresh entropy)."""
        limit = SEED_LIMIT - self.num_slots
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % limit)
        elif not 0 <= int(seed) < limit:
            raise ValueError(f"seed must be in 0..2**62 - num_envs, got {seed}")
        self.base = int(seed)
        self.dealt[:] = 0
        self.started = True

    def next(self, slots: np.ndarray) -> np.ndarray:
        """int64 [E]: the next game seed of each slot in `slots` (advancing its stream)."""
        first = np.uint64(self.base) + slots.astype(np.uint64)
        k = self.dealt[slots].astype(np.uint64)
        later = splitmix64(splitmix64(first) + k) >> np.uint64(2)  # < 2**62
        self.dealt[slots] += 1
        return np.where(k == 0, first, later).astype(np.int64)


@dataclass
class Ended:
    """The learner episodes that ended in one step, one row per game in `games`."""

    games: np.ndarray  # int64 [E]: slot indices
    reward: np.ndarray  # float32 [E]: the learner's reward (noir_v1's definition)
    terminated: np.ndarray  # bool [E]: game over or learner eliminated (else truncated)
    final_obs: np.ndarray  # float32 [E, OBS_SIZE]: the learner's last observation
    result: np.ndarray  # object [E]: "game_over", "eliminated" or "truncated"
    scores: np.ndarray  # int32 [E, 6]: scores by R6.4 at the end (0 for absent seats)
    winners: np.ndarray  # bool [E, 6]: the winners (none if the game went on)
    win_reason: np.ndarray  # object [E]: why the game ended ("" if it went on)
    learner_won: np.ndarray  # bool [E]
    game_length: np.ndarray  # int32 [E]: decisions taken in the game by all players
    episode_length: np.ndarray  # int32 [E]: learner decisions
    episode_time: np.ndarray  # float64 [E]: wall seconds
    learner_seat: np.ndarray  # int8 [E]
    num_players: np.ndarray  # int8 [E]
    game_seed: np.ndarray  # int64 [E]
    opponent: np.ndarray  # object [E]: name of the opponent drawn for the game
    history: np.ndarray | None  # object [E]: histories (record=True), else None


@dataclass
class StepOut:
    """What one engine step returns (arrays over the N slots)."""

    obs: np.ndarray  # float32 [N, OBS_SIZE]: the learner's next observation
    mask: np.ndarray  # int8 [N, NUM_ACTIONS]: its legal actions
    reward: np.ndarray  # float32 [N]
    terminated: np.ndarray  # bool [N]
    truncated: np.ndarray  # bool [N]
    ended: Ended | None  # the episodes that ended (their slots already dealt again)


class LearnerSlots(OpponentTable):
    """What the single-seat engines of both games share besides the opponent table (NOIR's
    `SingleSeatGames`, District Noir's `district_engine.DistrictGames`): the arrays a step
    fills, the check of the learner's actions and `reset`. An engine sets `num_envs`, `copy`,
    `seed`, `seeds` (`SeedStreams`), `state`, `_all` (the slot indices) and `_buffers`
    ([]), and provides `at_learner`, `allocate` and `_deal`."""

    obs_size: int = OBS_SIZE
    num_actions: int = NUM_ACTIONS
    num_envs: int
    copy: bool
    seed: int | None
    seeds: SeedStreams
    _all: np.ndarray
    _buffers: list[tuple[np.ndarray, np.ndarray]]  # the output pairs handed out (_outputs)

    @abstractmethod
    def at_learner(self) -> np.ndarray:
        """bool [N]: the slots waiting for a learner decision."""

    @abstractmethod
    def allocate(self, n: int) -> Any:
        """Storage for n games of the engine's game (dealt by `_deal`)."""

    @abstractmethod
    def _deal(self, games: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """New games in slots `games`, advanced to the learner's first decision, whose
        observations and masks are written into those rows of obs and mask."""

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal N new games: with a seed s, slot i gets the game seed s + i; without one,
        each slot's next game in its seed stream (fresh entropy at the very first reset).
        Returns the learner's observations float32 [N, obs_size] and masks int8
        [N, num_actions]."""
        if seed is None:
            seed = self.seed  # the constructor's seed applies to the first reset only
        self.seed = None
        if seed is not None or not self.seeds.started:
            self.seeds.restart(seed)  # checks the seed
            self.state = self.allocate(self.num_envs)  # every slot is dealt below
        # else: each slot's seed stream goes on with its next game
        obs, mask = self._outputs()
        self._deal(self._all, obs, mask)
        return obs, mask

    def _outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """Observation and mask arrays to fill. copy=False: always the same pair. copy=True:
        a pair handed out before that nobody holds any more (no reference to either array
        or to a view of it is left outside the engine), else a new one. An array handed out
        is never written again while anyone can read it; reusing one that was let go saves
        the page faults of fresh memory (at N=4096 the pair is 41 MB)."""
        shapes = ((self.num_envs, self.obs_size), (self.num_envs, self.num_actions))
        if not self.copy:
            if not self._buffers:
                self._buffers = [(np.zeros(shapes[0], np.float32), np.zeros(shapes[1], np.int8))]
            return self._buffers[0]
        for pair in self._buffers:
            if not held_outside(pair):
                return pair
        pair = (np.empty(shapes[0], np.float32), np.empty(shapes[1], np.int8))
        self._buffers = [*self._buffers[1 - KEPT_OUTPUTS :], pair]
        return pair

    def _check_actions(self, actions) -> np.ndarray:
        """The learner's actions as int64 [N]; raises ValueError, changing nothing, for a
        wrong shape or type, an episode not reset, or an illegal action."""
        if self.state is None:
            raise ValueError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            acts = acts.reshape(-1) if acts.size == self.num_envs else acts
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {acts.shape}")
        if not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be integers, got dtype {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)
        ended = np.flatnonzero(~self.at_learner())
        if ended.size:
            raise ValueError(f"the episode of game {int(ended[0])} is over: call reset() first")
        bad = self.illegal_position(self._all, acts)
        if bad >= 0:
            raise ValueError(self.illegal_message(bad, int(acts[bad])))
        return acts


class SingleSeatGames(LearnerSlots):
    """N games with one learner seat each and opponents played inside (module docstring).

    num_envs: N. num_players: 3..6, or a set of counts drawn per game. rules: a preset
    name or `core.Rules`, the same for every game. opponents: see `opponents.resolve`.
    learner_seat: "random" (drawn per game) or a fixed seat. max_steps: real choices (all
    players) after which a game is truncated. autoreset: deal an ended game again in the
    same step. core_kwargs: extra keywords for `core.init` (ask_all=False unless given).
    record: keep every real choice of each game, so that an ended episode carries its game
    in noir_v1's history format (`Ended.history`; noir_v1, which also presents the
    single-action decisions, replays it by taking those itself). copy: never write
    an observation or mask array again while the caller holds it (an array it has let go
    of is reused, see `_outputs`); False: the same two buffers at every step, overwritten
    by the next one (saves the check; the caller copies what it keeps).
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int | Iterable[int] = 4,
        rules: str | Rules = "noirburg",
        opponents: OpponentSpec = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
        max_steps: int = 10_000,
        autoreset: bool = True,
        core_kwargs: dict | None = None,
        record: bool = False,
        copy: bool = True,
    ):
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.num_envs = n = int(num_envs)
        self.player_counts = check_player_counts(num_players)
        self.rules = get_rules(rules)
        self.learner_seat = self._check_seat(learner_seat)
        if int(max_steps) < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        self.max_steps = int(max_steps)
        self.autoreset = bool(autoreset)
        self.core_kwargs = {"ask_all": False, **(core_kwargs or {})}  # module docstring
        self.seed = seed
        super().__init__()  # the opponent table

        self._all = np.arange(n, dtype=np.int64)
        self.state = None
        self.learner = np.zeros(n, np.int64)
        self.opponent = np.zeros(n, np.int16)  # index into self._acts of each game
        self.builtin = np.zeros((n, C.MAX_PLAYERS), np.bool_)
        self.opp_rng = np.ones(n, np.uint64)
        self.alive_prev = np.ones((n, C.MAX_PLAYERS), np.int8)
        self.status = np.zeros(n, np.int8)
        self.game_seed = np.zeros(n, np.int64)
        self.seeds = SeedStreams(n)
        self.episode_length = np.zeros(n, np.int32)
        self.episode_start = np.zeros(n, np.float64)
        # outputs of the core's step_one: rewards and done are scratch (the engine pays the
        # learner itself); the illegal flags stay set (see core_flagged_illegal)
        self._core_out = (
            np.zeros((n, C.MAX_PLAYERS), np.float32),
            np.zeros(n, np.bool_),
            np.zeros(n, np.bool_),
        )
        self.trace = np.zeros((n, self.max_steps if record else 0), np.int16)
        self.copy = bool(copy)
        self._buffers: list[tuple[np.ndarray, np.ndarray]] = []
        self.set_opponents(opponents)

    # --- settings -------------------------------------------------------------------------
    def _check_seat(self, learner_seat: str | int) -> int:
        """-1 for "random", else a seat every player count has."""
        if isinstance(learner_seat, str):
            if learner_seat != "random":
                raise ValueError(f"learner_seat must be 'random' or a seat, got {learner_seat!r}")
            return -1
        seat = int(learner_seat)
        if not 0 <= seat < int(self.player_counts.min()):
            raise ValueError(
                f"learner_seat {seat} does not exist with {int(self.player_counts.min())} "
                "players (seats start at 0)"
            )
        return seat

    @property
    def core_flagged_illegal(self) -> np.ndarray:
        """bool [N]: slots in which the core ever refused an action as illegal. Never
        expected: learner and opponent actions are checked first, random ones drawn from
        the mask."""
        return self._core_out[2]

    # --- reset and deal -------------------------------------------------------------------
    def _deal(self, games: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """New games in slots `games`, advanced to the learner's first decision. A game
        that ends before the learner ever acts is dealt again (next seed of the slot)."""
        for _ in range(MAX_REDEALS):
            if not games.size:
                return
            seeds = self.seeds.next(games)
            counts = self.player_counts
            nps = counts[draw(seeds, _SALT_PLAYERS, counts.size)]
            fresh = core.init(games.size, nps, self.rules, seeds=seeds, **self.core_kwargs)
            self.state[games] = fresh
            if self.learner_seat >= 0:
                self.learner[games] = self.learner_seat
            else:
                self.learner[games] = draw(seeds, _SALT_SEAT, nps)
            uniforms = draw(seeds, _SALT_OPPONENT, 2**53) * (1.0 / 2**53)
            self.opponent[games] = self._mix_index[self._mix.draw(uniforms)]
            self.builtin[games] = np.array(self._builtin, np.bool_)[self.opponent[games]][:, None]
            self.opp_rng[games] = splitmix64(seeds.astype(np.uint64) ^ _SALT_RNG) | np.uint64(1)
            self.game_seed[games] = seeds
            self.episode_length[games] = 0
            self.episode_start[games] = time.perf_counter()
            self._run(games, np.full(games.size, -1, np.int64), obs, mask)
            games = games[self.status[games] != K.ST_LEARNER]
        raise RuntimeError(
            f"{MAX_REDEALS} games in a row ended before the learner's first decision "
            f"(max_steps={self.max_steps} is too small?)"
        )

    # --- step -----------------------------------------------------------------------------
    def step(self, actions) -> StepOut:
        """Play the learner's action in every game, then the opponents until each game is
        back at the learner or its episode is over. Raises ValueError, changing nothing, if
        an action is not legal (or an ended episode was not reset, without autoreset)."""
        acts = self._check_actions(actions)
        n = self.num_envs
        obs, mask = self._outputs()
        self._run(self._all, acts, obs, mask)
        self.episode_length += 1
        reward = np.zeros(n, np.float32)
        terminated = np.zeros(n, np.bool_)
        truncated = np.zeros(n, np.bool_)
        games = np.flatnonzero(self.status >= K.ST_OVER)
        ended = None
        if games.size:
            ended = self._ended(games)
            reward[games] = ended.reward
            terminated[games] = ended.terminated
            truncated[games] = ~ended.terminated
            obs[games] = ended.final_obs
            mask[games] = 0  # no decision left (dealt again below with autoreset)
            if self.autoreset:
                self._deal(games, obs, mask)
        return StepOut(obs, mask, reward, terminated, truncated, ended)

    def at_learner(self) -> np.ndarray:
        """bool [N]: the slots waiting for a learner decision."""
        return self.status == K.ST_LEARNER

    def allocate(self, n: int) -> np.ndarray:
        """Zeroed storage for n NOIR games."""
        return allocate(n)

    def _run(self, games: np.ndarray, acts: np.ndarray, obs: np.ndarray, mask: np.ndarray):
        """Play acts (or only advance, -1) in `games`, then every external opponent decision
        round until no game waits for one; learner rows of obs / mask are written."""
        while games.size:
            kernel = K.run_serial if games.size < PARALLEL_MIN else K.run_parallel
            kernel(kernel_view(self.state), games, acts, self.learner, self.builtin,
                   self.opp_rng, self.alive_prev, self.trace, self.max_steps, self.status,
                   obs, mask, self._core_out)  # fmt: skip
            games = np.flatnonzero(self.status == K.ST_EXTERNAL)
            if games.size:
                acts = self._external_actions(games)

    def illegal_position(self, games: np.ndarray, actions: np.ndarray) -> int:
        """Position of the first of `actions` its game in `games` cannot take (-1: none)."""
        return int(K.first_illegal(kernel_view(self.state), games, actions))

    def illegal_message(self, game: int, action: int) -> str:
        """The core's description of an illegal action in slot `game`."""
        return describe_illegal(self.state, game, action)

    def observe_rows(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Observations float32 [E, OBS_SIZE] of `seats` in `games` and the masks int8
        [E, NUM_ACTIONS] of those games' current players."""
        games = np.ascontiguousarray(games, np.int64)
        obs = np.empty((games.size, OBS_SIZE), np.float32)
        mask = np.empty((games.size, NUM_ACTIONS), np.int8)
        kernel = K.observe_rows_serial if games.size < PARALLEL_MIN else K.observe_rows
        kernel(kernel_view(self.state), games, np.ascontiguousarray(seats, np.int64), obs, mask)
        return obs, mask

    def _ended(self, games: np.ndarray) -> Ended:
        """Rewards and final information of the learner episodes ending in `games`."""
        kv = kernel_view(self.state)
        reward = np.zeros(games.size, np.float32)
        K.episode_rewards(kv, games, self.learner, self.alive_prev, self.status, reward)
        status = self.status[games]
        final_obs, _ = self.observe_rows(games, self.learner[games])
        over = self.state[games]
        winners = over.winners.astype(np.bool_)
        seats = self.learner[games]
        return Ended(
            games=games,
            reward=reward,
            terminated=status != K.ST_TRUNCATED,
            final_obs=final_obs,
            result=_STATUS_NAMES[status],
            scores=core.scores(over),
            winners=winners,
            win_reason=_WIN_REASONS[over.win_reason],
            learner_won=winners[np.arange(games.size), seats],
            game_length=over.steps.astype(np.int32),
            episode_length=self.episode_length[games].copy(),
            episode_time=time.perf_counter() - self.episode_start[games],
            learner_seat=seats.astype(np.int8),
            num_players=over.num_players.astype(np.int8),
            game_seed=self.game_seed[games].copy(),
            opponent=np.array(self._names, object)[self.opponent[games]],
            history=self._histories(games) if self.trace.shape[1] else None,
        )

    def _histories(self, games: np.ndarray) -> np.ndarray:
        """The games at `games` as histories in noir_v1's format (seed, settings, every
        real choice; noir_v1's extra single-action decisions are not in them)."""
        from ..history import rules_to_json  # the one home of the history format

        rules = rules_to_json(self.rules)
        out = np.empty(games.size, object)
        for j, g in enumerate(games):  # record mode only (tests, replays), not the hot path
            out[j] = {
                "env": "noir_v1",
                "num_players": int(self.state.num_players[g]),
                "rules": rules,
                "seed": int(self.game_seed[g]),
                "actions": self.trace[g, : self.state.steps[g]].tolist(),
            }
        return out
