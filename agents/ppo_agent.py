"""The PPO policy: the network `train/ppo.py` trains, and the agent that plays a saved one.

`PolicyNet` is a masked actor-critic MLP over NOIR's flat observation. It keeps the running
mean and variance of the observations it was trained on as buffers, so a saved policy file is
self-contained. Its first layer reads only the columns that are nonzero somewhere in the
batch (a NOIR observation has about 80 nonzero entries of 2,473): the same function as the
dense layer at a fraction of the cost. Training reads only each row's legal actions
(`legal_actions`, `PolicyNet.legal_heads`, `legal_policy`): a decision has about 3 of 384.
A net may also read a feature set (`features`, agents/ppo_features.py: derived inputs
appended to the observation by `PolicyNet.inputs`). `PPOAgent(path)` plays a policy with the
batched agent protocol `act(obs[N, D], mask[N, A]) -> actions[N]` (greedy by default, or
sampled), in numpy.

A policy file is `torch.save({"format": "noir-ppo/1", "config": {...}, "state_dict": ...,
"sha256": ...})` with float16 weights (the shipped policy is a few MB); `save_policy` writes it
atomically, `load_policy` reads it without running code (torch's weights_only) and checks it
all before it builds a net: the config's sizes within bounds, every tensor's shape against
the config, finite weights, and the checksum of the config and tensors (`policy_checksum`;
files written before it existed, the shipped policy among them, have none).
`agents.load("path/to/policy.pt")` loads any policy file; `agents.load("ppo")`, the shipped
policy, is a policy table: a policy file per player count (`agents.ppo_by_players`).
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from noir_env._atomic import atomic_write
from noir_env.core.obs_layouts import columns_for, to_layout

from .games import OBS_SIZES, game_of_observation
from .ppo_features import FEATURE_SETS, feature_size, with_features

FORMAT = "noir-ppo/1"
# bounds of a policy file's config, checked before a net is built from it (NOIR: 2,631
# observation values, 384 actions, two hidden layers of 256): a damaged or hostile config
# must not make load_policy allocate gigabytes
MAX_OBS_SIZE = 1 << 16
MAX_ACTIONS = 1 << 14
MAX_WIDTH = 1 << 14
MAX_LAYERS = 16
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

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: tuple[int, ...] = (256, 256),
        game: str = "noir",
        prior: str = "",
        features: str = "",
    ):
        super().__init__()
        self.config = {  # plain ints: the config is written into policy files as it is
            "obs_size": int(obs_size),
            "num_actions": int(num_actions),
            "hidden": [int(h) for h in hidden],
            "game": str(game),
        }
        if prior:  # absent otherwise: files of policies without a prior stay as they were
            self.config["prior"] = str(prior)
            self.prior_weight = nn.Parameter(torch.tensor(PRIOR_WEIGHT_INIT))
        if features:  # likewise: derived inputs appended to the observation (`inputs`)
            self.config["features"] = str(features)
        input_size = obs_size + feature_size(features)
        layers: list[nn.Module] = []
        width = input_size
        for h in hidden:
            layers += [_orthogonal(nn.Linear(width, h), np.sqrt(2)), Tanh()]
            width = h
        self.body = nn.Sequential(*layers)
        self.pi = _orthogonal(nn.Linear(width, num_actions), 0.01)
        self.v = _orthogonal(nn.Linear(width, 1), 1.0)
        self.register_buffer("obs_mean", torch.zeros(input_size))
        self.register_buffer("obs_var", torch.ones(input_size))
        self.register_buffer("obs_count", torch.tensor(1e-4, dtype=torch.float64))

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> PolicyNet:
        """A new net (fresh weights) of a policy file's `config`."""
        return cls(config["obs_size"], config["num_actions"], tuple(config["hidden"]),
                   config.get("game", "noir"), config.get("prior", ""),
                   config.get("features", ""))  # fmt: skip

    def inputs(self, obs: np.ndarray) -> np.ndarray:
        """What the network reads for observations obs [B, obs_size]: obs with its feature
        set's values appended (`agents.ppo_features`), obs itself without one. The
        statistics (`obs_mean`, ...) and the first layer are over these columns."""
        return with_features(self.config.get("features", ""), obs)

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
        first = self.body[0]
        # addmv is not among autocast's bfloat16 ops: the constant part stays float32 and
        # the full weight is not cast at every call
        h = (
            torch.addmv(first.bias, first.weight, self.scaled_zero())
            + z @ first.weight[:, columns].t()
        )
        return self.body[1:](h)

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


def save_policy(net: PolicyNet, path: str | os.PathLike) -> None:
    """Write a self-contained policy file (float16 weights, float32 statistics, the
    checksum `load_policy` verifies), atomically."""
    state = {
        k: (v.half() if v.is_floating_point() and not k.startswith("obs_") else v)
        for k, v in net.state_dict().items()
    }
    data = {"format": FORMAT, "config": net.config, "state_dict": state,
            "sha256": policy_checksum(net.config, state)}  # fmt: skip
    save_atomic(data, path)


