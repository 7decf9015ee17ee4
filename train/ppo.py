"""Masked PPO with a self-play league on the batched NOIR vector env (CleanRL style: one file,
read top to bottom; every knob a researcher turns is a field of `Args`).

    python -m train.ppo --total-steps 2000000 --num-envs 256 --run-name my_run
    python -m train.ppo --run-name my_run --resume          # continue from its checkpoint
    python -m train.ppo --run-name my_run --resume --total-steps 4000000   # ... and extend it
    tensorboard --logdir runs

The learner holds one seat per game of `noir_env.vector.make_vector_env`; every other seat is
an opponent drawn per game from the league: `--league "random:0.2,heuristic:0.4,self:0.4"`
gives each new game a uniform random table (0.2), a heuristic table (0.4, any name
`agents.load` knows, e.g. `heuristic-aggressive`), or a frozen snapshot of the learner (0.4,
split evenly over the last `--snapshots-kept` snapshots, one taken every
`--snapshot-interval` updates; until the first one exists its share goes to the rest).
Player counts: `--players 4` or `--players 3,4,5,6` (drawn per game); one policy plays them all.
`--imitate heuristic --imitation-updates 40` warm-starts the policy: for its first 40 updates
the loss is the cross-entropy to the teacher's choice in each position the learner met
(DAgger-style: the learner's own rollouts, labelled by the teacher) plus the value loss;
PPO takes over after that.

Everything lands in `runs/<run-name>/`: `config.json`, TensorBoard events, `checkpoint.pt`
(every `--checkpoint-interval` updates: network, optimizer, league snapshots, RNG states,
counters; `--resume` continues exactly from it), `eval.csv` (win rate against
`--eval-opponents` over training) and the final `policy.pt` (`agents.PPOAgent` plays it).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

import agents
from agents.ppo_agent import (
    NumpyPolicy,
    PolicyNet,
    PPOAgent,
    legal_actions,
    legal_logits,
    legal_policy,
    nonzero_part,
    position_in,
    sample_actions,
    save_policy,
    stack_nonzero_parts,
)
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from noir_env.vector import make_vector_env


@dataclass
class Args:
    run_name: str = "ppo"
    """folder under runs/ for logs, checkpoints and the policy"""
    seed: int = 1
    """seeds the network, the games and the league"""
    total_steps: int = 2_000_000
    """learner decisions to train for"""
    num_envs: int = 256
    """games played in lockstep"""
    num_steps: int = 64
    """learner decisions per game per rollout (batch = num_envs * num_steps)"""
    players: str = "4"
    """player count, or a comma list to draw from per game (e.g. 3,4,5,6)"""
    rules: str = "noirburg"
    """rules preset: noirburg (printed rulebook), noirbrough or original"""
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
    eval_players: int = 4
    """player count of the evaluation games"""
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


# --- the league: opponents drawn per game ------------------------------------------------------
def parse_league(spec: str) -> dict[str, float]:
    """ "random:0.3,self:0.7" -> {"random": 0.3, "self": 0.7} (weights > 0)."""
    out: dict[str, float] = {}
    for part in spec.split(","):
        name, _, weight = part.strip().partition(":")
        w = float(weight) if weight else 1.0
        if not name or w <= 0:
            raise ValueError(f"league entry {part!r}: expected name:weight with weight > 0")
        out[name] = w
    return out


class SnapshotPolicy:
    """A frozen copy of the learner, sampling its actions: an opponent in the league."""

    def __init__(self, net: PolicyNet, seed: int):
        self.agent = PPOAgent(net=net, greedy=False, seed=seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.agent.act(obs, mask)


def league_mix(weights: dict[str, float], snapshots: list[PolicyNet], seed: int):
    """The opponent mix for the vector env: names by weight, `self` split over snapshots."""
    pairs = []
    for name, w in weights.items():
        if name != "self":
            pairs.append((name, w))
        elif snapshots:
            for k, net in enumerate(snapshots):
                pairs.append((SnapshotPolicy(net, seed + k), w / len(snapshots)))
    if not pairs:  # only "self" and no snapshot yet: the first games are against random
        pairs = [("random", 1.0)]
    return pairs


def snapshot(net: PolicyNet) -> PolicyNet:
    frozen = PolicyNet(OBS_SIZE, NUM_ACTIONS, tuple(net.config["hidden"]))
    frozen.load_state_dict(net.state_dict())
    return frozen.eval()


# --- evaluation ---------------------------------------------------------------------------------
def evaluate(net: PolicyNet, opponents: str, players: int, games: int, rules: str, seed: int):
    """Win rate of the greedy policy over `games` games against `opponents` in every other
    seat (learner seat rotating with the seed): (win rate, 95% half-width)."""
    envs = make_vector_env(
        min(games, 256), num_players=players, rules=rules, opponents=opponents, seed=seed
    )
    agent = PPOAgent(net=net, greedy=True)
    obs, info = envs.reset(seed=seed)
    wins = played = 0
    while played < games:
        obs, _, term, trunc, info = envs.step(agent.act(obs, info["action_mask"]))
        if "final_info" in info:
            fi = info["final_info"]
            ended = np.flatnonzero(fi["_learner_won"])
            take = ended[: games - played]
            wins += int(fi["learner_won"][take].sum())
            played += len(take)
    envs.close()
    p = wins / games
    return p, 1.96 * np.sqrt(p * (1 - p) / games)


# --- training -----------------------------------------------------------------------------------
def train(args: Args) -> Path:
    run_dir = Path("runs") / args.run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    players = [int(p) for p in args.players.split(",")]
    hidden = tuple(int(h) for h in args.hidden.split(","))
    weights = parse_league(args.league)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, hidden)
    if args.imitation_updates and not args.imitate:
        raise SystemExit("--imitation-updates needs a teacher: --imitate <agent name>")
    teacher = agents.load(args.imitate, seed=args.seed) if args.imitation_updates else None
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    batch_size = args.num_envs * args.num_steps
    minibatch = batch_size // args.num_minibatches
    num_updates = max(1, args.total_steps // batch_size)
    snapshots: list[PolicyNet] = []
    start_update, global_step, elapsed = 0, 0, 0.0

    ckpt_path = run_dir / "checkpoint.pt"
    if ckpt_path.is_file() and not args.resume:
        raise SystemExit(
            f"{run_dir} already holds a run: --resume continues it, or pick a new --run-name"
        )
    if args.resume:
        if not ckpt_path.is_file():
            raise SystemExit(f"--resume: no checkpoint at {ckpt_path}")
        ckpt = torch.load(ckpt_path, map_location="cpu", weights_only=False)
        net.load_state_dict(ckpt["net"])
        optimizer.load_state_dict(ckpt["optimizer"])
        for sd in ckpt["snapshots"]:
            snapshots.append(snapshot(net))
            snapshots[-1].load_state_dict(sd)
        start_update, global_step, elapsed = ckpt["update"], ckpt["global_step"], ckpt["elapsed"]
        random.setstate(ckpt["py_rng"])
        np.random.set_state(ckpt["np_rng"])
        torch.set_rng_state(ckpt["torch_rng"])
    (run_dir / "config.json").write_text(json.dumps(dataclasses.asdict(args), indent=2))

    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(run_dir))
    envs = make_vector_env(
        args.num_envs,
        num_players=players,
        rules=args.rules,
        opponents=league_mix(weights, snapshots, args.seed),
        seed=args.seed,
    )
    # a resumed run deals fresh games from a seed of its own (the stopped games are not saved)
    next_obs, info = envs.reset(seed=args.seed + 7919 * start_update)
    next_mask = torch.as_tensor(info["action_mask"]).bool()

    mask_buf = torch.zeros((args.num_steps, args.num_envs, NUM_ACTIONS), dtype=torch.bool)
    act_buf = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logp_buf = torch.zeros((args.num_steps, args.num_envs))
    rew_buf = torch.zeros((args.num_steps, args.num_envs))
    done_buf = torch.zeros((args.num_steps, args.num_envs))
    val_buf = torch.zeros((args.num_steps, args.num_envs))

    eval_file = run_dir / "eval.csv"
    if not eval_file.exists():
        eval_file.write_text("update,global_step,elapsed_s,opponents,players,games,win_rate,ci95\n")
    from tqdm import tqdm

    bar = tqdm(total=num_updates, initial=start_update, disable=not args.progress, unit="upd")
    recent_wins: list[float] = []  # learner episodes of the last updates (train league)
    recent_returns: list[float] = []
    recent_lengths: list[float] = []
    for update in range(start_update, num_updates):
        t0 = time.perf_counter()
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1 - update / num_updates)

        # 1. rollout: num_steps learner decisions in every game. An observation is kept as
        # its nonzero part (a few hundred of 2,473 columns), the form the first layer reads
        env_time = 0.0
        obs_parts = []  # per step: (columns, values) of the observations (nonzero_part)
        policy = NumpyPolicy(net)  # the net's copy for the rollout (fixed until the update)
        for step in range(args.num_steps):
            obs_parts.append(nonzero_part(next_obs))
            mask_buf[step] = next_mask
            logits, value = policy.logits_and_value(*obs_parts[-1])
            legal, valid = legal_actions(next_mask)
            logp_legal, probs = legal_policy(legal_logits(torch.from_numpy(logits), legal, valid))
            pos = torch.from_numpy(sample_actions(probs.numpy(), np.random))[:, None]
            act_buf[step], val_buf[step] = legal.gather(1, pos).squeeze(1), torch.from_numpy(value)
            logp_buf[step] = logp_legal.gather(1, pos).squeeze(1)
            te = time.perf_counter()
            next_obs, reward, term, trunc, info = envs.step(act_buf[step].numpy())
            env_time += time.perf_counter() - te
            rew_buf[step] = torch.as_tensor(reward)
            done_buf[step] = torch.as_tensor(term | trunc, dtype=torch.float32)
            next_mask = torch.as_tensor(info["action_mask"]).bool()
            if "final_info" in info:
                fi = info["final_info"]
                recent_wins += fi["learner_won"][fi["_learner_won"]].astype(float).tolist()
                ended = info["_episode"]
                recent_returns += info["episode"]["r"][ended].tolist()
                recent_lengths += info["episode"]["l"][ended].tolist()
        global_step += batch_size
        columns, b_x = stack_nonzero_parts(obs_parts)  # [batch, the rollout's columns]
        net.update_obs_stats(b_x, columns)

        # 2. advantages (GAE); an episode's last decision does not bootstrap (autoreset)
        with torch.no_grad():
            next_value = net(torch.as_tensor(next_obs))[1]
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                nv = next_value if t == args.num_steps - 1 else val_buf[t + 1]
                nonterminal = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * nonterminal - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            returns = adv + val_buf

        # 3. update on the flattened batch: PPO, or imitation of the teacher during warm-up
        b_mask = mask_buf.reshape(-1, NUM_ACTIONS)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        # the loss reads each row's few legal actions only (agents.ppo_agent.legal_actions)
        b_legal, b_valid = legal_actions(b_mask)
        b_pos = position_in(b_legal, b_act)
        b_adv, b_ret, b_val = adv.reshape(-1), returns.reshape(-1), val_buf.reshape(-1)
        imitating = update < args.imitation_updates
        if imitating:
            b_obs = np.zeros((batch_size, OBS_SIZE), np.float32)
            b_obs[:, columns.numpy()] = b_x.numpy()
            b_teacher = torch.as_tensor(teacher.act(b_obs, b_mask.numpy()))
            b_teacher_pos = position_in(b_legal, b_teacher)  # its column in b_legal
        b_z = net.sparse_inputs(b_x, columns)  # the statistics stay fixed during the update
        if args.bf16:  # what autocast would cast it to in every minibatch
            b_z = b_z.bfloat16()
        stats = {"approx_kl": 0.0, "clipfrac": 0.0, "pg_loss": 0.0, "v_loss": 0.0, "entropy": 0.0}
        batch = [b_z, b_legal, b_valid, b_pos, b_logp, b_adv, b_ret, b_val]
        if imitating:
            batch.append(b_teacher_pos)
        for _epoch in range(args.update_epochs):
            perm = torch.randperm(batch_size)
            for start in range(0, batch_size, minibatch):
                mb = perm[start : start + minibatch]
                # index_select: a row gather several times faster than t[mb] on CPU
                mb_z, mb_legal, mb_valid, mb_pos, mb_logp, mb_adv, mb_ret, mb_val, *mb_teacher = (
                    t.index_select(0, mb) for t in batch
                )
                with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
                    logits, value = net.legal_heads(columns, mb_z, mb_legal, mb_valid)
                logp_all, probs = legal_policy(logits.float())
                value = value.float()
                logp = logp_all.gather(1, mb_pos[:, None]).squeeze(1)
                ratio = (logp - mb_logp).exp()
                if imitating:  # the teacher's choice is the target; the value fits the returns
                    teacher_mb = mb_teacher[0][:, None]
                    pg_loss = -logp_all.gather(1, teacher_mb).mean()
                    v_loss = 0.5 * ((value - mb_ret) ** 2).mean()
                    stats["teacher_agreement"] = float(
                        (logp_all.argmax(-1) == teacher_mb.squeeze(1)).float().mean()
                    )
                else:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                    clipped = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                    pg_loss = torch.max(-mb_adv * ratio, -mb_adv * clipped).mean()
                    v_clip = mb_val + (value - mb_val).clamp(-args.clip_coef, args.clip_coef)
                    v_loss = 0.5 * torch.max((value - mb_ret) ** 2, (v_clip - mb_ret) ** 2).mean()
                entropy = -(probs * logp_all).sum(-1).mean()
                loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
                optimizer.step()
                with torch.no_grad():
                    stats["approx_kl"] = float(((ratio - 1) - (logp - mb_logp)).mean())
                    stats["clipfrac"] = float(((ratio - 1).abs() > args.clip_coef).float().mean())
                stats.update(pg_loss=pg_loss.item(), v_loss=v_loss.item(), entropy=entropy.item())
            if not imitating and args.target_kl and stats["approx_kl"] > args.target_kl:
                break

        # 4. logging, league, evaluation, checkpoints
        dt = time.perf_counter() - t0
        elapsed += dt
        for k, v in stats.items():
            writer.add_scalar(f"losses/{k}", v, global_step)
        writer.add_scalar("charts/steps_per_s", batch_size / dt, global_step)
        writer.add_scalar("charts/env_share", env_time / dt, global_step)
        writer.add_scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], global_step)
        if recent_wins:
            writer.add_scalar("charts/train_win_rate", np.mean(recent_wins), global_step)
            writer.add_scalar("charts/episode_return", np.mean(recent_returns), global_step)
            writer.add_scalar("charts/episode_length", np.mean(recent_lengths), global_step)
        bar.set_postfix(sps=f"{batch_size / dt:,.0f}", win=f"{np.mean(recent_wins or [0]):.2f}")
        bar.update(1)
        recent_wins = recent_wins[-2000:]
        recent_returns, recent_lengths = recent_returns[-2000:], recent_lengths[-2000:]
        done_updates = update + 1
        if "self" in weights and done_updates % args.snapshot_interval == 0:
            snapshots = [*snapshots, snapshot(net)][-args.snapshots_kept :]
            envs.set_opponents(league_mix(weights, snapshots, args.seed + done_updates))
        if (args.eval_interval and done_updates % args.eval_interval == 0) or (
            done_updates == num_updates
        ):
            _evaluate_and_log(net, args, done_updates, global_step, elapsed, writer, eval_file)
        if done_updates % args.checkpoint_interval == 0 or done_updates == num_updates:
            torch.save(
                {
                    "net": net.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "snapshots": [s.state_dict() for s in snapshots],
                    "update": done_updates,
                    "global_step": global_step,
                    "elapsed": elapsed,
                    "py_rng": random.getstate(),
                    "np_rng": np.random.get_state(),
                    "torch_rng": torch.get_rng_state(),
                    "args": dataclasses.asdict(args),
                },
                ckpt_path,
            )
    bar.close()
    envs.close()
    writer.close()
    policy_path = run_dir / "policy.pt"
    save_policy(net, policy_path)
    print(f"policy written to {policy_path} ({global_step:,} steps, {elapsed / 60:.1f} min)")
    return policy_path


def _evaluate_and_log(net, args: Args, update, global_step, elapsed, writer, eval_file) -> None:
    if args.eval_games <= 0:
        return
    for name in args.eval_opponents.split(","):
        rate, ci = evaluate(
            net, name, args.eval_players, args.eval_games, args.rules, seed=10_000_000
        )
        writer.add_scalar(f"eval/win_rate_vs_{name}", rate, global_step)
        with eval_file.open("a", newline="") as f:
            csv.writer(f).writerow(
                [
                    update,
                    global_step,
                    round(elapsed, 1),
                    name,
                    args.eval_players,
                    args.eval_games,
                    round(rate, 4),
                    round(ci, 4),
                ]
            )
        print(f"update {update}: win rate vs {name} {rate:.3f} ± {ci:.3f}", flush=True)


def main(argv: list[str] | None = None) -> None:
    train(parse_args(argv))


if __name__ == "__main__":
    main()
