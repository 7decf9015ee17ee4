"""Search distillation: a NOIR policy fitted to the choices of a search that improves it
(one step of expert iteration, Anthony, Tian and Barber 2017).

    python -m train.distill label --run-name d1 --policy ppo --labels 60000
    python -m train.distill fit --run-name d1 --policy ppo
    python -m train.evaluate --agents runs/d1/policy.pt heuristic heuristic heuristic

**label** plays games with the policy (greedy) in one seat, rotated, against opponents drawn
from `--league` at the player counts `--players`. At each of the policy's decisions with two
or more legal actions, `agents.ismcts` searches from the policy's information with the
policy's own choice as the default its paired test must beat (`ismcts:default=<policy>`): the
search's choice is the label, the policy's choice is played (the positions are the policy's
own, as in DAgger). Labels land in shards `runs/<run-name>/labels/shard_<k>.npz`, each
written atomically and loaded without running code; a stopped run resumes at the next
shard. A line per shard shows the labels, their rate and the share the search overrode.

**fit** fine-tunes the policy (a copy of its network: weights, observation statistics and
prior) on the shards: cross-entropy of the search's choice over the legal actions, a tenth of
the positions held out; it keeps the epoch of best held-out loss and writes
`runs/<run-name>/policy.pt`, which `agents.load` plays like any policy file.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from noir_env import core
from noir_env._atomic import atomic_write, atomic_write_text, remove_partial_files
from noir_env.core.mask import count_legal
from noir_env.threads import set_threads

from .cli import dataclass_parser
from .league import parse_league
from .ppo_args import int_list


@dataclass
class LabelArgs:
    run_name: str = "distill"
    """folder under runs/ for the labels (labels/) and the fitted policy"""
    policy: str = "ppo"
    """the policy to improve: an agent name or a policy file (.pt) with a network"""
    labels: int = 60_000
    """labelled positions to collect (a run stops at the first shard past it)"""
    budget: int = 200
    """the search's rollouts per decision (ismcts's default)"""
    players: str = "3,4,5,6"
    """player counts, drawn per shard"""
    league: str = (
        "heuristic:0.3,ppo:0.2,heuristic-v1:0.1,style-rusher:0.08,style-bully:0.08,"
        "style-hoarder:0.08,style-turtle:0.08,style-racer:0.08"
    )
    """opponents, name:weight: one name drawn per shard fills every other seat"""
    games_per_shard: int = 8
    """games played in lockstep per shard"""
    seed: int = 0
    """seeds the deals, the opponents and the search"""
    threads: int = 1
    """CPU threads of torch and numba (noir_env.threads)"""


@dataclass
class FitArgs:
    run_name: str = "distill"
    """folder under runs/ holding labels/ (written by `label`); the policy lands there"""
    policy: str = "ppo"
    """the policy to start from (the one the labels improve)"""
    label_runs: str = ""
    """comma list of runs whose labels/ to fit on (several labelling processes); empty:
    this run's"""
    min_gain: float = 0.05
    """an override of the policy counts as a label only where the search's mean value of its
    choice beats that of the policy's by this much (win share, 0..1); elsewhere the label
    is the policy's own choice. The paired test's overrides at 200 rollouts are often within
    noise, which a network cannot learn and only learns to be unsure from"""
    epochs: int = 8
    """passes over the training positions (the best epoch on held-out positions is kept)"""
    learning_rate: float = 1e-4
    """Adam step size"""
    batch_size: int = 1024
    """positions per minibatch"""
    holdout: float = 0.1
    """share of the positions held out to choose the epoch"""
    seed: int = 0
    """seeds the split and the minibatches"""
    threads: int = 1
    """CPU threads of torch"""


