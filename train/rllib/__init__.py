"""Ray RLlib (new API stack) over the batched core: the second trainer, for runs that
outgrow one machine (docs/rllib.md). Needs the `rllib` extra (`pip install
"noir_env[rllib]"`); nothing outside this package imports ray.

- `envs`: the env runners' environments (path 1: `MaskedVectorEnv`, N single-seat games
  against the league; path 2: `SelfPlayMultiAgentEnv`, turn-based, every seat an agent).
- `modules`: `MaskedPolicyModule` (train.ppo's network, logits of illegal actions masked),
  `AgentModule` (a heuristic or frozen opponent), `ObsStatsConnector`.
- `config`: the PPOConfig of both paths; `args`: the flags of `python -m train.rllib_ppo`.
- `export`: an RLlib module or checkpoint as the policy file `agents.load` plays.

Why under train/: it builds on agents (the PolicyNet it trains and exports) and on the
vector envs, the top of the one-way flow core -> envs -> agents -> train.
"""
