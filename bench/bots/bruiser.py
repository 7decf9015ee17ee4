"""`bruiser`: an attack-heavy rule bot with an economy of its own, written from the rulebook
(docs/RULES.md) on the public observation and mask, for measuring agents against a table
that plays nothing like them (`bench/attack_table.py`; it is in the tuning set).

Unlike the other attack bots (`bench/bots/attack.py`), which play the heuristic outside their
attacks and reactions, it deploys, draws, picks targets and plays reactions by short rules of
its own; moves, placements and the gangsters it sends are the scripted styles' shared pieces
(`agents/styles/common.py`), as for every style:

- **Economy.** Mulligan and discards by a fixed card worth (muscle and Drive-bys first);
  deploys businesses until it has four and room for its gangsters, then gangsters, the
  strongest first, spending every coin (R4.5); draws every card it can pay (R4.8); stops
  spending when its next tribute carries it to the money win (R6.2). Gangsters go to the
  Hideout stack while the strongest opponent's threat is within two of breaching it,
  else to the businesses (R3.1, R3.6).
- **Attacks.** Whenever its attack power destroys a business (R3.3): the richest seat's (or
  a seat's near the money win) first, then the weakest Hideout's owner's, by income; it
  sends just enough, guards included. A Hideout with everything when that eliminates with
  even odds or better (R3.6, R3.8).
- **Reactions.** A Drive-by before its attacks, at the richest seat's businesses, else the
  business covering the weakest Hideout (R5.6); a Police kidnap there too; cancels
  every attack on its Hideout or on a business of income 2 or more (R5.4); bribes a Police
  against it (R5.5); turns an attacker of its own places (R5.7); hosts Poker Nights with
  two coins or more (R5.3).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.heuristic.rule_agent import RuleAgent, seed_salt
from agents.heuristic.table import available_power, elimination_odds, near_money_win, richest
from agents.heuristic.v1.attack import target_need
from agents.heuristic.v1.policy import _idle, read_table, tie_break
from agents.heuristic.view import (
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_FREE,
    I_ITOP,
    I_MONEY,
    I_NBIZ,
    I_TOP,
    P,
    S,
    max_threat,
    slot,
    slot_power,
    target_action,
)
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

# worth of keeping each card (gangsters 1-4, businesses 1-4, Poker, Police, Bribe, Drive-by,
# Turncoat)
CARD_WORTH = np.array([3.0, 4.0, 5.0, 6.0, 3.0, 3.5, 4.0, 4.5, 1.0, 4.5, 2.0, 5.5, 3.5])
KEEP_DEPLOY = 0.0  # coins kept back from deploys
KEEP_DRAW = 0.0  # coins kept back from paid draws
DRAW_EXTRA = 5  # paid cards drawn at most
NBIZ_MIN = 4.0  # businesses deployed before gangsters
ELIM_ODDS = 0.5  # elimination chance that sends everything at a Hideout
STACK_MARGIN = -2.0  # guard the Hideout while its defense is below the strongest threat + 2
RICH_BONUS = 10.0  # preference for the businesses of the richest seat or one near the money win


@kernel
def prey(info):
    """The living opponent with the weakest Hideout: defense plus half its money (it pays
    a breach, R3.8); -1 if none."""
    best, who = 1e9, -1
    for rel in range(1, P):
        if info[rel, I_ALIVE] > 0.5:
            key = info[rel, I_DEF] + 0.5 * info[rel, I_MONEY]
            if key < best:
                best, who = key, rel
    return who


@kernel
def hideout_kill(info, rel, total):
    return elimination_odds(total, info[rel, I_DEF], info[rel, I_ITOP], info[rel, I_MONEY])


@kernel
def targets(o, info, mask, avail, out):
    """out[rel, t]: a Hideout it eliminates at even odds, else any business its whole attack
    power destroys (R3.3), the richest seat's (or one near the money win) first, then the
    prey's, then by income."""
    total = available_power(avail)
    victim = prey(info)
    rich = richest(info)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        if mask[target_action(rel, C.TGT_HIDEOUT)] and hideout_kill(info, rel, total) >= ELIM_ODDS:
            out[rel, C.TGT_HIDEOUT] = 100.0 + (10.0 if rel == victim else 0.0)
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc < 0.5 or not mask[target_action(rel, t)]:
                continue
            if target_need(o, info, rel, t) <= total:
                bonus = 5.0 if rel == victim else 0.0
                bonus += RICH_BONUS if rel == rich or near_money_win(o, info, rel) else 0.0
                bonus += 3.0 if rel == victim and t == int(info[rel, I_TOP]) else 0.0
                out[rel, t] = inc + bonus


