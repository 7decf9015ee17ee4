"""Attack-heavy rule bots for measuring how agents hold up against a table that raids them:
opponents outside the shipped population, written from the rulebook (docs/RULES.md) on the
public observation and mask only, like the scripted styles (`agents/styles/`).

Two sets, kept apart on purpose:

- `raider` (tuning): every turn destroys the weakest business its gangsters off the
  Hideout stack can, anyone's; cancels every attack on itself; Drive-by before attacking.
- `hunter` (tuning): hunts the Hideout easiest to eliminate: razes the business covering
  it, softens it with Drive-by, Police kidnap and Turncoat, breaches at even odds.
- `reactor` (held out): plays every reaction card at the first chance; attacks the
  leader's businesses, breaches a Hideout it eliminates at 80%.
- `opportunist` (held out): attacks whatever pays best per point of power sent, breaches
  a Hideout it eliminates at even odds; cancels attacks on what matters to it.

Everything else (spending, guarding, moving, drawing) they play as `heuristic` does, so that
they are strong enough to punish a weak defence. `bruiser` (tuning, `bench/bots/bruiser.py`)
is the exception: an economy of its own too, so a table of it plays nothing like the heuristic.

The tuning set (with `style-rusher` and `style-bully`) is what agents may be tuned against;
the held-out set only measures them. `ATTACK_BOTS` maps names to constructors; `load_bot`
also accepts the registered agent names.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.heuristic.rule_agent import RuleAgent, seed_salt
from agents.heuristic.table import available_power, elimination_odds, holds
from agents.heuristic.v1.attack import target_need
from agents.heuristic.v1.policy import _idle, read_table, tie_break
from agents.heuristic.v2.agent import Style
from agents.heuristic.v2.policy import decide as heuristic_decide
from agents.heuristic.view import (
    F_INCOME,
    I_ALIVE,
    I_DEF,
    I_ITOP,
    I_MONEY,
    I_SCORE,
    I_TOP,
    P,
    S,
    leader,
    slot,
    slot_power,
    target_action,
)
from agents.styles import common as sc_
from noir_env.core import constants as C
from noir_env.engine.jit import kernel

BOT_NAMES = ("raider", "hunter", "reactor", "opportunist")
TUNING = ("raider", "hunter", "bruiser", "style-rusher", "style-bully")
HELD_OUT = ("reactor", "opportunist")
RAIDER, HUNTER, REACTOR, OPPORTUNIST = range(4)

# worth of keeping each card (gangsters 1-4, businesses 1-4, Poker, Police, Bribe, Drive-by,
# Turncoat), per bot
WORTH = np.array(
    [
        [3.0, 4.0, 5.0, 6.0, 2.5, 3.0, 3.5, 4.0, 0.5, 5.0, 2.0, 5.5, 3.0],  # raider
        [3.5, 4.5, 5.5, 6.5, 2.0, 2.5, 3.0, 3.5, 0.5, 4.5, 2.0, 6.0, 4.0],  # hunter
        [2.5, 3.0, 3.5, 4.0, 2.5, 3.0, 3.5, 4.0, 2.0, 6.0, 5.0, 6.0, 5.5],  # reactor
        [2.5, 3.0, 3.5, 4.0, 3.5, 4.0, 4.5, 5.0, 2.0, 4.0, 2.5, 4.0, 3.0],  # opportunist
    ]
)

KEEP = np.array([3.0, 2.0, 3.0, 4.0])  # coins each bot keeps back from deploys and draws (R3.8)
# the bots play the heuristic wherever they have no rule of their own: what makes them differ
# is where and how often they attack and react. Its weights are pinned (`raid` off, as when
# the bots were written) so that the bots stay the same opponents when the defaults move.
ECONOMY = Style(raid=0.0).weights()


# --- targets -----------------------------------------------------------------------------------
@kernel
def business_need(o, info, q, t):
    """Power that destroys business t of seat q (R3.3)."""
    return target_need(o, info, q, t)


@kernel
def off_stack(avail):
    """Power of the gangsters that may attack without leaving the Hideout stack."""
    off = avail.copy()
    sc_.guards_stay(off)
    return available_power(off)


@kernel
def sure_kill(info, rel, power, odds):
    """True if `power` on rel's Hideout eliminates it with at least `odds`."""
    return elimination_odds(power, info[rel, I_DEF], info[rel, I_ITOP], info[rel, I_MONEY]) >= odds


