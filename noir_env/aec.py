"""The PettingZoo AEC env of every game of the protocol (`noir_env.engine.protocol`), one
class written once: NOIR's `noir_v2` and District Noir's `district_noir_v0` are this class
with their game's views (`noir_env.views`: the env's name, board text, game log, infos), and
any other registered game gets it with generic views.

    env = GameAECEnv("race", num_players=3)      # or noir_v2.env(), district_noir_v0.env()
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(obs))

Agents are "player_0".."player_{n-1}"; each observes {"observation": float32 [obs_size]
(seat-relative), "action_mask": int8 [num_actions]} (zeros unless it must act). Games are
dealt with `ask_all=True`, so who is asked reveals nothing hidden. Rewards (`reward=
"zero_sum"`) are the self-play API's (`noir_env.vector.rewards.seat_rewards`): -1/(n-1) on
elimination, the outcome plus a share of what the eliminated players were paid at the end,
0 plus that share on truncation after `max_steps` decisions; `reward="score"` gives each
agent its score when its episode ends. `history` holds the seed, the settings and every
action (`noir_env.history` replays it). A copy (`copy.deepcopy`, pickle) continues the same
game; a closed env refuses `reset`, `step` and `observe`.

`act_in_aec(env, agent)` seats any agent of `agents.load` in an AEC loop: a batched agent
gets the selected agent's observation and mask, a search agent (`uses_state = True`, e.g.
"ismcts") a copy of the env's game through its hook `act_on_state(state, games)`, from which
it decides with the acting seat's information only.
"""

from __future__ import annotations

import json
import operator
import os
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from ._atomic import atomic_write_text
from ._shown import shown
from .engine import shell
from .engine.args import as_count, as_int
from .engine.batch import NO_DEAL, raise_failure, raw_bytes
from .engine.protocol import Game
from .engine.registry import get_game
from .vector.rewards import seat_rewards
from .views import views_of

REWARD_MODES = ("zero_sum", "score")


