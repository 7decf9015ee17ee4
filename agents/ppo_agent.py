"""The PPO policy: the network `train/ppo.py` trains, and the agent that plays a saved one.

`PolicyNet` is a masked actor-critic MLP over NOIR's flat observation. It keeps the running
mean and variance of the observations it was trained on as buffers, so a saved policy file is
self-contained: `PPOAgent(path)` plays it with the batched agent protocol
`act(obs[N, D], mask[N, A]) -> actions[N]` (greedy by default, or sampled).

A policy file is `torch.save({"format": "noir-ppo/1", "config": {...}, "state_dict": ...})`
with float16 weights (the shipped policy is a few MB); `save_policy` / `load_policy` write and
read it. `agents.load("ppo")` loads the policy shipped in `agents/policies/` (a name only while one
ships); `agents.load("path/to/policy.pt")` loads any policy file.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .games import GAME_TITLES, OBS_SIZES
from .registry import SHIPPED_PPO_POLICY as SHIPPED_POLICY

FORMAT = "noir-ppo/1"


class PolicyNet(nn.Module):
    """obs -> (masked-ready logits over every action, state value)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: tuple[int, ...] = (256, 256)):
        super().__init__()
        self.config = {"obs_size": obs_size, "num_actions": num_actions, "hidden": list(hidden)}
        layers: list[nn.Module] = []
        width = obs_size
        for h in hidden:
            layers += [_orthogonal(nn.Linear(width, h), np.sqrt(2)), nn.Tanh()]
            width = h
        self.body = nn.Sequential(*layers)
        self.pi = _orthogonal(nn.Linear(width, num_actions), 0.01)
        self.v = _orthogonal(nn.Linear(width, 1), 1.0)
        self.register_buffer("obs_mean", torch.zeros(obs_size))
        self.register_buffer("obs_var", torch.ones(obs_size))
        self.register_buffer("obs_count", torch.tensor(1e-4, dtype=torch.float64))

    def normalize(self, obs: torch.Tensor) -> torch.Tensor:
        """Observations scaled by the running statistics (clipped at 10 deviations)."""
        return ((obs - self.obs_mean) / torch.sqrt(self.obs_var + 1e-8)).clamp(-10.0, 10.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.heads(self.normalize(obs))

    def heads(self, normalized_obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits, value) of observations already scaled by `normalize` (a training update
        scales its whole batch once instead of every minibatch in every epoch)."""
        h = self.body(normalized_obs)
        return self.pi(h), self.v(h).squeeze(-1)

    @torch.no_grad()
    def update_obs_stats(self, obs: torch.Tensor) -> None:
        """Fold a batch of observations into the running mean and variance (Chan et al.)."""
        n = obs.shape[0]
        mean, var = obs.mean(0), obs.var(0, unbiased=False)
        total = self.obs_count + n
        delta = mean - self.obs_mean
        self.obs_mean += delta * (n / total).float()
        m2 = self.obs_var * self.obs_count.float() + var * n
        m2 += delta**2 * (self.obs_count * n / total).float()
        self.obs_var.copy_(m2 / total.float())
        self.obs_count.copy_(total)


def _orthogonal(layer: nn.Linear, gain: float) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get a logit of -1e9: probability 0, no NaN."""
    return logits.masked_fill(~mask, -1e9)


def masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the legal actions (illegal ones: about -1e9, probability 0)."""
    return torch.log_softmax(masked_logits(logits, mask), dim=-1)


def save_policy(net: PolicyNet, path: str | os.PathLike) -> None:
    """Write a self-contained policy file (float16 weights, float32 statistics)."""
    state = {
        k: (v.half() if v.is_floating_point() and not k.startswith("obs_") else v)
        for k, v in net.state_dict().items()
    }
    torch.save({"format": FORMAT, "config": net.config, "state_dict": state}, path)


def load_policy(path: str | os.PathLike) -> PolicyNet:
    """Read a policy file written by `save_policy`; ValueError if it is not one."""
    data = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a NOIR PPO policy file ({FORMAT})")
    cfg = data["config"]
    net = PolicyNet(cfg["obs_size"], cfg["num_actions"], tuple(cfg["hidden"]))
    state = data["state_dict"]
    net.load_state_dict({k: v if k == "obs_count" else v.float() for k, v in state.items()})
    net.eval()
    return net


class PPOAgent:
    """Plays a PolicyNet: `act(obs, mask)` picks the most likely legal action (greedy) or
    samples one (`greedy=False`, seeded)."""

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        net: PolicyNet | None = None,
        greedy: bool = True,
        seed: int | None = None,
    ):
        if net is None:
            path = SHIPPED_POLICY if path is None else path
            if not Path(path).is_file():
                raise ValueError(f"no PPO policy file at {path}")
            net = load_policy(path)
        self.net = net
        self.greedy = greedy
        self.generator = torch.Generator().manual_seed(0 if seed is None else int(seed))

    @torch.no_grad()
    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """int64 actions, one per row (a 1-D obs and mask give one action)."""
        single = np.ndim(mask) == 1
        o = torch.as_tensor(np.atleast_2d(obs), dtype=torch.float32)
        m = torch.as_tensor(np.atleast_2d(mask)).bool()
        if o.shape[1] != self.net.config["obs_size"]:
            size = self.net.config["obs_size"]
            other = [GAME_TITLES[g] for g, n in OBS_SIZES.items() if n == o.shape[1]]
            hint = f" (a {other[0]} observation?)" if other else ""
            raise ValueError(
                f"this PPO policy reads observations of size {size}, got {tuple(o.shape)}{hint}"
            )
        if o.shape[0] != m.shape[0]:
            raise ValueError(f"obs {tuple(o.shape)} and mask {tuple(m.shape)} do not match")
        if not m.any(dim=1).all():
            raise ValueError("a mask row has no legal action")
        logits = masked_logits(self.net(o)[0], m)
        if self.greedy:
            a = logits.argmax(dim=1)
        else:
            a = torch.multinomial(torch.softmax(logits, dim=1), 1, generator=self.generator)[:, 0]
        out = a.numpy().astype(np.int64)
        return out[0] if single else out
