# noqa: D212, D415
"""
# District Noir

This environment follows the conventions of PettingZoo's classic environments.

| Import             | `from noir_env import district_noir_v0`                    |
|--------------------|------------------------------------------------------------|
| Actions            | Discrete                                                   |
| Parallel API       | No                                                         |
| Manual Control     | No                                                         |
| Agents             | `agents= ['player_0', 'player_1']`                         |
| Agents             | 2                                                          |
| Action Shape       | Discrete(14)                                               |
| Action Values      | 0 .. 13 (`noir_env.district.ACTION_NAMES`)                 |
| Observation Shape  | Dict(observation=(OBS_SIZE,), action_mask=(14,))           |
| Observation Values | observation: counts, points, one-hots in [-32, 127]; mask: {0, 1} |

District Noir is a 2-player card game of four rounds. In each round both players alternate
six actions: five times they put a card from their hand at the end of a shared line, and
once they take the last five cards of the line into their face-up collection. At the end
the majority of each gang (5, 6, 7, 8) scores its value, each set of four gangs 5 points,
alliance cards add and betrayal cards subtract points; whoever collects all three
buildings wins at once. docs/DISTRICT_NOIR.md holds the rules (DN1-DN5).

This module is a batch-of-one view of the batched numba core (`noir_env.district`): every
rule, mask, observation and reward comes from the core.

    from noir_env import district_noir_v0

    env = district_noir_v0.env()
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

### Arguments

`district_noir_v0.env(render_mode=None)`: `render_mode` None, "ansi" (render() returns the
table as text) or "human" (prints it).

### Observation Space

A dictionary: `observation`, a flat float32 vector of `OBS_SIZE` values
(`noir_env.district.observe(state, seat)`; `noir_env.district.spaces.OBS_SLICES` names its
parts), and `action_mask`. Seat-relative: block `seat0` is the observer, `seat1` the
opponent. Global fields: the seat to act and the start player (one-hots), the round, the
draw pile size, game over, the observer's own hand per card type, the cards it cannot see
per type (opponent's hand + draw pile + the three boxed cards), the line size, per-type
counts and the line itself in order (newest card first: positions 0-4 are what a take
collects). Per seat: hand size, actions and take this round, the collection per card type
and its points if the game ended now. The opponent's hand appears only as its size.

#### Legal Actions Mask

`action_mask` (int8) holds the legal actions of the agent to act (`agent_selection`) and is
zeros for the other agent and once the game is over. Forced decisions (a single legal
action) are taken by the core (DN5.1), so an agent may act twice in a row.

### Action Space

| Action id | Name           | Meaning                                                   |
|-----------|----------------|-----------------------------------------------------------|
| 0 .. 12   | `play:<card>`  | put a card of that type at the end of the line (DN3.2)    |
| 13        | `take`         | take the last five line cards, or all if fewer (DN3.3)    |

Cards: gang_5..gang_8, alliance_2..alliance_4, betrayal_1..betrayal_3, port, police_hq,
city_hall. An illegal action raises ValueError naming it, the phase and the legal actions,
and changes nothing.

### Rewards

Terminal and zero-sum: the winner +1, the loser -1; a draw (equal points and equal counts
of 8s, 7s, 6s and 5s) 0 each. `infos` at the end hold `winner`, `win_reason` (buildings,
points, tiebreak, draw) and the `scores`.

### Termination and truncation

Both agents terminate together: at once when one collects all three buildings (DN4.1),
else after the fourth round (DN3.6). A game has at most 48 actions; there is no truncation.

### Version History

* v0: Initial version (noir_env 0.1.0).
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces as gym_spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import district
from .district import constants as C
from .district import spaces as dn_spaces
from .district.api import step_one
from .district.observe import observe_batch
from .district.state import check_state, kernel_view

__all__ = ["env", "raw_env", "render_table"]

NUM_ACTIONS = C.NUM_ACTIONS
OBS_SIZE = dn_spaces.OBS_SIZE


def env(**kwargs) -> AECEnv:
    """District Noir with PettingZoo's standard checks (an action outside the space asserts,
    calls in a wrong order raise). Illegal actions raise ValueError."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv, EzPickle):
    """District Noir as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {
        "name": "district_noir_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None):
        EzPickle.__init__(self, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{q}" for q in range(C.NUM_PLAYERS)]
        self.agents = self.possible_agents[:]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        obs_space = gym_spaces.Dict(
            {
                "observation": dn_spaces.observation_space(),
                "action_mask": dn_spaces.action_mask_space(),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: dn_spaces.action_space() for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self._seat_buf = np.zeros(1, np.int64)
        self._rew_buf = np.zeros((1, C.NUM_PLAYERS), np.float32)
        self._done_buf = np.zeros(1, np.bool_)
        self._ill_buf = np.zeros(1, np.bool_)
        self._state = None
        self.game_log: list[str] = []  # the game so far, one sentence per move (public)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    @property
    def state(self) -> district.State:
        """The core state (a batch of one game). After editing it in place call
        `env.unwrapped.refresh()`; the agent to act follows the state."""
        return self._state

    @state.setter
    def state(self, value: district.State) -> None:
        check_state(value)
        if value.shape[0] != 1:
            raise ValueError("the environment holds a batch of exactly one game")
        self._state = value
        self._k = kernel_view(value)

    def refresh(self) -> None:
        """Recompute the legal actions and the agent to act after a hand edit."""
        district.refresh(self._state)
        if int(self._k["actor"][0]) >= 0:
            self.agent_selection = self.possible_agents[int(self._k["actor"][0])]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. `seed` seeds this game and the seeds of later unseeded resets."""
        if seed is None:
            seed = int(self._seed_rng.integers(0, 2**62))
        else:
            self._seed_rng = np.random.default_rng(int(seed) % 2**64)
        self.game_seed = int(seed)
        self.game_log = []
        self.state = district.init(1, seeds=[int(seed)])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[int(self._k["actor"][0])]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`district.observe` for the agent's seat, and its action mask (zeros unless it acts)."""
        seat = self._seat[agent]
        out = np.empty((1, OBS_SIZE), np.float32)
        self._seat_buf[0] = seat
        observe_batch(self._k, self._seat_buf, out)
        return {"observation": out[0], "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8 [NUM_ACTIONS]: the agent's legal actions (default: agent_selection)."""
        seat = self._seat[agent if agent is not None else self.agent_selection]
        if int(self._k["actor"][0]) == seat:
            return self._k["mask"][0].view(np.int8).copy()
        return np.zeros(NUM_ACTIONS, np.int8)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(
                f"{agent} must act: an action is an integer id, got {action!r}"
            ) from None
        if not 0 <= a < NUM_ACTIONS or not self._k["mask"][0][a]:
            raise ValueError(f"{agent}: " + dn_spaces.describe_illegal(self._state, 0, a))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.game_log.append(self._move_text(agent, a))
        step_one(self._k, 0, a, self._rew_buf, self._done_buf, self._ill_buf)
        if self._done_buf[0]:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[int(self._k["actor"][0])]
        if self.render_mode == "human":
            self.render()

    def _move_text(self, agent: str, a: int) -> str:
        """A move as a sentence, before it is played."""
        g = self._state[0]
        if a != C.A_TAKE:
            return f"{agent} puts {C.CARD_NAMES[a]} at the end of the line"
        taken = [C.CARD_NAMES[t] for t in g.line[max(0, g.line_n - C.TAKE_SIZE) : g.line_n]]
        return f"{agent} takes {len(taken)} cards: {', '.join(taken) or 'none'}"

    def board_text(self, observer: str | None = None) -> str:
        """The table as text, from `observer`'s seat (default: agent_selection)."""
        if self._state is None:
            raise ValueError("call reset() before board_text()")
        seat = self._seat[observer if observer is not None else self.agent_selection]
        return render_table(self._state, 0, seat)

    def _finish(self) -> None:
        g = self._state[0]
        scores = district.scores(self._state)[0]
        info = {
            "winner": None if g.winner < 0 else self.possible_agents[int(g.winner)],
            "win_reason": C.WIN_REASONS[int(g.win_reason)],
            "scores": {a: int(scores[q]) for q, a in enumerate(self.possible_agents)},
        }
        who = "a draw" if info["winner"] is None else f"{info['winner']} wins"
        self.game_log.append(f"game over: {who} ({info['win_reason']})")
        for q, a in enumerate(self.possible_agents):
            self.rewards[a] = float(self._rew_buf[0, q])
            self.terminations[a] = True
            self.infos[a] = dict(info)
        self._accumulate_rewards()
        # both out at once: the dead-step protocol walks them starting from the next seat
        self.agent_selection = self.possible_agents[1 - self._seat[self.agent_selection]]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = render_table(self._state, 0, self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _cards_text(counts) -> str:
    parts = [
        f"{int(n)}x {C.CARD_NAMES[t]}" if n > 1 else C.CARD_NAMES[t]
        for t, n in enumerate(counts)
        if n
    ]
    return ", ".join(parts) or "(none)"


def render_table(state: district.State, i: int = 0, observer: int | None = None) -> str:
    """Game i of a core state as text, from seat `observer`'s view (only its hand shown)."""
    g = state[i]
    line = [C.CARD_NAMES[t] for t in g.line[: g.line_n]]
    cut = max(0, len(line) - C.TAKE_SIZE)
    head = f"District Noir, round {int(g.round_no) + 1} of {C.NUM_ROUNDS}"
    if g.phase == C.PH_GAME_OVER:
        who = "draw" if g.winner < 0 else f"player_{int(g.winner)} won"
        head += f": game over, {who} ({C.WIN_REASONS[int(g.win_reason)]})"
    else:
        head += f": player_{int(g.actor)} to act (start player player_{int(g.start_player)})"
    lines = [
        head,
        f"Draw pile {int(g.deck_n)} | out of the game {int(g.removed.sum())} (unseen)",
        "Line (oldest -> newest; [taken by a take]): "
        + " ".join(line[:cut] + ["["] + line[cut:] + ["]"]),
    ]
    scores = district.scores(state[i : i + 1])[0]
    for q in range(C.NUM_PLAYERS):
        you = "  <- you" if q == observer else ""
        lines.append(
            f"player_{q}: hand {int(g.hand[q].sum())} | actions {int(g.acts[q])}/6 | "
            f"taken {'yes' if g.taken[q] else 'no'} | points {int(scores[q])}{you}"
        )
        lines.append(f"  collection: {_cards_text(g.coll[q])}")
        if q == observer:
            lines.append(f"  your hand: {_cards_text(g.hand[q])}")
    return "\n".join(lines)
