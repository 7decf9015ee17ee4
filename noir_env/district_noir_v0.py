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
table as text), "human" (prints it) or "rgb_array" (render() returns the board as a
picture, uint8 [720, 1280, 3], from the spectator's view; needs Pillow, `pip install
"noir_env[render]"`). `env.unwrapped.picture(observer)` is the picture as an object (`.svg`,
`.rgb()`, shown as an image in a notebook); a seat's view shows only its own hand.

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

* v0, unreleased (after noir_env 0.3.0): `render_mode="rgb_array"` and `picture()`; the game
  is unchanged.
* v0: Initial version (noir_env 0.1.0).
"""

from __future__ import annotations

from typing import cast

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import district
from .aec import GameAECEnv
from .district import constants as C
from .district import spaces as dn_spaces
from .views import GameViews

__all__ = ["env", "raw_env", "render_table"]

NUM_ACTIONS = C.NUM_ACTIONS
OBS_SIZE = dn_spaces.OBS_SIZE


def env(**kwargs) -> AECEnv:
    """District Noir with PettingZoo's standard checks (an action outside the space asserts,
    calls in a wrong order raise). Illegal actions raise ValueError."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def raw_env(render_mode: str | None = None, max_steps: int = 10_000) -> GameAECEnv:
    """District Noir as a PettingZoo AEC environment (see the module docstring): the AEC env
    of every game (`noir_env.aec.GameAECEnv`) with District Noir's views."""
    return GameAECEnv("district_noir", render_mode=render_mode, max_steps=max_steps)


class DistrictViews(GameViews):
    """What district_noir_v0 shows of District Noir (module docstring)."""

    env_name = "district_noir_v0"
    render_modes = ("human", "ansi", "rgb_array")

    def move_text(self, state, agents, seat, action) -> str:
        agent = agents[seat]
        if action != C.A_TAKE:
            return f"{agent} puts {C.CARD_NAMES[action]} at the end of the line"
        line, n = state["line"][0], int(state["line_n"][0])
        taken = [C.CARD_NAMES[t] for t in line[max(0, n - C.TAKE_SIZE) : n]]
        return f"{agent} takes {len(taken)} cards: {', '.join(taken) or 'none'}"

    def board_text(self, state, i, seat, agents, rules) -> str:
        return render_table(state, i, seat)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        space = dn_spaces.observation_space()
        return space.low, space.high


VIEWS = DistrictViews


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
    # a recarray's slice is one (numpy's stubs say ndarray)
    scores = district.scores(cast(district.State, state[i : i + 1]))[0]
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
