"""The policies that ship with the agents (agents.load("ppo"))."""

from pathlib import Path

SHIPPED_PPO_POLICY = Path(__file__).parent / "ppo_noir.pt"
