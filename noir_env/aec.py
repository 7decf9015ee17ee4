"""A PettingZoo AEC env of one game of any game of the protocol (`noir_env.game`), written
once over it: what `Game.aec_env` gives a game without an AEC module of its own (NOIR's
`noir_v1` and District Noir's `district_noir_v0` add rendering details, logs in sentences
and replays).

    env = get_game("race").aec_env(num_players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(obs))

Agents are "player_0".."player_{n-1}"; each observes {"observation": float32 [obs_size]
(seat-relative), "action_mask": int8 [num_actions]} (zeros unless it must act). Games are
dealt with `ask_all=True`, so every decision a player faces is presented. Rewards are the
self-play API's (`noir_env.vector.rewards.seat_rewards`): -1/(n-1) on elimination, the
outcome plus a share of what the eliminated players were paid at the end, 0 plus that share
on truncation after `max_steps` decisions.

`act_in_aec(env, agent)` seats any agent of `agents.load` in an AEC loop, this env's or
`noir_v1`'s: a batched agent gets the selected agent's observation and mask, a search agent
(`uses_state = True`, e.g. "ismcts") a copy of the env's game through its hook
`act_on_state(state, games)`, from which it decides with the acting seat's information only.

`AECBase` holds what every AEC env of noir_env shares, this one and NOIR's own `noir_v1`
alike: a copy (`copy.deepcopy`, a pickle round trip) continues the same game, and a closed
env refuses to be used.
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from .engine.args import as_count, as_int
from .game import Game, get_game
from .vector.rewards import seat_rewards


class AECBase(AECEnv):
    """The base of noir_env's AEC envs (module docstring).

    Copies: `copy.deepcopy(env)` and pickle copy every attribute, so the copy is in the
    same game, at the same decision, with the same seeds to come, and continues exactly as
    the original does. (Gymnasium's `EzPickle`, which the PettingZoo envs also derive from,
    would instead build a new env from the constructor's arguments: a copy without its
    game.) Attributes named in `_STATE_VIEWS` view the game's state; they are left out of
    a copy, which would detach them from the copied state, and `_rebuild_views` makes them
    again from it.

    `close()` marks the env closed; `reset`, `step` and `observe` then raise ValueError
    (`_require_open`), as Python's closed files do."""

    _STATE_VIEWS: tuple[str, ...] = ()
    _closed = False  # set on the instance by close()

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._STATE_VIEWS}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(saved)
        self._rebuild_views()

    def _rebuild_views(self) -> None:
        """Make the `_STATE_VIEWS` attributes of a copy from its copied state (none here)."""

    def _require_open(self, what: str) -> None:
        """ValueError if the env was closed."""
        if self._closed:
            raise ValueError(f"{self.metadata['name']}: {what} on a closed env; make a new one")

    def close(self) -> None:
        """Release the env: it cannot be reset or stepped any more."""
        self._closed = True

    def picture(self, observer: str | None = None):
        """The board as a picture (`noir_env.picture.Board`: `.svg`, `.rgb()`, shown as an
        image in a notebook) from `observer`'s seat, which sees its own hand only, or from
        the spectator's (None, the default), who sees every hand. NOIR and District Noir
        only."""
        from .picture import board  # Pillow is imported only when an array is drawn

        if self.state is None:
            raise ValueError(f"{self.metadata['name']}: call reset() before picture()")
        seat = None if observer is None else self.possible_agents.index(observer)
        rules = getattr(self.rules, "name", "") or ""
        return board(self.state, 0, seat, self.possible_agents, rules)


