"""noir_env: a faithful, batched reinforcement-learning environment for the NOIR card game.

Importing the package registers the single-seat Gymnasium env "noir_env/Noir-v1"
("noir_env/Noir-v0" stays registered as its deprecated alias; Gymnasium warns when it is made)
(`noir_env.vector.NoirEnv`; `gymnasium.make_vec` gives `noir_env.vector.NoirVectorEnv`) and
"noir_env/DistrictNoir-v0" (`noir_env.vector.DistrictEnv` / `DistrictVectorEnv`), the one
single-seat env and VectorEnv of every game bound to a game, by entry-point strings: nothing
is compiled or loaded until `gymnasium.make` builds one. The games themselves: the protocol
and registry in `noir_env.game`.
"""

__version__ = "0.3.0"

ENV_ID = "noir_env/Noir-v1"
_DEPRECATED_ENV_IDS = ("noir_env/Noir-v0",)  # the game of rules v1; the same entry point now
DISTRICT_ENV_ID = "noir_env/DistrictNoir-v0"


def _register_gymnasium_env() -> None:
    from gymnasium.envs.registration import register, registry

    # gymnasium.make returns the env itself: Gymnasium 1.x wrappers (its OrderEnforcing and
    # PassiveEnvChecker) hide every method they do not define, and the env's action_masks()
    # must stay reachable; the env enforces the call order itself (ValueError before reset).
    # An extra outer wrapper would do it too, but gymnasium.make_vec refuses a spec with
    # additional wrappers, and make_vec(ENV_ID) must build the batched VectorEnv.
    bare = {"order_enforce": False, "disable_env_checker": True}
    for env_id in (ENV_ID, *_DEPRECATED_ENV_IDS):
        if env_id in registry:
            continue
        register(
            id=env_id,
            entry_point="noir_env.vector.single:NoirEnv",
            # gymnasium.make_vec(ENV_ID, num_envs=N) builds the batched VectorEnv directly
            vector_entry_point="noir_env.vector.gym_vector:NoirVectorEnv",
            **bare,
        )
    if DISTRICT_ENV_ID not in registry:
        register(
            id=DISTRICT_ENV_ID,
            entry_point="noir_env.vector.single:DistrictEnv",
            vector_entry_point="noir_env.vector.gym_vector:DistrictVectorEnv",
            **bare,
        )


_register_gymnasium_env()


def __getattr__(name: str):
    # `noir_env.noir_v1` on first use: importing the package stays cheap
    if name in ("noir_v1", "noir_v0"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
