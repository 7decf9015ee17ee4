"""Training interfaces on the batched core.

- `make_vector_env(num_envs, ...)`: a Gymnasium 1.x VectorEnv, one learner seat per game,
  opponents played inside, batched (`gym_vector`).
- `make_sb3_vec_env(num_envs, ...)`: the same as a Stable-Baselines3 VecEnv with
  `action_masks()`, for sb3-contrib's MaskablePPO (`sb3`; needs the `train` extra).
- `NoirEnv`: the single-seat Gymnasium env registered as "noir_env/Noir-v1" (`single`).
- `make_selfplay_env(num_envs, ...)`: the batched self-play API, every seat's decision
  supplied by the caller, rewards per seat (`selfplay`).
- `SingleSeatGames`: the batched engine the single-seat envs share (`engine`).
- District Noir: `make_district_vector_env`, `make_district_sb3_vec_env` and `DistrictEnv`
  ("noir_env/DistrictNoir-v0"), the same interfaces over `DistrictGames` (`district*`).

Modules load on first use: importing `noir_env.vector` compiles nothing and imports neither
Stable-Baselines3 nor torch.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "make_vector_env": "gym_vector",
    "NoirVectorEnv": "gym_vector",
    "make_sb3_vec_env": "sb3",
    "NoirSB3VecEnv": "sb3",
    "NoirEnv": "single",
    "SingleSeatGames": "engine",
    "make_selfplay_env": "selfplay",
    "SelfPlayEnv": "selfplay",
    "make_district_vector_env": "district",
    "DistrictVectorEnv": "district",
    "make_district_sb3_vec_env": "district_sb3",
    "DistrictSB3VecEnv": "district_sb3",
    "DistrictEnv": "district_single",
    "DistrictGames": "district_engine",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
