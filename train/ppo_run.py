"""What a `train.ppo` run holds between updates (`Run`, `Rollout`), its evaluations
(eval.csv, TensorBoard) and its checkpoints (`--resume` continues exactly from one)."""

from __future__ import annotations

import csv
import dataclasses
import io
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch

from agents.ppo.file import save_atomic
from agents.ppo.net import PolicyNet
from agents.ppo.torch_file import load_torch_file
from noir_env._atomic import atomic_write_text
from noir_env.game import Game

from .league import LeagueResults, NamedAgent, evaluate, snapshot
from .ppo_args import Args


@dataclass
class Run:
    """A training run's state: the game, network, optimizer, league, environments, logs and
    counters (made by `setup`, advanced by each update)."""

    args: Args
    game: Game
    run_dir: Path
    net: PolicyNet
    optimizer: torch.optim.Optimizer
    teacher: Any  # the imitation teacher (None without a warm start)
    prior: Any  # the agent the policy is a residual on (--prior; None without one)
    weights: dict[str, float]  # the league's names and weights
    league: LeagueResults  # recent results per league entry, the PFSP weights
    members: dict[str, NamedAgent]  # the league's named agents, loaded once
    snapshots: list[PolicyNet]
    envs: Any
    writer: Any  # TensorBoard SummaryWriter
    eval_file: Path
    num_updates: int
    batch_size: int
    start_update: int = 0
    shaping: Any = None  # --score-shaping's ScoreShaping (None without it)
    stopped: bool = False  # --stop-win-rate reached: the run ends after this update
    global_step: int = 0
    elapsed: float = 0.0
    next_obs: np.ndarray | None = None
    next_mask: torch.Tensor | None = None
    recent: dict[str, list[float]] = field(
        default_factory=lambda: {"wins": [], "returns": [], "lengths": []}
    )  # learner episodes of the last updates (training league)

    @property
    def checkpoint_path(self) -> Path:
        return self.run_dir / "checkpoint.pt"

    def observed(self) -> tuple[np.ndarray, torch.Tensor]:
        """(next_obs, next_mask): the learner's observations and legal actions now (the
        environments are dealt by `setup`)."""
        if self.next_obs is None or self.next_mask is None:
            raise ValueError("the run's environments are not dealt yet (setup deals them)")
        return self.next_obs, self.next_mask


@dataclass
class Rollout:
    """`num_steps` learner decisions in every game. An observation is kept as its nonzero
    part (a few hundred of NOIR's 2,473 columns), the form the first layer reads."""

    obs_parts: list[tuple[np.ndarray, np.ndarray]]  # per step: `nonzero_part` of the obs
    mask: torch.Tensor  # bool [T, N, A]
    actions: torch.Tensor  # long [T, N]
    logp: torch.Tensor  # [T, N]
    rewards: torch.Tensor  # [T, N]
    dones: torch.Tensor  # [T, N]: the episode ended with this decision
    values: torch.Tensor  # [T, N]
    prior: torch.Tensor  # long [T, N]: the prior agent's choices (--prior; zeros without)
    env_time: float = 0.0  # seconds spent in the environment


def evaluate_and_log(run: Run, update: int) -> None:
    """The greedy policy's win rate against each of `--eval-opponents` (TensorBoard, eval.csv
    and a printed line; none with `--eval-games 0`), then the league's training results,
    which are logged either way."""
    args = run.args
    players = args.eval_players or run.game.default_players
    names = args.eval_opponents.split(",") if args.eval_games > 0 else []
    for k, name in enumerate(names):
        rate, ci = evaluate(run.net, name, players, args.eval_games, args.rules or None,
                            seed=10_000_000, game=run.game.name)  # fmt: skip
        run.writer.add_scalar(f"eval/win_rate_vs_{name}", rate, run.global_step)
        append_eval_row(run.eval_file, [update, run.global_step, round(run.elapsed, 1), name,
                                         players, args.eval_games, round(rate, 4),
                                         round(ci, 4)])  # fmt: skip
        print(f"update {update}: win rate vs {name} {rate:.3f} ± {ci:.3f}", flush=True)
        if k == 0 and args.stop_win_rate and rate >= args.stop_win_rate:
            run.stopped = True
    log_league(run, update)


def log_league(run: Run, update: int) -> None:
    """The learner's recent training games against each league entry (sampling policy,
    the league's player counts): eval.csv rows `league:<name>` (players 0 = the run's
    mix; win_rate relative to par, i.e. 1.0 = an equal player's share) and a printed line."""
    parts = []
    for name in run.league.results:
        rel, games = run.league.relative(name), run.league.games(name)
        if np.isnan(rel):
            continue
        sd = float(np.std(run.league.results[name])) if games > 1 else 0.0
        append_eval_row(run.eval_file, [update, run.global_step, round(run.elapsed, 1),
                                        f"league:{name}", 0, games, round(rel, 4),
                                        round(1.96 * sd / np.sqrt(games), 4)])  # fmt: skip
        parts.append(f"{name} {rel:.2f}")
    if parts:
        print(f"update {update}: training games, win rate / par: {', '.join(parts)}", flush=True)


EVAL_HEADER = ["update", "global_step", "elapsed_s", "opponents", "players", "games", "win_rate",
               "ci95"]  # fmt: skip


