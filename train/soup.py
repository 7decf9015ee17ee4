"""Average the weights of policy files into one policy file (a model soup).

Fine-tunes of one network stay in one basin of the loss: the average of their weights is a
network of its own, often more robust to opponents none of them trained against than any
one of them (model soups, Wortsman et al. 2022; WiSE-FT, Wortsman et al. 2022, averages a
fine-tune with its start). Average only files that share a start (`train.ppo --init` of one
file, or one file and its fine-tunes): the average of unrelated networks plays nothing.

    python -m train.soup --out runs/soup.pt agents/policies/ppo_noir.pt runs/a.pt runs/b.pt
    python -m train.soup --out runs/soup.pt runs/a.pt runs/b.pt --weights 2,1
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence

from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import PolicyNet

from .cli import Parser, first_paragraph


def soup(paths: Sequence[str | os.PathLike], weights: Sequence[float] | None = None) -> PolicyNet:
    """The network whose every weight, bias and observation statistic is the weighted mean
    of those of the policy files `paths` (equal weights by default). ValueError if fewer
    than two files, a file that is not a policy, files of different shapes (game, sizes,
    widths, prior), or weights that are not one positive number per file."""
    if len(paths) < 2:
        raise ValueError(f"a soup needs at least two policy files, got {len(paths)}")
    shares = mixing_shares([1.0] * len(paths) if weights is None else weights, len(paths))
    nets = [load_policy(p) for p in paths]
    for path, net in zip(paths[1:], nets[1:], strict=True):
        if net.config != nets[0].config:
            raise ValueError(
                f"{path}: its network ({net.config}) is not the shape of {paths[0]}'s "
                f"({nets[0].config}): only networks of one shape can be averaged"
            )
    states = [net.state_dict() for net in nets]
    mean = {
        name: sum(share * s[name].double() for share, s in zip(shares, states, strict=True))
        for name in states[0]
    }
    # the first file's network (loaded here, nobody else's) takes the mean
    nets[0].load_state_dict({name: t.to(states[0][name].dtype) for name, t in mean.items()})
    return nets[0].eval()


def mixing_shares(weights: Sequence[float], count: int) -> list[float]:
    """The weights as shares that sum to 1. ValueError unless they are `count` real, finite,
    positive numbers whose sum is finite too (1e308 + 1e308 is not)."""
    if len(weights) != count:
        raise ValueError(f"--weights: {len(weights)} weights for {count} policy files")
    real = all(isinstance(w, numbers.Real) and not isinstance(w, bool) for w in weights)
    if not real or not all(math.isfinite(w) and w > 0 for w in weights):
        raise ValueError(f"--weights: every weight must be a positive number, got {weights}")
    weights = [float(w) for w in weights]
    if not math.isfinite(sum(weights)):
        raise ValueError(f"--weights: their sum must be a finite number, got {weights} (scale "
                         "them down: only their ratios count)")  # fmt: skip
    largest = max(weights)  # divided first, so that tiny weights keep their ratios
    scaled = [w / largest for w in weights]
    return [w / math.fsum(scaled) for w in scaled]


def distances(paths: Sequence[str | os.PathLike], net: PolicyNet) -> list[tuple[float, float]]:
    """For each policy file: (distance of its weights to `net`'s, norm of its weights),
    over the weight matrices (biases and statistics left out): how far apart the soup's
    ingredients are."""
    ref = {k: v.double() for k, v in net.state_dict().items() if k.endswith("weight")}
    rows = []
    for path in paths:
        state = load_policy(path).state_dict()
        diff = sum(float((state[k].double() - ref[k]).norm() ** 2) for k in ref) ** 0.5
        size = sum(float(state[k].double().norm() ** 2) for k in ref) ** 0.5
        rows.append((diff, size))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m train.soup", description=first_paragraph(__doc__))
    parser.add_argument("policies", nargs="+", help="policy files of one shape (two or more)")
    parser.add_argument("--out", required=True, help="the policy file to write")
    parser.add_argument("--weights", help="one positive weight per file, comma-separated "
                        "(default: equal)")  # fmt: skip
    args = parser.parse_args(argv)

    def work() -> None:
        weights = None
        if args.weights is not None:
            try:
                weights = [float(w) for w in args.weights.split(",")]
            except ValueError:
                raise ValueError(f"--weights: not numbers: {args.weights!r}") from None
        net = soup(args.policies, weights)
        save_policy(net, args.out)
        for path, (diff, size) in zip(args.policies, distances(args.policies, net), strict=True):
            print(f"{path}: {diff:.3f} from the soup (its weights' norm {size:.3f})")
        print(f"wrote {args.out}")

    parser.run(work)


if __name__ == "__main__":
    main()
