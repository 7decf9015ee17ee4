"""The environments RLlib's env runners step: both over the batched core.

Observation (both): a Dict {"observations": float32 [obs_size] (the game's observation,
seat-relative), "action_mask": int8 [num_actions] (1 = legal)}, RLlib's action-masking
convention (`modules.MaskedPolicyModule` reads it). Actions: Discrete(num_actions).

- `MaskedVectorEnv` (path 1, single seat): a Gymnasium `VectorEnv` of N games
  (`noir_env.vector.make_vector_env`), the learner in one seat of each, every other seat
  played inside by the league (`opponents`). Rewards as make_vector_env: 0 until the
  learner's episode ends, then the zero-sum outcome (-1/(n-1) when the learner is
  eliminated, 0 plus its share on truncation). Autoreset is Gymnasium's NEXT_STEP (what
  RLlib's `SingleAgentEnvRunner` expects): the step that ends an episode returns its last
  observation, with an all-zero mask; the next one deals a new game and ignores that slot's
  action. RLlib builds it through the vector entry point
  (`gym_env_vectorize_mode="VECTOR_ENTRY_POINT"`): one env runner steps N games per call.
- `SelfPlayMultiAgentEnv` (path 2, multi-agent): one game of `make_selfplay_env`, one agent
  per seat named "<module>:player_<seat>" (absolute seats; `module_of` is the policy
  mapping), turn-based: each step returns the
  observation of the seat to act next only (reaction windows included: every living seat is
  asked, as in noir_v2). Rewards per seat as the self-play API: a seat eliminated gets
  -1/(n-1) on that step and is terminated (no observation: RLlib repeats its last); at the
  game's end every seat still in gets the zero-sum outcome and its last observation, all
  terminated ("__all__"), or all truncated after `max_steps` decisions (with the last
  observation every seat that acted needs for bootstrapping). Seats already done get
  nothing more. Roles: each game draws one entry of `roles` [(module id, weight), ...] from
  its seed: "learner" makes every seat the shared learner; any other module gets every seat
  but one, drawn uniformly, which is the learner's. So the mapping is a function of the
  game's seed, and a run repeats with its seed (RLlib's episode ids are not seeded).

Seeds: RLlib seeds env runner w with `seed + w` (and sub-env v of a multi-agent runner with
`seed + w + v`); these envs spread that over disjoint ranges of game seeds (runner seed times
the games per runner, plus the slot), so no two runners play the same deals.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from noir_env.game import Game, get_game
from noir_env.vector import make_selfplay_env, make_vector_env
from noir_env.views import action_space, observation_space

from .modules import MASK_KEY, OBS_KEY

LEARNER = "learner"  # the trained module of path 2
ROLE_SALT = 0x524F4C45  # the role draw's stream, apart from the game's own draws


def agent_id(module: str, seat: int) -> str:
    """The agent of `seat` played by `module` ("learner:player_2")."""
    return f"{module}:player_{seat}"


def module_of(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """The policy mapping of path 2: the module an agent id names."""
    return agent_id.split(":", 1)[0]


def masked_space(game: Game) -> gym.spaces.Dict:
    """The Dict observation space of one seat of `game` (module docstring)."""
    mask = gym.spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8)
    return gym.spaces.Dict({OBS_KEY: observation_space(game), MASK_KEY: mask})


def _context(config: Any, key: str) -> int:
    """EnvContext's worker_index / vector_index (0 for a plain dict)."""
    return int(getattr(config, key, 0) or 0)


class MaskedVectorEnv(VectorEnv):
    """N single-seat games with Dict observations and NEXT_STEP autoreset (module
    docstring). Keywords: those of `make_vector_env` (game, num_players, rules, opponents,
    learner_seat, max_steps)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, **kwargs: Any):
        self.env = make_vector_env(
            num_envs, autoreset_mode=AutoresetMode.NEXT_STEP, episode_statistics=False, **kwargs
        )
        self.num_envs = self.env.num_envs
        self.single_observation_space = masked_space(self.env.game)
        self.single_action_space = self.env.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = self.env.action_space

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal N games; seed s gives slot i the game seed s * N + i (module docstring)."""
        obs, infos = self.env.reset(
            seed=None if seed is None else int(seed) * self.num_envs, options=options
        )
        return {OBS_KEY: obs, MASK_KEY: infos["action_mask"]}, {}

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], Any, Any, Any, dict]:
        """One learner decision in every game (module docstring). infos: `learner_won`
        (with `_learner_won`) for the slots whose episode ended."""
        obs, reward, terminated, truncated, infos = self.env.step(np.asarray(actions))
        out = {}
        if "final_info" in infos:
            out = {"learner_won": infos["final_info"]["learner_won"],
                   "_learner_won": infos["_final_info"]}  # fmt: skip
        return {OBS_KEY: obs, MASK_KEY: infos["action_mask"]}, reward, terminated, truncated, out

    def close_extras(self, **kwargs: Any) -> None:
        self.env.close()

    def set_opponents(self, opponents: Any) -> None:
        """The league of the games dealt from now on (`make_vector_env`'s `opponents`)."""
        self.env.set_opponents(opponents)


