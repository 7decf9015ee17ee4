# noqa: D212, D415
"""
# NOIR

This environment follows the conventions of PettingZoo's classic environments.

| Import             | `from noir_env import noir_v2`                               |
|--------------------|--------------------------------------------------------------|
| Actions            | Discrete                                                     |
| Parallel API       | No                                                           |
| Manual Control     | No                                                           |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']`                  |
| Agents             | 3 to 6 (`num_players`, default 4)                            |
| Action Shape       | Discrete(NUM_ACTIONS) (one flat table for every phase)       |
| Action Values      | 0 .. NUM_ACTIONS - 1 (`noir_env.spaces.ACTION_NAMES`)        |
| Observation Shape  | Dict(observation=(OBS_SIZE,), action_mask=(NUM_ACTIONS,))    |
| Observation Values | observation in [0, 255] (turn, rules: their fields' range); mask {0, 1} |

NOIR is a mafia card game for 3 to 6 players: each runs businesses guarded by gangsters
around a Hideout, attacks the others' businesses and Hideouts, and answers out of turn with
reaction cards (Police, Bribe, Drive-by, Turncoat, Poker Night). A game is won by
eliminating two players, by being the last one standing, by holding enough money at the end
of one's own turn, or by the best score when the countdown runs out (docs/RULES.md).

This module is a batch-of-one view of the batched numba rules core (`noir_env.core`): every
rule, legal-action mask, observation and reward comes from the core; the environment only
maps seats to agent names and follows the AEC protocol.

    from noir_env import noir_v2

    env = noir_v2.env(num_players=4, rules="noirburg")
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
noir_v2.env(num_players=4, rules="noirburg", render_mode=None, max_steps=10_000,
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

`observation` is a flat float32 vector of `noir_v2.OBS_SIZE` values (the core's OBS_SIZE):
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
`noir_v2.render_board(state, i, seat)` (from `noir_env.core.render`) renders any core state.

`render_mode="rgb_array"` returns the board as a picture, a uint8 array of the same shape
[720, 1280, 3] for 3 to 6 players (for Gymnasium's `RecordVideo` and the like), drawn from
the spectator's view (every hand) or `render(observer="player_2")`'s. `env.unwrapped.
picture(observer)` is the same picture as an object: `.svg`, `.rgb()`, and a notebook shows
it as an image; `noir_env.picture.board(state, i, seat)` draws any core state. A seat's
picture is decoded from that seat's observation, so it shows what the seat may know and
nothing else (docs/viewer.md).

### Seating the project's agents

`noir_v2.act_in_aec(env, agent)` (from `noir_env.aec`) is the action of any agent of
`agents.load` for `agent_selection`, or None for a dead step, so one loop seats batched and
search agents side by side:

    import agents
    from noir_env.noir_v2 import act_in_aec

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

* v2, rules v3 (unreleased, after noir_env 0.3.0): `original` attacks a building once a turn
  whichever target reaches it; `noirbrough` may discard a returning AWAY gangster
  (`discard_away`, id 384: `Discrete(385)`; ids 0-383 keep their meaning); a Turncoat is aimed
  at a place (D15, unchanged play). The observation is unchanged (2631 values). Also
  `render_mode="rgb_array"` and `picture()` (the board as an image). noir_v1's histories
  replay (`"env": "noir_v1"`); PPO policies of 384 actions play through an appended,
  never-chosen logit.
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

import functools
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import history
from . import spaces as noir_spaces
from .aec import GameAECEnv, act_in_aec
from .core import constants as C
from .core.info import INFO_FIELDS, INFO_SCALARS, decision_info
from .core.log import GameLog
from .core.render import PHASE_NAMES, render_board
from .core.rules import Rules
from .engine.args import as_int
from .history import Frame, Step, load_history, rules_from_json, rules_to_json, save_history
from .views import Chronicle, GameViews

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
# the replay functions of `noir_env.history`, for NOIR's histories only
replay = functools.partial(history.replay, game="noir")
print_replay = functools.partial(history.print_replay, game="noir")
replay_steps = functools.partial(history.replay_steps, game="noir")
play_back = functools.partial(history.play_back, game="noir")


def env(**kwargs) -> AECEnv:
    """The NOIR AEC environment with PettingZoo's standard checks (an action outside the
    action space asserts; calls in a wrong order raise). Illegal actions raise ValueError;
    wrap `raw_env` in `TerminateIllegalWrapper` to end the game instead."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def raw_env(
    num_players: int = 4,
    rules: str | Rules = "noirburg",
    render_mode: str | None = None,
    max_steps: int = 10_000,
    reward: str = "zero_sum",
) -> GameAECEnv:
    """NOIR as a PettingZoo AEC environment (see the module docstring): the AEC env of
    every game (`noir_env.aec.GameAECEnv`) with NOIR's views (`NoirViews`)."""
    as_int(num_players, "num_players")  # None is no count here (the default is 4)
    return GameAECEnv("noir", num_players, rules, render_mode, max_steps, reward)