def start_eval_file(path: Path, resumed_update: int | None) -> None:
    """eval.csv at the start of a run: the header alone for a new run; for a resumed one the
    rows of the updates up to its checkpoint (rows written after it, by a run killed before
    its next checkpoint, are evaluated again and must not appear twice)."""
    kept = (
        []
        if resumed_update is None
        else [row for row in _eval_rows(path) if (_row_update(row) or 0) <= resumed_update]
    )
    _write_eval_rows(path, kept)


def append_eval_row(path: Path, row: list) -> None:
    """Add one row to eval.csv, rewriting the file atomically (a kill leaves it complete)."""
    _write_eval_rows(path, [*_eval_rows(path), [str(v) for v in row]])


def _eval_rows(path: Path) -> list[list[str]]:
    """eval.csv's rows without its header ([] if there is no file)."""
    if not path.is_file():
        return []
    return list(csv.reader(io.StringIO(path.read_text())))[1:]


def _row_update(row: list[str]) -> int | None:
    """The update number of an eval.csv row (None for a row that is not one)."""
    try:
        return int(row[0])
    except (IndexError, ValueError):
        return None


def _write_eval_rows(path: Path, rows: list[list[str]]) -> None:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([EVAL_HEADER, *rows])
    atomic_write_text(path, text.getvalue())


# "league" (PFSP results) is optional: checkpoints written before it resume with none
CHECKPOINT_KEYS = frozenset({"net", "optimizer", "snapshots", "update", "global_step", "elapsed",
                             "py_rng", "np_rng", "torch_rng", "args"})  # fmt: skip


def save_checkpoint(run: Run, update: int) -> None:
    """Everything `--resume` needs to continue exactly: network, optimizer, league
    snapshots, counters and every random state, as tensors and plain data only (so that
    `read_checkpoint` loads it with `weights_only=True`), written atomically: a kill during
    the save leaves the previous checkpoint."""
    # numpy's global generator is an MT19937, whose state is the legacy tuple
    legacy_state = cast(tuple[str, np.ndarray, int, int, float], np.random.get_state())
    kind, keys, pos, has_gauss, cached_gaussian = legacy_state
    save_atomic(
        {
            "net": run.net.state_dict(),
            "optimizer": run.optimizer.state_dict(),
            "snapshots": [s.state_dict() for s in run.snapshots],
            "update": update,
            "global_step": run.global_step,
            "elapsed": run.elapsed,
            "py_rng": random.getstate(),
            "np_rng": {
                "kind": str(kind),
                "keys": torch.from_numpy(keys.astype(np.int64)),
                "pos": int(pos),
                "has_gauss": int(has_gauss),
                "cached_gaussian": float(cached_gaussian),
            },  # fmt: skip
            "torch_rng": torch.get_rng_state(),
            "args": dataclasses.asdict(run.args),
            "league": run.league.state(),
        },
        run.checkpoint_path,
    )


def read_checkpoint(path: Path) -> dict[str, Any]:
    """A checkpoint written by `save_checkpoint`, read as `agents.ppo.torch_file` reads a file
    from outside: tensors and plain data only (a crafted file cannot run code), within the
    file's bytes. ValueError naming what is wrong for a file that holds anything else, is
    damaged, or is not a train.ppo checkpoint."""
    ckpt = load_torch_file(path, "checkpoint")
    if not isinstance(ckpt, dict) or not ckpt.keys() >= CHECKPOINT_KEYS:
        raise ValueError(f"{path}: not a train.ppo checkpoint (keys {sorted(CHECKPOINT_KEYS)})")
    return ckpt


def load_checkpoint(run: Run) -> None:
    """Continue from the run's checkpoint (--resume); refuse to overwrite a run without it.
    A checkpoint that is missing, does not load safely or does not fit the run is a
    ValueError naming the problem."""
    path = run.checkpoint_path
    if path.is_file() and not run.args.resume:
        raise ValueError(
            f"{run.run_dir} already holds a run: --resume continues it, or pick a new --run-name"
        )
    if not run.args.resume:
        return
    if not path.is_file():
        raise ValueError(f"--resume: no checkpoint at {path} (the run stopped before its first "
                         "one: start it again without --resume)")  # fmt: skip
    try:
        ckpt = read_checkpoint(path)
        run.net.load_state_dict(ckpt["net"])
        run.optimizer.load_state_dict(ckpt["optimizer"])
        for sd in ckpt["snapshots"]:
            run.snapshots.append(snapshot(run.net))
            run.snapshots[-1].load_state_dict(sd)
        rng = ckpt["np_rng"]
        np.random.set_state((rng["kind"], rng["keys"].numpy().astype(np.uint32), rng["pos"],
                             rng["has_gauss"], rng["cached_gaussian"]))  # fmt: skip
        random.setstate(ckpt["py_rng"])
        torch.set_rng_state(ckpt["torch_rng"])
        run.league.load_state(ckpt.get("league", {}))
    except (ValueError, RuntimeError, KeyError, TypeError) as e:
        raise ValueError(f"--resume: {e}") from None
    run.start_update, run.global_step = int(ckpt["update"]), int(ckpt["global_step"])
    run.elapsed = float(ckpt["elapsed"])
