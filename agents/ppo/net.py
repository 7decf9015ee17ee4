"""The PPO network: `PolicyNet`, the masked actor-critic MLP `train/ppo.py` trains, and the
tensor helpers its training and play share.

`PolicyNet` reads NOIR's flat observation (or District Noir's). It keeps the running mean and
variance of the observations it was trained on as buffers, so a saved policy file is
self-contained. Its first layer reads only the columns that are nonzero somewhere in the
batch (a NOIR observation has about 80 nonzero entries of 2,631): the same function as the
dense layer at a fraction of the cost. Training reads only each row's legal actions
(`legal_actions`, `PolicyNet.legal_heads`, `legal_policy`): a decision has about 3 of 384.
"""

from __future__ import annotations

import warnings
from typing import Any, cast

import numpy as np
import torch
from torch import nn

ILLEGAL_LOGIT = -1e9  # the logit of an action that is not legal: probability 0, no NaN
# the starting bonus of a prior agent's choice (`PolicyNet(prior=...)`): with about 3 legal
# actions the new policy plays the prior's choice about 19 times in 20, greedily always
PRIOR_WEIGHT_INIT = 4.0


class PolicyNet(nn.Module):
    """obs -> (masked-ready logits over every action, state value).

    With `prior` (an agent name, e.g. "heuristic") the policy is a residual on that agent:
    the logit of the action the prior agent would play gets a learned bonus
    `prior_weight` (starting at PRIOR_WEIGHT_INIT), so a new policy starts as the prior
    agent and training learns where to depart from it. The prior's choice is an input the
    caller computes from the same observation and mask (`PPOAgent`, train.ppo's rollout);
    `add_prior` applies it."""

    # the running observation statistics (buffers: saved with the weights, never trained)
    obs_mean: torch.Tensor
    obs_var: torch.Tensor
    obs_count: torch.Tensor

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: tuple[int, ...] = (256, 256),
        game: str = "noir",
        prior: str = "",
    ):
        super().__init__()
        # plain ints: the config is written into policy files as it is
        self.config: dict[str, Any] = {
            "obs_size": int(obs_size),
            "num_actions": int(num_actions),
            "hidden": [int(h) for h in hidden],
            "game": str(game),
        }
        if prior:  # absent otherwise: files of policies without a prior stay as they were
            self.config["prior"] = str(prior)
            self.prior_weight = nn.Parameter(torch.tensor(PRIOR_WEIGHT_INIT))
        layers: list[nn.Module] = []
        width = obs_size
        for h in hidden:
            layers += [_orthogonal(nn.Linear(width, h), np.sqrt(2)), Tanh()]
            width = h
        self.body = nn.Sequential(*layers)
        self.pi = _orthogonal(nn.Linear(width, num_actions), 0.01)
        self.v = _orthogonal(nn.Linear(width, 1), 1.0)
        self.register_buffer("obs_mean", torch.zeros(obs_size))
        self.register_buffer("obs_var", torch.ones(obs_size))
        self.register_buffer("obs_count", torch.tensor(1e-4, dtype=torch.float64))

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> PolicyNet:
        """A new net (fresh weights) of a policy file's `config`."""
        return cls(config["obs_size"], config["num_actions"], tuple(config["hidden"]),
                   config.get("game", "noir"), config.get("prior", ""))  # fmt: skip

    def normalize(self, obs: torch.Tensor, columns: torch.Tensor | None = None) -> torch.Tensor:
        """Observations (or the given columns of them) scaled by the running statistics,
        clipped at 10 deviations."""
        mean, var = self.obs_mean, self.obs_var
        if columns is not None:
            mean, var = mean[columns], var[columns]
        return ((obs - mean) / torch.sqrt(var + 1e-8)).clamp(-10.0, 10.0)

    def scaled_zero(self) -> torch.Tensor:
        """`normalize` of an all-zero observation: what the first layer sees in a column
        where the observation is 0."""
        return self.normalize(torch.zeros_like(self.obs_mean))

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        columns = nonzero_columns(obs)
        return self.heads(columns, self.sparse_inputs(obs[:, columns], columns))

    def sparse_inputs(self, x: torch.Tensor, columns: torch.Tensor) -> torch.Tensor:
        """z for `heads`: the observations' values in `columns` (every other column of the
        batch is zero), scaled, minus the scaled value of a zero. A NOIR observation has about
        80 nonzero entries out of 2,473, so the first layer reads a few hundred columns, not
        all of them. The statistics must stay fixed while z is in use (one training update)."""
        return torch.where(x != 0, self.normalize(x, columns) - self.scaled_zero()[columns], 0.0)

    def heads(self, columns: torch.Tensor, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits, value) from `sparse_inputs`. Exactly the MLP on the scaled observation:
        first layer = W @ scaled(0) + b + W[:, columns] @ z."""
        h = self._hidden(columns, z)
        return self.pi(h), self.v(h).squeeze(-1)

    def legal_heads(
        self, columns: torch.Tensor, z: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """`heads` with the logits of the legal actions only: (logits [B, K] of the actions
        legal[b, k] from `legal_actions`, -1e9 at padding; value [B]). The policy head's
        products are taken at those (row, action) pairs alone (`_PairLogits`), a few per
        row instead of all 384: the same numbers at a fraction of the cost."""
        h = self._hidden(columns, z)
        rows, pos = valid.nonzero(as_tuple=True)  # row-major, as legal_actions lists them
        row_starts = nn.functional.pad(torch.cumsum(valid.sum(1), 0), (1, 0))
        pair_logits = _PairLogits.apply(
            h, self.pi.weight, self.pi.bias, row_starts, legal[rows, pos], rows
        )
        padded = torch.full(valid.shape, ILLEGAL_LOGIT, dtype=pair_logits.dtype)
        return padded.index_put((rows, pos), pair_logits), self.v(h).squeeze(-1)

    def add_prior(self, legal_logits: torch.Tensor, prior_pos: torch.Tensor | None) -> torch.Tensor:
        """Legal logits [B, K] with `prior_weight` added at each row's prior choice (its
        column `prior_pos` [B] in the row's legal actions); unchanged without a prior."""
        if prior_pos is None or "prior" not in self.config:
            return legal_logits
        bonus = torch.zeros_like(legal_logits)
        bonus.scatter_(1, prior_pos[:, None], 1.0)
        return legal_logits + self.prior_weight * bonus

    def _hidden(self, columns: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
        """The body's output for `sparse_inputs` z."""
        first = self.first_layer
        # addmv is not among autocast's bfloat16 ops: the constant part stays float32 and
        # the full weight is not cast at every call
        h = (
            torch.addmv(first.bias, first.weight, self.scaled_zero())
            + z @ first.weight[:, columns].t()
        )
        return self.body[1:](h)

    @property
    def first_layer(self) -> nn.Linear:
        """The body's first layer (the one `_hidden` takes apart)."""
        return cast(nn.Linear, self.body[0])

    @torch.no_grad()
    def update_obs_stats(self, x: torch.Tensor, columns: torch.Tensor | None = None) -> None:
        """Fold a batch of observations into the running mean and variance (Chan et al.).
        With `columns`, x holds only those columns of the batch and every other one is zero."""
        n = x.shape[0]
        mean, var = torch.zeros_like(self.obs_mean), torch.zeros_like(self.obs_var)
        cols = slice(None) if columns is None else columns
        mean[cols] = x.mean(0)
        var[cols] = (x - mean[cols]).square().mean(0)
        total = self.obs_count + n
        delta = mean - self.obs_mean
        self.obs_mean += delta * (n / total).float()
        m2 = self.obs_var * self.obs_count.float() + var * n
        m2 += delta**2 * (self.obs_count * n / total).float()
        self.obs_var.copy_(m2 / total.float())
        self.obs_count.copy_(total)


class Tanh(nn.Module):
    """tanh, computed as 2 sigmoid(2x) - 1 (the same function, within 1e-7 in float32).
    torch's CPU tanh is much slower than its sigmoid (an AVX-512 CPU, a float32 [2048, 256]
    batch: 850 us against 115 us), and the update takes two per minibatch."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _SigmoidTanh.apply(x)


class _SigmoidTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.sigmoid(x * 2.0).mul_(2.0).sub_(1.0)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return torch.ops.aten.tanh_backward(grad, y)  # grad * (1 - y^2), one pass


class _PairLogits(torch.autograd.Function):
    """h[r] . weight[a] + bias[a] for the (row r, action a) pairs of a CSR pattern (row_starts,
    cols; `rows` the row of each pair): a sampled matrix product forward, sparse products
    backward. Float32 throughout (h is cast; its gradient comes back in h's dtype)."""

    @staticmethod
    def forward(ctx, h, weight, bias, row_starts, cols, rows):
        h32 = h.float()
        pattern = _csr(row_starts, cols, bias[cols], (h.shape[0], weight.shape[0]))
        ctx.save_for_backward(h32, weight, row_starts, cols, rows)
        ctx.h_dtype = h.dtype
        return torch.sparse.sampled_addmm(pattern, h32, weight.t()).values()

    @staticmethod
    def backward(ctx, grad):
        h32, weight, row_starts, cols, rows = ctx.saved_tensors
        size = (h32.shape[0], weight.shape[0])
        grad_h = (_csr(row_starts, cols, grad, size) @ weight).to(ctx.h_dtype)
        by_action = torch.sparse_coo_tensor(
            torch.stack([cols, rows]), grad, size[::-1], check_invariants=False
        )
        grad_weight = torch.sparse.mm(by_action, h32)
        grad_bias = torch.zeros(size[1]).index_add_(0, cols, grad)
        return grad_h, grad_weight, grad_bias, None, None, None


def _csr(row_starts, cols, values, size) -> torch.Tensor:
    with warnings.catch_warnings():  # torch calls its sparse CSR support beta, once
        warnings.filterwarnings("ignore", "Sparse CSR tensor support is in beta")
        return torch.sparse_csr_tensor(row_starts, cols, values, size, check_invariants=False)


def nonzero_columns(obs: torch.Tensor) -> torch.Tensor:
    """Indices of the columns with a nonzero entry in some row (observations are >= 0)."""
    return (obs.amax(0) > 0).nonzero().squeeze(1)


def nonzero_part(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(columns, values): the columns with a nonzero entry in some row of obs [B, D]
    (observations are >= 0) and obs[:, columns], every other column of the batch being 0."""
    columns = np.flatnonzero(obs.max(axis=0) > 0)
    return columns, obs[:, columns]


def stack_nonzero_parts(
    parts: list[tuple[np.ndarray, np.ndarray]],
) -> tuple[torch.Tensor, torch.Tensor]:
    """One batch from the `nonzero_part`s of its row blocks: (the union of their columns,
    float32 [rows, columns] with each block's values in its own columns, zero elsewhere).
    train.ppo keeps a rollout this way: a few hundred columns instead of 2,473."""
    columns = np.unique(np.concatenate([c for c, _ in parts]))
    x = np.zeros((sum(len(v) for _, v in parts), len(columns)), np.float32)
    row = 0
    for cols, values in parts:
        x[row : row + len(values), np.searchsorted(columns, cols)] = values
        row += len(values)
    return torch.from_numpy(columns), torch.from_numpy(x)


def _orthogonal(layer: nn.Linear, gain: float) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def legal_actions(mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(legal, valid), int64 and bool [B, K]: row b's legal action ids in legal[b, :count]
    (valid there; padding after it), K the largest count in the batch. A NOIR decision has
    about 3.4 legal actions of 384 (17 at most in random play), so a softmax over these K
    columns (`legal_policy`) does a few percent of the work of one over every action."""
    count = mask.sum(1)
    k = max(int(count.max()), 1)
    rows, cols = mask.nonzero(as_tuple=True)  # row-major: each row's actions in order
    first = torch.cumsum(count, 0) - count
    legal = torch.zeros((mask.shape[0], k), dtype=torch.long)
    legal[rows, torch.arange(rows.numel()) - first[rows]] = cols
    return legal, torch.arange(k) < count[:, None]


def legal_logits(logits: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """[B, K]: the logits [B, actions] of the actions legal[b, k] (`legal_actions`), -1e9 at
    padding (probability exactly 0 after a softmax)."""
    return logits.gather(1, legal).masked_fill(~valid, ILLEGAL_LOGIT)


def legal_policy(legal_logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(log-probabilities, probabilities) [B, K] over each row's legal actions, from their
    logits (`legal_logits` or `PolicyNet.legal_heads`): padding has probability exactly 0
    and a log-probability of about -1e9; an action that is not legal is not a column at all.
    (Never `log_probs.exp()`: exp of numbers below -87 takes a slow path on CPU, about 60x
    slower.)"""
    return torch.log_softmax(legal_logits, dim=-1), torch.softmax(legal_logits, dim=-1)


def position_in(legal: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
    """int64 [B]: the column k with legal[b, k] == actions[b] (each action must be legal)."""
    return (legal == actions[:, None]).to(torch.uint8).argmax(1)


def sample_actions(probs: np.ndarray, rng) -> np.ndarray:
    """int64 [B]: one action per row drawn from the unnormalized probabilities probs [B, A]
    by inverse CDF (an action of probability 0 is never drawn; about 15x faster than
    torch.multinomial). rng: a numpy Generator, or the np.random module."""
    cdf = probs.cumsum(axis=1)
    u = rng.random((probs.shape[0], 1)) * cdf[:, -1:]
    actions = np.minimum((cdf <= u).sum(axis=1), probs.shape[1] - 1)
    # u rounded up to the total: no cdf entry lies above it; take the mode instead
    off = np.flatnonzero(probs[np.arange(probs.shape[0]), actions] == 0)
    actions[off] = probs[off].argmax(axis=1)
    return actions.astype(np.int64)
