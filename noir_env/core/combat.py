"""Combat (R3): damage assignment, attacks on businesses and Hideouts, Drive-by damage,
and elimination. All per-game kernels; `resolve_attack` is the entry point."""

import numpy as np

from noir_env.engine.jit import kernel

from ..engine.rng import roll_d6
from . import constants as C
from .board import (
    discard_gangsters,
    log_event,
    num_alive,
    num_gangsters,
    power_of,
    prev_alive,
    remove_business,
    transfer,
    trigger_countdown,
)
from .countdown import win_alone

S = C.NUM_SLOTS


@kernel
def kill_weakest_first(counts, damage, dead):
    """R3.2: assign `damage` to gangsters weakest first; a gangster dies when the damage
    assigned to it reaches its power; damage too small to kill the next one is lost.
    Writes the dead per power into `dead` (counts are not changed)."""
    for pw in range(4):
        dead[pw] = 0
    for pw in range(4):
        for _ in range(counts[pw]):
            if damage < pw + 1:
                return
            damage -= pw + 1
            dead[pw] += 1


@kernel
def bury(s, i, counts, dead):
    """Move `dead` gangsters out of `counts` onto the discard pile."""
    for pw in range(4):
        counts[pw] -= dead[pw]
        s[i].discard[C.G1 + pw] += dead[pw]


@kernel
def is_destroyed(r, damage, toughness):
    """R3.3: a building falls when damage reaches (strict presets: exceeds) its total."""
    return damage > toughness if r.destroy_strict else damage >= toughness


@kernel
def attackers_take_damage(s, i, damage):
    """The defenders' damage (R3.2) kills pending attackers weakest first; returns the dead."""
    dead = np.zeros(4, np.int8)
    kill_weakest_first(s[i].atk_g, damage, dead)
    bury(s, i, s[i].atk_g, dead)
    return num_gangsters(dead)


@kernel
def business_combat(s, r, i, p, q, t):
    """R3.2-R3.4: p's pending attackers against q's business in slot t (no Hideout help).
    Returns True if the business was destroyed."""
    inc = s[i].biz[q, t]
    defenders = s[i].biz_g[q, t]
    attack = power_of(s[i].atk_g)
    defense = power_of(defenders)
    dead = np.zeros(4, np.int8)
    kill_weakest_first(defenders, attack, dead)
    killed = num_gangsters(dead)
    bury(s, i, defenders, dead)
    lost = attackers_take_damage(s, i, defense)
    destroyed = is_destroyed(r, attack, defense + inc)
    stolen = 0
    if destroyed:
        remove_business(s, i, q, t)
        stolen = transfer(s, r, i, q, p, inc)  # R3.4: min(income, defender's money)
    log_event(
        s, i, C.EV_COMBAT, p, q, t, attack, defense, killed + 16 * lost, int(destroyed) + 2 * stolen
    )
    return destroyed


@kernel
def stack_combat(s, r, i, p, q):
    """R3.6 (not breached): ordinary combat against the whole Hideout stack: its gangsters
    weakest first (the business's before the Hideout's at equal power), then the business;
    the Hideout adds its defense to the damage the attackers take."""
    top = s[i].ho_top[q]
    inc = s[i].biz[q, top] if top >= 0 else 0
    merged = s[i].ho_g[q].copy()
    if top >= 0:
        merged += s[i].biz_g[q, top]
    attack = power_of(s[i].atk_g)
    defense = power_of(merged)
    dead = np.zeros(4, np.int8)
    kill_weakest_first(merged, attack, dead)
    killed = num_gangsters(dead)
    if top >= 0:  # split the dead between the business (first) and the Hideout
        on_biz = s[i].biz_g[q, top]
        first = np.minimum(dead, on_biz)
        bury(s, i, on_biz, first)
        bury(s, i, s[i].ho_g[q], dead - first)
    else:
        bury(s, i, s[i].ho_g[q], dead)
    lost = attackers_take_damage(s, i, C.HIDEOUT_DEFENSE + defense)
    stolen = 0
    destroyed = top >= 0 and is_destroyed(r, attack, defense + inc)
    if destroyed:
        remove_business(s, i, q, top)
        stolen = transfer(s, r, i, q, p, inc)
    log_event(
        s,
        i,
        C.EV_COMBAT,
        p,
        q,
        C.TGT_HIDEOUT,
        attack,
        C.HIDEOUT_DEFENSE + defense,
        killed + 16 * lost,
        int(destroyed) + 2 * stolen,
    )


