# noqa: D212, D415
"""
# NOIR

This environment follows the conventions of PettingZoo's classic environments.

| Import             | `from noir_env import noir_v1`                               |
|--------------------|--------------------------------------------------------------|
| Actions            | Discrete                                                     |
| Parallel API       | No                                                           |
| Manual Control     | No                                                           |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`                  |
| Agents             | 3 to 6 (`num_players`, default 4)                            |
| Action Shape       | Discrete(NUM_ACTIONS) (one flat table for every phase)       |
| Action Values      | 0 .. NUM_ACTIONS - 1 (`noir_env.spaces.ACTION_NAMES`)        |
| Observation Shape  | Dict(observation=(OBS_SIZE,), action_mask=(NUM_ACTIONS,))    |
| Observation Values | observation in [0, 255] (turn, step, rules: [0, inf)); mask {0, 1} |

NOIR is a mafia card game for 3 to 6 players: each runs businesses guarded by gangsters
around a Hideout, attacks the others' businesses and Hideouts, and answers out of turn with
reaction cards (Police, Bribe, Drive-by, Turncoat, Poker Night). A game is won by
eliminating two players, by being the last one standing, by holding enough money at the end
of one's own turn, or by the best score when the countdown runs out (docs/RULES.md).

This module is a batch-of-one view of the batched numba rules core (`noir_env.core`): every
rule, legal-action mask, observation and reward comes from the core; the environment only
maps seats to agent names and follows the AEC protocol.

    from noir_env import noir_v1

    env = noir_v1.env(num_players=4, rules="noirburg")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = env.action_space(agent).sample(mask)   # a legal action
        env.step(action)
    env.close()

### Arguments

``` python
noir_v1.env(num_players=4, rules="noirburg", render_mode=None, max_steps=10_000,
            reward="zero_sum")
```

`num_players`: 3 to 6.
`rules`: a preset name ("noirburg", the printed rulebook; "noirbrough"; "original") or a
`noir_env.core.Rules`.
`render_mode`: None, "ansi" (render() returns the board as text), "human" (prints it) or
"rgb_array" (render() returns the board as a picture, uint8 [720, 1280, 3]; needs Pillow,
`pip install "noir_env[render]"`, and raises ImportError naming that extra without it).
`max_steps`: agent decisions after which every remaining agent is truncated (random play
lasts about 610 decisions: the mean of 4-player noirburg games).
`reward`: "zero_sum" (default) or "score" (see Rewards).

### Observation Space

The observation is a dictionary with an `'observation'` element, the usual RL observation,
and an `'action_mask'` with the legal actions. The space is the same for 3 to 6 players.

`observation` is a flat float32 vector of `noir_v1.OBS_SIZE` values (the core's OBS_SIZE):
what the observing seat may know, seat-relative (block 0 is the observer, block 1 the next
player clockwise, ...). It is `noir_env.core.observe(state, seat)`;
`noir_env.spaces.OBS_SLICES` names its parts:

* global fields: phase (one-hot), the seat to act and the seat whose turn it is, the number
  of players, round 1 flag, turn number, the current turn step, the rules in force (one value
  per `core.rules.RULE_FIELDS`), bank, draw pile size, discard pile and cards out of the game
  per card type, the countdown (on, tokens, holder, holder turns left), the observer's own hand
  per card type, the cards set aside / discarded in the current step, the selected gangster,
  the reaction being targeted, the pending attack (target seat, Hideout or not, attackers per
  power), the open reaction window, its owner and its queue of cards in play order (kind,
  standing, dice, player, target, a Turncoat's power), the gangsters already moved in this Move
  Gangsters step and those kidnapped in it (kept HIDDEN until the next one);
* per seat: present, alive, money, hand size, the cards publicly known to be in the hand (a
  gangster taken by Turncoat, an eliminated player's table), trophies, kills, Hideout
  gangsters, Hideout in the open, hidden gangsters, and per business slot its income, gangsters
  per power, whether it covers the Hideout, was attacked this turn, is the attack / Turncoat
  target, and the standing kidnaps and Drive-by dice on it.

Another player's hand appears only as its size and its publicly known cards, the draw pile
only as a count.

#### Legal Actions Mask

`action_mask` (int8) holds the legal actions of the agent to act (`agent_selection`); it is
all zeros for every other agent, and for everyone once the game is over. A decision with a
single legal action is presented unless everyone can see that it is forced (see Reaction
windows), so an agent sees some decisions with one legal action.

### Action Space

One flat Discrete space for every phase (`noir_env.spaces.ACTION_NAMES`, R8 in
docs/RULES.md); names read as what the action does:

| Actions                          | Meaning                                                   |
|----------------------------------|-----------------------------------------------------------|
| `pass`, `end`, `confirm_attack`  | pass in a reaction window / end the step / confirm attack |
| `discard:<card>`                 | discard a card (mulligan, Discard step)                   |
| `draw:<n>`                       | draw n cards for n-1 coins                                |
| `deploy:<card>`                  | deploy a gangster (then `to:<place>`) or a business      |
| `from:g<p>@<source>`             | pick up an own power-p gangster (move, or add to attack)  |
| `to:<place>`                     | put the picked / deployed gangster down                   |
| `hideout_under:slot<k>`, `hideout_to_open` | Move Hideout step                               |
| `play:<reaction>`                | poker_night, police, police_cancel, bribe, driveby, turncoat |
| `target:+<r>:<where>`            | a place of the player r seats clockwise (attack, reaction) |
| `power:<p>`                      | the power of the gangster a Turncoat takes                |
| `bribe:<k>`                      | the Police a Bribe answers: the window's k-th Police      |
| `continue_into_hideout`          | raze-first rules: on from the razed business into the Hideout |

An illegal action raises ValueError naming the action, the phase and the legal actions, and
changes nothing. Wrap the raw env in PettingZoo's `TerminateIllegalWrapper` to end the
game with a penalty instead.

### Reaction windows

`agent_selection` is always the agent that must decide now: the player whose turn it is in
their own steps, or another player reacting in someone else's turn. A reaction window asks the
living players in turn, clockwise after its owner (each play reopens the round): after each
attack declaration, before the Attack step (after Move Gangsters), and at the end of each turn;
Police and Drive-by played in one's own steps open a response window. Every card played in a
window but a Bribe (Police, Drive-by, Turncoat, Poker Night) waits in the window's queue and acts
at its close in the order it was played (docs/RULES.md R5.3).

**Who is asked reveals nothing.** Every living player holding a card is asked in every window,
and every turn step is presented to an active player holding a card, even when `pass` or `end`
is the only legal action; a decision is skipped only for a reason everyone can see (an empty
hand, or a choice inside a move already made public). So `agent_selection`, the phases, infos,
log and observations never depend on cards an agent cannot see (R2.5, R7.2; the core's
`ask_all=True`). Many decisions therefore have a single legal action: an agent loses nothing by
taking it at once.

`infos[agent]` holds the phase name for every agent and, for the agent to act, what the decision
is about: `turn_of` (whose turn it is), `window` and `window_owner`, `attack` (attacker, target,
place, business, attackers per power, power), `queue` (the window's cards in play order: card
number, kind, player, target, place, and standing, dice or power), `reaction` (the reaction
whose target or gangster is being chosen), `turncoat_target`, `selected_power`.

### Rewards

Rewards come only at the end (`reward="zero_sum"`, the core's own outcome): the winner gets
+1 and every other player -1/(n-1); a shared win (a countdown score tie) gives each of the k
winners +1/k and each loser -1/(n-k). Episodes always sum to zero.

Eliminated players are terminated at once with reward -1/(n-1), a loser's reward in a game
with one winner (an eliminated player never wins). A game with an elimination ends with one
winner unless a countdown score tie follows; in that case, and on truncation, the players
still in the game share equally the difference between what the eliminated players got and
the outcome (d in the table: the core gives them -1/(n-k) in a shared win, 0 on truncation),
so every episode sums to exactly zero.

`reward="score"`: every agent instead receives its raw score (R6.4: trophies x trophy points
+ printed value of its cards on the table + money) once, when its episode ends (game over,
truncation, or elimination, which leaves a score of 0). The winner is not always the best
score (money and war wins), and scores are not zero-sum.

| Outcome                        | winner(s) | other players       | eliminated earlier   |
|--------------------------------|-----------|---------------------|----------------------|
| one winner                     | +1        | -1/(n-1)            | -1/(n-1)             |
| k winners (countdown tie)      | +1/k + d  | -1/(n-k) + d        | -1/(n-1)             |
| truncated (max_steps)          | 0 + d     | 0 + d               | -1/(n-1)             |

(d = sum over eliminated players of (outcome - (-1/(n-1))) / number of players still in;
d = 0 when nobody was eliminated earlier.)

### Termination and truncation

The game ends (every remaining agent terminated) when a player eliminates two players, is
the last one standing, wins on money, or when the countdown runs out. Eliminated players are
terminated when they are eliminated and removed by the dead-step protocol (the agent is
selected; `last()` gives its reward; `step(None)` removes it). After `max_steps` decisions
every remaining agent is truncated (reward 0 plus d, see above).

### Game log, history and replay

After each step the core's events are written as sentences into `env.game_log` (list of
str; `env.print_log()` prints it): e.g. "player_2 attacks player_0's Speakeasy with 3+2
against defense 3: 2 defenders die, the Speakeasy is destroyed, 3 coins stolen". Draws say
how many cards, never which. `env.history` holds the seed, the settings and every action
of the current game (JSON-ready, `save_history`/`load_history`; the format is
`noir_env.history`'s); `replay(history)` plays it back frame by frame,
`print_replay(history)` prints the board after each step and `play_back(history)` returns
the env at the game's end. The vector envs' recorded games (`record=True`) are histories too:
they hold only the real choices (`"ask_all": false`), and a replay lets the core take the
forced decisions as it did in them, so it ends in the same state.

### Copies and closing

`copy.deepcopy(env)` and a pickle round trip give an env in the same game that continues
exactly as the original does (the seeds of later resets included). After `close()`,
`reset`, `step` and `observe` raise ValueError.

### Rendering

`render_mode="ansi"` returns and `"human"` prints the board: each player's money, hand size,
trophies, Hideout (what covers it and its gangsters), businesses with their gangsters and
hidden gangsters; bank, countdown, draw and discard piles; phase, pending attack, window and
the cards in its queue. Only the observer's hand is shown: `agent_selection`'s, or any agent's
with `env.unwrapped.render(observer="player_2")` / `env.unwrapped.board_text("player_2")`.
`noir_v1.render_board(state, i, seat)` (from `noir_env.render`) renders any core state.

`render_mode="rgb_array"` returns the board as a picture, a uint8 array of the same shape
[720, 1280, 3] for 3 to 6 players (for Gymnasium's `RecordVideo` and the like), drawn from
the spectator's view (every hand) or `render(observer="player_2")`'s. `env.unwrapped.
picture(observer)` is the same picture as an object: `.svg`, `.rgb()`, and a notebook shows
it as an image; `noir_env.picture.board(state, i, seat)` draws any core state. A seat's
picture is decoded from that seat's observation, so it shows what the seat may know and
nothing else (docs/viewer.md).

### Seating the project's agents

`noir_v1.act_in_aec(env, agent)` (from `noir_env.aec`) is the action of any agent of
`agents.load` for `agent_selection`, or None for a dead step, so one loop seats batched and
search agents side by side:

    import agents
    from noir_env.noir_v1 import act_in_aec

    seats = {"player_0": agents.load("ismcts", budget=64, seed=0),
             **{f"player_{q}": agents.load("heuristic", seed=q) for q in (1, 2, 3)}}
    env.reset(seed=7)
    for agent in env.agent_iter():
        env.step(act_in_aec(env, seats[agent]))

A batched agent gets the observation and mask; a search agent (`uses_state`, docs/ISMCTS.md)
gets a copy of `env.unwrapped.state` through `act_on_state(state, [0])` and re-deals
everything the acting seat cannot see before it searches, so it plays on that seat's
information only.

### Editing positions

`env.unwrapped.state` is the core state (a batch of one game). Edit its fields in place and
call `noir_env.core.refresh(env.unwrapped.state)` (or `env.unwrapped.refresh()`, which also
refreshes `infos`): `agent_selection`, masks and observations follow the state. PettingZoo's
`state()` method is therefore not available.

### Version History

* v1, unreleased (after noir_env 0.3.0): `render_mode="rgb_array"` and `picture()` (the board
  as an image); the game, observations and actions are unchanged.
* v1, rules v2 (noir_env 0.3.0): every card played in a window but a Bribe waits in the queue
  and acts at the close strictly in play order (Turncoat and Poker Night too; rules v1 resolved
  them the moment they were played); a Drive-by joins only a Drive-by played right before it on
  the same business; `bribe:<k>` names the window's k-th Police (ids unchanged); Turncoat on a
  pending attack's gangsters only where `turncoat_attackers` holds (`noirbrough`, `original`);
  gangsters kidnapped in their owner's Move Gangsters step stay HIDDEN until the next one;
  `original`: stopping after a raze leaves the Hideout open to attack that turn. The
  observation's queue holds 15 cards with a Turncoat/Poker Night kind and the Turncoat's power,
  and adds `kidnapped_this_move` and the `turncoat_attackers` rule (2473 -> 2631 values); PPO
  policies of the v0 layout play through a column map.
* v0, rules v1 (noir_env 0.2.0): reactions resolve in play order from a queue; several Police
  per window, each Bribe names the Police it answers (`bribe:<k>`, new action ids 374-382); a
  window before the Attack step; raze-first attackers choose to go on into the Hideout
  (`continue_into_hideout`, id 383); `noirbrough` Hideout gangsters do not attack; `original`
  Poker Night all-in, weakest returning gangsters discarded, Turncoat on AWAY gangsters; every
  decision whose skipping would reveal a hand is presented (so more decisions with a single legal
  action); the observation adds the window's queue, the turn step, publicly known cards per seat,
  the countdown's turns left and the rules in force. Action ids 0-373 keep their meaning.
* v0: Initial version (noir_env 0.1.0).
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterator
from typing import Any, NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces as gym_spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import core
from . import spaces as noir_spaces
from ._aec_info import INFO_FIELDS, INFO_SCALARS, decision_info
from .aec import AECBase, act_in_aec
from .core import constants as C
from .core.game import NOIR
from .core.log import GameLog
from .core.rules import Rules, get_rules
from .core.state import check_state, kernel_view
from .engine.args import as_count, as_int
from .engine.batch import raise_failure
from .engine.shell import observe_rows, step_saved
from .history import check_history, load_history, rules_to_json, save_history
from .render import PHASE_NAMES, render_board

__all__ = [
    "Frame",
    "Step",
    "act_in_aec",
    "env",
    "load_history",
    "play_back",
    "print_replay",
    "raw_env",
    "render_board",
    "replay",
    "replay_steps",
    "save_history",
]

NUM_ACTIONS = C.NUM_ACTIONS
OBS_SIZE = noir_spaces.OBS_SIZE
REWARD_MODES = ("zero_sum", "score")


def env(**kwargs) -> AECEnv:
    """The NOIR AEC environment with PettingZoo's standard checks (an action outside the
    action space asserts; calls in a wrong order raise). Illegal actions raise ValueError;
    wrap `raw_env` in `TerminateIllegalWrapper` to end the game instead."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECBase, EzPickle):
    """NOIR as a PettingZoo AEC environment (see the module docstring). A copy
    (`copy.deepcopy`, pickle) continues the same game; a closed env refuses `reset`, `step`
    and `observe` (`noir_env.aec.AECBase`)."""

    # attributes that view the core state: a copy rebuilds them from its copied `_state`
    _STATE_VIEWS = ("_k", "_phase", "_actor", "_log_n", "_mask_row", "_f", "_f1", "_raw",
                    "_backup")  # fmt: skip

    metadata = {
        "name": "noir_v1",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        rules: str | Rules = "noirburg",
        render_mode: str | None = None,
        max_steps: int = 10_000,
        reward: str = "zero_sum",
    ):
        EzPickle.__init__(self, num_players, rules, render_mode, max_steps, reward)
        super().__init__()
        n = as_int(num_players, "num_players")
        if not C.MIN_PLAYERS <= n <= C.MAX_PLAYERS:
            raise ValueError(f"num_players must be in 3..6, got {num_players}")
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        self.max_steps = as_count(max_steps, "max_steps")
        self.num_players = n
        self.rules = get_rules(rules)
        self.render_mode = render_mode
        self.reward_mode = reward

        self.possible_agents = [f"player_{q}" for q in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        obs_space = gym_spaces.Dict(
            {
                "observation": noir_spaces.observation_space(),
                "action_mask": noir_spaces.action_mask_space(),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: noir_spaces.action_space() for a in self.possible_agents}

        self._seed_rng = np.random.default_rng()
        self._seat_buf = np.zeros(1, np.int64)
        self._rew_buf = np.zeros((1, C.MAX_PLAYERS), np.float32)
        self._done_buf = np.zeros(1, np.bool_)
        self._ill_buf = np.zeros(1, np.bool_)
        self._state = None
        self._sel: str | None = None
        self._last_sel = self.possible_agents[0]
        self._printed = 0
        # False only in `replay` of a history the vector envs recorded in the core's fast
        # mode (their "ask_all": false): agent_selection would then reveal hands
        self._ask_all = True

    # --- spaces -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # --- the core state -----------------------------------------------------------------
    @property
    def state(self):
        """The core state (`noir_env.core.State`, a batch of one game). Edit it in place
        and call `noir_env.core.refresh(state)`, or better `env.unwrapped.refresh()`, which
        also updates infos and the game log; the same after assigning another state. An
        edited game is no longer reproduced by `history`."""
        return self._state

    @state.setter
    def state(self, value) -> None:
        check_state(value)
        if value.shape[0] != 1:
            raise ValueError("the environment holds a batch of exactly one game")
        if int(value.num_players[0]) != self.num_players:
            raise ValueError(
                f"the state has {int(value.num_players[0])} players, the env {self.num_players}"
            )
        self._state = value
        k = kernel_view(value)
        self._k = k
        self._phase = k["phase"]
        self._actor = k["actor"]
        self._log_n = k["log_n"]
        self._mask_row = k["mask"][0]
        self._f = {name: k[name][0] for name in INFO_FIELDS}  # views of one game's fields
        self._f1 = {name: k[name] for name in INFO_SCALARS}  # [1]-arrays of scalar fields
        self._raw = np.ndarray.view(k, np.ndarray).view(np.uint8).reshape(1, -1)  # its bytes
        self._backup = np.empty_like(self._raw)  # the game before the step being taken
        self._status = np.zeros(1, np.uint8)

    def _rebuild_views(self) -> None:
        if self._state is not None:
            self.state = self._state  # the views of the copied state

    def _require_game(self, what: str) -> None:
        """RuntimeError unless a game has been dealt (by reset)."""
        if self._state is None:
            raise RuntimeError(f"noir_v1: call reset() before {what}")

    @property
    def game_log(self) -> list[str]:
        """The game so far, one sentence per event (public information only)."""
        self._require_game("reading game_log")
        if self._log.pending():
            self._game_log += self._log.render()
        return self._game_log

    def refresh(self) -> None:
        """After editing `state` by hand: recompute the legal actions and the infos, and
        continue the game log from the edited position."""
        self._require_game("refresh()")
        core.refresh(self._state)
        self._game_log += self._log.render()  # what was collected before the edit
        self._log.sync(self._k, 0)
        self._update_infos()

    # --- agent to act -------------------------------------------------------------------
    @property
    def agent_selection(self) -> str:
        """The agent that must decide now (`core.current_player`), or a terminated /
        truncated agent whose dead step is due."""
        if self._state is None:  # an AttributeError, as hasattr() and PettingZoo expect
            raise AttributeError("noir_v1: agent_selection is set by reset(); call it first")
        sel = self._sel
        if sel is None:
            actor = self._actor[0]
            return self.possible_agents[actor] if actor >= 0 else self._last_sel
        return sel

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        # a live agent is whoever the core says must act: follow the state (also when it is
        # edited by hand); an agent out of the game stays selected for its dead step
        if agent is not None and not (self.terminations.get(agent) or self.truncations.get(agent)):
            self._sel = None
        else:
            self._sel = agent
        if agent is not None:
            self._last_sel = agent

    # --- AEC API ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. `seed` seeds the game and the seeds of later unseeded resets;
        seed None draws a fresh seed; otherwise an int in 0..2**63-1 (Gymnasium's seeds are
        non-negative; the core's are int64)."""
        self._require_open("reset()")
        if seed is None:
            seed = int(self._seed_rng.integers(0, 2**62))
        else:
            seed = as_int(seed, "seed")
            if not 0 <= seed < 2**63:
                raise ValueError(f"seed must be in 0..2**63-1, got {seed}")
            self._seed_rng = np.random.default_rng(seed)
        self.game_seed = seed
        self.state = core.init(1, self.num_players, self.rules, seeds=[seed],
                               ask_all=self._ask_all)  # fmt: skip
        self.history = {
            "env": self.metadata["name"],
            "num_players": self.num_players,
            "rules": rules_to_json(self.rules),
            "seed": seed,
            "max_steps": self.max_steps,
            "ask_all": self._ask_all,
            "actions": [],
        }
        self._actions = self.history["actions"]
        self.num_steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._rewards_dirty = False
        self._given: dict[str, float] = {}  # reward already given to agents out of the game
        self._extra_info: dict[str, dict] = {}
        self._sel = None
        self._last_sel = self.possible_agents[0]
        self._skip_agent_selection = None
        self._rew_buf[:] = 0.0
        self._done_buf[:] = False
        self._ill_buf[:] = False
        self._log = GameLog(self.possible_agents)
        self._log.sync(self._k, 0)
        self._log.seen = 0  # the deal's events (nothing on the table before them)
        self._game_log: list[str] = []
        self._log.collect(self._k, 0)
        self._log.eliminated.clear()
        self._printed = 0
        self._update_infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`core.observe` for the agent's seat, and its action mask (zeros unless it acts)."""
        self._require_open("observe()")
        self._require_game("observe()")
        seat = self._seat[agent]
        out = np.empty((1, OBS_SIZE), np.float32)
        self._seat_buf[0] = seat
        observe_rows(self._k, self._seat_buf, out)
        if self._actor[0] == seat:
            mask = self._mask_row.view(np.int8).copy()
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": out[0], "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8 [NUM_ACTIONS]: the agent's legal actions (default: agent_selection)."""
        self._require_game("action_mask()")
        seat = self._seat[agent if agent is not None else self.agent_selection]
        if self._actor[0] == seat:
            return self._mask_row.view(np.int8).copy()
        return np.zeros(NUM_ACTIONS, np.int8)

    def last(self, observe: bool = True) -> tuple:
        """(observation, cumulative reward, terminated, truncated, info) of agent_selection."""
        self._require_game("last()")
        self._require_agents("last()")
        return super().last(observe)

    def _require_agents(self, what: str) -> None:
        if not self.agents:
            raise RuntimeError(
                f"noir_v1: {what} after the game: every agent is done; call reset() to play again"
            )

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
            raise ValueError(
                f"{agent} must act (phase {PHASE_NAMES[self._phase[0]]}): an action is an "
                f"integer id, got {action!r}"
            ) from None
        if a < 0 or a >= NUM_ACTIONS or not self._mask_row[a]:
            raise ValueError(f"{agent}: " + noir_spaces.describe_illegal(self._state, 0, a))
        if self._rewards_dirty:
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
            self._rewards_dirty = False
        self._cumulative_rewards[agent] = 0.0
        k, raw, backup, status = self._k, self._raw, self._backup, self._status
        if step_saved(k, raw, backup, status, 0, a, self._rew_buf, self._done_buf, self._ill_buf):
            raw[0] = backup[0]  # the game as it was: nothing happened
            raise_failure(NOIR, k, 0, a)
        self._actions.append(a)
        self.num_steps += 1
        log = self._log
        if self._log_n[0] != log.seen:
            log.collect(self._k, 0)  # sentences are written when game_log is read
        self._sel = None
        if log.eliminated or self._done_buf[0] or self.num_steps >= self.max_steps:
            self._end_episodes()
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _end_episodes(self) -> None:
        """Terminate eliminated agents, or every agent at the end of the game / truncation,
        and give their rewards (see Rewards in the module docstring)."""
        n = self.num_players
        names = self.possible_agents
        done = bool(self._done_buf[0])
        truncated = not done and self.num_steps >= self.max_steps
        score_mode = self.reward_mode == "score"
        scores = self._scores() if score_mode else None
        for q, by in self._log.eliminated:
            name = names[q]
            if name not in self.terminations:
                continue
            self._extra_info[name] = {"eliminated_by": names[by]}
            if done and not score_mode:
                continue  # out on the game's last step: the core's outcome applies below
            r = float(scores[q]) if score_mode else -1.0 / (n - 1)
            self.terminations[name] = True
            self.rewards[name] = r
            self._given[name] = r
        self._log.eliminated.clear()
        if done or truncated:
            live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
            if score_mode:
                base = {a: float(scores[self._seat[a]]) for a in live}
                share = 0.0
            else:
                row = self._rew_buf[0]
                base = {a: float(row[self._seat[a]]) for a in live}
                outcome = {a: float(row[self._seat[a]]) if done else 0.0 for a in self._given}
                diff = sum(outcome[a] - self._given[a] for a in self._given)
                share = diff / len(live) if live else 0.0
            flags = self.terminations if done else self.truncations
            info = self._end_info(scores) if done else {"truncated_after": self.num_steps}
            for a in live:
                flags[a] = True
                self.rewards[a] = base[a] + share
                self._extra_info[a] = {**self._extra_info.get(a, {}), **info}
        self._rewards_dirty = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _end_info(self, scores) -> dict:
        g = self._state[0]
        if scores is None:
            scores = self._scores()
        return {
            "winners": [self.possible_agents[q] for q in range(self.num_players) if g.winners[q]],
            "win_reason": C.WIN_REASONS[int(g.win_reason)],
            "scores": {a: int(scores[q]) for q, a in enumerate(self.possible_agents)},
        }

    def _scores(self) -> np.ndarray:
        return core.scores(self._state)[0]

    # --- infos --------------------------------------------------------------------------
    def _update_infos(self) -> None:
        ph = PHASE_NAMES[self._phase[0]]
        infos = {a: {"phase": ph} for a in self.agents}
        actor = self._actor[0]
        if actor >= 0:
            name = self.possible_agents[actor]
            if name in infos:
                infos[name] = decision_info(ph, self._f1, self._f, self.possible_agents)
        for a, extra in self._extra_info.items():
            if a in infos:
                infos[a].update(extra)
        self.infos = infos

    # --- rendering ----------------------------------------------------------------------
    def render(self, observer: str | None = None) -> str | np.ndarray | None:
        """ "ansi": the board as text; "human": print the new log lines and the board;
        "rgb_array": the board as a picture, uint8 [720, 1280, 3] (Pillow, the `render`
        extra). Text shows the observer's hand (default: agent_selection), the picture the
        observer's view (default: the spectator's, every hand; `picture()`)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
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
        return render_board(self._state, 0, seat, self.possible_agents, self.rules.name)

    def print_log(self, start: int = 0) -> None:
        """Print the game log (from line `start`)."""
        for line in self.game_log[start:]:
            print(line)

    def save_history(self, path: str | os.PathLike) -> None:
        """Write `history` as JSON, atomically (`noir_env.history.save_history`)."""
        save_history(self.history, path)


# --- replay (the history format is noir_env.history's) ----------------------------------
class Frame(NamedTuple):
    """One step of a replay: the action taken (None for the deal), by whom, the log lines
    it produced and the board after it."""

    index: int
    agent: str | None
    action: str | None
    log: list[str]
    board: str


def replay(
    history: dict | int,
    actions: list[int] | None = None,
    num_players: int = 4,
    rules: str | Rules = "noirburg",
    observer: str | None = None,
    max_steps: int = 10_000,
    ask_all: bool = True,
) -> Iterator[Frame]:
    """Play a saved game back: `replay(env.history)` or `replay(seed, actions,
    num_players, rules, max_steps=...)`. Yields a Frame for the deal and one after each
    action; the board is shown from the acting agent's seat (or `observer`'s). A history
    records its env's `max_steps`, so a truncated game ends with the truncation's log line.
    A history of the vector envs (`"ask_all": false`, `noir_env.history`) holds only real
    choices: it is played in the core's fast mode, which takes the forced decisions as it
    did. The keywords are the defaults of what a history leaves out. Everything is checked
    before the first frame: a ValueError names a missing or wrong key or argument, and an
    action that is not legal where the history plays it names its place in `actions`."""
    e, actions = _dealt(history, actions, num_players, rules, max_steps, ask_all, observer)
    return _frames(e, actions, observer)


def play_back(
    history: dict | int,
    actions: list[int] | None = None,
    num_players: int = 4,
    rules: str | Rules = "noirburg",
    max_steps: int = 10_000,
    ask_all: bool = True,
) -> raw_env:
    """The raw env at the end of a saved game (arguments as `replay`'s): every action of
    the history played, so its `state`, `infos`, `game_log` and scores are the game's."""
    e, actions = _dealt(history, actions, num_players, rules, max_steps, ask_all, None)
    for k, a in enumerate(actions):
        _play_recorded(e, k, a)
    return e


def _dealt(history, actions, num_players, rules, max_steps, ask_all, observer):
    """(a raw env dealt as the history says, its checked actions); ValueError for a bad
    history or argument."""
    defaults = {"num_players": num_players, "rules": rules, "max_steps": max_steps,
                "ask_all": ask_all}  # fmt: skip
    if not isinstance(history, dict):
        if actions is None:
            raise ValueError("replay(seed, actions, ...) needs the actions")
        history = {"seed": history, "actions": actions}
    h = check_history(history, defaults)
    e = raw_env(num_players=h["num_players"], rules=h["rules"], max_steps=h["max_steps"])
    if observer is not None and observer not in e.possible_agents:
        raise ValueError(f"observer must be one of {e.possible_agents}, got {observer!r}")
    e._ask_all = h["ask_all"]
    e.reset(seed=h["seed"])
    return e, h["actions"]


def _play_recorded(e: raw_env, k: int, a: int) -> str:
    """Play the history's action k (`a`) after the dead steps due; returns the agent that
    took it. ValueError naming k if the game is over or `a` is not legal there."""
    while e.agents and (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(None)
    if not e.agents:
        raise ValueError(f"history 'actions'[{k}]: the game ended before it")
    agent = e.agent_selection
    try:
        e.step(a)
    except ValueError as err:
        err.add_note(f"history 'actions'[{k}] is not legal where the history plays it")
        raise
    return agent


class Step(NamedTuple):
    """One step of `replay_steps`: as a Frame, with the env itself instead of a board."""

    index: int
    agent: str | None
    action: str | None
    log: list[str]
    env: raw_env


def replay_steps(
    history: dict | int,
    actions: list[int] | None = None,
    num_players: int = 4,
    rules: str | Rules = "noirburg",
    max_steps: int = 10_000,
    ask_all: bool = True,
) -> Iterator[Step]:
    """`replay` with the raw env in each step instead of a board as text: its `state`,
    `picture(observer)` and `board_text(observer)` are the game after the step's action (the
    replay viewer draws them, train/replay.py). The env is the same object in every step,
    played on: copy what you keep (`core.clone(step.env.state)`)."""
    e, actions = _dealt(history, actions, num_players, rules, max_steps, ask_all, None)
    return _steps(e, actions)


def _steps(e: raw_env, actions: list[int]) -> Iterator[Step]:
    seen = len(e.game_log)
    yield Step(0, None, None, list(e.game_log), e)
    for k, a in enumerate(actions):
        agent = _play_recorded(e, k, a)
        new = e.game_log[seen:]
        seen = len(e.game_log)
        if e.agents and all(e.truncations[x] for x in e.agents):
            new.append(f"The game is truncated after {e.num_steps} decisions (max_steps).")
        yield Step(k + 1, agent, noir_spaces.action_name(a), new, e)


def _frames(e: raw_env, actions: list[int], observer: str | None) -> Iterator[Frame]:
    for s in _steps(e, actions):
        who = observer or (e.agent_selection if e.agents or s.agent is None else s.agent)
        yield Frame(s.index, s.agent, s.action, s.log, e.board_text(who))


def print_replay(history: dict | int, *args, boards: bool = True, **kwargs) -> None:
    """Print a replay: each action, its log lines and (boards=True) the board after it."""
    for frame in replay(history, *args, **kwargs):
        if frame.agent is not None:
            print(f"\n=== step {frame.index}: {frame.agent} plays {frame.action} ===")
        for line in frame.log:
            print(line)
        if boards:
            print(frame.board)