# --- labelling -----------------------------------------------------------------------------------
class LabelRecorder:
    """A seat of the arena that plays `policy` and records, at each decision with a choice,
    the search's verdict on it (module docstring). A search agent by protocol
    (`uses_state`): the search needs the game; it reads only the acting seat's view."""

    uses_state = True

    def __init__(self, policy, search) -> None:
        self.policy, self.search = policy, search
        self.rows: list[dict[str, np.ndarray | int]] = []

    def act_on_state(self, state: core.State, games) -> np.ndarray:
        idx = np.asarray(games, np.int64).reshape(-1)
        obs = core.observe(core.take(state, idx))
        mask = np.asarray(state.mask[idx], bool)
        actions = np.asarray(self.policy.act(obs, mask), np.int64).reshape(-1)
        prior = self.policy.prior.act(obs, mask) if self.policy.prior is not None else actions
        for k, g in enumerate(idx.tolist()):
            if count_legal(mask[k]) < 2:
                continue
            result = self.search.analyse(state, g)
            legal = np.flatnonzero(mask[k])
            value = np.zeros(legal.shape[0])
            value[np.searchsorted(legal, result.actions)] = result.value
            columns = np.flatnonzero(obs[k])
            self.rows.append({"columns": columns, "values": obs[k, columns], "legal": legal,
                              "value": value, "played": int(actions[k]),
                              "prior": int(np.asarray(prior).reshape(-1)[k]),
                              "label": result.choice})  # fmt: skip
        return actions


def pack_rows(rows: list[dict]) -> dict[str, np.ndarray]:
    """The rows of a shard as flat arrays (ragged fields as values + row offsets)."""
    out: dict[str, np.ndarray] = {}
    for key, dtype in (("columns", np.int32), ("values", np.float32), ("legal", np.int32),
                       ("value", np.float32)):  # fmt: skip
        parts = [np.asarray(r[key], dtype) for r in rows]
        out[key] = np.concatenate(parts) if parts else np.zeros(0, dtype)
        out[f"{key}_start"] = np.cumsum([0, *(len(p) for p in parts)]).astype(np.int64)
    for key in ("played", "prior", "label"):
        out[key] = np.array([r[key] for r in rows], np.int64)
    return out


def label(args: LabelArgs) -> Path:
    """Collect labels into runs/<run-name>/labels/ (module docstring); returns that folder."""
    from agents import load
    from agents.ismcts import ISMCTSAgent
    from train.match import play

    set_threads(args.threads)
    league = parse_league(args.league)
    players = int_list(args.players, "players")
    if not players or any(not 3 <= n <= 6 for n in players):
        raise ValueError(f"players must list NOIR player counts 3..6, got {args.players!r}")
    out = Path("runs") / args.run_name / "labels"
    out.mkdir(parents=True, exist_ok=True)
    remove_partial_files(out)
    atomic_write_text(out.parent / "label_config.json",
                      json.dumps(dataclasses.asdict(args), indent=2))  # fmt: skip
    policy = load(args.policy, seed=args.seed)
    if not hasattr(policy, "net"):
        raise ValueError(f"--policy {args.policy!r} is not a policy with a network")
    opponents = {name: load(name, seed=args.seed + k) for k, name in enumerate(league)}
    names, weights = list(league), np.array(list(league.values()))
    have = sum(int(np.load(f)["label"].shape[0]) for f in sorted(out.glob("shard_*.npz")))
    shard = len(list(out.glob("shard_*.npz")))
    start = time.perf_counter()
    print(f"{have:,} labels in {out}; collecting to {args.labels:,}", flush=True)
    while have < args.labels:
        rng = np.random.default_rng([args.seed, shard])
        n = int(rng.choice(players))
        name = names[int(rng.choice(len(names), p=weights / weights.sum()))]
        search = ISMCTSAgent(seed=args.seed * 1_000_003 + shard, budget=args.budget,
                             default=policy)  # fmt: skip
        recorder = LabelRecorder(policy, search)
        t0 = time.perf_counter()
        play([recorder, opponents[name]], lineup=[0] + [1] * (n - 1),
             num_games=args.games_per_shard,
             seed=10_000_000 * (args.seed + 1) + shard * args.games_per_shard)  # fmt: skip
        packed = pack_rows(recorder.rows)
        atomic_write(out / f"shard_{shard:05d}.npz", lambda f, p=packed: np.savez(f, **p))
        got = len(recorder.rows)
        have += got
        shard += 1
        overrides = float(np.mean(packed["label"] != packed["played"])) if got else 0.0
        print(f"shard {shard - 1}: {n} players vs {name}: {got} labels "
              f"({got / (time.perf_counter() - t0):.1f}/s), {overrides:.1%} overridden; "
              f"{have:,}/{args.labels:,} after {(time.perf_counter() - start) / 60:.1f} min",
              flush=True)  # fmt: skip
    return out


