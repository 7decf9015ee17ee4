"""The RLlib PPO configuration of both paths, built from `RLlibArgs`.

- single (path 1): env "noir_env/rllib-vector" (`envs.MaskedVectorEnv` through RLlib's vector
  entry point), one module ("default_policy", `modules.MaskedPolicyModule`).
- selfplay (path 2): env "noir_env/rllib-selfplay" (`envs.SelfPlayMultiAgentEnv`), module
  "learner" (trained) and one `modules.AgentModule` per named league entry
  ("opponent_<k>", never trained); the env draws each game's roles from its seed and names
  its agents after their modules (`envs.module_of` is the policy mapping).

Determinism: the games are a function of --seed (module `envs`), RLlib seeds torch and
numpy in every env runner and learner; with more than one env runner the order in which
RLlib gathers their samples, and so the batches, vary from run to run, and a run is not
reproducible to the bit (RLlib makes no such promise).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core import DEFAULT_MODULE_ID
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from noir_env.game import get_game

from ..league import league_mix, parse_league
from ..ppo_args import int_list
from .args import RLlibArgs, players_of
from .envs import LEARNER, SelfPlayMultiAgentEnv, module_of, vector_env_creator
from .export import net_from_module_state
from .modules import AgentModule, MaskedPolicyModule, ObsStatsConnector

VECTOR_ENV = "noir_env/rllib-vector"
SELFPLAY_ENV = "noir_env/rllib-selfplay"


def register_envs() -> None:
    """Register both envs with Ray's registry (every process of the cluster reads it)."""
    register_env(VECTOR_ENV, vector_env_creator)
    register_env(SELFPLAY_ENV, SelfPlayMultiAgentEnv)


def learner_module_id(args: RLlibArgs) -> str:
    """The id of the trained module: what `export` writes as the policy file."""
    return DEFAULT_MODULE_ID if args.mode == "single" else LEARNER


class SnapshotLeague:
    """Path 1's `self` league entry (as train.ppo's): after every `interval` training
    iterations (RLlib's on_train_result, in the driver) a frozen copy of the learner joins
    the league, the newest `kept` stay, and every env runner's games dealt from then on draw
    their opponents from the new mix (`train.league.league_mix`: until the first snapshot,
    `self`'s share goes to the named entries)."""

    def __init__(self, weights: dict[str, float], interval: int, kept: int, seed: int, game: str):
        self.weights, self.interval, self.kept = dict(weights), interval, kept
        self.seed, self.game = seed, game
        self.snapshots: list = []

    def __call__(self, *, algorithm: Any, **kwargs: Any) -> None:
        if algorithm.iteration % self.interval:
            return
        state = algorithm.learner_group.get_weights([DEFAULT_MODULE_ID])[DEFAULT_MODULE_ID]
        self.snapshots = [*self.snapshots, net_from_module_state(state, self.game)][-self.kept :]
        mix = league_mix(self.weights, self.snapshots, self.seed + algorithm.iteration)
        algorithm.env_runner_group.foreach_env_runner(
            lambda runner: runner.env is not None and runner.env.unwrapped.set_opponents(mix)
        )


class WinRateCallback(RLlibCallback):
    """Logs `learner_won` (single mode: the share of ended episodes the learner won)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        infos = episode.get_infos(-1) if hasattr(episode, "get_infos") else {}
        if metrics_logger is not None and isinstance(infos, dict) and "learner_won" in infos:
            metrics_logger.log_value("learner_won", float(infos["learner_won"]), window=1000)


def build_config(args: RLlibArgs) -> PPOConfig:
    """The PPOConfig of `args` (module docstring); `register_envs()` must have run."""
    game = get_game(args.game)
    hidden = int_list(args.hidden, "hidden")
    policy_spec = RLModuleSpec(
        module_class=MaskedPolicyModule, model_config={"hidden": hidden, "game": game.name}
    )
    env_config: dict[str, Any] = {
        "game": game.name,
        "num_players": players_of(args),
        "rules": args.rules or None,
    }
    batch = max(args.env_runners, 1) * args.envs_per_runner * args.rollout_length
    config = (
        PPOConfig()
        .framework("torch")
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=args.envs_per_runner,
            rollout_fragment_length=args.rollout_length,
            num_cpus_per_env_runner=1,
        )
        .learners(
            num_learners=args.num_learners,
            num_gpus_per_learner=args.gpus_per_learner,
            learner_connector=lambda obs_space, act_space: ObsStatsConnector(),
        )
        .training(
            train_batch_size_per_learner=batch // max(args.num_learners, 1),
            minibatch_size=min(args.minibatch_size, batch),
            num_epochs=args.epochs,
            lr=args.learning_rate,
            gamma=args.gamma,
            lambda_=args.gae_lambda,
            clip_param=args.clip_coef,
            entropy_coeff=args.ent_coef,
            vf_loss_coeff=args.vf_coef,
            vf_clip_param=10.0,  # returns lie in [-1, 1]: RLlib's clip never binds
            grad_clip=args.max_grad_norm,
            use_kl_loss=False,
        )
        .callbacks(WinRateCallback)
        .debugging(seed=args.seed)
    )
    if args.mode == "single":
        league = parse_league(args.league)
        env_config["opponents"] = league_mix(league, [], args.seed)  # `self`: none yet
        if "self" in league:
            snapshots = SnapshotLeague(league, args.snapshot_interval, args.snapshots_kept,
                                       args.seed, game.name)  # fmt: skip
            config.callbacks(on_train_result=snapshots)
        config.environment(VECTOR_ENV, env_config=env_config)
        config.env_runners(gym_env_vectorize_mode=gym.VectorizeMode.VECTOR_ENTRY_POINT)
        return config.rl_module(rl_module_spec=policy_spec)
    env_config["envs_per_runner"] = args.envs_per_runner
    roles, specs = [], {LEARNER: policy_spec}
    for k, (name, weight) in enumerate(parse_league(args.league).items()):
        module = LEARNER if name == "self" else f"opponent_{k}"
        if module != LEARNER:
            specs[module] = RLModuleSpec(
                module_class=AgentModule, model_config={"agent": name, "seed": args.seed + k}
            )
        roles.append((module, weight))
    env_config["roles"] = roles
    # RLlib's env checker steps random unmasked actions, which the game refuses as illegal
    config.environment(SELFPLAY_ENV, env_config=env_config, disable_env_checking=True)
    config.multi_agent(
        policies=set(specs), policy_mapping_fn=module_of, policies_to_train=[LEARNER]
    )
    return config.rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
