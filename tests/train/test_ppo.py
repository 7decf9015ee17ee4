"""train.ppo smoke tests: a tiny run writes its files, resumes from its checkpoint, and the
saved policy loads and plays legal moves."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
import torch

import agents
from agents.ppo.agent import NumpyPolicy, PPOAgent
from agents.ppo.by_players import read_policy_table
from agents.ppo.file import load_policy, save_policy
from agents.ppo.net import (
    ILLEGAL_LOGIT,
    PolicyNet,
    Tanh,
    legal_actions,
    legal_policy,
    nonzero_columns,
    nonzero_part,
    position_in,
    sample_actions,
    stack_nonzero_parts,
)
from agents.registry import SHIPPED_PPO_POLICY
from noir_env import core, noir_v2
from noir_env.spaces import NUM_ACTIONS, OBS_SIZE
from train import curves
from train.export_policy import export_policy
from train.ppo import Args, _field_docs, parse_args, parse_league, train


def masked_policy(logits: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The dense reference of the legal-action policy: every action a column, the illegal
    ones at ILLEGAL_LOGIT (train.ppo's loss before legal_heads)."""
    masked = logits.masked_fill(~mask, ILLEGAL_LOGIT)
    return torch.log_softmax(masked, dim=-1), torch.softmax(masked, dim=-1)


@pytest.fixture()
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tiny(**changes) -> Args:
    base = dict(run_name="t", total_steps=2 * 16 * 8, num_envs=16, num_steps=8,
                num_minibatches=2, update_epochs=1, league="random:1,self:1",
                snapshot_interval=1, eval_games=8, eval_interval=0, checkpoint_interval=1,
                progress=False, hidden="32")  # fmt: skip
    base.update(changes)
    return Args(**base)


def test_train_writes_policy_checkpoint_and_logs_then_resumes(in_tmp, capsys):
    policy = train(tiny())
    run = in_tmp / "runs" / "t"
    assert policy.resolve() == run / "policy.pt" and policy.is_file()
    assert json.loads((run / "config.json").read_text())["num_envs"] == 16
    assert (run / "eval.csv").read_text().count("\n") == 2  # header + the final evaluation
    assert list(run.glob("events.out.tfevents.*"))
    ckpt = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ckpt["update"] == 2 and ckpt["global_step"] == 256 and len(ckpt["snapshots"]) == 2
    with pytest.raises(ValueError, match="already holds a run"):
        train(tiny())  # a fresh run never mixes its logs into an old one
    exported = export_policy(run, in_tmp / "exported.pt")  # the checkpoint's policy
    x = torch.rand(3, OBS_SIZE)
    torch.testing.assert_close(load_policy(exported)(x)[0], load_policy(policy)(x)[0])
    curves.main([str(run), "--table"])  # the learning curve of the run
    assert (run / "learning_curve.png").stat().st_size > 1000
    assert curves.table(curves.read_eval(run)).count("\n") == 2  # header, rule, one row
    # `--resume` from the command line keeps the run's settings; a flag given there overrides
    resumed = parse_args(["--run-name", "t", "--resume", "--total-steps", str(4 * 16 * 8)])
    assert resumed == tiny(total_steps=4 * 16 * 8, resume=True)
    train(resumed)
    ckpt = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ckpt["update"] == 4 and ckpt["global_step"] == 512
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--run-name", "nothing_here", "--resume"])
    assert exit_info.value.code == 2 and "no run at" in capsys.readouterr().err


def test_training_is_reproducible_with_a_seed_and_logs_episodes(in_tmp):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    nets = []
    for name in ("a", "b"):
        train(tiny(run_name=name, seed=5, total_steps=16 * 16 * 8, snapshot_interval=4))
        nets.append(load_policy(in_tmp / "runs" / name / "policy.pt").state_dict())
    for key, value in nets[0].items():
        torch.testing.assert_close(value, nets[1][key], atol=0, rtol=0, msg=key)
    events = EventAccumulator(str(next((in_tmp / "runs" / "a").glob("events.*"))))
    events.Reload()
    tags = events.Tags()["scalars"]
    for tag in ("charts/episode_return", "charts/episode_length", "charts/steps_per_s",
                "losses/pg_loss", "eval/win_rate_vs_random"):  # fmt: skip
        assert tag in tags, tag
    returns = [e.value for e in events.Scalars("charts/episode_return")]
    assert all(-1.0 <= r <= 1.0 for r in returns)


def test_imitation_warm_start_runs_and_needs_a_teacher(in_tmp):
    train(tiny(run_name="bc", imitate="heuristic", imitation_updates=1, league="heuristic:1"))
    assert (in_tmp / "runs" / "bc" / "policy.pt").is_file()
    with pytest.raises(ValueError, match="--imitate: a teacher agent"):
        train(tiny(run_name="bc2", imitation_updates=1))


