"""The first rule-based NOIR agent, `agents.load("heuristic-v1")` (the heuristic until the
table-aware one of `agents/heuristic/v2/agent.py` replaced it; kept as a baseline). It reads the
observation and the legal-action mask only.

    from agents.heuristic.v1.agent import HeuristicV1Agent
    agent = HeuristicV1Agent(style="balanced", seed=0)
    actions = agent.act(obs, mask)        # obs float32 [N, OBS_SIZE], mask [N, NUM_ACTIONS]

It never looks at the core state: everything it knows comes from the observer's view
(docs/RULES.md, R7): the public table, the own hand, hand sizes, the pending attack and the
window's queue. Every decision scores the legal actions and takes the best, so it is always
legal; a decision with one legal action is taken at once. All of it runs in numba kernels
over the batch, in parallel above a few dozen rows: `heuristic.view` decodes the
observation, `heuristic.v1.attack` plans and values attacks, `heuristic.v1.reactions` values the
reaction cards, `heuristic.v1.policy` decides each phase.

Strategy (rule numbers from docs/RULES.md):

- **Economy first.** Mulligan (R1.6) and Discard (R4.7) throw back the cards least worth
  keeping (a gangster with nowhere to go, a Bribe) and fish for businesses when the hand has
  none. Deploy (R4.5) puts down businesses before anything else (each pays its cost back in
  one tribute); the first one covers the Hideout. Draw (R4.8) always takes the free card and
  pays for more only with coins to spare (`draw_keep`) and turns left to use them.
- **A buried, guarded Hideout.** Move Hideout (R4.6) buries it under the business adding the
  most defense (income + gangsters). Gangsters, deployed or returning from HIDDEN (R4.2), go
  to the Hideout stack while the strongest opponent's attack power (table + HIDDEN gangsters)
  is within `margin` of its defense V = 3 + gangsters + covering business (R3.6), else to the
  business that needs them. Attackers are taken off the stack last.
- **Attacks that pay.** For every legal target the agent plans an attack (`heuristic.v1.attack`:
  the weakest own gangsters that reach the defense, from businesses off the Hideout first) and
  values it: money stolen (R3.4) or the breach payment with its d6 (R3.6), plus `harm` times
  the damage to the defender (its business, income to come, killed gangsters), minus `loss`
  times the own gangsters that die, minus the Hideout risk of sending its guards, with the
  chance of eliminating (R3.8) worth a trophy, the cards taken and, when it is the second
  elimination (war win, R6.1) or the last opponent, the game. It attacks the best target worth
  more than `attack_min`, then adds exactly the planned gangsters one by one (phase
  `attackers`). Raze-first rules (R3.7) go on into the Hideout only when the survivors breach.
- **Reactions (R5)**, played in windows or at the own idle points when worth `react_min`:
  Police cancel when an attack on the agent costs it (above all a breach that could eliminate
  it) or hands a third player a win; Bribe against a standing Police that cancels the agent's
  own good attack or kidnaps its Hideout guards (and to reinstate a Police protecting it);
  Police kidnap to strip the defenders of its own pending attack, or the attackers of the
  player about to attack (window before the Attack step, R5.2d) when they threaten its
  Hideout; Drive-by to finish a weak business, soften its attack target, or thin a threat;
  Turncoat on the most valuable reachable gangster (a pending attacker on its Hideout counts
  for the loss it prevents; a 4 only with its own Casino where R5.7 asks); Poker Night when the
  expected pot share of the host (2d6 keep the higher against 1d6 each) beats `poker_min`.
- **Endgame awareness.** Damage to the leader, or to a player near the money win (R6.2) or one
  elimination from a war win (R6.1), weighs more (`leader`, `stop`). Holding the money win at
  its own turn it spends nothing; a tribute away from it, it keeps coins (`hoard`); once the
  countdown runs (R6.3) it stops paying for cards it cannot deploy in time.

Styles (`STYLES`) change the weights: `balanced`; `aggressive` attacks for less, values
damage more and buys gangsters that bring a rich Hideout within reach (`arms`); `economic`
attacks only for clear gains, guards more, draws more and hoards harder for the money win.
`seed` only breaks near-ties (`noise`): a decision is a function of the observation, the mask, the
style and the seed, whatever the batch it sits in.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from agents.heuristic.rule_agent import RuleAgent
from agents.heuristic.v1.attack import NUM_WEIGHTS
from agents.heuristic.v1.policy import act_rows, act_rows_serial


@dataclass(frozen=True)
class Style:
    """The heuristic's weights and thresholds (score points: 1 = one coin = one point)."""

    attack_min: float = 1.0  # an attack must be worth at least this much
    harm: float = 0.5  # value of one point of damage to an opponent
    leader: float = 0.3  # extra harm weight on the leader, more near a money or war win
    loss: float = 1.0  # cost of one point of own gangster power lost
    guard: float = 12.0  # what a breach of the own Hideout costs beyond its money
    margin: float = 2.0  # Hideout defense wanted above the strongest opponent's attack
    elim: float = 15.0  # value of an elimination beyond the trophy and the cards taken
    react_min: float = 1.5  # a reaction card must be worth at least this much
    poker_min: float = 0.5  # expected coins a Poker Night must bring
    draw_keep: float = 4.0  # coins kept back when paying for extra draws
    econ: float = 4.0  # tributes a new business is expected to pay
    noise: float = 0.05  # random near-tie breaking
    arms: float = 0.0  # worth per power of a gangster that brings a rich Hideout within reach
    hoard: float = 20.0  # cost of a deploy that puts the money win off by a turn
    stop: float = 1.1  # extra harm weight on a player close to a money or war win

    def weights(self) -> np.ndarray:
        """The float64 weight vector the kernels read (order of `heuristic.v1.attack.W_*`)."""
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]
        out = np.array(values, np.float64)
        assert out.shape == (NUM_WEIGHTS,)
        return out


STYLES: dict[str, Style] = {
    "balanced": Style(),
    "aggressive": Style(attack_min=-0.5, harm=0.8, leader=0.4, loss=0.7, margin=1.0, elim=25.0,
                        react_min=1.0, draw_keep=3.0, arms=1.0, stop=1.5),
    "economic": Style(attack_min=3.0, harm=0.3, loss=1.3, guard=18.0, margin=3.0, elim=10.0,
                      react_min=2.0, poker_min=0.2, draw_keep=2.0, econ=6.0, hoard=30.0),
}  # fmt: skip


class HeuristicV1Agent(RuleAgent):
    """The first heuristic (`agents.load("heuristic-v1")`) with the batched protocol
    `act(obs[N, D], mask[N, A]) -> actions[N]` (module docstring). style: a name in `STYLES`
    or a `Style`. seed: varies how near-ties are broken; None is seed 0, so an opponent
    loaded by name keeps an environment's games a function of their seeds. noise: overrides
    the style's tie-break amplitude."""

    name = "heuristic-v1"
    _kernels = (act_rows, act_rows_serial)

    def __init__(self, style: str | Style = "balanced", seed: int | None = None,
                 noise: float | None = None):  # fmt: skip
        self._use_style(style, STYLES, Style, noise, seed)
