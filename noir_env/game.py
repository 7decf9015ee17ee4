"""The game protocol and registry, as users import them (the engine's, `noir_env.engine`):

    from noir_env.game import get_game
    game = get_game("noir")        # or "district_noir", or any registered game

See `noir_env.engine.protocol` for the protocol and `docs/ADDING_A_GAME.md` for a new game.
"""

from .engine.batch import Playout
from .engine.binding import GameKernels
from .engine.protocol import Game
from .engine.records import RecordLayout, State
from .engine.registry import declare, game_names, game_of_state, get_game, register

__all__ = [
    "Game",
    "GameKernels",
    "Playout",
    "RecordLayout",
    "State",
    "declare",
    "game_names",
    "game_of_state",
    "get_game",
    "register",
]
