"""Grow a trained policy without changing what it plays: wider hidden layers (`--init` with a
wider `--hidden`), or new inputs (`--init` with `--features`).

A fine-tune that plateaus may be short of capacity; training a wider net from scratch costs
the whole run again. `widen` keeps every trained weight and adds units whose outgoing weights
are zero (Net2Net's function-preserving growth, Chen et al. 2016, with zero instead of copied
units): the wider net's logits and value equal the old net's exactly, and training grows the
new units from there. Their incoming weights are initialised as `PolicyNet` initialises a
layer (orthogonal), so their gradients are not zero; the heads' new columns start at zero.
`add_features` likewise appends a feature set's inputs (agents/ppo/features.py) with zero
weights in the first layer.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from agents.ppo.net import PolicyNet


def check_widths(old: list[int], new: list[int]) -> str:
    """'' if `new` widens `old` (same depth, no layer narrower), else why not."""
    if len(new) != len(old):
        return f"has {len(new)} layers, the --init policy {len(old)}"
    if any(n < o for n, o in zip(new, old, strict=True)):
        return "narrows a layer of the --init policy (widths may only grow)"
    return ""


@torch.no_grad()
def widen(net: PolicyNet, hidden: list[int], seed: int = 0) -> PolicyNet:
    """A new `PolicyNet` with hidden widths `hidden` that computes what `net` computes
    (logits, value; observation statistics and prior copied). ValueError if `hidden` does
    not widen `net`'s widths."""
    old = net.config["hidden"]
    why = check_widths(old, list(hidden))
    if why:
        raise ValueError(f"--hidden {','.join(map(str, hidden))}: {why}")
    cfg = net.config
    with torch.random.fork_rng():  # the new units' weights: one function of the seed
        torch.manual_seed(seed)
        wide = PolicyNet.from_config(cfg | {"hidden": list(hidden)})
    old_layers = [m for m in net.body if isinstance(m, nn.Linear)]
    new_layers = [m for m in wide.body if isinstance(m, nn.Linear)]
    for old_layer, new_layer in zip(old_layers, new_layers, strict=True):
        out_old, in_old = old_layer.weight.shape
        # trained units keep their weights and read nothing from the previous layer's new
        # units (zero); the new units keep their fresh orthogonal rows and zero biases
        new_layer.weight[:out_old, :] = 0.0
        new_layer.weight[:out_old, :in_old] = old_layer.weight
        new_layer.bias[:out_old] = old_layer.bias
    width_in = old[-1]
    for head in ("pi", "v"):
        old_head, new_head = getattr(net, head), getattr(wide, head)
        new_head.weight.zero_()
        new_head.weight[:, :width_in] = old_head.weight
        new_head.bias.copy_(old_head.bias)
    for name in ("obs_mean", "obs_var", "obs_count"):
        getattr(wide, name).copy_(getattr(net, name))
    if "prior" in cfg:
        wide.prior_weight.copy_(net.prior_weight)
    return wide.train(net.training)


@torch.no_grad()
def add_features(net: PolicyNet, features: str, sample: np.ndarray) -> PolicyNet:
    """A new `PolicyNet` that also reads the feature set `features` (agents/ppo/features.py)
    and computes what `net` computes: the first layer's weights on the new inputs are zero,
    every other weight, the prior and the observation statistics are `net`'s. The new
    inputs' statistics are those of `sample` (observations [B, obs_size], e.g.
    `observation_sample`), so that training reads them scaled like the others from its
    first update. ValueError if `net` already reads a feature set."""
    if net.config.get("features"):
        raise ValueError(f"the policy already reads the feature set {net.config['features']!r}")
    with torch.random.fork_rng():  # its fresh weights are all replaced: spare the run's stream
        grown = PolicyNet.from_config(net.config | {"features": features})
    state = net.state_dict()
    width = state["obs_mean"].shape[0]
    new = torch.from_numpy(grown.inputs(sample)[:, width:])
    first = "body.0.weight"
    state[first] = torch.cat([state[first], state[first].new_zeros(state[first].shape[0],
                                                                    new.shape[1])], 1)  # fmt: skip
    var = new.var(0, unbiased=False)
    seen = var > 0  # an input constant in the sample (seat 5 at 4 players) starts as a fresh net's
    state["obs_mean"] = torch.cat([state["obs_mean"], torch.where(seen, new.mean(0), 0.0)])
    state["obs_var"] = torch.cat([state["obs_var"], torch.where(seen, var, 1.0)])
    grown.load_state_dict(state)
    return grown.train(net.training)


def observation_sample(players: list[int], rules: str | None, seed: int,
                       games: int = 128, every: int = 7) -> np.ndarray:  # fmt: skip
    """float32 [B, obs_size]: observations of the player to act, every `every`-th decision of
    `games` NOIR games per player count in `players` played by the `heuristic` agent in
    every seat (a few seconds)."""
    import agents
    from noir_env import core

    heuristic = agents.load("heuristic", seed=seed)
    out = []
    for n in players:
        state = core.init(games, n, rules or "noirburg", seeds=seed)
        for step in range(4000):
            live = core.current_player(state) >= 0
            if not live.any():
                break
            obs, mask = core.observe(state), core.legal_action_mask(state)
            if step % every == 0:
                out.append(obs[live])
            actions = np.zeros(len(live), np.int64)
            actions[live] = heuristic.act(obs[live], mask[live])
            core.step(state, actions)
    return np.concatenate(out)
