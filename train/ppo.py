"""Masked PPO with a league of opponents (scripted baselines, snapshots of itself) on the
batched vector env of any game (CleanRL style: `train()` reads top to bottom in named steps;
every knob a researcher turns is a field of `Args`).

    python -m train.ppo --total-steps 2000000 --num-envs 256 --run-name my_run
    python -m train.ppo --game district_noir --run-name dn --total-steps 300000
    python -m train.ppo --run-name my_run --resume          # continue from its checkpoint
    python -m train.ppo --run-name my_run --resume --total-steps 4000000   # ... and extend it
    tensorboard --logdir runs

The learner holds one seat per game of `noir_env.vector.make_vector_env` (`--game noir`, the
default, `district_noir` or any registered game); every other seat is
an opponent drawn per game from the league: `--league "random:0.2,heuristic:0.4,self:0.4"`
gives each new game a uniform random table (0.2), a heuristic table (0.4, any name
`agents.load` knows, e.g. `heuristic-aggressive` or `district-heuristic`), or a frozen
snapshot of the learner (0.4, split evenly over the last `--snapshots-kept` snapshots, one
taken every `--snapshot-interval` updates; until the first one exists its share goes to the
rest; `--init-snapshot` makes a frozen copy of the `--init` network the first snapshot). A search
agent is an entry too, with an option: `ismcts:budget=32:0.02` (it searches at every
decision of its seats, so its weight sets the run's pace: keep it small).
Player counts: `--players 4` or `--players 3,4,5,6` (drawn per game; default: the game's;
a count listed twice is drawn twice as often: `--players 3,3,4,4,5,6`); one policy plays
them all.
`--imitate heuristic --imitation-updates 40` warm-starts the policy: for its first 40 updates
the loss is the cross-entropy to the teacher's choice in each position the learner met
(DAgger-style: the learner's own rollouts, labelled by the teacher) plus the value loss;
PPO takes over after that.

Everything lands in `runs/<run-name>/`: `config.json`, TensorBoard events, `checkpoint.pt`
(every `--checkpoint-interval` updates: network, optimizer, league snapshots, RNG states,
counters; `--resume` continues exactly from it), `eval.csv` (win rate against
`--eval-opponents` over training) and the final `policy.pt` (`agents.PPOAgent` plays it).
Every file is replaced atomically (`noir_env._atomic`): a run killed at any moment resumes
from its last complete checkpoint, and eval.csv drops the rows logged after it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path

import numpy as np
import torch

import agents
from agents.ppo.agent import NumpyPolicy
from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import (
    PolicyNet,
    legal_actions,
    legal_logits,
    legal_policy,
    nonzero_part,
    position_in,
    sample_actions,
    stack_nonzero_parts,
)
from agents.registry import prior_of
from noir_env._atomic import atomic_write_text, remove_partial_files
from noir_env.game import get_game
from noir_env.threads import set_threads
from noir_env.vector import make_vector_env

from .cli import Parser
from .league import LeagueResults, NamedAgent, evaluate, league_mix, parse_league, snapshot
from .ppo_args import (
    Args,
    _field_docs,
    check_args,
    int_list,
    parse_args,
    widened_widths,
    widths_spec,
)
from .ppo_run import (
    Rollout,
    Run,
    evaluate_and_log,
    load_checkpoint,
    save_checkpoint,
    start_eval_file,
)
from .ppo_update import Batch, update_policy
from .shaping import ScoreShaping
from .widen import widen

__all__ = ["Args", "_field_docs", "evaluate", "league_mix", "parse_args", "parse_league", "train"]


# --- training, top to bottom ---------------------------------------------------------------------
def train(args: Args) -> Path:
    """Train a policy (module docstring); returns the path of the saved policy. ValueError
    for a run that cannot start (a setting, a file, a checkpoint), OSError for a file that
    cannot be written (a full disk)."""
    return run_updates(setup(args))


def run_updates(run: Run) -> Path:
    """The updates of a set-up run, from its start (or checkpoint) to its end; returns the
    path of the saved policy."""
    args = run.args
    bar = _progress(run)
    for update in range(run.start_update, run.num_updates):
        t0 = time.perf_counter()
        if args.anneal_lr:
            run.optimizer.param_groups[0]["lr"] = args.learning_rate * (
                1 - update / run.num_updates
            )
        rollout = collect_rollout(run)
        advantages, returns = compute_advantages(run, rollout)
        batch = make_batch(run, rollout, advantages, returns, update < args.imitation_updates)
        stats = update_policy(run.net, run.optimizer, batch, args)
        log_update(run, stats, rollout.env_time, time.perf_counter() - t0, bar)
        after_update(run, update + 1)
        if run.stopped:
            print(f"--stop-win-rate {args.stop_win_rate} reached after update {update + 1}")
            break
    bar.close()
    return finish(run)


def setup(args: Args) -> Run:
    """Seeds, the game, network, optimizer, league, environments and logs; a resumed run
    continues from its checkpoint."""
    check_args(args)  # ValueError naming the flag, before any work
    game = get_game(args.game)
    run_dir = Path("runs") / args.run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    remove_partial_files(run_dir)  # what saves cut off by a kill left
    set_threads(args.threads)  # torch and numba alike
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    if args.init and not args.resume:  # fine-tune: the file's weights, widths and prior
        net = load_policy(args.init)
        net.train()
        wider = widened_widths(args.hidden, net.config["hidden"])
        if wider:
            net = widen(net, wider, args.seed)
        # config.json records them, so that --resume rebuilds this network
        args.hidden, args.prior = widths_spec(net.config["hidden"]), net.config.get("prior", "")
    else:
        hidden = tuple(int_list(args.hidden, "hidden"))
        net = PolicyNet(game.obs_size, game.num_actions, hidden, game.name, args.prior)
    teacher = agents.load(args.imitate, seed=args.seed) if args.imitation_updates else None
    prior = prior_of(net.config, args.seed)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    batch_size = args.num_envs * args.num_steps
    weights = parse_league(args.league)
    members = {
        name: NamedAgent(name, args.seed + k)
        for k, name in enumerate(weights)
        if name not in ("self", "random")
    }  # random stays the engine's compiled one
    run = Run(args=args, game=game, run_dir=run_dir, net=net, optimizer=optimizer,
              teacher=teacher, prior=prior, weights=weights,
              league=LeagueResults(weights, args.pfsp,
                                   track=("mixed",) if args.mixed_tables > 0 else ()),
              members=members, envs=None,
              # a resumed run's snapshots are its checkpoint's (load_checkpoint)
              snapshots=[snapshot(net)] if args.init_snapshot and not args.resume else [],
              writer=None, eval_file=run_dir / "eval.csv",
              num_updates=max(1, args.total_steps // batch_size),
              batch_size=batch_size)  # fmt: skip
    load_checkpoint(run)
    atomic_write_text(run_dir / "config.json", json.dumps(dataclasses.asdict(args), indent=2))
    start_eval_file(run.eval_file, run.start_update if args.resume else None)
    from torch.utils.tensorboard import SummaryWriter

    # a resumed run drops the events logged after its checkpoint (they are logged again)
    run.writer = SummaryWriter(
        str(run_dir), purge_step=run.global_step + 1 if args.resume else None
    )
    run.envs = make_vector_env(
        args.num_envs, num_players=int_list(args.players, "players") or None,
        rules=args.rules or None,
        opponents=league_mix(run.league.priorities(), run.snapshots, args.seed, run.members),
        seed=args.seed,
        game=game,
        mixed_tables=args.mixed_tables,
    )  # fmt: skip
    # a resumed run deals fresh games from a seed of its own (the stopped games are not saved)
    run.next_obs, info = run.envs.reset(seed=args.seed + 7919 * run.start_update)
    run.next_mask = torch.as_tensor(info["action_mask"]).bool()
    if args.score_shaping > 0:
        run.shaping = ScoreShaping(game, args.score_shaping, args.gamma)
        run.shaping.reset(run.envs.games)
    return run


def collect_rollout(run: Run) -> Rollout:
    """num_steps learner decisions in every game, sampled from a numpy copy of the net
    (fixed until the update); the finished episodes go to `run.recent`."""
    args = run.args
    shape = (args.num_steps, args.num_envs)
    out = Rollout(obs_parts=[], mask=torch.zeros((*shape, run.game.num_actions), dtype=torch.bool),
                  actions=torch.zeros(shape, dtype=torch.long), logp=torch.zeros(shape),
                  rewards=torch.zeros(shape), dones=torch.zeros(shape),
                  values=torch.zeros(shape),
                  prior=torch.zeros(shape, dtype=torch.long))  # fmt: skip
    policy = NumpyPolicy(run.net)
    for step in range(args.num_steps):
        next_obs, next_mask = run.observed()
        out.obs_parts.append(nonzero_part(next_obs))
        out.mask[step] = next_mask
        logits, value = policy.logits_and_value(*out.obs_parts[-1])
        legal, valid = legal_actions(next_mask)
        prior_pos = None
        if run.prior is not None:  # the prior agent's choice, from the same obs and mask
            choice = run.prior.act(next_obs, next_mask.numpy())
            out.prior[step] = torch.from_numpy(np.asarray(choice, np.int64))
            prior_pos = position_in(legal, out.prior[step])
        with torch.no_grad():
            logp_legal, probs = legal_policy(
                run.net.add_prior(legal_logits(torch.from_numpy(logits), legal, valid), prior_pos)
            )
        pos = torch.from_numpy(sample_actions(probs.numpy(), np.random))[:, None]
        out.actions[step] = legal.gather(1, pos).squeeze(1)
        out.values[step] = torch.from_numpy(value)
        out.logp[step] = logp_legal.gather(1, pos).squeeze(1)
        te = time.perf_counter()
        run.next_obs, reward, term, trunc, info = run.envs.step(out.actions[step].numpy())
        out.env_time += time.perf_counter() - te
        if run.shaping is not None:  # the lead in score (train/shaping.py); returns unshaped
            reward = run.shaping.shape(run.envs.games, reward, term | trunc)
        out.rewards[step] = torch.as_tensor(reward)
        out.dones[step] = torch.as_tensor(term | trunc, dtype=torch.float32)
        run.next_mask = torch.as_tensor(info["action_mask"]).bool()
        if "final_info" in info:
            fi, ended = info["final_info"], info["_episode"]
            run.recent["wins"] += fi["learner_won"][fi["_learner_won"]].astype(float).tolist()
            run.recent["returns"] += info["episode"]["r"][ended].tolist()
            run.recent["lengths"] += info["episode"]["l"][ended].tolist()
            done = fi["_opponent"]
            run.league.add(fi["opponent"][done], fi["learner_won"][done],
                           fi["num_players"][done])  # fmt: skip
    run.global_step += run.batch_size
    return out


def compute_advantages(run: Run, rollout: Rollout) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE advantages and returns; an episode's last decision does not bootstrap (the
    envs reset in the step an episode ends)."""
    args = run.args
    with torch.no_grad():
        next_value = run.net(torch.as_tensor(run.observed()[0]))[1]
        adv = torch.zeros_like(rollout.rewards)
        last = torch.zeros(args.num_envs)
        for t in reversed(range(args.num_steps)):
            nv = next_value if t == args.num_steps - 1 else rollout.values[t + 1]
            nonterminal = 1.0 - rollout.dones[t]
            delta = rollout.rewards[t] + args.gamma * nv * nonterminal - rollout.values[t]
            last = delta + args.gamma * args.gae_lambda * nonterminal * last
            adv[t] = last
    return adv, adv + rollout.values