def test_bf16_changes_the_update_and_keeps_the_policy_float32(in_tmp):
    """--bf16 runs the update's forward pass in bfloat16: from the same seed the weights differ
    from a float32 run's, and the saved policy's tensors keep their float32 (and float64) types."""
    nets = {}
    for bf16 in (False, True):
        train(tiny(run_name=f"bf16_{bf16}", seed=3, bf16=bf16))
        nets[bf16] = load_policy(in_tmp / "runs" / f"bf16_{bf16}" / "policy.pt").state_dict()
    for key, value in nets[True].items():
        assert value.dtype == nets[False][key].dtype, key
        assert torch.isfinite(value).all(), key
    assert any(not torch.equal(value, nets[False][key]) for key, value in nets[True].items())


def play_every_preset_and_count(agent) -> None:
    """The agent in every seat of a game of each preset and player count (noir_v2 raises on
    an illegal action)."""
    for rules in ("noirburg", "noirbrough", "original"):
        for n in (3, 4, 5, 6):
            env = noir_v2.env(num_players=n, rules=rules, max_steps=300)
            env.reset(seed=n)
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                action = None if term or trunc else int(agent.act(obs["observation"],
                                                                  obs["action_mask"]))  # fmt: skip
                env.step(action)


def test_saved_policy_plays_legal_moves_everywhere(in_tmp):
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (32,))
    save_policy(net, in_tmp / "p.pt")
    play_every_preset_and_count(PPOAgent(in_tmp / "p.pt", greedy=False, seed=3))


def test_shipped_policy_is_the_ppo_agent_and_plays_legal_moves():
    assert SHIPPED_PPO_POLICY.is_file(), "the trained policy ships in agents/policies/"
    files = set(read_policy_table(SHIPPED_PPO_POLICY).values())  # a network per table size
    assert all(f.stat().st_size < 2_500_000 for f in files), "a network is a couple of MB"
    assert sum(f.stat().st_size for f in files) < 8_000_000, "four networks at most: 3-6 players"
    assert "ppo" in agents.names()
    play_every_preset_and_count(agents.load("ppo"))
    play_every_preset_and_count(agents.load("ppo", greedy=False, seed=1))


def test_sparse_first_layer_is_the_dense_mlp_on_scaled_observations():
    """PolicyNet reads only the nonzero columns; its outputs and gradients are those of the
    plain MLP on the scaled (and clipped) observation."""
    torch.manual_seed(0)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (16, 8))
    stats = torch.rand(64, OBS_SIZE) * 3
    stats[:, :5] = 1.0  # constant columns: a zero there clips at -10 deviations
    net.update_obs_stats(stats)
    x = (torch.rand(32, OBS_SIZE) < 0.05) * torch.randint(1, 9, (32, OBS_SIZE)).float()
    x[0] = 0.0  # an all-zero row
    x[1, :5] = 0.0

    def dense(obs):
        h = net.body(net.normalize(obs))
        return net.pi(h), net.v(h).squeeze(-1)

    outputs = []
    for forward in (net, dense):
        net.zero_grad()
        logits, value = forward(x)
        (logits.square().sum() + value.sum()).backward()
        outputs.append((logits, value, [p.grad.clone() for p in net.parameters()]))
    (lg_s, v_s, g_s), (lg_d, v_d, g_d) = outputs
    torch.testing.assert_close(lg_s, lg_d, atol=1e-5, rtol=1e-4)
    torch.testing.assert_close(v_s, v_d, atol=1e-5, rtol=1e-4)
    for a, b in zip(g_s, g_d, strict=True):
        torch.testing.assert_close(a, b, atol=1e-4, rtol=1e-3)
    # PPOAgent and train.ppo's rollout play the same function in numpy
    np.testing.assert_allclose(NumpyPolicy(net).logits(x.numpy()), lg_d.detach(), atol=1e-5)
    lg_n, v_n = NumpyPolicy(net).logits_and_value(*nonzero_part(x.numpy()))
    np.testing.assert_allclose(lg_n, lg_d.detach(), atol=1e-5)
    np.testing.assert_allclose(v_n, v_d.detach(), atol=1e-5)


def test_tanh_is_torch_tanh_in_value_and_gradient():
    x = torch.cat([torch.linspace(-12, 12, 4001), torch.tensor([0.0, 1e-6, -1e-30, 40.0])])
    x.requires_grad_(True)
    y = Tanh()(x)
    torch.testing.assert_close(y, torch.tanh(x), atol=2e-7, rtol=0)
    (grad,) = torch.autograd.grad(y, x, torch.linspace(-1, 1, x.numel()))
    (expected,) = torch.autograd.grad(torch.tanh(x), x, torch.linspace(-1, 1, x.numel()))
    torch.testing.assert_close(grad, expected, atol=1e-6, rtol=0)
    assert (y.abs() <= 1).all()


