"""The update step of `train.ppo`: PPO's clipped loss (or, during an imitation warm start,
the cross-entropy to a teacher's choices) over minibatches of one rollout, reading only each
row's legal actions (`agents.ppo.net.legal_actions`)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from agents.ppo.net import PolicyNet, legal_policy


@dataclass
class Batch:
    """One rollout, flattened to rows, in the form the loss reads."""

    columns: torch.Tensor  # long [C]: the observation columns nonzero somewhere in the batch
    z: torch.Tensor  # [B, C]: the scaled inputs of those columns (`PolicyNet.sparse_inputs`)
    legal: torch.Tensor  # long [B, K]: each row's legal actions (padded)
    valid: torch.Tensor  # bool [B, K]: which of them are real
    pos: torch.Tensor  # long [B]: the taken action's column in `legal`
    logp: torch.Tensor  # [B]: its log-probability when it was taken
    adv: torch.Tensor  # [B]: GAE advantages
    ret: torch.Tensor  # [B]: returns (advantage + value)
    val: torch.Tensor  # [B]: the values when the actions were taken
    teacher_pos: torch.Tensor | None = None  # long [B]: the teacher's choice (imitation)
    prior_pos: torch.Tensor | None = None  # long [B]: the prior agent's choice (--prior)


def update_policy(net: PolicyNet, optimizer: torch.optim.Optimizer, batch: Batch, args) -> dict:
    """`args.update_epochs` passes of `args.num_minibatches` minibatches over `batch`: PPO,
    or imitation of the teacher when `batch.teacher_pos` is set. Returns the last
    minibatch's statistics; stops a PPO update early past `args.target_kl`."""
    teacher = batch.teacher_pos
    imitating = teacher is not None
    size = batch.z.shape[0]
    minibatch = size // args.num_minibatches
    prior = batch.prior_pos if batch.prior_pos is not None else torch.zeros(size, dtype=torch.long)
    rows = [batch.z, batch.legal, batch.valid, batch.pos, batch.logp, batch.adv, batch.ret,
            batch.val, prior] + ([teacher] if teacher is not None else [])  # fmt: skip
    stats = {"approx_kl": 0.0, "clipfrac": 0.0, "pg_loss": 0.0, "v_loss": 0.0, "entropy": 0.0}
    for _epoch in range(args.update_epochs):
        perm = torch.randperm(size)
        for start in range(0, size, minibatch):
            mb = perm[start : start + minibatch]
            # index_select: a row gather several times faster than t[mb] on CPU
            stats.update(_minibatch_step(net, optimizer, batch.columns,
                                         [t.index_select(0, mb) for t in rows], args))  # fmt: skip
        if not imitating and args.target_kl and stats["approx_kl"] > args.target_kl:
            break
    return stats


def _minibatch_step(net, optimizer, columns, mb_rows, args) -> dict:
    """One gradient step on one minibatch; its statistics."""
    mb_z, mb_legal, mb_valid, mb_pos, mb_logp, mb_adv, mb_ret, mb_val, mb_prior, *mb_teacher = (
        mb_rows
    )
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
        logits, value = net.legal_heads(columns, mb_z, mb_legal, mb_valid)
    logp_all, probs = legal_policy(net.add_prior(logits.float(), mb_prior))
    value = value.float()
    logp = logp_all.gather(1, mb_pos[:, None]).squeeze(1)
    ratio = (logp - mb_logp).exp()
    stats = {}
    if mb_teacher:  # the teacher's choice is the target; the value fits the returns
        teacher = mb_teacher[0][:, None]
        pg_loss = -logp_all.gather(1, teacher).mean()
        v_loss = 0.5 * ((value - mb_ret) ** 2).mean()
        stats["teacher_agreement"] = float(
            (logp_all.argmax(-1) == teacher.squeeze(1)).float().mean()
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
    return stats