# --- fitting -------------------------------------------------------------------------------------
@dataclass
class Positions:
    """Labelled positions: observations in CSR form (indptr, columns, values), each row's
    legal actions (padded, `valid`), the column of the label and of the prior's choice."""

    indptr: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    legal: torch.Tensor
    valid: torch.Tensor
    label_pos: torch.Tensor
    prior_pos: torch.Tensor
    played_pos: torch.Tensor
    value: torch.Tensor  # float32 [rows, K]: the search's mean value of each legal action

    def __len__(self) -> int:
        return self.legal.shape[0]

    def dense(self, rows: np.ndarray, obs_size: int) -> torch.Tensor:
        """float32 [len(rows), obs_size]: the observations of `rows`."""
        x = np.zeros((len(rows), obs_size), np.float32)
        for k, r in enumerate(rows):
            a, b = self.indptr[r], self.indptr[r + 1]
            x[k, self.columns[a:b]] = self.values[a:b]
        return torch.from_numpy(x)


def load_positions(folders: list[Path], min_gain: float = 0.0) -> Positions:
    """Every shard of the folders (numpy arrays only: no code is run) as one Positions; an
    override whose value gain is below `min_gain` is replaced by the played action."""
    files = [f for folder in folders for f in sorted(folder.glob("shard_*.npz"))]
    folder = ", ".join(str(f) for f in folders)
    if not files:
        raise ValueError(f"no label shards in {folder} (run `python -m train.distill label`)")
    parts = [dict(np.load(f, allow_pickle=False)) for f in files]
    indptr, cols, vals, legal_rows, value_rows = [0], [], [], [], []
    label, prior, played = [], [], []
    for p in parts:
        cs, ls = p["columns_start"], p["legal_start"]
        chosen = p["label"].copy()
        for r in range(p["label"].shape[0]):
            cols.append(p["columns"][cs[r] : cs[r + 1]])
            vals.append(p["values"][cs[r] : cs[r + 1]])
            indptr.append(indptr[-1] + cs[r + 1] - cs[r])
            legal, value = p["legal"][ls[r] : ls[r + 1]], p["value"][ls[r] : ls[r + 1]]
            legal_rows.append(legal)
            value_rows.append(value)
            gain = value[legal == chosen[r]].sum() - value[legal == p["played"][r]].sum()
            if gain < min_gain:
                chosen[r] = p["played"][r]
        label.append(chosen)
        prior.append(p["prior"])
        played.append(p["played"])
    width = max(len(r) for r in legal_rows)
    legal = np.zeros((len(legal_rows), width), np.int64)
    valid = np.zeros((len(legal_rows), width), bool)
    value = np.zeros((len(legal_rows), width), np.float32)
    for k, r in enumerate(legal_rows):
        legal[k, : len(r)], valid[k, : len(r)], value[k, : len(r)] = r, True, value_rows[k]

    def pos(actions: list[np.ndarray]) -> torch.Tensor:
        a = np.concatenate(actions)
        hit = legal == a[:, None]
        if not (hit & valid).any(1).all():
            raise ValueError(f"{folder}: a label shard names an action that is not legal")
        return torch.from_numpy((hit & valid).argmax(1))

    return Positions(np.asarray(indptr, np.int64), np.concatenate(cols),
                     np.concatenate(vals).astype(np.float32), torch.from_numpy(legal),
                     torch.from_numpy(valid), pos(label), pos(prior), pos(played),
                     torch.from_numpy(value))  # fmt: skip