def test_a_rollout_kept_as_nonzero_parts_is_the_dense_batch():
    rng = np.random.default_rng(0)
    blocks = [
        (rng.random((5, OBS_SIZE)) < p).astype(np.float32) * rng.integers(1, 9, (5, OBS_SIZE))
        for p in (0.0, 0.01, 0.05)
    ]
    columns, x = stack_nonzero_parts([nonzero_part(b) for b in blocks])
    dense = np.concatenate(blocks)
    assert columns.tolist() == nonzero_columns(torch.from_numpy(dense)).tolist()
    np.testing.assert_array_equal(x.numpy(), dense[:, columns.numpy()])


def test_masked_sampling_follows_the_policy_and_never_draws_an_illegal_action():
    rng = np.random.default_rng(0)
    logits = torch.tensor([[0.0, 2.0, 1.0, 5.0]]).repeat(20_000, 1)
    mask = torch.tensor([[True, True, True, False]]).repeat(20_000, 1)
    logp, probs = masked_policy(logits, mask)
    assert (probs[:, 3] == 0).all() and (logp[:, 3] < -1e8).all()
    torch.testing.assert_close(logp.exp()[:, :3], probs[:, :3])
    drawn = sample_actions(probs.numpy(), rng)
    freq = np.bincount(drawn, minlength=4) / len(drawn)
    np.testing.assert_allclose(freq, probs[0].numpy(), atol=0.015)
    # a row whose only legal action is the last, and rows with one legal action anywhere
    eye = np.eye(4, dtype=np.float32)
    for _ in range(50):
        assert (sample_actions(eye, rng) == np.arange(4)).all()


def test_legal_heads_give_the_masked_policy_over_each_rows_legal_actions():
    gen = torch.Generator().manual_seed(0)
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (32, 16))
    with torch.no_grad():
        net.pi.weight.normal_(generator=gen)  # logits of a few units, not the init's ~0
    x = (torch.rand(300, OBS_SIZE, generator=gen) < 0.03).float() * 2
    mask = torch.rand(300, NUM_ACTIONS, generator=gen) < 0.02
    mask[:, 0] |= torch.arange(300) % 3 == 0  # action 0, whose id is also the padding
    mask[7] = False
    mask[7, NUM_ACTIONS - 1] = True  # one row with a single legal action, the last
    legal, valid = legal_actions(mask)
    assert legal.shape[1] == int(mask.sum(1).max())
    assert (valid.sum(1) == mask.sum(1)).all()
    for b in (0, 1, 7, 299):
        assert legal[b, valid[b]].tolist() == mask[b].nonzero().squeeze(1).tolist()
    columns = nonzero_columns(x)
    z = net.sparse_inputs(x[:, columns], columns)
    logits, value = net.legal_heads(columns, z, legal, valid)
    logp, probs = legal_policy(logits)
    full_logits, full_value = net.heads(columns, z)
    full_logp, full_probs = masked_policy(full_logits, mask)
    torch.testing.assert_close(value, full_value)
    torch.testing.assert_close(logp[valid], full_logp.gather(1, legal)[valid])
    torch.testing.assert_close(probs.sum(1), torch.ones(300))
    assert (probs[~valid] == 0).all() and (logp[~valid] < -1e8).all()
    entropy, full_entropy = -(probs * logp).sum(1), -(full_probs * full_logp).sum(1)
    torch.testing.assert_close(entropy, full_entropy)
    drawn = sample_actions(full_probs.detach().numpy(), np.random.default_rng(0))
    actions = torch.from_numpy(drawn)
    pos = position_in(legal, actions)
    assert (legal.gather(1, pos[:, None]).squeeze(1) == actions).all()
    # the sparse backward gives the dense gradients, float32 and under bfloat16 autocast
    loss = logp.gather(1, pos[:, None]).sum() + entropy.sum() + value.sum()
    grads = torch.autograd.grad(loss, list(net.parameters()))
    full_loss = full_logp.gather(1, actions[:, None]).sum() + full_entropy.sum() + full_value.sum()
    full_grads = torch.autograd.grad(full_loss, list(net.parameters()), allow_unused=True)
    for g, fg in zip(grads, full_grads, strict=True):
        torch.testing.assert_close(g, fg, atol=1e-4, rtol=1e-3)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        bf_logits, _ = net.legal_heads(columns, z, legal, valid)
    assert bf_logits.dtype == torch.float32
    torch.testing.assert_close(bf_logits[valid], logits[valid], atol=0.1, rtol=0.05)
    torch.autograd.grad(bf_logits[valid].sum(), list(net.parameters()), allow_unused=True)


