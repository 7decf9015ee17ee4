"""The batched single-seat engine of District Noir: N games of `noir_env.district`, one
learner seat in each, the other seat played inside by an opponent policy, batched across
games. The District Noir counterpart of `engine.SingleSeatGames`, behind
`make_district_vector_env`, `make_district_sb3_vec_env` and "noir_env/DistrictNoir-v0".

One `step` plays the learner's action in every game and then the opponent's decisions until
each game is back at a learner decision or over. The built-in uniform random opponent plays
inside the compiled loop (`noir_env.district.lockstep`); any other policy is called once per
decision round with every game in which it must act. Ended games are dealt again at once
when `autoreset` is on. As in `district_noir_v0`, the core takes every decision with a single
legal action itself (DN5.1), so the learner and the opponents see only real choices, and a
player may act twice in a row.

Seeds: `reset(seed=s)` deals slot i the game with seed s + i (as `district.init(seeds=s)` and
`district_noir_v0`'s `reset(seed=s + i)`); its later games get seeds from a stream keyed by
(s, i) (`engine.SeedStreams`), so a slot's games do not depend on the number of slots. The
learner's seat, the opponent drawn from the mix and the random opponent's choices derive
from the game's seed: a game is a function of its seed and the learner's actions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .. import district
from ..district import constants as C
from ..district import lockstep as L
from ..district.observe import OBS_SIZE
from ..district.spaces import describe_illegal
from ..district.state import allocate, kernel_view
from .engine import PARALLEL_MIN, LearnerSlots, SeedStreams, StepOut, draw, splitmix64
from .opponents import OpponentSpec

NUM_ACTIONS = C.NUM_ACTIONS
# salts of the per-game draws (other values than NOIR's engine, which uses 0x5EED0001..5)
_SALT_SEAT, _SALT_OPPONENT, _SALT_RNG = (
    np.uint64(0xD157_0001),
    np.uint64(0xD157_0002),
    np.uint64(0xD157_0003),
)
_WIN_REASONS = np.array(C.WIN_REASONS, object)


@dataclass
class DistrictEnded:
    """The learner episodes that ended in one step, one row per game in `games` (the fields
    the vector envs' final infos and episode statistics read)."""

    games: np.ndarray  # int64 [E]: slot indices
    reward: np.ndarray  # float32 [E]: +1 learner won, -1 lost, 0 draw
    terminated: np.ndarray  # bool [E]: always True (a District Noir game is never truncated)
    final_obs: np.ndarray  # float32 [E, OBS_SIZE]: the learner's last observation
    result: np.ndarray  # object [E]: "game_over"
    scores: np.ndarray  # int32 [E, 2]: final points by seat (DN4.2-DN4.5)
    winners: np.ndarray  # bool [E, 2]: the winning seat (none in a draw)
    winner: np.ndarray  # int8 [E]: the winning seat, -1 for a draw
    win_reason: np.ndarray  # object [E]: "buildings", "points", "tiebreak" or "draw"
    learner_won: np.ndarray  # bool [E]
    game_length: np.ndarray  # int32 [E]: decisions taken in the game by both players
    episode_length: np.ndarray  # int32 [E]: learner decisions
    episode_time: np.ndarray  # float64 [E]: wall seconds
    learner_seat: np.ndarray  # int8 [E]
    game_seed: np.ndarray  # int64 [E]
    opponent: np.ndarray  # object [E]: name of the opponent drawn for the game


class DistrictGames(LearnerSlots):
    """N District Noir games with one learner seat each, the opponent played inside (module
    docstring).

    num_envs: N. opponents: see `opponents.resolve` (a name, a batched policy or callable,
    or a mix {opponent: probability} drawn per game). seed: the first reset's seed (None:
    fresh entropy). learner_seat: "random" (drawn per game) or 0 / 1. autoreset: deal an
    ended game again in the same step. copy: observation and mask arrays that no later step
    writes while the caller holds them (False: two buffers overwritten by the next step).
    """

    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS

    def __init__(
        self,
        num_envs: int,
        opponents: OpponentSpec = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
        autoreset: bool = True,
        copy: bool = True,
    ):
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        super().__init__()  # the opponent table
        self.num_envs = n = int(num_envs)
        self.learner_seat = _check_seat(learner_seat)
        self.autoreset = bool(autoreset)
        self.copy = bool(copy)
        self.seed = seed
        self.state = None
        self._all = np.arange(n, dtype=np.int64)
        self.learner = np.zeros(n, np.int64)
        self.opponent = np.zeros(n, np.int16)
        self.builtin = np.zeros((n, C.NUM_PLAYERS), np.bool_)  # the learner's seat: never
        self.opp_rng = np.ones(n, np.uint64)
        self.status = np.full(n, L.ST_OVER, np.int8)
        self.game_seed = np.zeros(n, np.int64)
        self.seeds = SeedStreams(n)
        self.episode_length = np.zeros(n, np.int32)
        self.episode_start = np.zeros(n, np.float64)
        self._core_out = (  # step_one's outputs: scratch, the engine pays the learner itself
            np.zeros((n, C.NUM_PLAYERS), np.float32),
            np.zeros(n, np.bool_),
            np.zeros(n, np.bool_),
        )
        self._buffers: list[tuple[np.ndarray, np.ndarray]] = []
        self.set_opponents(opponents)

    # --- reset and deal -------------------------------------------------------------------
    def allocate(self, n: int) -> np.ndarray:
        """Zeroed storage for n District Noir games."""
        return allocate(n)

    def _deal(self, games: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """New games in slots `games`, advanced to the learner's first decision (its
        observations and masks written into those rows of obs and mask)."""
        seeds = self.seeds.next(games)
        self.state[games] = district.init(games.size, seeds=seeds)
        if self.learner_seat >= 0:
            self.learner[games] = self.learner_seat
        else:
            self.learner[games] = draw(seeds, _SALT_SEAT, C.NUM_PLAYERS)
        uniforms = draw(seeds, _SALT_OPPONENT, 2**53) * (1.0 / 2**53)
        self.opponent[games] = self._mix_index[self._mix.draw(uniforms)]
        builtin = np.array(self._builtin, np.bool_)[self.opponent[games]]
        self.builtin[games] = builtin[:, None]
        self.builtin[games, self.learner[games]] = False  # the learner's seat is external
        self.opp_rng[games] = splitmix64(seeds.astype(np.uint64) ^ _SALT_RNG) | np.uint64(1)
        self.game_seed[games] = seeds
        self.episode_length[games] = 0
        self.episode_start[games] = time.perf_counter()
        self._run(games, np.full(games.size, -1, np.int64), obs, mask)

    # --- step -----------------------------------------------------------------------------
    def step(self, actions) -> StepOut:
        """Play the learner's action in every game, then the opponent until each game is
        back at the learner or over. Raises ValueError, changing nothing, if an action is
        not legal (or an ended episode was not reset, without autoreset)."""
        acts = self._check_actions(actions)
        obs, mask = self._outputs()
        self._run(self._all, acts, obs, mask)
        self.episode_length += 1
        n = self.num_envs
        reward = np.zeros(n, np.float32)
        terminated = self.status == L.ST_OVER
        games = np.flatnonzero(terminated)
        ended = None
        if games.size:
            ended = self._ended(games)
            reward[games] = ended.reward
            obs[games] = ended.final_obs
            mask[games] = 0  # no decision left (dealt again below with autoreset)
            if self.autoreset:
                self._deal(games, obs, mask)
        return StepOut(obs, mask, reward, terminated, np.zeros(n, np.bool_), ended)

    def at_learner(self) -> np.ndarray:
        """bool [N]: the slots waiting for a learner decision (the only external seat left
        waiting once `_run` returns)."""
        return self.status == L.ST_EXTERNAL

    def _run(self, games: np.ndarray, acts: np.ndarray, obs: np.ndarray, mask: np.ndarray):
        """Play acts (or only advance, -1) in `games`, then every decision round of Python
        opponents until each game waits for its learner or is over; write the learner's
        observation and mask in the rows of the games that wait for it."""
        todo = games
        while todo.size:
            kernel = L.run_serial if todo.size < PARALLEL_MIN else L.run_parallel
            kernel(kernel_view(self.state), todo, acts, self.builtin, self.opp_rng,
                   self.status, *self._core_out)  # fmt: skip
            waiting = todo[self.status[todo] == L.ST_EXTERNAL]
            todo = waiting[self.state.actor[waiting] != self.learner[waiting]]
            if todo.size:
                acts = self._external_actions(todo)
        at_learner = games[self.status[games] == L.ST_EXTERNAL]
        obs[at_learner], mask[at_learner] = self.observe_rows(at_learner, self.learner[at_learner])

    # --- OpponentTable hooks --------------------------------------------------------------
    def observe_rows(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Observations float32 [E, OBS_SIZE] of `seats` in `games` and their masks int8
        [E, 14] (zeros for a seat that is not to act)."""
        games = np.ascontiguousarray(games, np.int64)
        obs = np.empty((games.size, OBS_SIZE), np.float32)
        mask = np.empty((games.size, NUM_ACTIONS), np.int8)
        kernel = L.observe_rows_serial if games.size < PARALLEL_MIN else L.observe_rows
        kernel(kernel_view(self.state), games, np.ascontiguousarray(seats, np.int64), obs, mask)
        return obs, mask

    def illegal_position(self, games: np.ndarray, actions: np.ndarray) -> int:
        """Position of the first of `actions` its game in `games` cannot take (-1: none)."""
        return int(L.first_illegal(kernel_view(self.state), games, actions))

    def illegal_message(self, game: int, action: int) -> str:
        """The core's description of an illegal action in slot `game`."""
        return describe_illegal(self.state, game, action)

    # --- ended episodes -------------------------------------------------------------------
    def _ended(self, games: np.ndarray) -> DistrictEnded:
        """Rewards and final information of the games that ended in slots `games`."""
        over = self.state[games]
        seats = self.learner[games]
        winner = over.winner.astype(np.int8)
        winners = winner[:, None] == np.arange(C.NUM_PLAYERS)[None, :]
        reward = np.where(winner < 0, 0.0, np.where(winner == seats, 1.0, -1.0))
        final_obs, _ = self.observe_rows(games, seats)
        return DistrictEnded(
            games=games,
            reward=reward.astype(np.float32),
            terminated=np.ones(games.size, np.bool_),
            final_obs=final_obs,
            result=np.full(games.size, "game_over", object),
            scores=district.scores(over),
            winners=winners,
            winner=winner,
            win_reason=_WIN_REASONS[over.win_reason],
            learner_won=winner == seats,
            game_length=over.steps.astype(np.int32),
            episode_length=self.episode_length[games].copy(),
            episode_time=time.perf_counter() - self.episode_start[games],
            learner_seat=seats.astype(np.int8),
            game_seed=self.game_seed[games].copy(),
            opponent=np.array(self._names, object)[self.opponent[games]],
        )


def _check_seat(learner_seat: str | int) -> int:
    """-1 for "random", else the fixed seat 0 or 1."""
    if isinstance(learner_seat, str):
        if learner_seat != "random":
            raise ValueError(f"learner_seat must be 'random', 0 or 1, got {learner_seat!r}")
        return -1
    seat = int(learner_seat)
    if seat not in (0, 1):
        raise ValueError(f"learner_seat must be 'random', 0 or 1, got {learner_seat!r}")
    return seat
