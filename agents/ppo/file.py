"""PPO policy files: `save_policy` writes a `PolicyNet` atomically, `load_policy` reads one
without running code.

A policy file is `torch.save({"format": "noir-ppo/1", "config": {...}, "state_dict": ...,
"sha256": ...})` with float16 weights (the shipped policy is a few MB). `load_policy` reads it
as any torch file from outside is read (`agents.ppo.torch_file`: no code runs, no tensor holds
more than the file's bytes) and checks it all before it builds a net: the config's sizes
within bounds, every tensor's shape against the config (so the net is no larger than the
file), finite weights, and the checksum of the config and tensors (`policy_checksum`; files
written before it existed, the shipped policy among them, have none). The checksum finds
damage, not tampering: whoever can edit a file can write a new checksum, or delete it. A
NOIR policy file from before actions were appended to NOIR's table loads as a net over
today's table that never picks a new action unless nothing else is legal
(`with_appended_actions`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import torch

from agents.ppo.net import ILLEGAL_LOGIT, PolicyNet
from agents.ppo.torch_file import load_torch_file
from noir_env._atomic import atomic_write
from noir_env._shown import shown
from noir_env.game import game_names, get_game

FORMAT = "noir-ppo/1"
# bounds of a policy file's config, checked before a net is built from it (NOIR: 2,631
# observation values, 385 actions, two hidden layers of 256): a damaged or hostile config
# must not make load_policy allocate gigabytes
MAX_OBS_SIZE = 1 << 16
MAX_ACTIONS = 1 << 14
MAX_WIDTH = 1 << 14
MAX_LAYERS = 16
# the sizes of earlier action tables of games whose table only grows at its end (NOIR:
# noir_env 0.1.0, then rules v1-v2): a policy file of one of them still plays today's table
EARLIER_ACTION_COUNTS = {"noir": (374, 384)}
FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


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
    obs = width = config["obs_size"]
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
    net = with_appended_actions(net)
    net.eval()
    return net


def with_appended_actions(net: PolicyNet) -> PolicyNet:
    """A NOIR net of an earlier action table (`EARLIER_ACTION_COUNTS`; actions are only
    appended, so earlier ids keep their meaning, docs/RULES.md R8) as a net over today's
    table: the same weights, and for each new action a logit of ILLEGAL_LOGIT (no weight on
    the hidden layer), so it plays exactly as before and takes a new action only where
    nothing else is legal. Any other net is returned as it is."""
    have = net.config["num_actions"]
    if have not in EARLIER_ACTION_COUNTS.get(net.config["game"], ()):
        return net
    want = get_game(net.config["game"]).num_actions
    wide = PolicyNet.from_config(net.config | {"num_actions": want})
    state = net.state_dict()
    weight = torch.zeros(want, state["pi.weight"].shape[1])
    weight[:have] = state["pi.weight"]
    bias = torch.full((want,), ILLEGAL_LOGIT)
    bias[:have] = state["pi.bias"]
    wide.load_state_dict(state | {"pi.weight": weight, "pi.bias": bias})
    return wide


def _read_policy_file(path: str | os.PathLike) -> dict:
    """The file's dict, read without running code and within its bytes
    (`agents.ppo.torch_file`); ValueError if it is none."""
    try:
        data = load_torch_file(path, "policy file")
    except ValueError as err:
        if Path(path).suffix != ".json" or not Path(path).is_file():  # agents.ppo.by_players
            raise
        raise ValueError(f"{err}; a policy table (.json) names a policy file per player count: "
                         "use one") from None  # fmt: skip
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a NOIR PPO policy file ({FORMAT})")
    return data


def _checked_config(cfg: Any, path: str | os.PathLike) -> dict[str, Any]:
    """The config of a policy file with its sizes checked against the MAX_* bounds."""
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: 'config' is not a dict")
    missing = {"obs_size", "num_actions", "hidden"} - set(cfg)
    unknown = set(cfg) - {"obs_size", "num_actions", "hidden", "game", "prior"}
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
            raise ValueError(
                f"{path}: config {shown(name)} must be an int in 1..{most}, got {shown(value)}"
            )
    game = cfg.get("game", "noir")
    if not isinstance(game, str) or game not in game_names():
        raise ValueError(f"{path}: config 'game' must be a game's name ({game_names()}), "
                         f"got {shown(game)}")  # fmt: skip
    prior = cfg.get("prior", "")
    if not isinstance(prior, str) or len(prior) > 200:
        raise ValueError(f"{path}: config 'prior' must be an agent's name, got {shown(prior)}")
    checked = {"obs_size": cfg["obs_size"], "num_actions": cfg["num_actions"],
               "hidden": list(hidden), "game": game}  # fmt: skip
    return checked | ({"prior": prior} if prior else {})  # absent where empty, as written


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
                f"{path}: tensor {shown(name)} has shape {tuple(t.shape)}, the config's net {want}"
            )
        if t.dtype not in FLOAT_DTYPES:  # float8 and the like: no arithmetic (isfinite) on them
            raise ValueError(f"{path}: tensor {shown(name)} is {t.dtype}, not floating point "
                             "(float16, bfloat16, float32 or float64)")  # fmt: skip
        bad = int((~torch.isfinite(t)).sum())
        if bad:
            raise ValueError(f"{path}: tensor {shown(name)} has {bad} values that are not finite")
    if (state["obs_var"] < 0).any() or not state["obs_count"] > 0:
        raise ValueError(f"{path}: the observation statistics are damaged (variance < 0 or "
                         "count <= 0)")  # fmt: skip
