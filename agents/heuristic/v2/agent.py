"""The NOIR heuristic, `agents.load("heuristic")`: a rule-based agent that reads the threats at
the table, on the observation and the legal-action mask only.

    from agents.heuristic.v2.agent import HeuristicAgent
    agent = HeuristicAgent(seed=0)
    actions = agent.act(obs, mask)        # obs float32 [N, OBS_SIZE], mask [N, NUM_ACTIONS]

It is the first heuristic (`agents/heuristic/v1/agent.py`, `agents.load("heuristic-v1")`) with the
decisions that decide games rewritten around the threats at the table. Everything runs in
numba kernels over the batch: `heuristic.table` reads the threats, `heuristic.v2.economy` spends and
guards, `heuristic.v2.attack` attacks, `heuristic.v2.reactions` plays the reaction cards,
`heuristic.v2.policy` decides each phase (with the first heuristic's kernels for the mulligan,
Move Hideout, Discard and the Turncoat's power).

Strategy (rule numbers from docs/RULES.md):

- **Survive.** Before its next turn every opponent has a turn and can attack with all its
  gangsters on the table and in hiding (R3.1, R4.2); a breach of the Hideout owes
  (A - V) + d6 + I and a defender who cannot pay is out (R3.6, R3.8). Every choice that
  spends coins or moves gangsters pays for the hazard of elimination it leaves
  (`_table.hideout_hazard`: each opponent's threat give or take `spread`, aimed at the
  agent in proportion to how much easier it is than the other Hideouts, `aim`) at
  `elim_cost` coins. So the agent keeps coins back, puts gangsters on the Hideout and the
  business covering it (in Move Gangsters too), keeps the room its HIDDEN gangsters need to
  come back, and sends guards out only when the attack is worth the exposure. A Police in
  hand covers part of the hazard (`shield`), and the last one is kept for the Hideout.
  The money that pays a breach is counted less what raids on its unguarded businesses
  would steal first (R3.4, `raid`).
- **Spend for a return.** Deploy values a business by the income it pays over the turns
  left (`econ`, fewer once the countdown runs, R6.3), a gangster by its power (`gang`) and
  by the elimination it brings within reach (`build`), each less its cost. Draw buys every
  card it may (`card`), unless the coins are needed against elimination, for the Deploy
  step still to come (`prep_first` rules, `budget`) or for a money win a tribute away (R6.2).
- **Attack to eliminate.** A Hideout it can breach gets enough power for a certain
  elimination (A >= V + money - I) when it has that much, else everything; in its Attack
  step a Drive-by or a Police kidnap on the business covering a Hideout is played when
  that makes the elimination likelier (R5.4, R5.6). Business attacks, the damage they are
  worth (`harm`, more on the leader) and the other reactions follow the first heuristic.

The weights (`Style`) were tuned together by an evolution strategy against heuristic-v1 (as
the lone seat and among three of it), the rusher and bully styles at 4 players and
heuristic-v1 under the noirbrough rules, and `raid` alone against the `bruiser` bench bot
(`bench/bots/bruiser.py`); `STYLES` has the one result, `balanced`. `seed`
only breaks near-ties (`noise`): a decision is a function of the observation, the mask, the
style and the seed, whatever the batch it sits in.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from agents.heuristic.rule_agent import RuleAgent
from agents.heuristic.v1.agent import Style as V1Style
from agents.heuristic.v2.economy import NUM_WEIGHTS2
from agents.heuristic.v2.policy import act_rows, act_rows_serial


@dataclass(frozen=True)
class Style(V1Style):
    """The heuristic's weights, in coins: the first heuristic's (`heuristic_v1.Style`, same
    places in the kernels' weight vector, new defaults) and its own."""

    attack_min: float = 1.29
    harm: float = 0.42
    leader: float = 0.385
    loss: float = 0.73
    react_min: float = 3.42
    poker_min: float = 0.3
    econ: float = 2.73
    hoard: float = 28.9
    stop: float = 0.26
    elim: float = 4.3
    elim_cost: float = 39.5  # what being eliminated costs
    gang: float = 1.13  # worth of one point of gangster power on the table
    card: float = 17.7  # worth of one card drawn
    shield: float = 0.72  # share of the elimination risk left while holding a Police
    reach: float = 0.0  # attack power added to every opponent's visible threat
    stack: float = 0.0  # worth of a point of power on the Hideout stack beyond the risk
    spread: float = 6.75  # uncertainty of an opponent's attack power (+-, points)
    aim: float = 0.53  # chance that an opponent able to attack the agent does
    build: float = 1.96  # share of an elimination's worth paid for a gangster bringing it in reach
    away: float = 0.03  # cost of a point of attack power away (hiding) until the next turn
    budget: float = 20.0  # worth of a coin this turn's deploys need, where Draw comes first
    idle: float = 0.5  # worth per power of attacking, lost on a Hideout whose guards may not
    raid: float = 2.0  # coins counted as stolen per coin of unguarded income (several raiders)

    def weights(self) -> np.ndarray:
        """The float64 weight vector the kernels read (order of `heuristic.v2.economy.W2_*`)."""
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]
        out = np.array(values, np.float64)
        assert out.shape == (NUM_WEIGHTS2,)
        return out


STYLES: dict[str, Style] = {"balanced": Style()}


class HeuristicAgent(RuleAgent):
    """The heuristic with the batched protocol `act(obs[N, D], mask[N, A]) -> actions[N]`
    (module docstring). style: a name in `STYLES` or a `Style`. seed: varies how near-ties
    are broken; None is seed 0. noise: overrides the style's tie-break amplitude."""

    name = "heuristic"
    _kernels = (act_rows, act_rows_serial)

    def __init__(self, style: str | Style = "balanced", seed: int | None = None,
                 noise: float | None = None):  # fmt: skip
        self._use_style(style, STYLES, Style, noise, seed)