@kernel
def breach(s, r, i, p, q, attack, defense, inc):
    """R3.6 (breached): the stack but the Hideout is destroyed and q owes
    (attack - defense) + d6 + income of the destroyed business; short of it, q is out."""
    top = s[i].ho_top[q]
    if top >= 0:
        remove_business(s, i, q, top)
    discard_gangsters(s, i, s[i].ho_g[q])
    die = roll_d6(s, i)
    owed = attack - defense + die + inc
    paid = transfer(s, r, i, q, p, owed)
    log_event(s, i, C.EV_BREACH, p, q, attack, defense, die, owed * 100 + paid)
    if paid < owed:
        eliminate(s, r, i, q, p)


@kernel
def hideout_attack(s, r, i, p, q):
    """R3.6 declared Hideout attack: defense = 3 + Hideout gangsters + business on top."""
    top = s[i].ho_top[q]
    inc = 0
    guards = power_of(s[i].ho_g[q])
    if top >= 0:
        inc = s[i].biz[q, top]
        guards += power_of(s[i].biz_g[q, top])
    defense = C.HIDEOUT_DEFENSE + guards + inc
    attack = power_of(s[i].atk_g)
    if attack >= defense:
        attackers_take_damage(s, i, C.HIDEOUT_DEFENSE + guards)
        breach(s, r, i, p, q, attack, defense, inc)
    else:
        stack_combat(s, r, i, p, q)


@kernel(inline="always")
def raze_first_attack(s, r, i, p, q):
    """R3.7 (original): the business on a buried Hideout must be razed first. Returns True
    when it was razed and attackers survive: they MAY go on (`continue_into_hideout`)."""
    top = s[i].ho_top[q]
    if top < 0:
        raze_first_hideout(s, r, i, p, q)
        return False
    return business_combat(s, r, i, p, q, top) and num_gangsters(s[i].atk_g) > 0


@kernel
def raze_first_hideout(s, r, i, p, q):
    """R3.7 step 2: the attackers, at full power, against the open Hideout (3 + its gangsters)."""
    attack = power_of(s[i].atk_g)
    guards = power_of(s[i].ho_g[q])
    defense = C.HIDEOUT_DEFENSE + guards
    if attack >= defense:
        attackers_take_damage(s, i, defense)
        breach(s, r, i, p, q, attack, defense, 0)
    else:
        stack_combat(s, r, i, p, q)


@kernel(inline="always")
def continue_into_hideout(s, r, i, go_on):
    """R3.7: after the raze the attacker goes on into the Hideout, or stops; either way the
    surviving attackers then become HIDDEN. One who stops has not attacked the Hideout: it
    may still be declared a target this turn (D40)."""
    p = s[i].active
    q = s[i].atk_player
    log_event(s, i, C.EV_RAZE_CHOICE, p, q, int(go_on))
    if go_on:
        raze_first_hideout(s, r, i, p, q)
    else:
        s[i].attacked[q, C.PLACE_HIDEOUT] = 0
    hide_attackers(s, i, p)


