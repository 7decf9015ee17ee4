"""The OpenSpiel game object of each of our games: its `pyspiel.GameType` and `GameInfo`,
its parameters, `load_game` and `register_games` (the package docstring says what is
declared and why)."""

from __future__ import annotations

from typing import Any

import pyspiel

from .._shown import shown
from ..game import Game, get_game
from .deal import DEAL_NODES, DEAL_OUTCOMES, DEAL_SEEDS
from .observer import Observer
from .record import state_from_text
from .state import SpielState, public_bytes

GAMES = ("noir", "district_noir")  # OpenSpiel short names, the same as our registry's
MAX_GAME_LENGTH = 10_000  # NOIR's cut, as noir_v2's max_steps (random 6-player games: ~1,700)
# District Noir: four rounds of twelve actions (DN3.7), of which the core takes the forced
# ones itself (DN5.1), so a game ends within this many decisions without a cut
DISTRICT_MAX_LENGTH = 48
INT_RANGE = (-(2**31), 2**31 - 1)  # OpenSpiel's integer parameters are C++ ints


def parameters(game: Game) -> dict[str, Any]:
    """The parameters `pyspiel.load_game` accepts for `game`, with their defaults."""
    params: dict[str, Any] = {"rng_seed": 0}
    if game.min_players != game.max_players:
        params["players"] = game.default_players
    if game.presets:
        params["rules"] = game.default_rules
        params["max_game_length"] = MAX_GAME_LENGTH
    return params


def game_type(game: Game) -> pyspiel.GameType:
    """The declared type of `game` (package docstring)."""
    kind = pyspiel.GameType
    return kind(
        short_name=game.name,
        long_name=f"{game.title} (noir_env)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


def _int_parameter(params: dict[str, Any], key: str, lo: int, hi: int, why: str = "") -> int:
    value = params[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{key} must be an integer in {lo}..{hi}, got {shown(value)}{why}")
    return value


class SpielGame(pyspiel.Game):
    """One of our games as a `pyspiel.Game` (built by `pyspiel.load_game`). Parameters:
    `players` and `rules` (NOIR: 3-6, a preset name), `rng_seed` (which block of 2**32
    seeds the deal's chance nodes choose from) and `max_game_length` (NOIR: decisions after
    which the game is a draw)."""

    def __init__(self, game: Game, params: dict[str, Any] | None = None) -> None:
        params = {**parameters(game), **(params or {})}
        unknown = sorted(set(params) - set(parameters(game)))
        if unknown:
            raise ValueError(f"{game.title}: unknown parameters {unknown}; "
                             f"known: {sorted(parameters(game))}")  # fmt: skip
        self.core_game = game
        self.num_seats = int(game.player_counts(params.get("players"))[0])
        self.rules = game.check_rules(params.get("rules"))
        if "max_game_length" in params:
            self.max_length = _int_parameter(params, "max_game_length", 1, INT_RANGE[1])
        else:
            self.max_length = DISTRICT_MAX_LENGTH
        self.rng_seed = _int_parameter(
            params, "rng_seed", 0, INT_RANGE[1],
            " (the deal is drawn at the game's chance nodes by whoever plays it; rng_seed "
            "picks which block of 2**32 seeds they draw from, and is no time seed)",
        )  # fmt: skip
        self.public_index = public_bytes(game, game.allocate(1))  # what every seat sees
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=DEAL_OUTCOMES,
            num_players=self.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(game_type(game), info, params)

    def new_initial_state(self) -> SpielState:
        """The game before the deal: `DEAL_NODES` chance nodes of `DEAL_OUTCOMES` equally
        likely outcomes each, which together choose the deal's seed (package docstring)."""
        return SpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The deal's chance nodes: every later chance event is drawn from the seed."""
        return DEAL_NODES

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        """The observer of the observation (default) or, for a perfect-recall
        `IIGObservationType`, of the information state (strings only)."""
        return Observer(self, iig_obs_type, params)

    def deserialize_state(self, text: str) -> SpielState:
        """The state `SpielState.serialize` wrote, replayed and checked move by move; never
        unpickled (ValueError naming what is wrong, for anything else)."""
        return state_from_text(self, text)

    def __reduce__(self) -> tuple:
        # plain data: the game's name and parameters, loaded again by load_game
        return load_game, (self.core_game.name, dict(self.get_parameters()))


def deal(game: SpielGame, seed: int) -> SpielState:
    """A new game of `game`'s settings past its deal: the chance outcomes that choose
    `seed` (0..2**32-1) applied, so the same seed gives the same deal and the state's
    history begins with them."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < DEAL_SEEDS:
        raise ValueError(f"seed must be an integer in 0..{DEAL_SEEDS - 1}, got {shown(seed)}")
    state = game.new_initial_state()
    for outcome in seed.to_bytes(DEAL_NODES, "big"):
        state.apply_action(outcome)
    return state


def load_game(name: str, params: dict[str, Any] | None = None) -> SpielGame:
    """`pyspiel.load_game(name, params)` for our games, with its parameters checked here
    first: an integer pyspiel cannot convert (beyond a C++ int) is a ValueError naming
    it, where pyspiel raises a bare cast error. Pickled games are loaded back by it."""
    if name not in GAMES:
        raise ValueError(f"unknown game {shown(name)}; games: {list(GAMES)}")
    if params is not None and not isinstance(params, dict):
        raise ValueError(f"params must be a dict, got {type(params).__name__}")
    params = dict(params or {})
    known = parameters(get_game(name))
    for key, value in params.items():
        if key not in known:
            raise ValueError(f"{name}: unknown parameter {shown(key)}; known: {sorted(known)}")
        if isinstance(known[key], int):
            _int_parameter(params, key, *INT_RANGE, " (OpenSpiel's integers are C++ ints)")
        elif not isinstance(value, str):
            raise ValueError(f"{key} must be a string, got {shown(value)}")
    register_games()
    return pyspiel.load_game(name, params)


class NoirSpielGame(SpielGame):
    """NOIR as `pyspiel.load_game("noir", {"players": 3..6, "rules": preset})`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(get_game("noir"), params)


class DistrictNoirSpielGame(SpielGame):
    """District Noir as `pyspiel.load_game("district_noir")`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(get_game("district_noir"), params)


# pyspiel keeps each creator until the process exits, after Python has shut down: a class
# outlives that, whereas a closure freed then aborts the process (no GIL to free it with)
CREATORS = {"noir": NoirSpielGame, "district_noir": DistrictNoirSpielGame}


def register_games() -> None:
    """Register every game of `GAMES` with `pyspiel.register_game` (again: a no-op)."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        if name not in known:
            pyspiel.register_game(game_type(get_game(name)), CREATORS[name])