@kernel
def raider_targets(o, info, mask, avail, out):
    """The business with the lowest total (income + guards) that its gangsters off the
    Hideout stack can destroy, anyone's; a Hideout only when everything eliminates for
    certain."""
    all_power = available_power(avail)
    total = off_stack(avail)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc < 0.5 or not mask[target_action(rel, t)]:
                continue
            need = business_need(o, info, rel, t)
            if need <= total:
                out[rel, t] = 20.0 - need + 0.1 * inc
        if sure_kill(info, rel, all_power, 0.99):
            out[rel, C.TGT_HIDEOUT] = 50.0


@kernel
def prey(o, info, total):
    """The living opponent whose Hideout is easiest to eliminate: the best elimination odds
    for `total` power, then the weakest defense over its money."""
    best, who = -1e9, -1
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        odds = elimination_odds(total, info[rel, I_DEF], info[rel, I_ITOP], info[rel, I_MONEY])
        key = 100.0 * odds - info[rel, I_DEF] - 0.3 * info[rel, I_MONEY]
        if key > best:
            best, who = key, rel
    return who


@kernel
def hunter_targets(o, info, mask, avail, out):
    """The prey's Hideout when everything breaches it, else the business covering it (its
    razing drops the defense and the cover's income), else the prey's richest business it
    can destroy, else anyone's."""
    all_power = available_power(avail)
    total = off_stack(avail)
    victim = prey(o, info, all_power)
    if victim < 0:
        return
    if sure_kill(info, victim, all_power, 0.5) and mask[target_action(victim, C.TGT_HIDEOUT)]:
        out[victim, C.TGT_HIDEOUT] = 100.0
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc < 0.5 or not mask[target_action(rel, t)]:
                continue
            if business_need(o, info, rel, t) > total:
                continue
            value = inc
            if rel == victim:
                value += 10.0 + (20.0 if t == int(info[rel, I_TOP]) else 0.0)
            out[rel, t] = value


@kernel
def reactor_targets(o, info, mask, avail, out):
    """A sure elimination anywhere, else the leader's richest business it can destroy."""
    all_power = available_power(avail)
    total = off_stack(avail)
    lead = leader(info)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        if sure_kill(info, rel, all_power, 0.8):
            out[rel, C.TGT_HIDEOUT] = 100.0
        if rel != lead:
            continue
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            reach = business_need(o, info, rel, t) <= total
            if inc > 0.5 and mask[target_action(rel, t)] and reach:
                out[rel, t] = 10.0 + inc + slot_power(o, rel, t)


@kernel
def opportunist_targets(o, info, mask, avail, out):
    """What pays best per point of power sent: an elimination (its money and a rival gone),
    or a business (its income plus its guards) over the power it needs; nothing below 0.6."""
    all_power = available_power(avail)
    total = off_stack(avail)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        odds = elimination_odds(all_power, info[rel, I_DEF], info[rel, I_ITOP], info[rel, I_MONEY])
        if odds >= 0.5:
            out[rel, C.TGT_HIDEOUT] = 5.0 + odds + 0.1 * info[rel, I_SCORE]
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc < 0.5 or not mask[target_action(rel, t)]:
                continue
            need = business_need(o, info, rel, t)
            if need > total:
                continue
            ratio = (inc + slot_power(o, rel, t) + 0.05 * info[rel, I_SCORE]) / max(need, 1.0)
            if ratio >= 0.6:
                out[rel, t] = ratio


# --- reactions ---------------------------------------------------------------------------------
@kernel
def own_attack_step(o, ph, in_window):
    return not in_window and ph == C.PH_ATTACK


