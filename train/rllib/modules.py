"""The RLModules and the learner connector that RLlib trains and plays our games with.

- `MaskedPolicyModule`: the PPO actor-critic of `train.ppo` (`agents.ppo.net.PolicyNet`,
  the same network, so a trained module is exported as the policy file `agents.load`
  plays) behind RLlib's `TorchRLModule` and `ValueFunctionAPI`. It reads a Dict observation
  {"observations": float32 [D], "action_mask": int8 [A]} (RLlib's action-masking
  convention, `ActionMaskingTorchRLModule`) and gives every action that is not legal the
  logit -1e9: probability exactly 0 after a softmax, so no illegal action is ever sampled.
  A row with no legal action at all (the last observation of an ended episode, whose action
  the env ignores) gets equal logits: a valid distribution, never NaN.
- `AgentModule`: any agent `agents.load` knows (a name or a policy file) as an RLModule that
  is never trained: the heuristic or frozen opponents of multi-agent self-play.
- `ObsStatsConnector`: a learner connector that folds each training batch's observations
  into the running mean and variance the network keeps as buffers (as train.ppo does once
  per rollout, before the update). The buffers travel with the weights to the env runners
  and into the exported policy file. With several learners (GPUs), each folds in its own
  shard; RLlib's DDP wrapper broadcasts rank 0's buffers at every forward pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from ray.rllib.connectors.connector_v2 import ConnectorV2
from ray.rllib.core import DEFAULT_MODULE_ID
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule

from agents.ppo.net import ILLEGAL_LOGIT, PolicyNet
from noir_env.threads import set_threads

OBS_KEY = "observations"  # RLlib's action-masking convention for the Dict observation
MASK_KEY = "action_mask"


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """`PolicyNet` as a masked PPO RLModule (module docstring). model_config: "hidden"
    (layer widths, default [256, 256]) and "game" (the game's name, written into the
    exported policy file)."""

    def setup(self) -> None:
        # every Ray process of train.rllib_ppo builds this module (env runners, learners):
        # each takes the thread choice the driver takes (noir_env.threads)
        set_threads()
        cfg = dict(self.model_config or {})
        space = self.observation_space
        if not hasattr(space, "spaces") or {OBS_KEY, MASK_KEY} - set(space.spaces):
            raise ValueError(
                f"MaskedPolicyModule needs a Dict observation space with keys {OBS_KEY!r} "
                f"and {MASK_KEY!r}, got {space}"
            )
        obs_size = int(space[OBS_KEY].shape[0])
        hidden = tuple(int(h) for h in cfg.get("hidden", (256, 256)))
        self.net = PolicyNet(obs_size, int(self.action_space.n), hidden, str(cfg.get("game", "")))

    def _logits(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        logits, value = self.net(obs[OBS_KEY].float())
        return logits.masked_fill(obs[MASK_KEY] == 0, ILLEGAL_LOGIT), value

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)[0]}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, value = self._logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: value}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """The state values [B] (reused from `_forward_train`'s pass when given)."""
        if embeddings is not None:
            return embeddings
        return self.net(batch[Columns.OBS][OBS_KEY].float())[1]


class AgentModule(RLModule):
    """An agent of `agents.load` (model_config {"agent": name or policy file, "seed": int})
    playing from the masked Dict observation; never trained (leave it out of
    `policies_to_train`)."""

    def setup(self) -> None:
        import agents

        cfg = dict(self.model_config or {})
        self.agent = agents.load(cfg["agent"], seed=cfg.get("seed"))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        o, m = np.asarray(obs[OBS_KEY], np.float32), np.asarray(obs[MASK_KEY], np.int8)
        acts = np.zeros(len(m), np.int64)
        live = m.any(axis=1)  # a row without a legal action: an ended episode's last view
        if live.any():
            acts[live] = self.agent.act(o[live], m[live])
        return {Columns.ACTIONS: acts}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError(f"{self.model_config['agent']!r} is not trained")


class ObsStatsConnector(ConnectorV2):
    """Learner connector: before a batch is built, fold its episodes' observations into the
    running statistics of every `MaskedPolicyModule` they belong to (module docstring)."""

    def __call__(self, *, rl_module: Any, batch: dict, episodes: list, **kwargs: Any) -> Any:
        by_module: dict[str, list[np.ndarray]] = {}
        for episode in self.single_agent_episode_iterator(episodes, agents_that_stepped_only=False):
            mid = episode.module_id or DEFAULT_MODULE_ID
            obs = episode.get_observations(slice(0, len(episode)))  # the steps acted on
            if len(episode):
                by_module.setdefault(mid, []).append(np.asarray(obs[OBS_KEY], np.float32))
        for mid, parts in by_module.items():
            module = rl_module.get(mid, None)
            if isinstance(module, MaskedPolicyModule):
                module.net.update_obs_stats(torch.from_numpy(np.concatenate(parts)))
        return batch