def vector_env_creator(
    config: dict[str, Any], cls: type[MaskedVectorEnv] = MaskedVectorEnv
) -> MaskedVectorEnv:
    """RLlib's env creator for path 1: `config` is the env_config plus "num_envs" (RLlib's
    vector entry point adds it). cls: the env class (a subclass that measures, say)."""
    kwargs = {k: v for k, v in dict(config).items() if k not in ("num_envs", "envs_per_runner")}
    return cls(int(config["num_envs"]), **kwargs)


class SelfPlayMultiAgentEnv(MultiAgentEnv):
    """One turn-based game, every seat an agent (module docstring). config (env_config):
    game, num_players (an int or a list to draw from), rules, max_steps; roles (a list of
    (module id, weight), default [("learner", 1)]); "envs_per_runner" (sub-envs per env
    runner: spreads the seeds)."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        cfg = dict(config or {})
        self.game = get_game(cfg.get("game", "noir"))
        self.core = make_selfplay_env(
            1, cfg.get("num_players"), cfg.get("rules"), max_steps=cfg.get("max_steps", 10_000),
            game=self.game,
        )  # fmt: skip
        self.envs_per_runner = int(cfg.get("envs_per_runner", 1))
        self.vector_index = _context(config, "vector_index")
        roles = [(str(m), float(w)) for m, w in cfg.get("roles") or [(LEARNER, 1.0)]]
        weights = np.array([w for _, w in roles])
        if not roles or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError(f"roles must be (module, weight >= 0) pairs, got {roles}")
        self.roles, self.role_p = [m for m, _ in roles], weights / weights.sum()
        modules = dict.fromkeys([LEARNER, *self.roles])
        seats = range(self.game.max_players)
        self.possible_agents = [agent_id(m, s) for m in modules for s in seats]
        self.agents: list[str] = []  # this game's, by seat
        space = masked_space(self.game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space(self.game))
        self._next: tuple[np.ndarray, dict] | None = None  # the game the core dealt at the end
        self._done: set[int] = set()
        self._seat = -1

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """A new game: the one the core dealt when the last ended, or a seeded one."""
        if seed is not None:
            runner_seed = int(seed) - self.vector_index  # RLlib passes seed + w + v
            obs, infos = self.core.reset(
                seed=runner_seed * self.envs_per_runner + self.vector_index
            )
        elif self._next is not None:
            obs, infos = self._next
        else:
            obs, infos = self.core.reset()
        self._next = None
        self.agents = self._draw_roles(int(infos["num_players"][0]))
        self._done = set()
        return self._observe(obs, infos), {}

    def _draw_roles(self, players: int) -> list[str]:
        """This game's agent ids by seat (module docstring), drawn from its seed."""
        rng = np.random.default_rng([int(self.core.game_seed[0]), ROLE_SALT])
        module = self.roles[int(rng.choice(len(self.roles), p=self.role_p))]
        learner = int(rng.integers(players))
        return [agent_id(LEARNER if module == LEARNER or s == learner else module, s)
                for s in range(players)]  # fmt: skip

    def step(self, action_dict: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        """The acting seat's decision (module docstring)."""
        actor = self.agents[self._seat]
        if actor not in action_dict:
            raise ValueError(f"{actor} is to act; got actions for {sorted(action_dict)}")
        obs, rewards, over, truncated, infos = self.core.step(np.array([action_dict[actor]]))
        live = [s for s in range(len(self.agents)) if s not in self._done]
        reward = {self.agents[s]: float(rewards[0, s]) for s in live}
        if over[0] or truncated[0]:  # every seat still in ends here, with its last view
            final = infos["final_obs"][0]
            seen = {self.agents[s]: self._view(final[s], None) for s in live}
            ends = {self.agents[s]: True for s in live} | {"__all__": True}
            self._done.update(live)
            self._next = (obs, infos)  # the core dealt the next game already
            if truncated[0]:
                return seen, reward, {"__all__": False}, ends, {}
            return seen, reward, ends, {"__all__": False}, {}
        terminated = {"__all__": False}
        for s in live:  # eliminated by this decision: the game goes on without it
            if infos["seat_done"][0, s]:
                terminated[self.agents[s]] = True
                self._done.add(s)
        return self._observe(obs, infos), reward, terminated, {"__all__": False}, {}

    def _observe(self, obs: np.ndarray, infos: dict) -> dict[str, dict]:
        self._seat = int(infos["seat"][0])
        return {self.agents[self._seat]: self._view(obs[0], infos["action_mask"][0])}

    def _view(self, obs: np.ndarray, mask: np.ndarray | None) -> dict[str, np.ndarray]:
        if mask is None:  # a last observation: no decision
            mask = np.zeros(self.game.num_actions, np.int8)
        return {OBS_KEY: np.array(obs, np.float32), MASK_KEY: np.array(mask, np.int8)}