class GameAECEnv(AECEnv):
    """One game of `game` as a PettingZoo AEC env (module docstring)."""

    metadata: dict[str, Any] = {
        "name": "game_aec",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    # attributes that view the game's state: a copy rebuilds them from its copied state
    _STATE_VIEWS = ("_k", "_actor", "_mask_row", "_raw", "_backup")
    _closed = False

    def __init__(self, game: str | Game, num_players: int | None = None, rules: Any = None,
                 render_mode: str | None = None, max_steps: int = 10_000,
                 reward: str = "zero_sum"):  # fmt: skip
        super().__init__()
        self.game = get_game(game)
        self.views = views_of(self.game)
        self.metadata = {**type(self).metadata, "name": self.views.env_name,
                         "render_modes": list(self.views.render_modes)}  # fmt: skip
        if num_players is not None and np.ndim(num_players) != 0:
            raise ValueError(f"num_players must be one count, got {shown(num_players)}")
        if num_players is not None:
            as_int(num_players, "num_players")
        self.num_players = int(self.game.player_counts(num_players)[0])
        self.rules = self.game.check_rules(rules)
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode must be None or one of {modes}, got {shown(render_mode)}"
            )
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {shown(reward)}")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = as_count(max_steps, "max_steps")
        self.possible_agents = [f"player_{q}" for q in range(self.num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        low, high = self.views.observation_bounds()
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._seed_rng = np.random.default_rng()
        self._seat_buf = np.zeros(1, np.int64)
        self._act_buf = np.zeros(1, np.int64)
        self._rew_buf = np.zeros((1, self.game.max_players), np.float32)
        self._done_buf = np.zeros(1, np.bool_)
        self._ill_buf = np.zeros(1, np.bool_)
        self._state: Any = None
        self._sel: str | None = None
        self._last_sel = self.possible_agents[0]
        self._printed = 0
        # False only to replay a history the vector envs recorded in the core's fast mode
        # (`"ask_all": false`): agent_selection would then reveal hands
        self._ask_all = True

    # --- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # --- the game's state ---------------------------------------------------------------------
    @property
    def state(self):
        """The game's state (a batch of one game). Edit it in place and call `refresh()`,
        which also updates infos and the game log; the same after assigning another state.
        An edited game is no longer reproduced by `history`."""
        return self._state

    @state.setter
    def state(self, value) -> None:
        self.game.layout.check(value)
        if value.shape[0] != 1:
            raise ValueError("the environment holds a batch of exactly one game")
        players = int(self.game.num_players(value)[0])
        if players != self.num_players:
            raise ValueError(f"the state has {players} players, the env {self.num_players}")
        self._state = value
        self._k = self.game.kernel_view(value)
        self._actor = self._k["actor"]
        self._mask_row = self._k["mask"][0]
        self._raw = raw_bytes(self._k)  # the game's bytes
        self._backup = np.empty_like(self._raw)  # the game before the step being taken
        self._status = np.zeros(1, np.uint8)
        self._alive = self._alive_now()  # the seats in the game before the next step (bits)

    def _require_open(self, what: str) -> None:
        if self._closed:
            raise ValueError(f"{self.metadata['name']}: {what} on a closed env; make a new one")

    def _require_game(self, what: str) -> None:
        if self._state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before {what}")

    def _require_agents(self, what: str) -> None:
        if not self.agents:
            raise RuntimeError(
                f"{self.metadata['name']}: {what} after the game: every agent is done; call "
                "reset() to play again"
            )

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._STATE_VIEWS}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(saved)
        if self._state is not None:
            self.state = self._state  # the views of the copied state

    def close(self) -> None:
        """Release the env: it cannot be reset or stepped any more."""
        self._closed = True

    @property
    def game_log(self) -> list[str]:
        """The game so far, one sentence per line (public information only)."""
        self._require_game("reading game_log")
        self._game_log += self._log.take_lines()
        return self._game_log

    def refresh(self) -> None:
        """After editing `state` by hand: recompute the legal actions and the infos, and
        continue the game log from the edited position."""
        self._require_game("refresh()")
        self.game.refresh(self._state)
        self._alive = self._alive_now()
        self._game_log += self._log.take_lines()
        self._log.sync(self._k)
        self._update_infos()

    # --- agent to act ---------------------------------------------------------------------------
    @property
    def agent_selection(self) -> str:
        """The agent that must decide now, or a terminated / truncated agent whose dead step
        is due."""
        if self._state is None:  # an AttributeError, as hasattr() and PettingZoo expect
            raise AttributeError(
                f"{self.metadata['name']}: agent_selection is set by reset(); call it first"
            )
        sel = self._sel
        if sel is None:
            actor = self._actor[0]
            return self.possible_agents[actor] if actor >= 0 else self._last_sel
        return sel

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        # a live agent is whoever the game says must act: follow the state (also when it is
        # edited by hand); an agent out of the game stays selected for its dead step
        if agent is not None and not (self.terminations.get(agent) or self.truncations.get(agent)):
            self._sel = None
        else:
            self._sel = agent
        if agent is not None:
            self._last_sel = agent

    # --- AEC API ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. `seed` seeds the game and the seeds of later unseeded resets;
        None draws a fresh seed; otherwise an int in 0..2**63-1."""
        self._require_open("reset()")
        if seed is None:
            seed = int(self._seed_rng.integers(0, 2**62))
        else:
            seed = as_int(seed, "seed")  # "3" or 2.7 is no seed (nothing parsed or rounded)
            if not 0 <= seed < 2**63:
                raise ValueError(f"seed must be in 0..2**63-1, got {seed}")
            self._seed_rng = np.random.default_rng(seed)
        self.game_seed = seed
        self.state = self.game.init(1, self.num_players, self.rules, [seed], ask_all=self._ask_all)
        self.history = self.views.history(self._state, 0, self.rules, seed, [], self.max_steps)
        self.history["ask_all"] = self._ask_all
        self._actions = self.history["actions"]
        self.num_steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._rewards_dirty = False
        self._extra_info: dict[str, dict] = {}
        self._sel = None
        self._last_sel = self.possible_agents[0]
        self._skip_agent_selection = None
        self._rew_buf[:] = 0.0  # the step kernel's outputs: the last game's end is not this one's
        self._done_buf[:] = False
        self._ill_buf[:] = False
        self._log = self.views.chronicle(self.possible_agents)
        self._log.start(self._k)
        self._game_log: list[str] = []
        self._printed = 0
        self._update_infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What the agent's seat sees, and its action mask (zeros unless it acts)."""
        self._require_open("observe()")
        self._require_game("observe()")
        seat = self._seat[agent]
        out = np.empty((1, self.game.obs_size), np.float32)
        self._seat_buf[0] = seat
        shell.observe_rows(self._k, self._seat_buf, out)
        return {"observation": out[0], "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8 [num_actions]: the agent's legal actions (default: agent_selection)."""
        self._require_game("action_mask()")
        seat = self._seat[agent if agent is not None else self.agent_selection]
        if self._actor[0] == seat:
            return self._mask_row.view(np.int8).copy()
        return np.zeros(self.game.num_actions, np.int8)

    def last(self, observe: bool = True) -> tuple:
        """(observation, cumulative reward, terminated, truncated, info) of agent_selection."""
        self._require_game("last()")
        self._require_agents("last()")
        return super().last(observe)

    def step(self, action) -> None:
        """Take `action` (an int id) for agent_selection, or None for a done agent's step."""
        self._require_open("step()")
        self._require_game("step()")
        self._require_agents("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            if isinstance(action, bool | np.bool_):  # True would be taken for action 1
                raise TypeError
            a = operator.index(action)
        except TypeError:
            phase = self.views.phase_name(self._k)
            where = f" (phase {phase})" if phase else ""
            raise ValueError(
                f"{agent} must act{where}: an action is an integer id, got {shown(action)}"
            ) from None
        if a < 0 or a >= self.game.num_actions or not self._mask_row[a]:
            raise ValueError(f"{agent}: " + self.game.describe_illegal(self._state, 0, a))
        if self._rewards_dirty:
            for name in self.rewards:
                self.rewards[name] = 0.0
            self._rewards_dirty = False
        self._cumulative_rewards[agent] = 0.0
        alive_before = self._alive
        self._log.before(self._k, self._seat[agent], a)
        k, raw, backup, status = self._k, self._raw, self._backup, self._status
        self._act_buf[0] = a
        outputs = (self._rew_buf, self._done_buf, self._ill_buf)
        _, failed = shell.batch_serial(shell.STEP, k, NO_DEAL, raw, backup, status, self._act_buf,
                                       *outputs, False)  # fmt: skip
        if failed:
            raw[0] = backup[0]  # the game as it was: nothing happened
            raise_failure(self.game, k, 0, a)
        self._actions.append(a)
        self.num_steps += 1
        self._log.after(self._k)
        self._sel = None
        if self.game.elimination:  # who is still in (a game without eliminations: everyone)
            self._alive = shell.alive_bits(k, 0, self.num_players)
        over = bool(self._done_buf[0])
        if over or self.num_steps >= self.max_steps or self._alive != alive_before:
            self._end_episodes(self._seats_in(alive_before), self._seats_in(self._alive), over)
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _alive_now(self) -> int:
        """The seats still in the game, as bits (seat q: bit q)."""
        return int(shell.alive_bits(self._k, 0, self.num_players))

    def _seats_in(self, bits: int) -> np.ndarray:
        """bool [1, max_players]: the seats of `bits`."""
        return (bits >> np.arange(self.game.max_players))[None, :] & 1 == 1

    def _end_episodes(self, alive_before: np.ndarray, alive_after: np.ndarray,
                      over: bool) -> None:  # fmt: skip
        """Terminate the agents put out of the game, or every agent at the end of the game
        or on truncation, and give their rewards (module docstring)."""
        truncated = not over and self.num_steps >= self.max_steps
        rewards, seat_done = seat_rewards(
            np.array([self.num_players]), alive_before, alive_after,
            self._rew_buf if over else np.zeros_like(self._rew_buf), np.array([over]),
            np.array([truncated]), np.float64,
        )  # fmt: skip
        scores = self.game.scores(self._state)[0] if self.reward_mode == "score" else None
        end_info = self._end_info() if over else {"truncated_after": self.num_steps}
        for q, by in self._log.eliminated_by().items():
            self._extra_info[self.possible_agents[q]] = {"eliminated_by": self.possible_agents[by]}
        for a in self.agents:
            q = self._seat[a]
            if not seat_done[0, q] or self.terminations[a] or self.truncations[a]:
                continue
            out_now = not alive_after[0, q]
            if out_now or over:
                self.terminations[a] = True
            else:
                self.truncations[a] = True
            self.rewards[a] = float(scores[q]) if scores is not None else float(rewards[0, q])
            if over or truncated:
                self._extra_info[a] = {**self._extra_info.get(a, {}), **end_info}
        self._rewards_dirty = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _end_info(self) -> dict[str, Any]:
        """What every agent's info holds once the game has ended: `winner` (the sole
        winner, None for none or several), `winners`, `win_reason`, `scores`."""
        g, names = self.game, self.possible_agents
        won = [names[q] for q in np.flatnonzero(g.winners(self._state)[0][: len(names)])]
        scores = g.scores(self._state)[0]
        return {
            "winner": won[0] if len(won) == 1 else None,
            "winners": won,
            "win_reason": g.win_reasons[int(g.win_reason(self._state)[0])],
            "scores": {a: int(scores[q]) for q, a in enumerate(names)},
        }

    def _update_infos(self) -> None:
        phase = self.views.phase_name(self._k)
        infos = {a: ({"phase": phase} if phase else {}) for a in self.agents}
        actor = self._actor[0]
        if actor >= 0:
            name = self.possible_agents[actor]
            if name in infos:
                infos[name].update(self.views.decision_info(self._k, self.possible_agents))
        for a, extra in self._extra_info.items():
            if a in infos:
                infos[a].update(extra)
        self.infos = infos

    # --- rendering, history -------------------------------------------------------------------
    def render(self, observer: str | None = None) -> str | np.ndarray | None:
        """ "ansi": the board as text; "human": print the new log lines and the board;
        "rgb_array": the board as a picture (Pillow, the `render` extra). Text shows the
        observer's hand (default: agent_selection), the picture the observer's view
        (default: the spectator's, every hand; `picture()`)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            return self.picture(observer).rgb()
        text = self.board_text(observer)
        if self.render_mode == "ansi":
            return text
        for line in self.game_log[self._printed :]:
            print(line)
        self._printed = len(self.game_log)
        print(text)
        return None

    def board_text(self, observer: str | None = None) -> str:
        """The board as text, from `observer`'s seat (default: agent_selection)."""
        self._require_game("board_text()")
        if observer is None:
            observer = self.agent_selection
        seat = self._seat[observer] if observer is not None else None
        return self.views.board_text(self._state, 0, seat, self.possible_agents, self.rules)

    def picture(self, observer: str | None = None):
        """The board as a picture (`noir_env.picture.Board`: `.svg`, `.rgb()`, shown as an
        image in a notebook) from `observer`'s seat, which sees its own hand only, or from
        the spectator's (None, the default), who sees every hand. NOIR and District Noir
        only."""
        from .picture import board  # Pillow is imported only when an array is drawn

        self._require_game("picture()")
        seat = None if observer is None else self.possible_agents.index(observer)
        rules = self.game.rules_name(self.rules) or ""
        return board(self._state, 0, seat, self.possible_agents, rules)

    def print_log(self, start: int = 0) -> None:
        """Print the game log (from line `start`)."""
        for line in self.game_log[start:]:
            print(line)

    def save_history(self, path: str | os.PathLike) -> None:
        """Write `history` as JSON, atomically (`noir_env.history.load_history` reads it)."""
        atomic_write_text(path, json.dumps(self.history))


def act_in_aec(env: AECEnv, agent: Any) -> int | None:
    """The action `agent` takes for `env.agent_selection` in a PettingZoo AEC env of this
    project (`noir_v2.env()`, `GameAECEnv(...)`, wrapped or not), or None when that agent's
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
