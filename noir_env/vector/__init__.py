"""Training interfaces on the batched cores, for any game of the protocol (`noir_env.game`,
`game="noir"` by default, `game="district_noir"`, or any registered game).

- `make_vector_env(num_envs, ...)`: a Gymnasium 1.x VectorEnv, one learner seat per game,
  opponents played inside, batched (`gym_vector`).
- `make_sb3_vec_env(num_envs, ...)`: the same as a Stable-Baselines3 VecEnv with
  `action_masks()`, for sb3-contrib's MaskablePPO (`sb3`; needs the `train` extra).
- `SingleSeatEnv`: the single-seat Gymnasium env, registered as "noir_env/Noir-v2"
  (`NoirEnv`) and "noir_env/DistrictNoir-v0" (`DistrictEnv`) (`single`); `NoirVectorEnv` and
  `DistrictVectorEnv` are the VectorEnvs `gymnasium.make_vec` builds for them.
- `make_selfplay_env(num_envs, ...)`: the batched self-play API, every seat's decision
  supplied by the caller, rewards per seat (`selfplay`).
- `play_games(...)`: scheduled games between K policies, the tournaments' engine (`arena`);
  `policy_of(name, agent)` seats a batched agent or a search agent (`uses_state`).
- `SingleSeatGames`: the batched engine the single-seat envs share (`engine`).

Modules load on first use: importing `noir_env.vector` compiles nothing and imports neither
Stable-Baselines3 nor torch.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "make_vector_env": "gym_vector",
    "GameVectorEnv": "gym_vector",
    "NoirVectorEnv": "gym_vector",
    "DistrictVectorEnv": "gym_vector",
    "make_sb3_vec_env": "sb3",
    "GameSB3VecEnv": "sb3",
    "SingleSeatEnv": "single",
    "NoirEnv": "single",
    "DistrictEnv": "single",
    "SingleSeatGames": "engine",
    "make_selfplay_env": "selfplay",
    "SelfPlayEnv": "selfplay",
    "play_games": "arena",
    "ArenaPolicy": "arena",
    "policy_of": "arena",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
