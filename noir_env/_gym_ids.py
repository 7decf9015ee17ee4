"""The Gymnasium ids of noir_env and their registration, which `import noir_env` runs.

Gymnasium's module-qualified form `gymnasium.make("noir_env:noir_env/Noir-v2")` imports
noir_env before it looks the id up, so it works in a fresh interpreter; the bare id works
once noir_env is imported. The ids carry entry-point strings: registering them imports
nothing of the environments (numba, the kernels) until `gymnasium.make` builds one.
"""

from __future__ import annotations

ENV_ID = "noir_env/Noir-v2"
DISTRICT_ENV_ID = "noir_env/DistrictNoir-v0"

# id -> (single-seat entry point, VectorEnv entry point for gymnasium.make_vec)
_ENTRY_POINTS = {
    ENV_ID: ("noir_env.vector.single:NoirEnv", "noir_env.vector.gym_vector:NoirVectorEnv"),
    DISTRICT_ENV_ID: (
        "noir_env.vector.single:DistrictEnv",
        "noir_env.vector.gym_vector:DistrictVectorEnv",
    ),
}


def register_envs() -> None:
    """Register noir_env's ids with Gymnasium (ids already registered are left as they are)."""
    from gymnasium.envs.registration import register, registry

    for env_id, (entry_point, vector_entry_point) in _ENTRY_POINTS.items():
        if env_id in registry:
            continue
        # gymnasium.make returns the env itself: Gymnasium 1.x wrappers (its OrderEnforcing
        # and PassiveEnvChecker) hide every method they do not define, and the env's
        # action_masks() must stay reachable; the env enforces the call order itself
        # (ValueError before reset). An extra outer wrapper would do it too, but
        # gymnasium.make_vec refuses a spec with additional wrappers, and make_vec(env_id)
        # must build the batched VectorEnv.
        register(
            id=env_id,
            entry_point=entry_point,
            vector_entry_point=vector_entry_point,
            order_enforce=False,
            disable_env_checker=True,
        )