class NoirChronicle(Chronicle):
    """NOIR's game log: the core's events in sentences (`noir_env.core.log.GameLog`),
    written when the log is read."""

    def __init__(self, views: GameViews, agents: list[str]):
        super().__init__(views, agents)
        self.log = GameLog(agents)
        self._read: Any = None  # the state whose `log_n` view is `_log_n`
        self._log_n: Any = None

    def start(self, state) -> None:
        self.log.sync(state, 0)
        self.log.seen = 0  # the deal's events (nothing on the table before them)
        self.log.collect(state, 0)
        self.log.eliminated.clear()

    def before(self, state, seat: int, action: int) -> None:
        return None  # the core's events describe every move

    def after(self, state) -> None:
        if self._read is not state:  # a view read after every step, made once per state
            self._read, self._log_n = state, state["log_n"]
        if self._log_n[0] != self.log.seen:
            self.log.collect(state, 0)  # sentences are written when the log is read

    def sync(self, state) -> None:
        self.log.sync(state, 0)

    def take_lines(self) -> list[str]:
        return self.log.render() if self.log.pending() else []

    def eliminated_by(self) -> dict[int, int]:
        out = dict(self.log.eliminated)
        self.log.eliminated.clear()
        return out


class NoirViews(GameViews):
    """What noir_v2 shows of NOIR (module docstring)."""

    env_name = "noir_v2"
    render_modes = ("human", "ansi", "rgb_array")

    def __init__(self, game):
        super().__init__(game)
        # views of one game's fields, made once per state: (state, phase, fields, scalars)
        self._fields: tuple[Any, Any, dict, dict] = (None, None, {}, {})

    def _views(self, state) -> tuple[Any, Any, dict, dict]:
        if self._fields[0] is not state:
            f = {name: state[name][0] for name in INFO_FIELDS}
            f1 = {name: state[name] for name in INFO_SCALARS}
            self._fields = (state, state["phase"], f, f1)
        return self._fields

    def chronicle(self, agents: list[str]) -> Chronicle:
        return NoirChronicle(self, agents)

    def board_text(self, state, i, seat, agents, rules) -> str:
        return render_board(state, i, seat, agents, rules.name)

    def phase_name(self, state, i: int = 0) -> str:
        return PHASE_NAMES[self._views(state)[1][i]]

    def decision_info(self, state, agents: list[str]) -> dict[str, Any]:
        _, phase, f, f1 = self._views(state)
        return decision_info(PHASE_NAMES[phase[0]], f1, f, agents)

    def rules_to_json(self, rules: Rules) -> str | dict:
        return rules_to_json(rules)

    def rules_from_json(self, value: Any) -> str | Rules:
        return rules_from_json(value)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        high = noir_spaces.observation_high()
        return np.zeros_like(high), high


VIEWS = NoirViews
