"""The settings of `train.rllib_ppo`: the `RLlibArgs` dataclass (one field per flag, each
documented by the string under it, which --help shows) and their checks."""

from __future__ import annotations

from dataclasses import dataclass

from ..cli import FlagCheck, dataclass_parser
from ..ppo_args import MAX_SEED, check_hidden, int_list

MODES = ("single", "selfplay")


@dataclass
class RLlibArgs:
    run_name: str = "rllib_ppo"
    """folder under runs/ for RLlib's checkpoints, config.json and the exported policy.pt"""
    mode: str = "single"
    """single: the learner's seat against the league, each env runner stepping a vector env
    of --envs-per-runner games (path 1); selfplay: an RLlib multi-agent env, one shared
    policy for every seat, opponents' modules heuristic or frozen (path 2)"""
    game: str = "noir"
    """the game: noir, district_noir or any registered game"""
    players: str = ""
    """player count, or a comma list to draw from per game (e.g. 3,4,5,6; a count listed
    twice is drawn twice as often: 3,3,4,4,5,6); empty: the game's default (NOIR 4,
    District Noir 2)"""
    rules: str = ""
    """rules preset; empty: the game's default"""
    league: str = "random:1"
    """opponents as name:weight pairs (any name or policy file agents.load knows, or
    `self`). single: each game's other seats, `self` = frozen snapshots of the learner;
    selfplay: each episode draws one entry, the learner plays one seat and the entry the
    others, `self` meaning every seat is the shared learner"""
    snapshot_interval: int = 10
    """single mode with `self` in the league: iterations between snapshots of the learner
    joining the league"""
    snapshots_kept: int = 5
    """single mode: how many of the newest snapshots stay in the league"""
    env_runners: int = 1
    """RLlib env runners (one process each; 0: sample in the driver)"""
    envs_per_runner: int = 256
    """games each env runner steps per call (single: one vector env of this many games;
    selfplay: this many multi-agent envs)"""
    rollout_length: int = 32
    """decisions per game per env runner per training iteration (single), or env steps per
    sub-env (selfplay); the batch is env-runners x envs-per-runner x this"""
    total_steps: int = 200_000
    """env steps sampled (learner decisions in single mode) to train for"""
    minibatch_size: int = 2048
    """SGD minibatch"""
    epochs: int = 4
    """passes over each batch"""
    hidden: str = "256,256"
    """hidden layer widths of the policy/value MLP (train.ppo's network)"""
    learning_rate: float = 3e-4
    """Adam step size"""
    gamma: float = 0.995
    """discount per decision"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_coef: float = 0.2
    """PPO ratio clip"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value-loss weight"""
    max_grad_norm: float = 0.5
    """gradient-norm clip"""
    seed: int = 1
    """seeds RLlib (torch, numpy) and the games (env runner w deals from seed + w)"""
    address: str = ""
    """join a running Ray cluster ('auto': the one this machine belongs to, or
    host:port); empty: start a local Ray instance"""
    num_cpus: int = 0
    """CPUs of a local Ray instance (0: Ray's default, every core); ignored with --address"""
    num_learners: int = 0
    """remote learner processes (0: learn in the driver)"""
    gpus_per_learner: float = 0.0
    """GPUs per learner (e.g. 1 with --num-learners 4 on a 4-GPU node)"""
    checkpoint_interval: int = 10
    """training iterations between RLlib checkpoints (runs/<run-name>/checkpoint)"""
    eval_games: int = 400
    """games of the exported policy against random at the end (0: none)"""


def parse_args(argv: list[str] | None = None) -> RLlibArgs:
    """RLlibArgs from the command line; a bad setting is a one-line error, exit 2."""
    parser = dataclass_parser(RLlibArgs, "python -m train.rllib_ppo", "Train with Ray RLlib.")
    args = parser.run(lambda: RLlibArgs(**vars(parser.parse_args(argv))))
    parser.run(lambda: check_args(args))
    return args


def check_args(args: RLlibArgs) -> None:
    """ValueError naming the flag of the first setting that would fail later."""
    from agents import load
    from noir_env.game import get_game

    from ..league import parse_league

    check = FlagCheck(args)
    need = check.need
    check.run_name()
    need(args.mode in MODES, "mode", " or ".join(MODES))
    game = get_game(args.game)
    need(0 <= args.seed < MAX_SEED, "seed", f"an integer in 0..{MAX_SEED - 1}")
    check.at_least(1, ("envs_per_runner", "rollout_length", "total_steps", "minibatch_size",
                       "epochs", "checkpoint_interval", "snapshot_interval",
                       "snapshots_kept"))  # fmt: skip
    check.at_least(0, ("env_runners", "num_cpus", "num_learners", "eval_games"))
    check_hidden(check, args.hidden)
    check.numbers((("learning_rate", 0.0, 1.0, False), ("gamma", 0.0, 1.0, False),
                   ("gae_lambda", 0.0, 1.0, True), ("clip_coef", 0.0, 1e3, False),
                   ("ent_coef", 0.0, 1e3, True), ("vf_coef", 0.0, 1e3, True),
                   ("max_grad_norm", 0.0, 1e6, False),
                   ("gpus_per_learner", 0.0, 64.0, True)))  # fmt: skip
    game.player_counts(int_list(args.players, "players") or None)
    game.check_rules(args.rules or None)
    league = parse_league(args.league)
    for name in league:
        if name != "self":
            load(name)


def players_of(args: RLlibArgs) -> int | list[int] | None:
    """--players as make_vector_env's num_players (None: the game's default)."""
    counts = int_list(args.players, "players")
    return None if not counts else counts[0] if len(counts) == 1 else counts
