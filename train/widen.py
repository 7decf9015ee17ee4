"""Grow a trained policy without changing what it plays: wider hidden layers (`--init` with a
wider `--hidden`).

A fine-tune that plateaus may be short of capacity; training a wider net from scratch costs
the whole run again. `widen` keeps every trained weight and adds units whose outgoing weights
are zero (Net2Net's function-preserving growth, Chen et al. 2016, with zero instead of copied
units): the wider net's logits and value equal the old net's exactly, and training grows the
new units from there. Their incoming weights are initialised as `PolicyNet` initialises a
layer (orthogonal), so their gradients are not zero; the heads' new columns start at zero.
"""

from __future__ import annotations

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
