"""Write the policy file of a `train.ppo` run from its latest checkpoint: for a run that was
stopped before its end (which writes `policy.pt` itself), or to ship a run's policy.

    python -m train.export_policy runs/my_run                     # -> runs/my_run/policy.pt
    python -m train.export_policy runs/my_run --out agents/policies/ppo_noir.pt
"""

from __future__ import annotations

from pathlib import Path

from agents.ppo.file import save_policy
from agents.ppo.net import PolicyNet
from noir_env.game import get_game

from .cli import Parser, first_paragraph
from .ppo_run import read_checkpoint


def export_policy(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """The policy file (float16, `agents.ppo.file.save_policy`) of `run_dir`'s checkpoint;
    returns its path. ValueError if the folder holds no checkpoint."""
    ckpt_path = Path(run_dir) / "checkpoint.pt"
    if not ckpt_path.is_file():
        raise ValueError(f"no checkpoint at {ckpt_path}: is {run_dir} a train.ppo run folder?")
    ckpt = read_checkpoint(ckpt_path)  # tensors and plain data only: it cannot run code
    try:
        args = ckpt["args"]
        game = get_game(args.get("game", "noir"))
        hidden = tuple(int(h) for h in args["hidden"].split(","))
        net = PolicyNet(game.obs_size, game.num_actions, hidden, game.name, args.get("prior", ""))
        net.load_state_dict(ckpt["net"])
    except (ValueError, RuntimeError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{ckpt_path}: its network does not match its settings ({e})") from None
    out = Path(out) if out else Path(run_dir) / "policy.pt"
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(net.eval(), out)
    print(f"{out}: update {ckpt['update']}, {ckpt['global_step']:,} learner decisions, "
          f"{ckpt['elapsed'] / 60:.0f} min of training")  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m train.export_policy", description=first_paragraph(__doc__))
    parser.add_argument("run_dir", help="a train.ppo run folder (runs/<name>)")
    parser.add_argument("--out", help="policy file to write (default: <run_dir>/policy.pt)")
    args = parser.parse_args(argv)
    parser.run(lambda: export_policy(args.run_dir, args.out))


if __name__ == "__main__":
    main()
