"""The policies that ship with the agents: `agents.load("ppo")` (the current one) and
`agents.load("ppo-v1")` (the first, trained on rules v1's observation and kept to compare)."""

from pathlib import Path

SHIPPED_PPO_POLICY = Path(__file__).parent / "ppo_noir.pt"
PPO_V1_POLICY = Path(__file__).parent / "ppo_noir_v1.pt"
