"""noir_env: a faithful, batched reinforcement-learning environment for the NOIR card game."""

__version__ = "0.1.0"


def __getattr__(name: str):
    # `noir_env.noir_v0` on first use: importing the package stays cheap
    if name == "noir_v0":
        import importlib

        return importlib.import_module(".noir_v0", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
