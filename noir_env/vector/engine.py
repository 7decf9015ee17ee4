"""The batched single-seat engine behind every single-seat environment (Gymnasium VectorEnv,
SB3 VecEnv, the registered single envs), for any game of the protocol (`noir_env.game`): N
games, one learner seat in each, every other decision taken inside by opponent policies,
batched across games.

One `step` plays the learner's action in every game and then the opponents' decisions until
each game is back at a learner decision or the learner's episode is over (game over, learner
eliminated, or `max_steps` decisions). The built-in uniform random opponent runs inside the
compiled lockstep loop (`noir_env.engine.lockstep`); other policies are called once per decision
round with every game in which one of their seats must act. Ended games are dealt again at
once when `autoreset` is on.

NOIR's games run in the core's fast presentation mode (`init(..., ask_all=False)`): the
core takes every decision with a single legal action and the passes of players without a
reaction card, so the learner and the opponents see only real choices. The learner never
observes who else was asked, so this reveals nothing, and it is faster. noir_v2 presents
those decisions too (ask_all=True); the game is the same for the same choices, and
`max_steps` here counts real choices only. District Noir's core always takes them (DN5.1).

Seeds: `reset(seed=s)` deals slot i the game with seed s + i (as `init(seeds=s)` and the AEC
env's `reset(seed=s + i)`); its later games get seeds from a stream keyed by (s, i), so a
slot's games do not depend on the number of slots. The player count, the learner's seat, the
opponent drawn from the mix (at a mixed table, each seat's), and the random opponents'
choices all derive from the game's seed: a game is a function of its seed and the learner's
actions.
"""

from __future__ import annotations

import copy as copy_module
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from ..engine import lockstep as L
from ..engine.args import as_count, as_int
from ..game import Game, get_game
from . import seeds as S
from .episodes import Ended, StepOut, ended_episodes
from .opponents import OpponentSpec, OpponentTable, resolve
from .seeds import SeedStreams, draw

MAX_REDEALS = 1000  # a slot whose games keep ending before the learner acts is an error
# what a step or reset changes: restored as a whole when a Python opponent fails in it
_TRANSACTIONAL = ("state", "lanes", "learner", "opponent", "seat_opponent", "mixed_table",
                  "game_seed", "seeds", "seed",
                  "episode_length", "episode_start")  # fmt: skip
# the opponent table's own lists (copied, the policies in them shared)
_OPPONENT_TABLE = ("_mix", "_mix_index", "_acts", "_names", "_builtin")


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


