"""NOIR and District Noir as OpenSpiel games (`pip install "noir_env[openspiel]"`).

    import pyspiel
    import noir_env.openspiel  # registers "noir" and "district_noir" with pyspiel

    game = pyspiel.load_game("noir", {"players": 4, "rules": "noirbrough"})
    state = noir_env.openspiel.deal(game, seed=7)  # or sample the chance nodes yourself
    state.apply_action(state.legal_actions()[0])

Importing this module registers both games with `pyspiel.register_game`; `import noir_env`
never imports it (nor pyspiel). After the deal, each OpenSpiel state wraps a batch of one
game of the batched core (`noir_env.game.get_game`): legal actions, steps, observations,
strings, returns and belief sampling are the core's own, and no rule is written here.
Action ids are the core's ids and `action_to_string` gives the core's stable action names.

The game type, and why:
- **Sequential**, one player acts at a time (NOIR's out-of-turn reactions included: the
  core names the seat asked, as the AEC env's `agent_selection` does).
- **Explicit stochastic.** A game is a function of its seed and its actions: the core draws
  every chance event (the deal, dice, reshuffles) from a generator seeded when the game is
  dealt. So the seed is the game's one chance event, chosen by four chance nodes at the
  start (256 equally likely outcomes each, one byte of a 32-bit seed; the parameter
  `rng_seed` r moves the seeds to r * 2**32 + those). Whoever plays the game draws them:
  Shimmy's `reset(seed=...)`, `evaluate_bots`'s rng, `random_sim_test`; `deal(game,
  seed)` applies a given seed's outcomes.
- **Imperfect information**: the other hands and the order of the draw pile are hidden.
- **Zero-sum, terminal rewards**: the core's outcome (NOIR: winners share +1 and losers
  -1, an eliminated player loses; District Noir: +1 / -1, 0 each in a draw). A game cut at
  `max_game_length` decisions is a draw (every return 0), as `noir_v2`'s truncation.

Strings and tensors: `observation_tensor` is the core's observation of the player (the
float32 vector the agents read; `observation_tensor_layout` has its named parts),
`observation_string` the board as text from the player's view (`noir_env.views.board_text`).
`information_state_string` is perfect recall: that board plus a digest of everything the
player has observed, step by step (each step's public part of the state and the player's own
hand, and the player's own actions), so two histories the player can tell apart never share
a string. There is no `information_state_tensor` (it raises, as a C++ game's does): the
core's observation is a summary of the present, not of the history, and offering it as the
information state would claim perfect recall it does not have.

Serialization (`record`): `state.serialize()` is plain JSON (the parameters, the history and
the worlds `resample_from_infostate` re-dealt), which `game.deserialize_state` replays
through the game's own checks; a pickle of a state or a game holds the same plain data.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401 - the error below names the extra
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "noir_env.openspiel needs OpenSpiel: pip install 'noir_env[openspiel]'"
    ) from err

from .bots import ISMCTSBot
from .game import GAMES, SpielGame, deal, load_game, register_games
from .state import SpielState

register_games()

__all__ = ["GAMES", "ISMCTSBot", "SpielGame", "SpielState", "deal", "load_game", "register_games"]