def make_batch(run: Run, rollout: Rollout, adv: torch.Tensor, returns: torch.Tensor,
               imitating: bool) -> Batch:  # fmt: skip
    """The rollout flattened for the update: the observations' nonzero columns (their
    running statistics updated first, then fixed), each row's legal actions and, while
    imitating, the teacher's choices."""
    columns, b_x = stack_nonzero_parts(rollout.obs_parts)  # [batch, the rollout's columns]
    run.net.update_obs_stats(b_x, columns)
    b_mask = rollout.mask.reshape(-1, run.game.num_actions)
    b_legal, b_valid = legal_actions(b_mask)  # the loss reads each row's legal actions only
    b_z = run.net.sparse_inputs(b_x, columns)  # the statistics stay fixed during the update
    if run.args.bf16:  # what autocast would cast it to in every minibatch
        b_z = b_z.bfloat16()
    teacher_pos = None
    if imitating:
        b_obs = np.zeros((run.batch_size, run.net.obs_mean.shape[0]), np.float32)
        b_obs[:, columns.numpy()] = b_x.numpy()
        teacher_pos = position_in(b_legal, torch.as_tensor(run.teacher.act(b_obs, b_mask.numpy())))
    return Batch(columns=columns, z=b_z, legal=b_legal, valid=b_valid,
                 pos=position_in(b_legal, rollout.actions.reshape(-1)),
                 logp=rollout.logp.reshape(-1), adv=adv.reshape(-1), ret=returns.reshape(-1),
                 val=rollout.values.reshape(-1), teacher_pos=teacher_pos,
                 prior_pos=position_in(b_legal, rollout.prior.reshape(-1))
                 if run.prior is not None else None)  # fmt: skip