class SingleSeatGames(OpponentTable):
    """N games with one learner seat each and opponents played inside (module docstring).

    num_envs: N. num_players: a count or a list of counts drawn per game (listed twice:
    drawn twice as often; None: the game's default). rules: a preset name or the game's
    rules (None: its default), the same for every game. opponents: see
    `opponents.resolve`. learner_seat: "random" (drawn per game) or a fixed seat.
    max_steps: decisions (all players) after which a game is truncated.
    autoreset: deal an ended game again in the same step; "next_step": in the next step,
    which ignores that slot's action (Gymnasium's AutoresetMode.NEXT_STEP). core_kwargs:
    extra keywords for the game's `init` (ask_all=False unless given). record: keep every
    decision of each game, so that an ended episode carries its game in the AEC env's
    history format (`Ended.history`). copy: never write an observation or mask array again while the
    caller holds it (an array it has let go of is reused, see `_outputs`); False: the same
    two buffers at every step, overwritten by the next one. game: a game name or `Game`.
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int | Iterable[int] | None = None,
        rules: Any = None,
        opponents: OpponentSpec = "random",
        seed: int | None = None,
        learner_seat: str | int = "random",
        max_steps: int = 10_000,
        autoreset: bool | str = True,
        core_kwargs: dict | None = None,
        record: bool = False,
        copy: bool = True,
        game: str | Game = "noir",
        mixed_tables: float = 0.0,
    ):
        self.game = get_game(game)
        # ints are ints: 2.7 games or seat 0.9 would be truncated silently, True taken as 1
        self.num_envs = n = as_count(num_envs, "num_envs")
        self.obs_size, self.num_actions = self.game.obs_size, self.game.num_actions
        self.player_counts = self.game.player_counts(num_players)
        self.rules = self.game.check_rules(rules)
        self.learner_seat = self._check_seat(learner_seat)
        self.max_steps = as_count(max_steps, "max_steps")
        self.next_step = isinstance(autoreset, str) and autoreset == "next_step"
        if isinstance(autoreset, str) and not self.next_step:
            raise ValueError(f"autoreset must be True, False or 'next_step', got {autoreset!r}")
        self.autoreset = False if self.next_step else bool(autoreset)
        self.core_kwargs = {"ask_all": False, **(core_kwargs or {})}  # module docstring
        self.seed = None if seed is None else S.check_seed(seed, n)
        self.closed = False
        super().__init__()  # the opponent table

        self._all = np.arange(n, dtype=np.int64)
        self.state = None
        self.learner = np.zeros(n, np.int64)
        self.opponent = np.zeros(n, np.int16)  # index into self._acts of each game
        self.seat_opponent = np.zeros((n, self.game.max_players), np.int16)  # ... of each seat
        self.mixed_table = np.zeros(n, np.bool_)
        self.game_seed = np.zeros(n, np.int64)
        self.seeds = SeedStreams(n)
        self.episode_length = np.zeros(n, np.int32)
        self.episode_start = np.zeros(n, np.float64)
        self.lanes = L.make_lanes(n, self.game.max_players, trace=self.max_steps if record else 0)
        self.copy = bool(copy)
        self._buffers: list[tuple[np.ndarray, np.ndarray]] = []
        self.set_opponents(opponents, mixed_tables)

    # --- settings -------------------------------------------------------------------------
    def _check_seat(self, learner_seat: str | int) -> int:
        """-1 for "random", else a seat every player count has."""
        fewest = int(self.player_counts.min())
        if isinstance(learner_seat, str):
            if learner_seat != "random":
                raise ValueError(f"learner_seat must be 'random' or a seat, got {learner_seat!r}")
            return -1
        seat = as_int(learner_seat, "learner_seat")
        if not 0 <= seat < fewest:
            raise ValueError(
                f"learner_seat {seat} does not exist with {fewest} players (seats start at 0)"
            )
        return seat

    @property
    def status(self) -> np.ndarray:
        """int8 [N]: where each slot stopped (`noir_env.engine.lockstep` ST_*)."""
        return self.lanes.status

    @property
    def _core_out(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The core step's scratch outputs (rewards, done, illegal) of every slot."""
        return self.lanes.rewards, self.lanes.done, self.lanes.illegal

    @property
    def core_flagged_illegal(self) -> np.ndarray:
        """bool [N]: slots in which the core ever refused an action as illegal. Never
        expected: learner and opponent actions are checked first, random ones drawn from
        the mask."""
        return self.lanes.illegal

    # --- reset and deal -------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Deal N new games: with a seed s, slot i gets the game seed s + i; without one,
        each slot's next game in its seed stream (fresh entropy at the very first reset).
        options: {"opponents": spec} sets the opponents first (`set_opponents`). Every
        argument is checked before anything changes (a seed is an int or numpy integer),
        and a Python opponent's error while dealing leaves everything as it was. Returns the
        learner's observations float32 [N, obs_size] and masks int8 [N, num_actions]."""
        self._require_open("reset()")
        seed = self.seed if seed is None else S.check_seed(seed, self.num_envs)
        options = dict(options or {})
        mix = resolve(options.pop("opponents")) if "opponents" in options else None
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; known: ['opponents']")
        # the constructor's seed applies to the first reset only

        def reset() -> tuple[np.ndarray, np.ndarray]:
            if mix is not None:
                self._set_mix(mix)
            return self._reset(seed)

        return self._all_or_nothing(reset, may_fail=True)

    def _reset(self, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
        if seed is not None or not self.seeds.started:
            self.seeds.restart(seed)  # checks the seed
            self.state = self.game.allocate(self.num_envs)  # every slot is dealt below
        # else: each slot's seed stream goes on with its next game
        self.seed = None
        obs, mask = self._outputs()
        self._deal(self._all, obs, mask)
        return obs, mask

    def _all_or_nothing(self, change: Callable[[], Any], may_fail: bool = False) -> Any:
        """Run `change` (a step or a reset); if it raises (a Python opponent failed: an
        exception, a wrong answer, an illegal action), every game, counter and seed stream
        is put back as it was before, the output arrays the caller holds included, and the
        error goes on with a note saying so. Opponent policies keep whatever state their
        own calls changed (their random streams, say). may_fail: save even where only the
        compiled random policy plays (a reset that may set other opponents)."""
        if all(self._builtin) and not may_fail:  # only compiled random play: nothing fails
            return change()
        saved = {name: copy_module.deepcopy(getattr(self, name)) for name in _TRANSACTIONAL}
        saved |= {name: copy_module.copy(getattr(self, name)) for name in _OPPONENT_TABLE}
        # copy=True never writes an array the caller holds; copy=False writes its only pair
        held = [] if self.copy else [(a, a.copy()) for pair in self._buffers for a in pair]
        try:
            return change()
        except Exception as e:
            for name, value in saved.items():
                setattr(self, name, value)
            for array, before in held:
                array[...] = before
            e.add_note("every game of the environment was left as it was before this call")
            raise

    def _deal(self, games: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """New games in slots `games`, advanced to the learner's first decision. A game
        that ends before the learner ever acts is dealt again (next seed of the slot)."""
        salt = self.game.seed_salt
        lanes = self.lanes
        for _ in range(MAX_REDEALS):
            if not games.size:
                return
            seeds = self.seeds.next(games)
            counts = self.player_counts
            nps = counts[draw(seeds, S.salt(salt, S.SALT_PLAYERS), counts.size)]
            self.state[games] = self.game.init(games.size, nps, self.rules, seeds,
                                               **self.core_kwargs)  # fmt: skip
            if self.learner_seat >= 0:
                self.learner[games] = self.learner_seat
            else:
                self.learner[games] = draw(seeds, S.salt(salt, S.SALT_SEAT), nps)
            self._draw_opponents(games, seeds)
            lanes.builtin[games] = np.array(self._builtin, np.bool_)[self.seat_opponent[games]]
            lanes.builtin[games, self.learner[games]] = False  # the learner's seat is external
            lanes.agent_rng[games] = S.random_streams(seeds, S.salt(salt, S.SALT_RNG))
            lanes.observer[games] = self.learner[games]
            if self.game.elimination:
                lanes.watch[games] = self.learner[games]  # its episode ends when it is out
            lanes.out_at[games] = -1
            lanes.rewards[games] = 0.0  # the core writes a game's outcome on its last step
            self.game_seed[games] = seeds
            self.episode_length[games] = 0
            self.episode_start[games] = time.perf_counter()
            self._run(games, np.full(games.size, -1, np.int64), obs, mask)
            games = games[lanes.status[games] != L.ST_OBSERVER]
        raise RuntimeError(
            f"{MAX_REDEALS} games in a row ended before the learner's first decision "
            f"(max_steps={self.max_steps} is too small?)"
        )

    def _draw_opponents(self, games: np.ndarray, seeds: np.ndarray) -> None:
        """Each new game's opponent from the mix, keyed by its seed; at a mixed table (a
        share `mixed_tables` of games) one opponent per seat, each keyed by seed and seat."""
        salt = self.game.seed_salt

        def uniforms(use: int) -> np.ndarray:
            return draw(seeds, S.salt(salt, use), 2**53) * (1.0 / 2**53)

        self.opponent[games] = self._mix_index[self._mix.draw(uniforms(S.SALT_OPPONENT))]
        self.seat_opponent[games] = self.opponent[games, None]
        self.mixed_table[games] = False
        if self.mixed_tables > 0.0:
            mixed = uniforms(S.SALT_MIXED) < self.mixed_tables
            self.mixed_table[games] = mixed
            for seat in range(self.seat_opponent.shape[1]):
                drawn = self._mix_index[self._mix.draw(uniforms(S.SALT_SEAT_OPPONENT + seat))]
                self.seat_opponent[games, seat] = np.where(mixed, drawn, self.opponent[games])

    def _outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """Observation and mask arrays to fill. copy=False: always the same pair. copy=True:
        a pair handed out before that nobody holds any more (no reference to either array
        or to a view of it is left outside the engine), else a new one. An array handed out
        is never written again while anyone can read it; reusing one that was let go saves
        the page faults of fresh memory (at N=4096 the pair is 41 MB for NOIR)."""
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

    # --- step -----------------------------------------------------------------------------
    def step(self, actions) -> StepOut:
        """Play the learner's action in every game, then the opponents until each game is
        back at the learner or its episode is over. Raises ValueError, changing nothing, if
        an action is not legal (or an ended episode was not reset, without autoreset); an
        error of an opponent policy also leaves every game as it was (`_all_or_nothing`)."""
        self._require_open("step()")
        acts = self._check_actions(actions)
        return self._all_or_nothing(lambda: self._step(acts))

    def close(self) -> None:
        """Mark the games closed: `reset` and `step` raise ValueError from now on (the last
        games stay readable)."""
        self.closed = True

    def _require_open(self, what: str) -> None:
        if self.closed:
            raise ValueError(f"{what} on a closed environment; make a new one")

    def _step(self, acts: np.ndarray) -> StepOut:
        n = self.num_envs
        obs, mask = self._outputs()
        live = self._live()
        if live.size < n:  # autoreset "next_step": the slots that ended last step
            self._deal(np.flatnonzero(self.lanes.status != L.ST_OBSERVER), obs, mask)
        if live is self._all:
            self._run(live, acts, obs, mask)
            self.episode_length += 1
        else:
            self._run(live, acts[live], obs, mask)
            self.episode_length[live] += 1
        reward = np.zeros(n, np.float32)
        terminated = np.zeros(n, np.bool_)
        truncated = np.zeros(n, np.bool_)
        games = live[self.lanes.status[live] != L.ST_OBSERVER]
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

    def _live(self) -> np.ndarray:
        """The slots a step plays: all of them, but with autoreset "next_step" not those
        whose episode ended in the last step (dealt again by this one, their action
        ignored)."""
        if not self.next_step:
            return self._all
        return np.flatnonzero(self.lanes.status == L.ST_OBSERVER)

    def at_learner(self) -> np.ndarray:
        """bool [N]: the slots waiting for a decision of the learner's seat (stopped for the
        learner, and the learner is the seat to act)."""
        return (self.lanes.status == L.ST_OBSERVER) & (self.state.actor == self.learner)

    def _run(self, games: np.ndarray, acts: np.ndarray, obs: np.ndarray, mask: np.ndarray):
        """Play acts (or only advance, -1) in `games`, then every external opponent decision
        round until no game waits for one; the learner rows of obs / mask are written."""
        kv, status = self.game.kernel_view(self.state), self.lanes.status
        while games.size:
            L.run(kv, games, acts, self.lanes, True, self.max_steps, obs, mask)
            games = games[status[games] == L.ST_EXTERNAL]  # an opponent played from Python
            if games.size:
                acts = self._external_actions(games)

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
        ended = np.flatnonzero(self.lanes.status != L.ST_OBSERVER)
        if ended.size and not self.next_step:
            raise ValueError(f"the episode of game {int(ended[0])} is over: call reset() first")
        live = self._live()
        other = live[~self.at_learner()[live]]
        if other.size:  # never expected: the learner's actions must not play another seat
            raise ValueError(f"in game {int(other[0])} a seat other than the learner's is to act")
        bad = self.illegal_position(live, acts[live])
        if bad >= 0:
            raise ValueError(self.illegal_message(int(live[bad]), int(acts[live[bad]])))
        return acts

    # --- OpponentTable hooks --------------------------------------------------------------
    def illegal_position(self, games: np.ndarray, actions: np.ndarray) -> int:
        """Position of the first of `actions` its game in `games` cannot take (-1: none)."""
        return int(L.first_illegal(self.game.kernel_view(self.state), games, actions))

    def illegal_message(self, game: int, action: int) -> str:
        """The core's description of an illegal action in slot `game`."""
        return self.game.describe_illegal(self.state, game, action)

    def observe_rows(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Observations float32 [E, obs_size] of `seats` in `games` and their masks int8
        [E, num_actions] (zeros for a seat that is not to act)."""
        g = self.game
        return L.observe_rows(g.kernel_view(self.state), games, seats, g.obs_size, g.num_actions)

    def _ended(self, games: np.ndarray) -> Ended:
        """Rewards and final information of the learner episodes ending in `games`."""
        return ended_episodes(self, games)
