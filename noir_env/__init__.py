"""noir_env: a faithful, batched reinforcement-learning environment for the NOIR card game.

Importing the package registers the single-seat Gymnasium env "noir_env/Noir-v2"
(`noir_env.vector.NoirEnv`; `gymnasium.make_vec` gives `noir_env.vector.NoirVectorEnv`) and
"noir_env/DistrictNoir-v0" (`noir_env.vector.DistrictEnv` / `DistrictVectorEnv`), the one
single-seat env and VectorEnv of every game bound to a game, by entry-point strings: nothing
is compiled or loaded until `gymnasium.make` builds one. In a fresh interpreter,
`gymnasium.make("noir_env:noir_env/Noir-v2")` imports the package first. The games
themselves: the protocol and registry in `noir_env.game`.
"""

__version__ = "0.3.0"

from ._gym_ids import DISTRICT_ENV_ID as DISTRICT_ENV_ID
from ._gym_ids import ENV_ID as ENV_ID
from ._gym_ids import register_envs as _register_envs

_register_envs()

from .engine.registry import declare as _declare  # noqa: E402 - plain Python, loads no game

_declare("noir", "noir_env.core.game")
_declare("district_noir", "noir_env.district.game")


def __getattr__(name: str):
    # `noir_env.noir_v2` on first use: importing the package stays cheap
    if name == "noir_v2":
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
