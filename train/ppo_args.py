"""The settings of `train.ppo`: the `Args` dataclass (one field per flag, each documented by
the string under it, which --help shows) and the command line that fills it (with
--resume, from the run's saved config.json)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from noir_env._json_file import read_json_file

from .cli import FlagCheck, Parser, dataclass_parser, field_docs, field_values


def _cpu_has_bf16() -> bool:
    """Whether torch's CPU kernels have native bfloat16 here (AVX512-BF16 or AMX)."""
    import torch

    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False


CPU_HAS_BF16 = _cpu_has_bf16()


DEFAULT_HIDDEN = "256,256"


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
    num_envs: int = 512
    """games played in lockstep (512: each opponent call serves twice the games of 256, so
    the environment's per-call overhead per decision halves)"""
    num_steps: int = 64
    """learner decisions per game per rollout (batch = num_envs * num_steps)"""
    players: str = ""
    """player count, or a comma list to draw from per game (e.g. 3,4,5,6; a count listed
    twice is drawn twice as often: 3,3,4,4,5,6); empty: the game's default (NOIR 4,
    District Noir 2)"""
    rules: str = ""
    """rules preset (NOIR: noirburg, the printed rulebook, noirbrough or original); empty:
    the game's default"""
    league: str = (
        "heuristic-v1:0.3,heuristic:0.2,heuristic-aggressive:0.05,heuristic-economic:0.05,"
        "style-rusher:0.06,style-turtle:0.06,style-hoarder:0.06,style-racer:0.06,"
        "style-bully:0.06,random:0.1"
    )
    """opponent mix per game: name:weight pairs; `self` = frozen snapshots of the learner; a
    name may carry options, e.g. `ismcts:budget=32:0.02` or
    `ismcts:budget=32,horizon=4:0.02` (a search at each of its decisions: small
    weights). The default is every bundled scripted baseline (compiled, so
    training runs at full speed; snapshots cost torch inference at every opponent decision)"""
    prior: str = ""
    """an agent the policy is a residual on (e.g. heuristic; empty: none): the logit of the
    prior's choice gets a learned bonus, so the policy starts as that agent and learns where
    to depart from it; the agent is consulted whenever the policy plays"""
    init: str = ""
    """a policy file to start the network from (e.g. agents/policies/ppo_noir.pt), to
    fine-tune it: its weights, widths and prior are the run's (--prior must be left out or
    match it; --hidden left at its default keeps the file's widths, and one with as many
    layers, none narrower, widens the network without changing what it plays:
    train/widen.py); the optimizer and the league start fresh"""
    init_snapshot: bool = False
    """with --init: the league's `self` starts with a frozen copy of the initial network, kept
    as the oldest snapshot until --snapshots-kept newer ones replace it (without it, `self`'s
    share goes to the other entries until the first snapshot: a search entry then takes most
    games)"""
    imitate: str = ""
    """teacher agent for an imitation warm start (e.g. heuristic; empty: none)"""
    imitation_updates: int = 0
    """the first updates fit the policy to the teacher's choices (cross-entropy on the
    learner's own rollouts, labelled by the teacher) and the value to the returns"""
    pfsp: float = 2.0
    """prioritized fictitious self-play: each league entry's weight is scaled by
    (1 - x)^pfsp + 0.05, x the learner's recent win rate against it relative to par (0.5 at
    par, 1 at twice par), so opponents it loses to are drawn more often (0: fixed weights)"""
    mixed_tables: float = 0.0
    """share of games (0..1) whose opponent seats each draw their own league entry (a table
    of, say, a heuristic, a rusher and a snapshot) instead of one entry for every seat; their
    results are logged as `mixed` and do not move the PFSP weights"""
    snapshot_interval: int = 20
    """updates between snapshots of the learner joining the league"""
    snapshots_kept: int = 5
    """how many of the newest snapshots stay in the league"""
    hidden: str = DEFAULT_HIDDEN
    """hidden layer widths of the policy/value MLP"""
    learning_rate: float = 6e-4
    """Adam step size (twice the usual 3e-4, with half the usual passes: below)"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over the run"""
    gamma: float = 0.995
    """discount per learner decision"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    score_shaping: float = 0.0
    """C of a potential-based reward on the learner's lead in score, C * (own score - best
    other living seat's), per point (train/shaping.py; 0: none, the game's reward alone)"""
    update_epochs: int = 2
    """passes over each batch. 2 at learning rate 6e-4 against 4 at 3e-4: about the same
    curve per decision, and the update costs less; side by side on a 2-core machine, the
    first reached 35% against three heuristic-v1 after 34.6 minutes, the second after 50.2
    (docs/performance.md)"""
    num_minibatches: int = 16
    """minibatches per pass (16 of the default 32,768-decision batch: 2,048 decisions each)"""
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
    """games per evaluation (0: no evaluation; the league's training results are still logged
    every --eval-interval updates)"""
    eval_opponents: str = "random"
    """opponent name the evaluation plays against (all other seats)"""
    eval_players: int = 0
    """player count of the evaluation games (0: the game's default)"""
    stop_win_rate: float = 0.0
    """stop the run (checkpoint and policy written) at the first evaluation whose win rate
    against the first of --eval-opponents reaches this (0: never)"""
    checkpoint_interval: int = 10
    """updates between checkpoints (runs/<run-name>/checkpoint.pt)"""
    bf16: bool = CPU_HAS_BF16
    """bfloat16 autocast for the update's forward pass (about 1.3x faster on CPUs with AMX or
    AVX512-BF16; the rollout and the saved policy stay float32). Default: on where the CPU
    has native bfloat16 (slower than float32 where it has not)"""
    threads: int = 1
    """CPU threads of torch and of numba's parallel loops (noir_env.threads: one thread
    ran 4-5x faster than two on a busy 2-core machine)"""
    resume: bool = False
    """continue runs/<run-name>/ from its checkpoint, with the settings in its config.json
    except the flags given on the command line (e.g. a larger --total-steps extends the run;
    with --anneal-lr the rate then follows the longer schedule, so it rises again)"""
    progress: bool = True
    """show a progress bar"""


MAX_WIDTH = 65_536  # the widest hidden layer a run may ask for
MAX_SEED = 2**40  # seeds stay far below the games' limit (a resume adds to the seed)


def parse_args(argv: list[str] | None = None) -> Args:
    """Args from the command line: one --flag per field (--no-flag for booleans). With
    --resume the run's saved settings fill in every flag not given. Every setting is
    checked (`check_args`) before anything runs: a bad one is a one-line error, exit 2."""
    parser = _parser()
    values = vars(parser.parse_args(argv))
    if values["resume"]:
        given = vars(_parser(defaults=False).parse_args(argv))
        values = {**parser.run(lambda: _saved_config(values["run_name"])), **given}
    args = parser.run(lambda: Args(**values))
    parser.run(lambda: check_args(args))
    return args


def check_args(args: Args) -> None:
    """ValueError naming the flag of the first setting that would fail or misbehave later
    (a value out of range, an unknown game, agent or rules preset, a run folder outside
    runs/), so that a run fails before any work, not after its first update."""
    from agents import load
    from noir_env.game import get_game

    check = FlagCheck(args)
    need = check.need
    check.run_name()
    game = get_game(args.game)
    need(0 <= args.seed < MAX_SEED, "seed", f"an integer in 0..{MAX_SEED - 1}")
    check.at_least(1, ("total_steps", "num_envs", "num_steps", "update_epochs",
                       "num_minibatches", "snapshot_interval", "snapshots_kept",
                       "checkpoint_interval", "threads"))  # fmt: skip
    check.at_least(0, ("imitation_updates", "eval_interval", "eval_games", "eval_players"))
    need(args.num_minibatches <= args.num_envs * args.num_steps, "num-minibatches",
         "at most the batch (num-envs * num-steps)")  # fmt: skip
    check_hidden(check, args.hidden)
    check.numbers((("learning_rate", 0.0, 1.0, False), ("gamma", 0.0, 1.0, False),
                   ("gae_lambda", 0.0, 1.0, True), ("clip_coef", 0.0, 1e3, False),
                   ("score_shaping", 0.0, 1.0, True),
                   ("pfsp", 0.0, 100.0, True), ("mixed_tables", 0.0, 1.0, True),
                   ("ent_coef", 0.0, 1e3, True), ("vf_coef", 0.0, 1e3, True),
                   ("max_grad_norm", 0.0, 1e6, False), ("target_kl", 0.0, 1e3, True),
                   ("stop_win_rate", 0.0, 1.0, True)))  # fmt: skip
    game.player_counts(int_list(args.players, "players") or None)
    game.check_rules(args.rules or None)
    if args.eval_players:
        game.player_counts(args.eval_players)
    from .league import load_member, parse_league

    for name in parse_league(args.league):
        if name != "self":
            load_member(name)
    for name in args.eval_opponents.split(","):
        load(name)
    if args.imitation_updates:
        need(bool(args.imitate), "imitate", "a teacher agent for --imitation-updates")
    if args.imitate:
        load(args.imitate)
    if args.prior:
        try:
            load(args.prior)
        except ValueError as e:
            raise ValueError(f"--prior: {e}") from None
    if args.init_snapshot:
        need(bool(args.init), "init-snapshot", "needs --init (the network it snapshots)")
        need("self" in parse_league(args.league), "init-snapshot", "needs `self` in --league")
    if args.init and not args.resume:  # a resumed run's weights are its checkpoint's
        check_init(args, game)


def check_init(args: Args, game) -> None:
    """--init: a sound policy file of this game whose widths and prior agree with --hidden
    and --prior where those were given (ValueError naming the mismatch)."""
    from agents.ppo.file import load_policy

    try:
        cfg = load_policy(args.init).config
    except ValueError as e:
        raise ValueError(f"--init: {e}") from None
    if (cfg["obs_size"], cfg["num_actions"]) != (game.obs_size, game.num_actions):
        raise ValueError(
            f"--init: {args.init} is a policy for {cfg.get('game', '?')} "
            f"({cfg['obs_size']} observation values, {cfg['num_actions']} actions), not for "
            f"{game.name} ({game.obs_size}, {game.num_actions})"
        )
    from .widen import check_widths

    wider = widened_widths(args.hidden, cfg["hidden"])
    why = check_widths(cfg["hidden"], wider) if wider else ""
    if why:
        raise ValueError(f"--hidden {args.hidden}: {why}; its widths are "
                         f"{widths_spec(cfg['hidden'])}")  # fmt: skip
    if args.prior and args.prior != cfg.get("prior", ""):
        raise ValueError(
            f"--prior {args.prior}: the --init policy's prior is {cfg.get('prior') or 'none'}"
        )


def widened_widths(hidden: str, init_widths: list[int]) -> list[int]:
    """The widths --hidden asks an --init network to grow to; [] where it keeps the file's
    (--hidden left at its default, or the file's own widths)."""
    if hidden in ("", DEFAULT_HIDDEN, widths_spec(init_widths)):
        return []
    return int_list(hidden, "hidden")


def check_hidden(check: FlagCheck, hidden: str) -> None:
    """--hidden: comma-separated layer widths in 1..MAX_WIDTH."""
    widths = int_list(hidden, "hidden")
    check.need(bool(widths) and all(1 <= w <= MAX_WIDTH for w in widths), "hidden",
               f"comma-separated widths in 1..{MAX_WIDTH}")  # fmt: skip


def widths_spec(widths: list[int]) -> str:
    """[256, 256] -> '256,256': layer widths as --hidden takes them."""
    return ",".join(str(w) for w in widths)


def int_list(spec: str, flag: str) -> list[int]:
    """'3,4' -> [3, 4] ('' -> []); ValueError naming --flag otherwise."""
    try:
        return [int(part) for part in spec.split(",")] if spec else []
    except ValueError:
        raise ValueError(f"--{flag}: comma-separated integers, got {spec!r}") from None


def _parser(defaults: bool = True) -> Parser:
    return dataclass_parser(Args, "python -m train.ppo", __doc__.split("\n\n")[0], defaults)


def _saved_config(run_name: str) -> dict:
    """The settings a run was started with (runs/<run_name>/config.json), for --resume."""
    path = Path("runs") / run_name / "config.json"
    if not path.is_file():
        raise ValueError(f"--resume: no run at {path.parent} (no config.json)")
    saved = read_json_file(path, "run's settings file", 1 << 20)
    if not isinstance(saved, dict):
        raise ValueError(f"{path}: not a run's settings file: a JSON object is needed, got "
                         f"{type(saved).__name__}")  # fmt: skip
    return field_values(Args, saved, str(path))


def _field_docs() -> dict[str, str]:
    """The string under each Args field (the attribute docstrings above) for --help."""
    return field_docs(Args)