@kernel
def resolve_attack(s, r, i):
    """Resolve the pending attack of the active player; survivors become HIDDEN (R3.5).
    After a raze-first raze the attacker chooses first (phase PH_CONTINUE, R3.7)."""
    p = s[i].active
    q = s[i].atk_player
    t = s[i].atk_slot
    if num_gangsters(s[i].atk_g) == 0 or (t < S and s[i].biz[q, t] == 0):
        log_event(s, i, C.EV_FIZZLE, p, q, t)  # attackers all taken, or target already gone
    elif t < S:
        business_combat(s, r, i, p, q, t)
    elif r.raze_first:
        if raze_first_attack(s, r, i, p, q):
            s[i].phase = C.PH_CONTINUE
            s[i].actor = p
            return
    else:
        hideout_attack(s, r, i, p, q)
    hide_attackers(s, i, p)


@kernel
def hide_attackers(s, i, p):
    """R3.5: attackers that survive (or whose attack was cancelled) become HIDDEN."""
    for pw in range(4):
        s[i].hidden[p, pw] += s[i].atk_g[pw]
        s[i].atk_g[pw] = 0
    s[i].atk_player = -1
    s[i].atk_slot = 0


@kernel
def take_known(s, i, p, card, k):
    """k cards of a type go from the table into p's hand in view of everyone (R7.3)."""
    s[i].hand[p, card] += k
    s[i].known[p, card] += k


@kernel(inline="always")
def eliminate(s, r, i, q, p):
    """R3.8: q is out; p takes every card q had into hand and q's Hideout as a trophy."""
    s[i].alive[q] = 0
    taken = 0
    for t in range(C.NUM_CARD_TYPES):  # the hand: only what was known stays known (R7.3)
        taken += s[i].hand[q, t]
        s[i].hand[p, t] += s[i].hand[q, t]
        s[i].known[p, t] += s[i].known[q, t]
        s[i].hand[q, t] = 0
        s[i].known[q, t] = 0
    for t in range(S):  # the table: everyone saw it go into p's hand
        if s[i].biz[q, t] > 0:
            take_known(s, i, p, C.B1 + s[i].biz[q, t] - 1, 1)
            taken += 1
            s[i].biz[q, t] = 0
        for pw in range(4):
            take_known(s, i, p, C.G1 + pw, s[i].biz_g[q, t, pw])
            taken += s[i].biz_g[q, t, pw]
            s[i].biz_g[q, t, pw] = 0
    for pw in range(4):
        take_known(s, i, p, C.G1 + pw, s[i].ho_g[q, pw] + s[i].hidden[q, pw])
        taken += s[i].ho_g[q, pw] + s[i].hidden[q, pw]
        s[i].ho_g[q, pw] = 0
        s[i].hidden[q, pw] = 0
    s[i].ho_top[q] = -1
    s[i].trophies[p] += s[i].trophies[q] + 1
    s[i].trophies[q] = 0
    s[i].kills[p] += 1
    log_event(s, i, C.EV_ELIMINATED, q, p, taken)
    if s[i].cd_on and s[i].cd_holder == q:
        s[i].cd_holder = prev_alive(s, i, q)  # R6.3: the previous player continues
    if r.cd_hideout:
        trigger_countdown(s, r, i, p, C.CD_HIDEOUT)
    if r.war_win and s[i].kills[p] >= 2:
        win_alone(s, i, p, C.WIN_WAR)
    elif num_alive(s, i) == 1:
        win_alone(s, i, p, C.WIN_LAST)


@kernel(inline="always")
def resolve_driveby(s, r, i, q, t, damage):
    """R5.6: Drive-by damage to q's business in slot t: gangsters weakest first, then the
    business; nothing is stolen."""
    inc = s[i].biz[q, t]
    defenders = s[i].biz_g[q, t]
    toughness = power_of(defenders) + inc
    dead = np.zeros(4, np.int8)
    kill_weakest_first(defenders, damage, dead)
    bury(s, i, defenders, dead)
    destroyed = is_destroyed(r, damage, toughness)
    if destroyed:
        remove_business(s, i, q, t)
    log_event(s, i, C.EV_DRIVEBY, q, t, damage, num_gangsters(dead), int(destroyed), inc)
