"""noir_env: a faithful, batched reinforcement-learning environment for the NOIR card game.

Importing the package registers the single-seat Gymnasium env "noir_env/Noir-v0"
(`noir_env.vector.NoirEnv`; `gymnasium.make_vec` gives `noir_env.vector.NoirVectorEnv`) by
entry-point strings: nothing is compiled or loaded until `gymnasium.make` builds one.
"""

__version__ = "0.2.0"

ENV_ID = "noir_env/Noir-v0"


def _register_gymnasium_env() -> None:
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(
            id=ENV_ID,
            entry_point="noir_env.vector.single:NoirEnv",
            # gymnasium.make_vec(ENV_ID, num_envs=N) builds the batched VectorEnv directly
            vector_entry_point="noir_env.vector.gym_vector:NoirVectorEnv",
        )


_register_gymnasium_env()


def __getattr__(name: str):
    # `noir_env.noir_v0` on first use: importing the package stays cheap
    if name == "noir_v0":
        import importlib

        return importlib.import_module(".noir_v0", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