def log_update(run: Run, stats: dict, env_time: float, dt: float, bar) -> None:
    """TensorBoard scalars and the progress bar of one update."""
    run.elapsed += dt
    writer, step = run.writer, run.global_step
    for k, v in stats.items():
        writer.add_scalar(f"losses/{k}", v, step)
    writer.add_scalar("charts/steps_per_s", run.batch_size / dt, step)
    writer.add_scalar("charts/env_share", env_time / dt, step)
    writer.add_scalar("charts/learning_rate", run.optimizer.param_groups[0]["lr"], step)
    recent = run.recent
    if recent["wins"]:
        writer.add_scalar("charts/train_win_rate", np.mean(recent["wins"]), step)
        writer.add_scalar("charts/episode_return", np.mean(recent["returns"]), step)
        writer.add_scalar("charts/episode_length", np.mean(recent["lengths"]), step)
    for name, weight in run.league.priorities().items():
        writer.add_scalar(f"league/weight_{name}", weight, step)
    for name in run.league.results:
        rel = run.league.relative(name)
        if not np.isnan(rel):
            writer.add_scalar(f"league/win_rate_over_par_vs_{name}", rel, step)
    bar.set_postfix(sps=f"{run.batch_size / dt:,.0f}", win=f"{np.mean(recent['wins'] or [0]):.2f}")
    bar.update(1)
    for key in recent:
        recent[key] = recent[key][-2000:]


