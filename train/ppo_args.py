"""The settings of `train.ppo`: the `Args` dataclass (one field per flag, each documented by
the string under it, which --help shows) and the command line that fills it (with
--resume, from the run's saved config.json)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Args:
    run_name: str = "ppo"
    """folder under runs/ for logs, checkpoints and the policy"""
    game: str = "noir"
    """the game: noir, district_noir or any registered game"""
    seed: int = 1
    """seeds the network, the games and the league"""
    total_steps: int = 2_000_000
    """learner decisions to train for"""
    num_envs: int = 256
    """games played in lockstep"""
    num_steps: int = 64
    """learner decisions per game per rollout (batch = num_envs * num_steps)"""
    players: str = ""
    """player count, or a comma list to draw from per game (e.g. 3,4,5,6); empty: the
    game's default (NOIR 4, District Noir 2)"""
    rules: str = ""
    """rules preset (NOIR: noirburg, the printed rulebook, noirbrough or original); empty:
    the game's default"""
    league: str = "random:0.3,self:0.7"
    """opponent mix per game: name:weight pairs; `self` = frozen snapshots of the learner"""
    imitate: str = ""
    """teacher agent for an imitation warm start (e.g. heuristic; empty: none)"""
    imitation_updates: int = 0
    """the first updates fit the policy to the teacher's choices (cross-entropy on the
    learner's own rollouts, labelled by the teacher) and the value to the returns"""
    snapshot_interval: int = 20
    """updates between snapshots of the learner joining the league"""
    snapshots_kept: int = 5
    """how many of the newest snapshots stay in the league"""
    hidden: str = "256,256"
    """hidden layer widths of the policy/value MLP"""
    learning_rate: float = 3e-4
    """Adam step size"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over the run"""
    gamma: float = 0.995
    """discount per learner decision"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    update_epochs: int = 4
    """passes over each batch"""
    num_minibatches: int = 8
    """minibatches per pass"""
    clip_coef: float = 0.2
    """PPO ratio clip (also clips the value update)"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value-loss weight"""
    max_grad_norm: float = 0.5
    """gradient-norm clip"""
    target_kl: float = 0.03
    """stop an update's epochs early when the approximate KL exceeds this (0: never)"""
    eval_interval: int = 25
    """updates between evaluations (0: only at the end)"""
    eval_games: int = 400
    """games per evaluation (0: no evaluation)"""
    eval_opponents: str = "random"
    """opponent name the evaluation plays against (all other seats)"""
    eval_players: int = 0
    """player count of the evaluation games (0: the game's default)"""
    checkpoint_interval: int = 10
    """updates between checkpoints (runs/<run-name>/checkpoint.pt)"""
    bf16: bool = False
    """bfloat16 autocast for the update's forward pass (about 1.3x faster on CPUs with AMX or
    AVX512-BF16; the rollout and the saved policy stay float32)"""
    threads: int = 2
    """torch CPU threads"""
    resume: bool = False
    """continue runs/<run-name>/ from its checkpoint, with the settings in its config.json
    except the flags given on the command line (e.g. a larger --total-steps extends the run)"""
    progress: bool = True
    """show a progress bar"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Args from the command line: one --flag per field (--no-flag for booleans). With
    --resume the run's saved settings fill in every flag not given."""
    values = vars(_parser().parse_args(argv))
    if values["resume"]:
        given = vars(_parser(defaults=False).parse_args(argv))
        values = {**_saved_config(values["run_name"]), **given}
    return Args(**values)


def _parser(defaults: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=None if defaults else argparse.SUPPRESS,
    )
    docs = _field_docs()
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{docs.get(f.name, '')} (default: {f.default})".strip()
        default = f.default if defaults else argparse.SUPPRESS
        if f.type == "bool":
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=default, help=help_text
            )
        else:
            kind = {"int": int, "float": float, "str": str}[f.type]
            parser.add_argument(flag, type=kind, default=default, help=help_text)
    return parser


def _saved_config(run_name: str) -> dict:
    """The settings a run was started with (runs/<run_name>/config.json), for --resume."""
    path = Path("runs") / run_name / "config.json"
    if not path.is_file():
        raise SystemExit(f"--resume: no run at {path.parent} (no config.json)")
    fields = {f.name for f in dataclasses.fields(Args)}
    return {k: v for k, v in json.loads(path.read_text()).items() if k in fields}


def _field_docs() -> dict[str, str]:
    """The string under each Args field (the attribute docstrings above) for --help."""
    import ast
    import inspect

    body = ast.parse(inspect.getsource(Args)).body[0].body
    return {
        field.target.id: doc.value.value
        for field, doc in zip(body, body[1:], strict=False)
        if isinstance(field, ast.AnnAssign)
        and isinstance(doc, ast.Expr)
        and isinstance(doc.value, ast.Constant)
    }