class GameAECEnv(AECBase):
    """One game of `game` as a PettingZoo AEC env (module docstring)."""

    metadata = {"name": "game_aec", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str | Game, num_players: int | None = None, rules: Any = None,
                 render_mode: str | None = None, max_steps: int = 10_000):  # fmt: skip
        super().__init__()
        self.game = get_game(game)
        self.num_players = int(self.game.player_counts(num_players)[0])
        if num_players is not None and np.ndim(num_players) != 0:
            raise ValueError(f"num_players must be one count, got {num_players!r}")
        self.rules = self.game.check_rules(rules)
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
        self.render_mode = render_mode
        self.max_steps = as_count(max_steps, "max_steps")
        self.possible_agents = [f"player_{q}" for q in range(self.num_players)]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        space = gymnasium.spaces.Dict(
            {
                "observation": self.game.observation_space(),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self.game.action_space())
        self._seed_rng = np.random.default_rng()
        self.state = None
        self.game_log: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. `seed` seeds this game and the seeds of later unseeded resets."""
        self._require_open("reset()")
        if seed is None:
            seed = int(self._seed_rng.integers(0, 2**62))
        else:
            seed = as_int(seed, "seed")  # "3" or 2.7 is no seed (nothing parsed or rounded)
            self._seed_rng = np.random.default_rng(seed % 2**64)
        self.game_seed = seed
        self.state = self.game.init(1, self.num_players, self.rules, [int(seed)], ask_all=True)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.game_log = []
        self.agent_selection = self.possible_agents[int(self.game.current_player(self.state)[0])]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_open("observe()")
        obs = self.game.observe(self.state, self._seat[agent])[0]
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8 [num_actions]: the agent's legal actions (default: agent_selection)."""
        seat = self._seat[agent if agent is not None else self.agent_selection]
        if int(self.game.current_player(self.state)[0]) != seat:
            return np.zeros(self.game.num_actions, np.int8)
        return self.game.legal_action_mask(self.state)[0].astype(np.int8)

    def step(self, action) -> None:
        self._require_open("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            if isinstance(action, bool | np.bool_):  # True would be taken for action 1
                raise TypeError
            a = operator.index(action)
        except TypeError:
            raise ValueError(
                f"{agent} must act: an action is an integer id, got {action!r}"
            ) from None
        g = self.game
        if not 0 <= a < g.num_actions or not self.action_mask(agent)[a]:
            raise ValueError(f"{agent}: " + g.describe_illegal(self.state, 0, a))
        self.game_log.append(self._move_text(agent, a))
        alive_before = g.alive(self.state)
        outcome, over, _ = g.step(self.state, np.array([a]))
        truncated = ~over & (self.state.steps >= self.max_steps)
        rewards, seat_done = seat_rewards(
            g.num_players(self.state), alive_before, g.alive(self.state), outcome, over, truncated
        )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a_: float(rewards[0, self._seat[a_]]) for a_ in self.agents}
        for a_ in self.agents:
            if seat_done[0, self._seat[a_]]:
                self.terminations[a_] = not truncated[0]
                self.truncations[a_] = bool(truncated[0])
        if over[0] or truncated[0]:
            info = self._final_info()
            self.infos = {a_: dict(info) for a_ in self.agents}
            self.game_log.append(self._end_text(info))
        self._accumulate_rewards()
        self._select_next()
        if self.render_mode == "human":
            self.render()

    def _move_text(self, agent: str, a: int) -> str:
        """A move as a line of `game_log`, before it is played."""
        return f"{agent}: {self.game.action_name(a)}"

    def _final_info(self) -> dict[str, Any]:
        """What every agent's info holds once the game has ended: `winner` (the sole
        winner, None for none or several), `winners`, `win_reason`, `scores`."""
        g, names = self.game, self.possible_agents
        won = [names[q] for q in np.flatnonzero(g.winners(self.state)[0][: len(names)])]
        scores = g.scores(self.state)[0]
        return {
            "winner": won[0] if len(won) == 1 else None,
            "winners": won,
            "win_reason": g.win_reasons[int(g.win_reason(self.state)[0])],
            "scores": {a: int(scores[q]) for q, a in enumerate(names)},
        }

    def _end_text(self, info: dict[str, Any]) -> str:
        who = " and ".join(info["winners"]) + " won" if info["winners"] else "no winner"
        return f"game over: {who} ({info['win_reason'] or 'stopped'})"

    def _select_next(self) -> None:
        """The actor next, after the dead steps of the agents whose episode just ended."""
        actor = int(self.game.current_player(self.state)[0])
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:  # PettingZoo's dead-step protocol: each ended agent steps once with None
            self._skip_agent_selection = self.possible_agents[actor] if actor >= 0 else None
            self.agent_selection = dead[0]
        else:
            self.agent_selection = self.possible_agents[actor]

    def board_text(self, observer: str | None = None) -> str:
        """The game as text from `observer`'s seat (default: agent_selection)."""
        if self.state is None:
            raise ValueError("call reset() before board_text()")
        seat = self._seat[observer if observer is not None else self.agent_selection]
        return self.game.render(self.state, 0, seat, self.rules)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            return self.picture().rgb()
        text = self.board_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text


def act_in_aec(env: AECEnv, agent: Any) -> int | None:
    """The action `agent` takes for `env.agent_selection` in a PettingZoo AEC env of this
    project (`noir_v1.env()`, `Game.aec_env()`, wrapped or not), or None when that agent's
    episode is over (its dead step is due):

        for name in env.agent_iter():
            env.step(act_in_aec(env, seats[name]))

    A search agent (`uses_state = True`) is handed a copy of the env's game, a batch of one
    (`env.unwrapped.state`), through `act_on_state(state, [0])`: it sees the whole game,
    hidden cards included, because search simulates it, and its contract is to decide from
    the acting seat's information alone (the IS-MCTS agent re-deals everything hidden from
    that seat before it looks, docs/ISMCTS.md); being a copy, the env's game is safe from
    it. Any other agent gets the batched protocol: `act(obs[1, D], mask bool[1, A])`.
    Raises ValueError for an agent with neither method."""
    raw = env.unwrapped
    name = raw.agent_selection
    if raw.terminations[name] or raw.truncations[name]:
        return None
    if getattr(agent, "uses_state", False):
        hook = getattr(agent, "act_on_state", None)
        if not callable(hook):
            raise ValueError(f"{agent!r} declares uses_state but has no act_on_state")
        return int(np.asarray(hook(raw.state.copy(), [0])).reshape(-1)[0])
    act = getattr(agent, "act", None)
    if not callable(act):
        raise ValueError(f"an agent has act(obs, mask) or act_on_state(state, games): {agent!r}")
    seen = raw.observe(name)
    mask = np.asarray(seen["action_mask"], np.bool_)[None]
    return int(np.asarray(act(np.asarray(seen["observation"])[None], mask)).reshape(-1)[0])
