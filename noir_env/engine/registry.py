"""The registry of games: `register` adds a game object, `declare` names the module that
registers a game when it is imported, so `get_game(name)` imports a game only when it is
first asked for. Plain Python: importing this module compiles and loads nothing."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .protocol import Game

_DECLARED: dict[str, str] = {}  # name -> module that registers the game on import
_GAMES: dict[str, Game] = {}


def declare(name: str, module: str) -> None:
    """`get_game(name)` imports `module` (which registers the game) on first use."""
    _DECLARED[name] = module


def register(game: Game) -> Game:
    """Add `game` to the registry under `game.name` and bind its kernels; returns it.
    Registering the same name again replaces the entry (a reloaded module)."""
    from .protocol import Game

    if not isinstance(game, Game):
        raise ValueError(f"register() takes a Game, got {type(game).__name__}")
    game.bind()
    _GAMES[game.name] = game
    return game


def get_game(name: Any) -> Game:
    """The registered game called `name` ("noir", "district_noir", ...); a Game is returned
    as it is. Raises ValueError naming the games there are."""
    from .protocol import Game

    if isinstance(name, Game):
        return name
    if isinstance(name, str) and name not in _GAMES and name in _DECLARED:
        importlib.import_module(_DECLARED[name])  # the module registers its game
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; games: {game_names()}") from None


def game_names() -> list[str]:
    """The names `get_game` resolves."""
    return sorted({*_DECLARED, *_GAMES})


def game_of_state(state: Any) -> Game:
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
