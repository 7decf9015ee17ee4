"""The OpenSpiel game object of each of our games: its `pyspiel.GameType` and `GameInfo`,
its parameters, and `register_games` (the package docstring says what is declared and why)."""

from __future__ import annotations

from typing import Any

import pyspiel

from ..game import Game, get_game
from .observer import Observer
from .state import SpielState, public_bytes

GAMES = ("noir", "district_noir")  # OpenSpiel short names, the same as our registry's
MAX_GAME_LENGTH = 10_000  # NOIR's cut, as noir_v1's max_steps (random 6-player games: ~1,700)
DISTRICT_MAX_LENGTH = 48  # DN3.7: four rounds of twelve actions


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
        chance_mode=kind.ChanceMode.SAMPLED_STOCHASTIC,
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


class SpielGame(pyspiel.Game):
    """One of our games as a `pyspiel.Game` (built by `pyspiel.load_game`). Parameters:
    `players` and `rules` (NOIR: 3-6, a preset name), `rng_seed` (the first deal's seed) and
    `max_game_length` (NOIR: decisions after which the game is a draw)."""

    def __init__(self, game: Game, params: dict[str, Any] | None = None) -> None:
        params = {**parameters(game), **(params or {})}
        unknown = sorted(set(params) - set(parameters(game)))
        if unknown:
            raise ValueError(f"{game.title}: unknown parameters {unknown}; "
                             f"known: {sorted(parameters(game))}")  # fmt: skip
        self.core_game = game
        self.num_seats = int(game.player_counts(params.get("players"))[0])
        self.rules = game.check_rules(params.get("rules"))
        self.max_length = int(params.get("max_game_length", DISTRICT_MAX_LENGTH))
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be >= 1, got {self.max_length}")
        self.rng_seed = int(params["rng_seed"])
        self.public_index = public_bytes(game, game.allocate(1))  # what every seat sees
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=self.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(game_type(game), info, params)

    def new_initial_state(self) -> SpielState:
        """The game dealt with seed `rng_seed` (every call the same deal: OpenSpiel's
        `clone` and deserialization start from it; `deal` deals another seed)."""
        return deal(self, self.rng_seed)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        """The observer of the observation (default) or, for a perfect-recall
        `IIGObservationType`, of the information state."""
        return Observer(self, iig_obs_type, params)


def deal(game: SpielGame, seed: int) -> SpielState:
    """A new game of `game`'s settings dealt with `seed` (the same seed, the same deal)."""
    core = game.core_game
    # ask_all: every decision whose being forced is not public is presented, so who is
    # asked reveals nothing hidden (District Noir's core ignores it: DN5.1)
    state = core.init(1, game.num_seats, game.rules, seeds=[int(seed)], ask_all=True)
    return SpielState(game, state)


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
