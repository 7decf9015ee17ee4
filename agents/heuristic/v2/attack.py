"""The heuristic's attacks (agents/heuristic/v2/agent.py documents the strategy): which target, with
how many gangsters, and the attackers one by one, from the observation only.

The attack arithmetic (outcome of a combat, breach payment, elimination) is the first
heuristic's (`heuristic.v1.attack`); what changes is how much is sent at a Hideout and what
sending it costs at home:
- a breachable Hideout gets enough power for a certain elimination when the agent has it
  (a breach owes (A - V) + d6 + I, so A >= V + money - I always eliminates, R3.6, R3.8),
  else everything it has;
- gangsters taken off the own Hideout stack are missing from its defense until the next
  turn (attackers hide, R3.5), priced by the elimination risk that adds
  (`heuristic.v2.economy.hazard_cost`).
The attackers phase recomputes the same plan from the same numbers (the power committed so
far is added back), so the agent adds exactly the gangsters it chose the target for.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.table import available_power
from agents.heuristic.v1.attack import (
    W_ATTACK_MIN,
    W_LOSS,
    harm_weight,
    outcome,
    plan,
    target_need,
)
from agents.heuristic.v1.policy import score_attackers
from agents.heuristic.v2.economy import W2_AWAY, hazard_cost
from agents.heuristic.view import (
    I_ALIVE,
    I_DEF,
    R_RAZE_FIRST,
    P,
    S,
    attackers,
    pending_attack,
    power,
    rule,
    sure_elimination_power,
    target_action,
)
from noir_env.core import constants as C
from noir_env.engine.jit import kernel


@kernel
def attack_need(o, info, q, t, total):
    """Attack power aimed at (q, t) by an agent that can send `total`: a certain elimination
    on a breachable Hideout if it can, else all it has; the first heuristic's need for
    businesses, unbreachable Hideouts and raze-first rules (R3.7)."""
    if t < S or rule(o, R_RAZE_FIRST) > 0.5:
        return target_need(o, info, q, t)
    v = info[q, I_DEF]
    sure = sure_elimination_power(info, q)
    if total >= sure:
        return sure
    if total >= v:
        return total
    return target_need(o, info, q, t)


@kernel(inline="always")
def attack_value(o, info, q, t, atk, from_stack, w):
    """Net worth to the observer of attacking (q, t) with `atk`, `from_stack` of its power
    taken off the own Hideout stack."""
    gain, harm, lost, _ = outcome(o, info, 0, q, t, atk, w)
    value = gain + harm_weight(o, info, q, w) * harm - w[W_LOSS] * lost
    value -= w[W2_AWAY] * (power(atk) - lost)  # attackers hide until the next turn (R3.5)
    if from_stack > 0.0:
        value -= hazard_cost(o, info, w, -from_stack, 0.0, 0.0)
    return value


@kernel
def attack_targets(o, info, mask, sc, w, avail):
    """R3.1: the target whose planned attack is worth the most, if it beats W_ATTACK_MIN."""
    sc[C.A_END] = w[W_ATTACK_MIN]
    total = available_power(avail)
    atk = np.zeros(4)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        for t in range(C.TGT_HIDEOUT + 1):
            a = target_action(rel, t)
            if not mask[a]:
                continue
            atk[:] = 0.0
            added, from_stack = plan(avail, attack_need(o, info, rel, t, total), 0.0, atk)
            if added > 0.5:
                sc[a] = attack_value(o, info, rel, t, atk, from_stack, w)


@kernel
def add_attackers(o, info, mask, sc, avail):
    """Phase attackers: add the next gangster of the plan, or confirm once it is complete."""
    q, t = pending_attack(o)
    have = np.zeros(4)
    attackers(o, have)
    committed = power(have)
    if q > 0 and t >= 0:
        need = attack_need(o, info, q, t, available_power(avail) + committed)
    else:
        need = committed + 1.0
    score_attackers(o, mask, sc, need, committed)