def save_atomic(obj: object, path: str | os.PathLike) -> None:
    """`torch.save(obj, path)`, crash-safe: `path` holds its previous content until the new
    one is complete on the disk (`noir_env._atomic`)."""
    atomic_write(path, lambda f: torch.save(obj, f))


def policy_checksum(config: dict[str, Any], state: dict[str, torch.Tensor]) -> str:
    """sha256 (hex) of a policy file's content: the config (JSON, sorted keys), then each
    tensor in name order, its name, dtype, shape and bytes. Any changed bit changes it."""
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode())
    for name in sorted(state):
        t = state[name].detach().cpu().contiguous()
        digest.update(f"{name}|{t.dtype}|{tuple(t.shape)}|".encode())
        digest.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def parameter_shapes(config: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The name and shape of every tensor of `PolicyNet(**config)`'s state_dict, computed
    without building it."""
    obs = width = config["obs_size"] + feature_size(config.get("features", ""))
    shapes = {"obs_mean": (obs,), "obs_var": (obs,), "obs_count": ()}
    for k, h in enumerate(config["hidden"]):  # body: Linear, Tanh, Linear, Tanh, ...
        shapes[f"body.{2 * k}.weight"], shapes[f"body.{2 * k}.bias"] = (h, width), (h,)
        width = h
    actions = config["num_actions"]
    shapes |= {"pi.weight": (actions, width), "pi.bias": (actions,), "v.weight": (1, width),
               "v.bias": (1,)}  # fmt: skip
    if config.get("prior"):
        shapes["prior_weight"] = ()
    return shapes


def load_policy(path: str | os.PathLike) -> PolicyNet:
    """Read a policy file written by `save_policy`. Everything is checked before a net is
    built (module docstring); a file that is not a sound policy (missing, empty, text,
    truncated, another format, a config out of bounds, a tensor missing, extra or of
    another shape, a weight that is not finite, a checksum that does not match) raises
    ValueError naming the file and what is wrong."""
    data = _read_policy_file(path)
    cfg = _checked_config(data.get("config"), path)
    state = data.get("state_dict")
    if not isinstance(state, dict) or not all(
        isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in state.items()
    ):
        raise ValueError(f"{path}: 'state_dict' is not a dict of named tensors")
    if "sha256" in data and data["sha256"] != policy_checksum(data["config"], state):
        raise ValueError(
            f"{path}: the checksum does not match the content: the file was changed or "
            "damaged after it was written"
        )
    _check_tensors(state, cfg, path)
    net = PolicyNet.from_config(cfg)
    net.load_state_dict({k: v if k == "obs_count" else v.float() for k, v in state.items()})
    net.eval()
    return net


def _read_policy_file(path: str | os.PathLike) -> dict:
    """The file's dict, read without running code; ValueError if it is none."""
    if not Path(path).is_file():
        raise ValueError(f"{path}: no policy file there")
    if Path(path).stat().st_size == 0:
        raise ValueError(f"{path}: not a readable policy file: the file is empty")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # text (KeyError), truncated (RuntimeError), code (Unpickling...)
        with open(path, "rb") as f:
            zipped = f.read(4) == b"PK\x03\x04"  # torch.save writes a zip archive
        what = "a damaged or truncated torch archive" if zipped else "not a torch archive"
        if Path(path).suffix == ".json":  # agents.ppo_by_players
            what += "; a policy table (.json) names a policy file per player count: use one"
        reason = (str(err).strip() or "no detail").splitlines()[0][:200]
        raise ValueError(
            f"{path}: not a readable policy file: {what} ({type(err).__name__}: {reason})"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a NOIR PPO policy file ({FORMAT})")
    return data


def _checked_config(cfg: Any, path: str | os.PathLike) -> dict[str, Any]:
    """The config of a policy file with its sizes checked against the MAX_* bounds."""
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: 'config' is not a dict")
    missing = {"obs_size", "num_actions", "hidden"} - set(cfg)
    unknown = set(cfg) - {"obs_size", "num_actions", "hidden", "game", "prior", "features"}
    if missing or unknown:
        raise ValueError(f"{path}: config keys {_missing_unknown(missing, unknown)}")
    hidden = cfg["hidden"]
    if not isinstance(hidden, list | tuple) or not 1 <= len(hidden) <= MAX_LAYERS:
        got = f"{len(hidden)} widths" if isinstance(hidden, list | tuple) else repr(hidden)
        raise ValueError(f"{path}: config 'hidden' must list 1..{MAX_LAYERS} widths, got {got}")
    sizes = [("obs_size", cfg["obs_size"], MAX_OBS_SIZE),
             ("num_actions", cfg["num_actions"], MAX_ACTIONS),
             *((f"hidden[{k}]", h, MAX_WIDTH) for k, h in enumerate(hidden))]  # fmt: skip
    for name, value, most in sizes:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
            raise ValueError(f"{path}: config {name!r} must be an int in 1..{most}, got {value!r}")
    game = cfg.get("game", "noir")
    if not isinstance(game, str) or not game:
        raise ValueError(f"{path}: config 'game' must be a game's name, got {game!r}")
    prior = cfg.get("prior", "")
    if not isinstance(prior, str) or len(prior) > 200:
        raise ValueError(f"{path}: config 'prior' must be an agent's name, got {prior!r}")
    features = cfg.get("features", "")
    if not isinstance(features, str) or (features and features not in FEATURE_SETS):
        raise ValueError(f"{path}: config 'features' must be a feature set "
                         f"({sorted(FEATURE_SETS)}), got {features!r}")  # fmt: skip
    if features and game != "noir":
        raise ValueError(f"{path}: config 'features' {features!r} reads NOIR observations, "
                         f"the policy plays {game!r}")  # fmt: skip
    checked = {"obs_size": cfg["obs_size"], "num_actions": cfg["num_actions"],
               "hidden": list(hidden), "game": game}  # fmt: skip
    optional = {"prior": prior, "features": features}  # absent where empty, as written
    return checked | {key: value for key, value in optional.items() if value}


def _missing_unknown(missing: set[str], unknown: set[str]) -> str:
    parts = [f"{what} {sorted(names)}" for what, names in (("missing", missing),
             ("unknown", unknown)) if names]  # fmt: skip
    return " and ".join(parts)


def _check_tensors(state: dict[str, torch.Tensor], cfg: dict[str, Any], path) -> None:
    """Every tensor the config's net has, of its shape, floating point and finite; the
    observation statistics a variance >= 0 and a count > 0 (else the scaling is NaN)."""
    shapes = parameter_shapes(cfg)
    missing, unknown = set(shapes) - set(state), set(state) - set(shapes)
    if missing or unknown:
        raise ValueError(f"{path}: tensors {_missing_unknown(missing, unknown)}")
    for name, want in shapes.items():
        t = state[name]
        if tuple(t.shape) != want:
            raise ValueError(
                f"{path}: tensor {name!r} has shape {tuple(t.shape)}, the config's net {want}"
            )
        if not t.is_floating_point():
            raise ValueError(f"{path}: tensor {name!r} is {t.dtype}, not floating point")
        bad = int((~torch.isfinite(t)).sum())
        if bad:
            raise ValueError(f"{path}: tensor {name!r} has {bad} values that are not finite")
    if (state["obs_var"] < 0).any() or not state["obs_count"] > 0:
        raise ValueError(f"{path}: the observation statistics are damaged (variance < 0 or "
                         "count <= 0)")  # fmt: skip


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
        self.prior = prior_agent(net, seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """int64 actions, one per row (a 1-D obs and mask give one action)."""
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
        if not m.any(axis=1).all():
            raise ValueError("a mask row has no legal action")
        logits = self.policy.logits(self.net.inputs(o))
        if self.prior is not None:  # (a net with a prior reads today's layout: o as given)
            logits[np.arange(len(m)), self.prior.act(o, m)] += self.policy.prior_weight
        logits = np.where(m, logits, -np.inf)
        best = logits.max(axis=1, keepdims=True)
        if self.greedy:
            out = logits.argmax(axis=1).astype(np.int64)
        else:  # exp of finite numbers only (exp(-inf) takes a slow path)
            probs = np.exp(np.where(m, logits - best, 0.0)) * m
            out = sample_actions(probs, self.rng)
        return out[0] if single else out


def prior_agent(net: PolicyNet, seed: int | None = None) -> Any:
    """The agent a policy with a prior (`PolicyNet`) consults, loaded by name (None
    without one); ValueError if no agent has that name."""
    name = net.config.get("prior")
    if not name:
        return None
    from .registry import load  # the registry loads this module: import it when needed

    return load(name, seed=seed)


class NumpyPolicy:
    """A PolicyNet as numpy arrays (the same function, float32): the scaled observation's
    nonzero columns through the first layer, tanh layers, the logits and the value. A copy
    of the net when it is made: `PPOAgent` plays it, and train.ppo's rollout, whose weights
    stay fixed until the update, reads it (its rows are whole, not gathered per call)."""

    @torch.no_grad()
    def __init__(self, net: PolicyNet):
        first = net.body[0]
        zero = net.scaled_zero()
        self.mean = net.obs_mean.numpy().copy()
        self.std = torch.sqrt(net.obs_var + 1e-8).numpy().copy()
        self.zero = zero.numpy().copy()
        self.first_t = first.weight.t().contiguous().numpy()  # [obs, hidden]: rows by column
        self.first_bias = first(zero).numpy().copy()  # W @ scaled(0) + b
        self.layers = [(lin.weight.t().contiguous().numpy(), lin.bias.numpy().copy())
                       for lin in net.body[2::2]]  # fmt: skip
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
