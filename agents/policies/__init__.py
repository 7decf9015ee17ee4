"""The policies that ship with the agents: `agents.load("ppo")` (the current one, a policy
table: a network per player count, `agents/ppo/by_players.py`), `agents.load("ppo-v2")` (the
one before, one network at every player count; the current table plays it at 4-6 players)
and `agents.load("ppo-v1")` (the first, trained on rules v1's observation and kept to
compare)."""

from pathlib import Path

SHIPPED_PPO_POLICY = Path(__file__).parent / "ppo_noir.json"
PPO_V2_POLICY = Path(__file__).parent / "ppo_noir.pt"
PPO_V1_POLICY = Path(__file__).parent / "ppo_noir_v1.pt"