def fit(args: FitArgs) -> Path:
    """Fine-tune the policy on the labels (module docstring); returns the policy's path."""
    from agents import load
    from agents.ppo_agent import save_policy

    set_threads(args.threads)
    torch.manual_seed(args.seed)
    run_dir = Path("runs") / args.run_name
    runs = [r.strip() for r in args.label_runs.split(",") if r.strip()] or [args.run_name]
    data = load_positions([Path("runs") / r / "labels" for r in runs], args.min_gain)
    net = load(args.policy).net
    net.train()
    obs_size = net.config["obs_size"]
    order = np.random.default_rng(args.seed).permutation(len(data))
    n_hold = max(1, int(len(data) * args.holdout))
    held, train_rows = order[:n_hold], order[n_hold:]
    # the prior's bonus stays as trained: one scalar that every label away from the prior
    # pulls down, which would make every decision less sure and flip near-ties at random
    trained = [p for name, p in net.named_parameters() if name != "prior_weight"]
    optimizer = torch.optim.Adam(trained, lr=args.learning_rate)
    best = (_held_out(net, data, held, obs_size), -1, _weights(net))
    overridden = (data.label_pos != data.played_pos).float().mean().item()
    print(f"{len(data):,} positions ({overridden:.1%} overridden by the search), "
          f"{n_hold:,} held out; before: {_report(best[0])}", flush=True)  # fmt: skip
    rng = np.random.default_rng(args.seed + 1)
    for epoch in range(args.epochs):
        perm = rng.permutation(train_rows)
        for start in range(0, len(perm), args.batch_size):
            rows = perm[start : start + args.batch_size]
            loss = _loss(net, data, rows, obs_size)[0]
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()
        score = _held_out(net, data, held, obs_size)
        print(f"epoch {epoch + 1}: {_report(score)}", flush=True)
        if score["loss"] < best[0]["loss"]:
            best = (score, epoch, _weights(net))
    net.load_state_dict(best[2])
    net.eval()
    path = run_dir / "policy.pt"
    save_policy(net, path)
    kept = f"epoch {best[1] + 1}" if best[1] >= 0 else "the starting policy (no epoch was better)"
    print(f"kept {kept} ({_report(best[0])}); policy written to {path}")
    return path


def _loss(net, data: Positions, rows: np.ndarray, obs_size: int):
    """(cross-entropy of the labels, agreement with them, agreement where they override,
    the search's value of the net's choice minus that of the policy's)."""
    x = data.dense(rows, obs_size)
    columns = (x.amax(0) > 0).nonzero().squeeze(1)
    legal, valid = data.legal[rows], data.valid[rows]
    keep = valid.any(0)  # drop padding columns no row of the batch uses
    legal, valid = legal[:, keep], valid[:, keep]
    logits, _ = net.legal_heads(columns, net.sparse_inputs(x[:, columns], columns), legal, valid)
    logits = net.add_prior(logits, data.prior_pos[rows])
    target = data.label_pos[rows]
    loss = torch.nn.functional.cross_entropy(logits, target)
    hit = logits.argmax(1) == target
    over = target != data.played_pos[rows]
    value = data.value[rows]
    gain = value.gather(1, logits.argmax(1)[:, None]) - value.gather(1, data.played_pos[rows, None])
    return (
        loss,
        hit.float().mean(),
        hit[over].float().mean() if over.any() else torch.nan,
        gain.mean(),
    )


@torch.no_grad()
def _held_out(net, data: Positions, rows: np.ndarray, obs_size: int) -> dict[str, float]:
    net.eval()
    loss, agree, agree_over, gain = _loss(net, data, rows, obs_size)
    net.train()
    return {
        "loss": float(loss),
        "agree": float(agree),
        "agree_overrides": float(agree_over),
        "gain": float(gain),
    }


def _report(score: dict[str, float]) -> str:
    return (f"held-out loss {score['loss']:.4f}, agrees with the search on {score['agree']:.1%}"
            f" ({score['agree_overrides']:.1%} where it overrode the policy), value gain "
            f"{score['gain'] * 1000:+.2f} per mille")  # fmt: skip


def _weights(net) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in net.state_dict().items()}


def main(argv: list[str] | None = None) -> None:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    commands = {"label": (LabelArgs, label), "fit": (FitArgs, fit)}
    if not argv or argv[0] not in commands:
        print("usage: python -m train.distill {label,fit} [--help]", file=sys.stderr)
        raise SystemExit(2)
    cls, work = commands[argv[0]]
    parser = dataclass_parser(cls, f"python -m train.distill {argv[0]}", __doc__ or "")
    args = cls(**vars(parser.parse_args(argv[1:])))
    parser.run(lambda: work(args))


if __name__ == "__main__":
    main()
