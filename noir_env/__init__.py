"""noir_env: a faithful, batched reinforcement-learning environment for the NOIR card game."""

__version__ = "0.1.0"