def after_update(run: Run, done_updates: int) -> None:
    """The league's new snapshot, the evaluation and the checkpoint, each when due."""
    args = run.args
    last = done_updates == run.num_updates
    if (args.eval_interval and done_updates % args.eval_interval == 0) or last:
        evaluate_and_log(run, done_updates)
    last = last or run.stopped
    new_snapshot = "self" in run.weights and done_updates % args.snapshot_interval == 0
    if new_snapshot:
        run.snapshots = [*run.snapshots, snapshot(run.net)][-args.snapshots_kept :]
    if new_snapshot or args.pfsp > 0:  # PFSP re-weights the league after every update
        run.envs.set_opponents(league_mix(run.league.priorities(), run.snapshots,
                                          args.seed + done_updates, run.members))  # fmt: skip
    if done_updates % args.checkpoint_interval == 0 or last:
        save_checkpoint(run, done_updates)


def finish(run: Run) -> Path:
    """Close the environments and logs and write the policy file."""
    run.envs.close()
    run.writer.close()
    policy_path = run.run_dir / "policy.pt"
    save_policy(run.net, policy_path)
    print(f"policy written to {policy_path} ({run.global_step:,} steps, "
          f"{run.elapsed / 60:.1f} min)")  # fmt: skip
    return policy_path


def _progress(run: Run):
    from tqdm import tqdm

    return tqdm(total=run.num_updates, initial=run.start_update, disable=not run.args.progress,
                unit="upd")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """The command line: a run that cannot start, or a file that cannot be written (a full
    disk), is one line on stderr and exit code 2; any other failure is a bug and shows its
    traceback."""
    args = parse_args(argv)
    parser = Parser(prog="python -m train.ppo")
    run = parser.run(lambda: setup(args))
    try:
        run_updates(run)
    except OSError as e:
        parser.error(str(e).splitlines()[0] if str(e) else type(e).__name__)


if __name__ == "__main__":
    main()
