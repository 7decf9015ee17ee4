"""The game protocol: what every layer above a rules core needs of a batched game, and the
registry that finds a game by name.

    from noir_env.game import get_game

    game = get_game("district_noir")            # or "noir", or any registered game
    state = game.init(256, seeds=0)              # N games in lockstep
    obs, mask = game.observe(state), game.legal_action_mask(state)
    rewards, done, illegal = game.step(state, actions)

Each game implements `Game` in its own package (NOIR in `noir_env/core/game.py`, District
Noir in `noir_env/district/game.py`) and registers an instance; the layers above (the
single-seat engine and the environments on it, the self-play API, the arena, the
tournament, the trainers) take a game by name and are written once over this protocol, as
pgx's `Env` and OpenSpiel's `Game` are. `docs/ADDING_A_GAME.md` walks through a new one.

A state is one numpy record array of N games whose records have at least the fields
`actor` (int: the seat to act, -1 once the game is over), `steps` (int: decisions taken)
and `mask` (uint8 [num_actions]: the actor's legal actions), which the compiled lockstep
loops read (`noir_env.lockstep`). Seats are absolute in the state; observations are
seat-relative, so one policy can play every seat.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from .layout import ActionTable
from .lockstep import GameKernels, bind_kernels, make_lanes, run

State = Any  # a game's batch of states: a numpy record array [N]


@dataclass
class Playout:
    """What `Game.random_playout` did to each game."""

    steps: np.ndarray  # int64 [N]: decisions taken
    done: np.ndarray  # bool [N]: the game is over


class Game(ABC):
    """A batched game (module docstring). Subclasses set the attributes and implement the
    abstract methods; the concrete ones below are written once from those."""

    name: str  # the registry's key, e.g. "district_noir"
    title: str  # for people, e.g. "District Noir"
    min_players: int
    max_players: int  # also the width of every per-seat array ([N, max_players])
    default_players: int  # the player count a layer uses when none is given
    presets: tuple[str, ...]  # rules preset names; () for a game without presets
    default_rules: str | None  # the preset used when none is given (None: no presets)
    obs_size: int  # length of the flat float32 observation
    num_actions: int  # size of the one flat Discrete action space
    action_names: tuple[str, ...]  # stable, readable name of every action id
    obs_slices: Mapping[str, slice]  # named parts of the observation
    win_reasons: tuple[str, ...]  # why a game was won; index 0: no winner
    turn_word: str  # what `turns` counts ("turns", "rounds")
    heuristic: str  # the name of its default heuristic agent for `agents.load`
    seed_salt: int  # keys the engines' per-game draws (seat, opponent, random streams)
    kernels: GameKernels  # the per-game kernels the lockstep loops call
    elimination: bool  # whether a seat can leave the game before it ends
    # state fields that hold what some seat cannot see (`sample_hidden` re-deals them; the
    # rest of a state is public); `hand` rows are each seat's own. () : no hidden fields known
    hidden_fields: tuple[str, ...] = ()

    # --- the batched core ---------------------------------------------------------------------
    @abstractmethod
    def allocate(self, n: int) -> State:
        """Zeroed storage for n games (dealt by `init`)."""

    @abstractmethod
    def init(self, num_games: int, num_players: int | np.ndarray | None = None,
             rules: Any = None, seeds: int | np.ndarray | None = 0,
             ask_all: bool = False) -> State:  # fmt: skip
        """Deal num_games games. num_players: one count or one per game (None: the
        default); rules: a preset name or the game's rules object (None: the default);
        seeds: an int s gives game i the seed s + i, an array one seed per game. ask_all:
        present every decision whose being forced is not public (multi-agent play); a game
        that always takes forced decisions itself ignores it."""

    @abstractmethod
    def step(self, state: State, actions: np.ndarray,
             strict: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
        """One action per game, in place: (rewards float32 [N, max_players], done bool [N],
        illegal bool [N]). strict: raise ValueError, changing nothing, for an illegal
        action."""

    @abstractmethod
    def observe(self, state: State, seats: np.ndarray | int | None = None) -> np.ndarray:
        """float32 [N, obs_size]: what `seats` (default: each game's actor) see."""

    @abstractmethod
    def legal_action_mask(self, state: State) -> np.ndarray:
        """bool [N, num_actions]: the actor's legal actions (all False once over)."""

    @abstractmethod
    def current_player(self, state: State) -> np.ndarray:
        """int8 [N]: the seat to act (-1 once the game is over)."""

    @abstractmethod
    def kernel_view(self, state: State) -> np.ndarray:
        """The plain array the compiled kernels take; ValueError if `state` is not this
        game's."""

    @abstractmethod
    def state_to_dict(self, state: State, i: int = 0) -> dict:
        """Game i as JSON-ready values."""

    @abstractmethod
    def state_from_dict(self, data: dict) -> State:
        """A batch of one game from `state_to_dict`'s form (ValueError naming what is
        wrong)."""

    def random_playout(self, state: State, seed: int = 0, max_steps: int = 100_000) -> Any:
        """Play every game (in place) with uniformly random legal actions until it ends or
        has taken `max_steps` decisions, compiled; the result has `steps` [N] (decisions
        taken here) and `done` [N]. Written once on the lockstep loops, every seat built in;
        a game may bring its own (NOIR's and District Noir's also check invariants)."""
        n = len(state)
        lanes = make_lanes(n, self.max_players)
        lanes.builtin[:] = True
        lanes.agent_rng[:] = (np.arange(n, dtype=np.uint64) + np.uint64(seed)) * np.uint64(
            2654435761
        ) | np.uint64(1)  # xorshift needs a non-zero state
        start = np.asarray(state.steps, np.int64).copy()
        run(self.kernel_view(state), np.arange(n), np.full(n, -1), lanes, True, max_steps)
        return Playout(steps=np.asarray(state.steps, np.int64) - start, done=state.actor < 0)

    # --- what the layers read of a state --------------------------------------------------
    @abstractmethod
    def num_players(self, state: State) -> np.ndarray:
        """int8 [N]: the seats of each game."""

    @abstractmethod
    def scores(self, state: State) -> np.ndarray:
        """int32 [N, max_players]: each seat's score now (the final one once over)."""

    @abstractmethod
    def outcome(self, state: State) -> np.ndarray:
        """float32 [N, max_players]: the zero-sum rewards of games that are over."""

    @abstractmethod
    def winners(self, state: State) -> np.ndarray:
        """bool [N, max_players]: the winners (none while the game goes on, or a draw)."""

    @abstractmethod
    def win_reason(self, state: State) -> np.ndarray:
        """int [N]: an index into `win_reasons` (0 while the game goes on)."""

    @abstractmethod
    def alive(self, state: State) -> np.ndarray:
        """bool [N, max_players]: seats still in the game (False past num_players)."""

    @abstractmethod
    def turns(self, state: State) -> np.ndarray:
        """int [N]: the turns (or rounds, `turn_word`) begun."""

    @abstractmethod
    def check_rules(self, rules: Any) -> Any:
        """The rules object of a preset name or rules value (None: the default); raises
        ValueError for rules the game does not have."""

    @abstractmethod
    def rules_name(self, rules: Any) -> str | None:
        """The preset name of a rules object (None for a game without presets)."""

    # --- text ---------------------------------------------------------------------------------
    @abstractmethod
    def describe_illegal(self, state: State, game: int, action: int) -> str:
        """Why `action` cannot be played in game `game`: its name, the phase, the legal
        actions (the ValueError message of every layer)."""

    @abstractmethod
    def render(self, state: State, game: int = 0, seat: int | None = None,
               rules: Any = None) -> str:  # fmt: skip
        """Game `game` as text, from `seat`'s view (None: everything public)."""

    @abstractmethod
    def history(self, state: State, game: int, rules: Any, seed: int,
                actions: list[int]) -> dict:  # fmt: skip
        """Game `game`, dealt with `seed` and played with `actions`, in the format of the
        game's AEC env's history (seed, settings, every decision)."""

    def aec_env(self, num_players: int | None = None, rules: Any = None, **kwargs: Any) -> Any:
        """A new PettingZoo AEC env of one game, with `board_text(agent)` and `game_log`
        besides PettingZoo's API: `noir_env.aec.GameAECEnv`, written once over the protocol
        (NOIR and District Noir give their own modules' unwrapped `raw_env`)."""
        from .aec import GameAECEnv  # pettingzoo is imported only when an AEC env is made

        return GameAECEnv(self, num_players, rules, **kwargs)

    def sample_hidden(self, state: State, seats: int | np.ndarray,
                      seeds: int | np.ndarray | None = 0) -> State:  # fmt: skip
        """A copy of `state` in which what `seats` cannot see (other hands, the draw pile's
        order, future chance) is re-dealt as they could believe it to be; the same seeds
        give the same deal (search agents' determinizations, OpenSpiel's
        `resample_from_infostate`). A game without belief sampling raises
        NotImplementedError naming itself."""
        raise NotImplementedError(f"{self.title} has no belief sampling (Game.sample_hidden)")

    # --- written once from the above ------------------------------------------------------
    def clone(self, state: State) -> State:
        """An independent copy of a batch of states."""
        return state.copy()

    def action_name(self, action: int) -> str:
        """The stable, readable name of an action id."""
        return ActionTable(self.action_names).action_name(action)

    def action_id(self, name: str) -> int:
        """The id of an action name (inverse of `action_name`)."""
        try:
            return ActionTable(self.action_names).action_id(name)
        except ValueError as err:
            raise ValueError(f"{self.title}: {err}") from None

    def observation_space(self):
        """The Gymnasium space of one observation (unbounded unless a game says more)."""
        import gymnasium

        return gymnasium.spaces.Box(-np.inf, np.inf, shape=(self.obs_size,), dtype=np.float32)

    def action_space(self):
        """The Gymnasium space of one action."""
        import gymnasium

        return gymnasium.spaces.Discrete(self.num_actions)

    def player_counts(self, num_players: int | Iterable[int] | None = None) -> np.ndarray:
        """int8 [K]: the player counts to draw from per game (one int or a list; None: the
        default), sorted; a count listed k times is drawn k times as often, e.g. (3, 3, 4, 5)
        deals 3 players to half the games. ValueError for a count the game does not have."""
        given = self.default_players if num_players is None else num_players
        counts = np.atleast_1d(np.asarray(list(given) if not np.isscalar(given) else given))
        span = f"{self.min_players}..{self.max_players}"
        if counts.size == 0 or counts.ndim != 1 or not np.issubdtype(counts.dtype, np.integer):
            raise ValueError(f"num_players must be an int or a set of ints in {span}, got {given}")
        bad = counts[(counts < self.min_players) | (counts > self.max_players)]
        if bad.size:
            raise ValueError(f"{self.title}: num_players must be in {span}, got {int(bad[0])}")
        return np.sort(counts).astype(np.int8)  # repeats kept: they weight the draw

    def bind(self) -> None:
        """Lend `kernels` to the lockstep loops for this game's state dtype."""
        bind_kernels(self.allocate(1).dtype, self.kernels)

    def __repr__(self) -> str:
        return f"<{self.title} ({self.name}): {self.min_players}-{self.max_players} players>"


class CoreGame(Game):
    """A game whose batched core is laid out as noir_env's cores are (`noir_env.core`,
    `noir_env.district`): the modules `api` (step, observe, legal_action_mask,
    current_player, scores), `state` (allocate, kernel_view), `serialize` (state_to_dict,
    state_from_dict) and `rollout` (random_playout). The methods below call those modules;
    a subclass names them and implements the rest."""

    api: ModuleType
    state_module: ModuleType
    serialize: ModuleType
    rollout: ModuleType

    def allocate(self, n: int) -> State:
        return self.state_module.allocate(n)

    def step(self, state, actions, strict=True):
        return self.api.step(state, actions, strict)

    def observe(self, state, seats=None):
        return self.api.observe(state, seats)

    def legal_action_mask(self, state):
        return self.api.legal_action_mask(state)

    def current_player(self, state):
        return self.api.current_player(state)

    def kernel_view(self, state):
        return self.state_module.kernel_view(state)

    def state_to_dict(self, state, i=0):
        return self.serialize.state_to_dict(state, i)

    def state_from_dict(self, data):
        return self.serialize.state_from_dict(data)

    def random_playout(self, state, seed=0, max_steps=100_000):
        return self.rollout.random_playout(state, seed, max_steps)

    def scores(self, state):
        return self.api.scores(state)

    def win_reason(self, state):
        return state.win_reason.astype(np.int64)


# --- the registry --------------------------------------------------------------------------------
_BUILT_IN = {"noir": "noir_env.core.game", "district_noir": "noir_env.district.game"}
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add `game` to the registry under `game.name` and bind its kernels; returns it.
    Registering the same name again replaces the entry (a reloaded module)."""
    if not isinstance(game, Game):
        raise ValueError(f"register() takes a Game, got {type(game).__name__}")
    game.bind()
    _GAMES[game.name] = game
    return game


def get_game(name: str | Game) -> Game:
    """The registered game called `name` ("noir", "district_noir", ...); a Game is returned
    as it is. Raises ValueError naming the games there are."""
    if isinstance(name, Game):
        return name
    if name not in _GAMES and name in _BUILT_IN:
        importlib.import_module(_BUILT_IN[name])  # the module registers its game
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; games: {game_names()}") from None


def game_names() -> list[str]:
    """The names `get_game` resolves."""
    return sorted({*_BUILT_IN, *_GAMES})


def game_of_state(state: State) -> Game:
    """The registered game whose states `state` is a batch of; ValueError naming the games
    otherwise."""
    for name in game_names():
        game = get_game(name)
        try:
            game.kernel_view(state)
        except ValueError:
            continue
        return game
    got = getattr(state, "dtype", type(state).__name__)
    raise ValueError(f"not a batch of states of any game ({game_names()}): got {got}")
