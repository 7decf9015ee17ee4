"""The agent that plays a saved PPO policy.

`PPOAgent(path)` plays a policy file (`agents.ppo.file`) of a `PolicyNet` (`agents.ppo.net`)
with the batched agent protocol `act(obs[N, D], mask[N, A]) -> actions[N]` (greedy by
default, or sampled), in numpy. `agents.load("path/to/policy.pt")` loads any policy file;
`agents.load("ppo")`, the shipped policy, is a policy table: a policy file per player count
(`agents.ppo.by_players`). `PolicyNet`, `load_policy` and `save_policy` can still be
imported from here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.finished import act_on_live_rows
from agents.games import OBS_SIZES, game_of_observation
from agents.ppo.file import load_policy, save_policy  # noqa: F401 - save_policy: re-exported
from agents.ppo.net import PolicyNet, nonzero_part, sample_actions
from noir_env.core.obs_layouts import columns_for, to_layout


class PPOAgent:
    """Plays a PolicyNet: `act(obs, mask)` picks the most likely legal action (greedy) or
    samples one (`greedy=False`, seeded). It plays a numpy copy of the net's weights taken
    when the agent is made (a net trained further needs a new agent): an opponent inside a
    vector env is called once per decision round, often with a few rows, where torch's
    per-call overhead (about 1 ms) would cost more than the arithmetic."""

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        net: PolicyNet | None = None,
        greedy: bool = True,
        seed: int | None = None,
        prior: Any = None,
    ):
        if net is None:
            if path is None:
                raise ValueError("PPOAgent needs a policy file's path or a net (the shipped "
                                 "policy: agents.load('ppo'))")  # fmt: skip
            if not Path(path).is_file():
                raise ValueError(f"no PPO policy file at {path}")
            net = load_policy(path)
        self.net = net
        self.game = net.config.get("game", "noir")  # agents.games: what it was trained on
        self.greedy = greedy
        self.rng = np.random.default_rng(seed)
        self.policy = NumpyPolicy(net)
        # a policy trained on an earlier NOIR env version reads today's observation through
        # the column map of its layout (noir_env.core.obs_layouts)
        size = net.config["obs_size"]
        earlier = self.game == "noir" and size != OBS_SIZES["noir"]
        self.layout_columns = columns_for(size) if earlier else None
        name = net.config.get("prior")
        if name and prior is None:
            raise ValueError(
                f"this policy consults the agent {name!r} (its prior): load it with "
                f"agents.load(path), or pass prior=agents.load({name!r})"
            )
        self.prior = prior if name else None

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """int64 actions, one per row (a 1-D obs and mask give one action); -1 for a row
        without a legal action (a finished game: `agents.finished`)."""
        single = np.ndim(mask) == 1
        o = np.atleast_2d(np.asarray(obs, dtype=np.float32))
        m = np.atleast_2d(np.asarray(mask)).astype(np.bool_, copy=False)
        if self.layout_columns is not None and o.shape[1] == OBS_SIZES["noir"]:
            o = to_layout(o, self.layout_columns)
        if o.shape[1] != self.net.config["obs_size"]:
            size = self.net.config["obs_size"]
            other = game_of_observation(o.shape[1], but=self.game)
            hint = f" (a {other} observation?)" if other else ""
            raise ValueError(
                f"this PPO policy reads observations of size {size}, got {tuple(o.shape)}{hint}"
            )
        if o.shape[0] != m.shape[0]:
            raise ValueError(f"obs {tuple(o.shape)} and mask {tuple(m.shape)} do not match")
        out = act_on_live_rows(self._act_rows, o, m)
        return out[0] if single else out

    def _act_rows(self, o: np.ndarray, m: np.ndarray) -> np.ndarray:
        """One action per row of the mask `m`, each of which has a legal action."""
        logits = self.policy.logits(o)
        if self.prior is not None:  # (a net with a prior reads today's layout: o as given)
            logits[np.arange(len(m)), self.prior.act(o, m)] += self.policy.prior_weight
        logits = np.where(m, logits, -np.inf)
        best = logits.max(axis=1, keepdims=True)
        if self.greedy:
            out = logits.argmax(axis=1).astype(np.int64)
        else:  # exp of finite numbers only (exp(-inf) takes a slow path)
            probs = np.exp(np.where(m, logits - best, 0.0)) * m
            out = sample_actions(probs, self.rng)
        return out


class NumpyPolicy:
    """A PolicyNet as numpy arrays (the same function, float32): the scaled observation's
    nonzero columns through the first layer, tanh layers, the logits and the value. A copy
    of the net when it is made: `PPOAgent` plays it, and train.ppo's rollout, whose weights
    stay fixed until the update, reads it (its rows are whole, not gathered per call)."""

    @torch.no_grad()
    def __init__(self, net: PolicyNet):
        first = net.first_layer
        zero = net.scaled_zero()
        self.mean = net.obs_mean.numpy().copy()
        self.std = torch.sqrt(net.obs_var + 1e-8).numpy().copy()
        self.zero = zero.numpy().copy()
        self.first_t = first.weight.t().contiguous().numpy()  # [obs, hidden]: rows by column
        self.first_bias = first(zero).numpy().copy()  # W @ scaled(0) + b
        later = [m for m in net.body if isinstance(m, nn.Linear)][1:]  # after the first
        self.layers = [(lin.weight.t().contiguous().numpy(), lin.bias.numpy().copy())
                       for lin in later]  # fmt: skip
        self.pi = (net.pi.weight.t().contiguous().numpy(), net.pi.bias.numpy().copy())
        self.v = (net.v.weight.t().contiguous().numpy(), net.v.bias.numpy().copy())
        self.prior_weight = float(net.prior_weight) if "prior" in net.config else 0.0

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """float32 [B, actions]: the unmasked logits of observations obs [B, obs]."""
        return _matmul(self._hidden(*nonzero_part(obs)), self.pi[0]) + self.pi[1]

    def logits_and_value(self, columns: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(`logits`, float32 [B] state values) of the observations whose `nonzero_part` is
        (columns, x)."""
        h = self._hidden(columns, x)
        return _matmul(h, self.pi[0]) + self.pi[1], (_matmul(h, self.v[0]) + self.v[1])[:, 0]

    def _hidden(self, columns: np.ndarray, x: np.ndarray) -> np.ndarray:
        scaled = np.clip((x - self.mean[columns]) / self.std[columns], -10.0, 10.0)
        z = np.where(x != 0, scaled - self.zero[columns], np.float32(0.0))
        h = np.tanh(self.first_bias + _matmul(z, self.first_t[columns]))
        for w, b in self.layers:
            h = np.tanh(_matmul(h, w) + b)
        return h


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b in torch's thread pool: numpy's OpenBLAS threads keep spinning after a call
    and slow down the compiled game kernels that run next (measured: 2x)."""
    return torch.from_numpy(a).mm(torch.from_numpy(b)).numpy()