def test_policy_file_round_trip_and_errors(in_tmp):
    net = PolicyNet(OBS_SIZE, NUM_ACTIONS, (16, 8))
    net.update_obs_stats(torch.rand(50, OBS_SIZE) * 10)
    save_policy(net, in_tmp / "p.pt")
    back = load_policy(in_tmp / "p.pt")
    x = torch.rand(4, OBS_SIZE) * 10
    np.testing.assert_allclose(back(x)[0].detach(), net(x)[0].detach().half().float(), atol=0.05)
    torch.save({"format": "other"}, in_tmp / "bad.pt")
    with pytest.raises(ValueError, match="not a NOIR PPO policy"):
        load_policy(in_tmp / "bad.pt")
    with pytest.raises(ValueError, match="no PPO policy file"):
        PPOAgent(in_tmp / "missing.pt")
    no_move = np.zeros((1, NUM_ACTIONS), bool)  # a finished game's row: -1 (agents.finished)
    assert PPOAgent(net=net).act(np.zeros((1, OBS_SIZE)), no_move).tolist() == [-1]


def test_cli_flags_and_league_spec(capsys):
    assert set(_field_docs()) == {f.name for f in dataclasses.fields(Args)}, "--help for all"
    args = parse_args(["--num-envs", "8", "--no-anneal-lr", "--league", "random:1,heuristic:3"])
    assert args.num_envs == 8 and args.anneal_lr is False
    assert parse_league(args.league) == {"random": 1.0, "heuristic": 3.0}
    assert parse_league("ismcts:budget=32:0.02,heuristic,ismcts:budget=8") == {
        "ismcts:budget=32": 0.02, "heuristic": 1.0, "ismcts:budget=8": 1.0}  # fmt: skip
    several = "random:0.5,ismcts:budget=8,horizon=4:0.1,heuristic:2"
    assert parse_league(several) == {
        "random": 0.5, "ismcts:budget=8,horizon=4": 0.1, "heuristic": 2.0}  # fmt: skip
    assert parse_league("ismcts:budget=8,horizon=4") == {"ismcts:budget=8,horizon=4": 1.0}
    for bad in ("random:0", "random:-1", ":0.5", "", "random:nan"):
        with pytest.raises(ValueError, match="weight > 0"):
            parse_league(bad)
    with pytest.raises(SystemExit):
        parse_args(["--league", "ismcts:bugdet=8:0.1,random:1"])
    assert "unknown ismcts options ['bugdet']" in capsys.readouterr().err
    args = parse_args(["--league", "ismcts:budget=8,horizon=4:0.1,random:1"])
    assert parse_league(args.league) == {"ismcts:budget=8,horizon=4": 0.1, "random": 1.0}
    with pytest.raises(SystemExit):
        parse_args(["--league", "ismcts:budget=8,horizn=4:0.1,random:1"])
    assert "unknown ismcts options ['horizn']" in capsys.readouterr().err
    # a docstring's literal % (e.g. "35% against") shows as written, not as argparse's dict
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "first reached 35% against" in shown and "option_strings" not in shown


def test_rules_v1_layout_policies_read_each_value_where_it_was():
    """The shipped policy was trained on noir_v0's observation (rules v1, 2473 values); it
    plays noir_v2 through a column map: every one of its inputs reads the current column of
    the same meaning (spot checks across the layout), and none reads a missing one."""
    import importlib

    from noir_env.core.obs_layouts import LAYOUTS, columns_for, to_layout
    from noir_env.core.rules import RULE_FIELDS

    O = importlib.import_module("noir_env.core.observe")  # the module, not core.observe()
    columns = columns_for(2473)
    keys = LAYOUTS[2473][1]
    assert (columns < O.OBS_SIZE).all() and len(set(columns.tolist())) == 2473
    assert columns[keys.index(("global", "phase", 0))] == O.O_PHASE
    old_thr = keys.index(("rules", "money_thr_6"))
    assert columns[old_thr] == O.O_RULES + RULE_FIELDS.index("money_thr_6")
    assert old_thr == 2473 - 6 * O.SEAT_SIZE - 1  # the last global value of the old layout
    kind = keys.index(("queue", 8, "kind", 2))  # the 9th card's Drive-by flag
    assert columns[kind] == O.O_QUEUE + 8 * O.QF + O.QUEUE_OFFSETS["kind"] + 2
    seat = keys.index(("seat", 5, "business", 27, "turncoat_target"))
    assert seat == 2472 and columns[seat] == O.OBS_SIZE - 1
    s = core.init(1, 4, seeds=3)
    obs = core.observe(s)
    assert np.array_equal(to_layout(obs, columns)[0, -6 * O.SEAT_SIZE :], obs[0, O.GLOBAL_SIZE :])