@kernel
def reactions(bot, o, info, mask, sc, ph, in_window):
    """Which reaction card each bot plays now (module docstring)."""
    play = np.zeros(6)
    hit = sc_.attacked_me(o)
    if sc_.police_against_me(o) >= 0:
        play[C.PLAY_BRIBE] = 4.0
    if bot == RAIDER:
        if hit >= 0:
            play[C.PLAY_POLICE_CANCEL] = 5.0
        if own_attack_step(o, ph, in_window) and holds(o, C.DRIVEBY) > 0.5:
            play[C.PLAY_DRIVEBY] = 3.0
    elif bot == HUNTER:
        if hit == C.TGT_HIDEOUT:
            play[C.PLAY_POLICE_CANCEL] = 5.0
        if own_attack_step(o, ph, in_window):
            play[C.PLAY_DRIVEBY] = 3.0
            play[C.PLAY_POLICE] = 2.5
            play[C.PLAY_TURNCOAT] = 2.0
    elif bot == REACTOR:
        if hit >= 0:
            play[C.PLAY_POLICE_CANCEL] = 5.0
            play[C.PLAY_TURNCOAT] = 4.5
        play[C.PLAY_DRIVEBY] = 3.0
        play[C.PLAY_POLICE] = 2.5
        play[C.PLAY_TURNCOAT] = max(play[C.PLAY_TURNCOAT], 2.0)
        if info[0, I_MONEY] >= 2.0:
            play[C.PLAY_POKER] = 1.0
    else:
        if hit == C.TGT_HIDEOUT or (hit >= 0 and o[slot(0, hit) + F_INCOME] >= 3.0):
            play[C.PLAY_POLICE_CANCEL] = 5.0
        lead = leader(info)
        if lead > 0 and info[lead, I_SCORE] > info[0, I_SCORE] + 5.0:
            play[C.PLAY_DRIVEBY] = 3.0
        if info[0, I_MONEY] >= 2.0:
            play[C.PLAY_POKER] = 0.5
    sc_.play_by(mask, sc, play, in_window)


@kernel
def react_target_values(bot, o, info, avail, out):
    """out[rel, t]: where a kidnap or a Drive-by goes (the prey's or leader's covering
    business for the hunters, else the richest business in reach)."""
    total = available_power(avail)
    focus = prey(o, info, total) if bot == HUNTER else leader(info)
    for rel in range(1, P):
        if info[rel, I_ALIVE] < 0.5:
            continue
        for t in range(S):
            inc = o[slot(rel, t) + F_INCOME]
            if inc < 0.5:
                continue
            value = inc + slot_power(o, rel, t)
            if rel == focus:
                value += 10.0 + (10.0 if t == int(info[rel, I_TOP]) else 0.0)
            out[rel, t] = value
    return focus


# --- one decision -------------------------------------------------------------------------------
@kernel
def decide(o, mask, w, u):
    """The action of bot `int(w[0])` (`BOT_NAMES` order) for one observation row: its own
    attack targets and reaction cards where it has a use for them, the heuristic's choice
    (`ECONOMY` weights) everywhere else."""
    sc, only, info, avail, ph = read_table(o, mask)
    if only >= 0:
        return only
    bot = int(w[0])
    if ph == C.PH_ATTACK:
        target = np.zeros((P, C.NUM_TARGETS))
        if bot == RAIDER:
            raider_targets(o, info, mask, avail, target)
        elif bot == HUNTER:
            hunter_targets(o, info, mask, avail, target)
        elif bot == REACTOR:
            reactor_targets(o, info, mask, avail, target)
        else:
            opportunist_targets(o, info, mask, avail, target)
        if target.max() > 0.0:
            sc_.attack_by(mask, sc, target, 0.0)
            return sc_.finish(sc, u)
    elif ph == C.PH_REACT_TARGET:
        target = np.zeros((P, C.NUM_TARGETS))
        focus = react_target_values(bot, o, info, avail, target)
        sc_.react_targets(o, mask, sc, target, focus)
        return sc_.finish(sc, u)
    window = ph == C.PH_WINDOW
    if window or _idle(ph):
        reactions(bot, o, info, mask, sc, ph, window)
        a = sc_.finish(sc, u)
        if a >= C.A_PLAY and a < C.A_PLAY + 6:
            return a
    return heuristic_decide(o, mask, ECONOMY, u)


@kernel(parallel=True)
def act_rows(obs, mask, w, salt, out):
    for i in prange(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


@kernel
def act_rows_serial(obs, mask, w, salt, out):
    for i in range(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


class AttackBot(RuleAgent):
    """One of the attack bots (module docstring), batched `act(obs, mask) -> actions`."""

    _kernels = (act_rows, act_rows_serial)

    def __init__(self, bot: str, seed: int | None = None):
        if bot not in BOT_NAMES:
            raise ValueError(f"unknown attack bot {bot!r}; bots: {list(BOT_NAMES)}")
        self.name = f"bot-{bot}"
        self._weights = np.array([BOT_NAMES.index(bot)], np.float64)
        self._salt = seed_salt(seed)


def load_bot(name: str, seed: int | None = None):
    """An attack bot by name (`BOT_NAMES`, or `bruiser`: `bench/bots/bruiser.py`) or any
    registered agent (`agents.load`)."""
    if name == "bruiser":
        from bench.bots.bruiser import Bruiser

        return Bruiser(seed)
    if name in BOT_NAMES:
        return AttackBot(name, seed)
    from agents import load

    return load(name, seed=seed)
