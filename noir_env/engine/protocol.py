"""The game protocol: what every layer above a game's rules needs of a batched game.

    from noir_env.game import get_game

    game = get_game("district_noir")            # or "noir", or any registered game
    state = game.init(256, seeds=0)              # N games in lockstep
    obs, mask = game.observe(state), game.legal_action_mask(state)
    rewards, done, illegal = game.step(state, actions)

A game is a package of compiled kernels over a record array of states (`records.py`), and
one subclass of `Game` that declares it (name, seats, presets, sizes, action names, win
reasons: one block of class attributes) and supplies what only it knows (its kernels, its
rules objects, how to read scores and winners, its state's JSON form). Everything batched
(dealing, the all-or-nothing step, observations, masks, belief sampling, random playouts)
is written once in the engine (`batch.py` over the compiled `shell.py`), and so are the
layers above, which take a game by name, as pgx's `Env` and OpenSpiel's `Game` are.
`docs/ADDING_A_GAME.md` walks through a new game; `noir_env.testing.check_game` is the API
test every game passes.

Seats are absolute in the state; observations are seat-relative, so one policy can play
every seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._shown import shown
from . import batch
from .binding import GameKernels, bind_kernels
from .layout import ActionTable
from .records import RecordLayout, State


class Game(ABC):
    """A batched game (module docstring). A subclass sets the declarations and implements
    the abstract methods; everything else is written once here."""

    # --- declarations ---------------------------------------------------------------------
    name: str  # the registry's key, e.g. "district_noir"
    title: str  # for people, e.g. "District Noir"
    min_players: int
    max_players: int  # also the width of every per-seat array ([N, max_players])
    default_players: int  # the player count a layer uses when none is given
    presets: tuple[str, ...] = ()  # rules preset names; () for a game without presets
    default_rules: str | None = None  # the preset used when none is given (None: no presets)
    obs_size: int  # length of the flat float32 observation
    num_actions: int  # size of the one flat Discrete action space
    action_names: tuple[str, ...]  # stable, readable name of every action id
    obs_slices: Mapping[str, slice]  # named parts of the observation
    win_reasons: tuple[str, ...]  # why a game was won; index 0: no winner
    turn_word: str = "turns"  # what `turns` counts ("turns", "rounds")
    heuristic: str = "random"  # the name of its default rule-based agent for `agents.load`
    seed_salt: int  # keys the engines' per-game draws (seat, opponent, random streams)
    elimination: bool = False  # whether a seat can leave the game before it ends
    # state fields that hold what some seat cannot see (`sample_hidden` re-deals them; the
    # rest of a state is public); `hand` rows are each seat's own. () : no hidden fields known
    hidden_fields: tuple[str, ...] = ()
    layout: RecordLayout  # the state's record type
    kernels: GameKernels  # the compiled kernels the engine calls
    violation_messages: Mapping[int, str] = {}  # invariant codes of `first_violation`

    # --- what only the game knows ---------------------------------------------------------
    @abstractmethod
    def num_players(self, state: State) -> np.ndarray:
        """int8 [N]: the seats of each game."""

    @abstractmethod
    def scores(self, state: State) -> np.ndarray:
        """int32 [N, max_players]: each seat's score now (the final one once over)."""

    @abstractmethod
    def winners(self, state: State) -> np.ndarray:
        """bool [N, max_players]: the winners (none while the game goes on, or a draw)."""

    @abstractmethod
    def win_reason(self, state: State) -> np.ndarray:
        """int [N]: an index into `win_reasons` (0 while the game goes on)."""

    @abstractmethod
    def turns(self, state: State) -> np.ndarray:
        """int [N]: the turns (or rounds, `turn_word`) begun."""

    @abstractmethod
    def state_to_dict(self, state: State, i: int = 0) -> dict:
        """Game i as JSON-ready values."""

    @abstractmethod
    def state_from_dict(self, data: dict) -> State:
        """A batch of one game from `state_to_dict`'s form (ValueError naming what is
        wrong)."""

    def alive(self, state: State) -> np.ndarray:
        """bool [N, max_players]: seats still in the game (False past num_players)."""
        seats = np.arange(self.max_players)[None, :]
        return seats < self.num_players(state)[:, None]

    def check_rules(self, rules: Any) -> Any:
        """The rules object of a preset name or rules value (None: the default); raises
        ValueError for rules the game does not have. A game without presets takes None."""
        if rules is not None:
            raise ValueError(f"{self.title} has no rule presets, got rules={shown(rules)}")
        return None

    def rules_name(self, rules: Any) -> str | None:
        """The preset name of a rules object (None for a game without presets)."""
        return None

    def prepare(self, state: State, rules: Any, ask_all: bool) -> None:
        """Write what the kernels read before the deal (the rules, the presentation mode)
        into freshly allocated games whose `rng` is seeded; nothing by default."""
        return None

    def describe_illegal(self, state: State, game: int, action: int) -> str:
        """Why `action` cannot be played in game `game`: its name and the legal actions
        (the ValueError message of every layer)."""
        table = ActionTable(self.action_names)
        kv = self.kernel_view(state)
        if kv["actor"][game] < 0:
            return f"game {game} is over: no action is legal"
        legal = table.legal_action_names(kv["mask"][game])
        return f"illegal action {table.name_or_id(action)!r} (id {action}); legal: {legal}"

    # --- the batched API, written once (batch.py) -----------------------------------------
    def allocate(self, n: int) -> State:
        """Zeroed storage for n games (dealt by `init`)."""
        return self.layout.allocate(n)

    def kernel_view(self, state: State) -> np.ndarray:
        """The plain array the compiled kernels take; ValueError if `state` is not this
        game's."""
        return self.layout.kernel_view(state)

    def init(self, num_games: int, num_players: int | Iterable[int] | np.ndarray | None = None,
             rules: Any = None, seeds: int | Iterable[int] | np.ndarray | None = 0,
             ask_all: bool = False) -> State:  # fmt: skip
        """Deal num_games games. num_players: one count or one per game (None: the
        default); rules: a preset name or the game's rules object (None: the default);
        seeds: an int s gives game i the seed s + i, an array one seed per game (each must
        fit int64). ask_all: present every decision whose being forced is not public
        (multi-agent play); a game that always takes forced decisions itself ignores it.
        A bad argument raises TypeError / ValueError naming it."""
        return batch.init(self, num_games, num_players, rules, seeds, ask_all)

    def step(self, state: State, actions: np.ndarray,
             strict: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
        """One action per game, in place: (rewards float32 [N, max_players], done bool [N],
        illegal bool [N]); rewards are non-zero only on the step a game ends. strict: raise
        ValueError naming the action, changing nothing, for an illegal action; else flag it
        in `illegal` and leave that game unchanged. Finished games ignore their action. All
        or nothing: if a game's kernels fail, every game is put back before RuntimeError
        is raised; a read-only state is refused."""
        return batch.step(self, state, actions, strict)

    def observe(self, state: State, seats: np.ndarray | int | None = None) -> np.ndarray:
        """float32 [N, obs_size]: what `seats` (default: each game's actor; seat 0 once
        over) see; one int or one per game, each a seat of its game."""
        return batch.observe(self, state, seats)

    def legal_action_mask(self, state: State) -> np.ndarray:
        """bool [N, num_actions]: the actor's legal actions (all False once over)."""
        return batch.legal_action_mask(self, state)

    def current_player(self, state: State) -> np.ndarray:
        """int8 [N]: the seat to act (-1 once the game is over)."""
        return batch.current_player(self, state)

    def outcome(self, state: State) -> np.ndarray:
        """float32 [N, max_players]: the zero-sum rewards of games that are over."""
        return batch.outcome(self, state)

    def refresh(self, state: State) -> State:
        """Recompute the legal-action cache (after editing a state by hand)."""
        return batch.refresh(self, state)

    def settle_forced(self, state: State) -> State:
        """Take the forced decisions of hand-made positions (`batch.settle_forced`)."""
        return batch.settle_forced(self, state)

    def sample_hidden(self, state: State, seats: int | np.ndarray,
                      seeds: int | np.ndarray | None = 0) -> State:  # fmt: skip
        """A copy of `state` in which what `seats` cannot see (other hands, the draw pile's
        order, future chance) is re-dealt as they could believe it to be; the same seeds
        give the same deal (search agents' determinizations, OpenSpiel's
        `resample_from_infostate`). Everything `seats` observe is unchanged. A game without
        belief sampling raises NotImplementedError naming itself."""
        return batch.sample_hidden(self, state, seats, seeds)

    def random_playout(self, state: State, seed: int = 0, max_steps: int = 100_000,
                       check: bool = False, parallel: bool = True) -> batch.Playout:  # fmt: skip
        """Play every game (in place) with uniformly random legal actions until it ends or
        has taken `max_steps` decisions, compiled; check=True tests the game's invariants
        after every decision (`Playout.problems()`)."""
        return batch.random_playout(self, state, seed, max_steps, check, parallel)

    def clone(self, state: State) -> State:
        """An independent copy of a batch of states."""
        return state.copy()

    # --- names --------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """The stable, readable name of an action id."""
        return ActionTable(self.action_names).action_name(action)

    def action_name_or_id(self, action: int) -> str:
        """The action's name, or `<id k>` outside the space (error messages)."""
        return ActionTable(self.action_names).name_or_id(action)

    def action_id(self, name: str) -> int:
        """The id of an action name (inverse of `action_name`)."""
        try:
            return ActionTable(self.action_names).action_id(name)
        except ValueError as err:
            raise ValueError(f"{self.title}: {err}") from None

    def player_counts(self, num_players: int | Iterable[int] | None = None) -> np.ndarray:
        """int8 [K]: the player counts to draw from per game (one int or a list; None: the
        default), sorted; a count listed k times is drawn k times as often, e.g. (3, 3, 4, 5)
        deals 3 players to half the games. ValueError for a count the game does not have."""
        given = self.default_players if num_players is None else num_players
        seq = given if np.isscalar(given) else list(given)  # type: ignore[arg-type]
        counts = np.atleast_1d(np.asarray(seq))
        span = f"{self.min_players}..{self.max_players}"
        if counts.size == 0 or counts.ndim != 1 or not np.issubdtype(counts.dtype, np.integer):
            raise ValueError(f"num_players must be an int or a set of ints in {span}, got {given}")
        bad = counts[(counts < self.min_players) | (counts > self.max_players)]
        if bad.size:
            raise ValueError(f"{self.title}: num_players must be in {span}, got {int(bad[0])}")
        return np.sort(counts).astype(np.int8)  # repeats kept: they weight the draw

    def bind(self) -> None:
        """Lend `kernels` to the engine for this game's state record type."""
        bind_kernels(self.layout.dtype, self.kernels)

    def __repr__(self) -> str:
        return f"<{self.title} ({self.name}): {self.min_players}-{self.max_players} players>"