@kernel
def deploy(o, info, mask, sc):
    """Businesses until four and room for its gangsters, then gangsters, the strongest first."""
    worth = np.zeros(C.NUM_CARD_TYPES)
    short = info[0, I_NBIZ] < NBIZ_MIN or info[0, I_FREE] < 2.0
    for card in range(C.B1, C.B4 + 1):
        worth[card] = (8.0 if short else 2.0) + 0.1 * card
    for card in range(C.G1, C.G4 + 1):
        worth[card] = 4.0 + card
    keep = info[0, I_MONEY] if near_money_win(o, info, 0) else KEEP_DEPLOY
    sc_.deploy_by(o, info, mask, sc, worth, keep)


@kernel
def prep_targets(o, info, out):
    """out[rel, t]: where a Drive-by or kidnap goes: the business covering the prey's
    Hideout, else the richest business (plus its guards)."""
    victim = prey(info)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc > 0.5:
                out[rel, t] = inc + slot_power(o, rel, t)
    if victim > 0 and info[victim, I_TOP] >= 0.0:
        out[victim, int(info[victim, I_TOP])] += 20.0
    rich = richest(info)
    if rich > 0:
        for t in range(S):
            out[rich, t] += 30.0 if o[slot(rich, t) + F_INCOME] > 0.5 else 0.0
        return rich
    return victim


@kernel
def reactions(o, info, mask, sc, ph, in_window):
    """The reaction rules of the module docstring."""
    play = np.zeros(6)
    hit = sc_.attacked_me(o)
    if hit == C.TGT_HIDEOUT or (0 <= hit < S and o[slot(0, hit) + F_INCOME] >= 2.0):
        play[C.PLAY_POLICE_CANCEL] = 5.0
    if hit >= 0:
        play[C.PLAY_TURNCOAT] = 4.5
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    if not in_window and ph == C.PH_ATTACK:
        play[C.PLAY_DRIVEBY] = 3.0
        play[C.PLAY_POLICE] = 2.5
    if info[0, I_MONEY] >= 2.0:
        play[C.PLAY_POKER] = 1.0
    sc_.play_by(mask, sc, play, in_window)


@kernel
def decide(o, mask, u):
    """The bruiser's action for one observation row."""
    sc, only, info, avail, ph = read_table(o, mask)
    if only >= 0:
        return only
    stack_first = info[0, I_DEF] <= max_threat(info, -1) - STACK_MARGIN
    standard = sc_.standard_phase(o, info, mask, sc, ph, CARD_WORTH, 2.5, stack_first)
    if standard:
        pass  # mulligan, moves, placements, discards: `styles.common` with this bot's worths
    elif ph == C.PH_ATTACK:
        target = np.zeros((P, C.NUM_TARGETS))
        targets(o, info, mask, avail, target)
        sc_.attack_by(mask, sc, target, 0.0)
    elif ph == C.PH_ATTACKERS:
        sc_.add_attackers(o, info, mask, sc, avail, True, False)
    elif ph == C.PH_DEPLOY:
        deploy(o, info, mask, sc)
    elif ph == C.PH_DRAW:
        hoard = near_money_win(o, info, 0)
        sc_.draw_up_to(o, info, mask, sc, 0 if hoard else DRAW_EXTRA, KEEP_DRAW)
    elif ph == C.PH_REACT_TARGET:
        target = np.zeros((P, C.NUM_TARGETS))
        victim = prep_targets(o, info, target)
        sc_.react_targets(o, mask, sc, target, victim)
    window = ph == C.PH_WINDOW
    if window or _idle(ph):
        reactions(o, info, mask, sc, ph, window)
    return sc_.finish(sc, u)


@kernel(parallel=True)
def act_rows(obs, mask, w, salt, out):
    for i in prange(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], tie_break(obs[i], salt))


@kernel
def act_rows_serial(obs, mask, w, salt, out):
    for i in range(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], tie_break(obs[i], salt))


class Bruiser(RuleAgent):
    """The bruiser (module docstring), batched `act(obs, mask) -> actions`."""

    name = "bot-bruiser"
    _kernels = (act_rows, act_rows_serial)

    def __init__(self, seed: int | None = None):
        self._weights = np.zeros(1, np.float64)
        self._salt = seed_salt(seed)
