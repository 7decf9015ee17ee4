"""An RLlib-trained `MaskedPolicyModule` as the policy file `agents.load` plays: the module
holds `agents.ppo.net.PolicyNet`, so its weights (and running observation statistics)
are written by `save_policy` (float16, checksum, atomic) and read back by `load_policy`
with every check.

    python -m train.rllib.export runs/my_rllib_run/checkpoint              # -> .../policy.pt
    python -m train.rllib.export runs/my_rllib_run/checkpoint --out agents/policies/x.pt
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.ppo.file import save_policy
from agents.ppo.net import PolicyNet

from ..cli import Parser, first_paragraph

PREFIX = "net."  # MaskedPolicyModule keeps its PolicyNet as `self.net`


def net_from_module_state(state: dict[str, Any], game: str) -> PolicyNet:
    """The PolicyNet whose weights are a MaskedPolicyModule's state (torch or numpy
    arrays under "net.*"); sizes read from the weights. ValueError if it is not one."""
    tensors = {k[len(PREFIX) :]: torch.as_tensor(np.asarray(v)) for k, v in state.items()
               if k.startswith(PREFIX)}  # fmt: skip
    try:
        hidden, k = [], 0
        while f"body.{2 * k}.weight" in tensors:
            hidden.append(int(tensors[f"body.{2 * k}.weight"].shape[0]))
            k += 1
        obs_size = int(tensors["obs_mean"].shape[0])
        num_actions = int(tensors["pi.weight"].shape[0])
        net = PolicyNet(obs_size, num_actions, tuple(hidden), game)
        net.load_state_dict(tensors)
    except (KeyError, RuntimeError) as e:
        raise ValueError(f"not the state of a MaskedPolicyModule ({e})") from None
    return net.eval()


def export_algorithm(algo: Any, module_id: str, game: str, out: str | Path) -> PolicyNet:
    """Write the learner's current `module_id` of a built RLlib Algorithm to `out` (a policy
    file); returns its net."""
    state = algo.learner_group.get_weights([module_id])[module_id]
    net = net_from_module_state(state, game)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    save_policy(net, out)
    return net


def module_dir(checkpoint: str | Path, module_id: str | None = None) -> Path:
    """The folder of a trained module inside an RLlib Algorithm checkpoint (the only
    MaskedPolicyModule there unless `module_id` names one); ValueError if there is none."""
    root = Path(checkpoint).resolve() / "learner_group" / "learner" / "rl_module"
    if not root.is_dir():
        raise ValueError(f"{checkpoint}: not an RLlib algorithm checkpoint (no {root})")
    names = [module_id] if module_id else sorted(p.name for p in root.iterdir() if p.is_dir())
    trained = [n for n in names if n in ("default_policy", "learner")]
    if not trained or not (root / trained[0]).is_dir():
        raise ValueError(f"{checkpoint}: no trained module {module_id or ''} in {root}")
    return root / trained[0]


def export_checkpoint(
    checkpoint: str | Path, out: str | Path | None = None, module_id: str | None = None
) -> Path:
    """Write the policy file of an RLlib checkpoint's trained module (default: next to the
    checkpoint, policy.pt); returns its path."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    module = RLModule.from_checkpoint(module_dir(checkpoint, module_id))
    out = Path(out) if out else Path(checkpoint).parent / "policy.pt"
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(module.net.eval(), out)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m train.rllib.export", description=first_paragraph(__doc__))
    parser.add_argument("checkpoint", help="an RLlib checkpoint folder (runs/<name>/checkpoint)")
    parser.add_argument("--out", help="policy file to write (default: beside the checkpoint)")
    parser.add_argument("--module", default=None, help="module id (default: the trained one)")
    args = parser.parse_args(argv)
    try:
        import ray  # noqa: F401 - only to tell a missing Ray from a bad checkpoint
    except ImportError:
        parser.error('needs Ray RLlib: pip install "noir_env[rllib]"')
    print(parser.run(lambda: export_checkpoint(args.checkpoint, args.out, args.module)))


if __name__ == "__main__":
    main()
