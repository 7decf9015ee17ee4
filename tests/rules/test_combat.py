"""Rulebook scenarios for combat (R3): attacks on businesses and Hideouts, damage, stealing,
HIDDEN attackers and elimination. The worked examples of the printed Noirburg rulebook are
reproduced exactly."""

import numpy as np

from noir_env.core import constants as C

from .helpers import (
    act,
    attack,
    begin,
    blank,
    business,
    can,
    events,
    force_dice,
    give,
    hidden,
    hideout,
    money,
)


# --- the worked examples -------------------------------------------------------------------
def hideout_example(defender_money: int):
    """Rulebook p.10: Hideout 3 + gangsters on the Hideout (1 + 2) + Speakeasy 3 on top with
    2 power of gangsters = 11; the attacker brings 4 + 4 + 3 = 11."""
    s = blank(4)
    a = business(s, 0, 4, [4])  # seat 0: two Casinos with a 4 each, a 3 on the Hideout
    b = business(s, 0, 4, [4])
    hideout(s, 0, 3)
    top = business(s, 1, 3, [2], covers_hideout=True)  # seat 1: Speakeasy on the Hideout
    hideout(s, 1, 1, 2)
    money(s, 1, defender_money)
    begin(s, active=0, phase="attack")
    return s, a, b, top


def test_hideout_attack_11_vs_11_worked_example():
    """R3.6 worked example: 11 - 11 = 0 + 3 (die) + 3 (business) = 6; the attacker takes
    8 damage (3 Hideout + 5 gangsters), weakest first: the 3 and one 4 die, 1 damage is lost,
    the other 4 survives and becomes HIDDEN (R3.2, R3.5)."""
    s, a, b, top = hideout_example(defender_money=8)
    force_dice(s, 3)
    attack(s, "+1:hideout", f"g4@slot{a}", f"g4@slot{b}", "g3@hideout")
    assert events(s, C.EV_BREACH) == [[0, 1, 11, 11, 3, 606, 0]]  # owed 6, paid 6
    assert s.money[0, 1] == 2 and s.money[0, 0] == 3 + 6
    assert s.alive[0, 1] == 1  # paid in full: still in the game
    # the Speakeasy on top is destroyed, the gangsters above the Hideout are gone
    assert s.biz[0, 1, top] == 0 and s.ho_top[0, 1] == -1
    assert s.ho_g[0, 1].tolist() == [0, 0, 0, 0]
    # the attacker lost the 3 and one 4; the surviving 4 is HIDDEN
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 1]
    assert s.biz_g[0, 0, a].sum() == 0 and s.biz_g[0, 0, b].sum() == 0
    assert s.discard[0].tolist()[: C.B4 + 1] == [1, 2, 1, 1, 0, 0, 1, 0]
    assert s.active[0] == 0 and s.cd_on[0] == 0  # the turn goes on; no countdown


def test_hideout_attack_defender_cannot_pay_is_eliminated():
    """R3.6: 'If the defending player cannot pay this amount, their Hideout will be destroyed
    and they will be out of the game' (same 11 vs 11 stack, 5 coins against 6 owed); R3.8."""
    s, a, b, _ = hideout_example(defender_money=5)
    force_dice(s, 3)
    attack(s, "+1:hideout", f"g4@slot{a}", f"g4@slot{b}", "g3@hideout")
    assert events(s, C.EV_BREACH) == [[0, 1, 11, 11, 3, 605, 0]]
    assert s.alive[0, 1] == 0 and s.money[0, 1] == 0 and s.money[0, 0] == 8
    assert s.trophies[0, 0] == 1 and s.kills[0, 0] == 1


def test_hideout_attack_one_short_is_not_a_breach():
    """R3.6: an attack of 10 against the defense of 11 does not breach, so no ransom is
    owed and the Hideout stands. The attackers fight the stack as an ordinary combat
    (docs/RULES.md R3.6): 10 damage kills the 1, 2, 2 weakest first and then razes the
    Speakeasy (5 + 3 <= 10), whose income is stolen; they take 3 + 5 = 8 damage."""
    s = blank(4)
    a = business(s, 0, 4, [4])
    b = business(s, 0, 4, [4])
    hideout(s, 0, 2)
    top = business(s, 1, 3, [2], covers_hideout=True)
    hideout(s, 1, 1, 2)
    money(s, 1, 8)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", f"g4@slot{a}", f"g4@slot{b}", "g2@hideout")
    assert events(s, C.EV_BREACH) == []
    assert s.alive[0, 1] == 1 and s.biz[0, 1, top] == 0 and s.ho_g[0, 1].sum() == 0
    assert s.money[0, 1] == 5 and s.money[0, 0] == 6
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 1]  # the 2 and a 4 died, 2 damage lost


def test_business_destroyed_only_the_power_1_attacker_dies():
    """R3.2-R3.4 worked example (p.6): a Casino (income 4) defended by one power-1 gangster,
    attacked by 1 + 4 = 5 >= 1 + 4: the Casino is destroyed, the defender's 1 damage kills
    only the attacker's power-1 gangster, the defender pays 4."""
    s = blank(4)
    casino = business(s, 0, 4, [4])
    hideout(s, 0, 1)
    target = business(s, 1, 4, [1])
    money(s, 1, 5)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{target}", "g1@hideout", f"g4@slot{casino}")
    # attack 5, defense 1, 1 killed + 16 * 1 lost, destroyed + 2 * 4 stolen
    assert events(s, C.EV_COMBAT) == [[0, 1, target, 5, 1, 17, 9]]
    assert s.biz[0, 1, target] == 0
    assert s.money[0, 1] == 1 and s.money[0, 0] == 7
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 1]
    assert s.discard[0, C.G1] == 2 and s.discard[0, C.B4] == 1


def test_defenders_die_but_the_shop_survives_one_damage():
    """R3.2/R3.3 worked example (p.5): attack 3 against two power-1 defenders on a
    Bootlegger: both die, the Bootlegger takes the 1 left over and is not destroyed
    (3 < 1 + 1 + 2); nothing is stolen."""
    s = blank(4)
    src = business(s, 0, 3, [3])
    target = business(s, 1, 2, [1, 1])
    money(s, 1, 5)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{target}", f"g3@slot{src}")
    assert s.biz[0, 1, target] == 2 and s.biz_g[0, 1, target].sum() == 0
    assert s.money[0, 1] == 5 and s.money[0, 0] == 3
    # the attacking 3 took 2 damage, survived, and is whole again (R3.5)
    assert s.hidden[0, 0].tolist() == [0, 0, 1, 0]
    assert events(s, C.EV_COMBAT)[0][5] == 2  # 2 killed, 0 lost


# --- R3.1: declaring attacks -----------------------------------------------------------------
def test_attack_needs_a_gangster_on_the_table():
    """R3.1: only gangsters on businesses and the Hideout attack; HIDDEN ones or gangsters
    in hand cannot, so without one no target is offered."""
    s = blank(4)
    business(s, 0, 2)
    hidden(s, 0, 2)
    give(s, 0, C.G1)
    business(s, 1, 1)
    begin(s, 0, "attack")
    assert not any(can(s, f"target:+{r}:hideout") for r in (1, 2, 3))
    assert not can(s, "target:+1:slot0")
    s = blank(4)
    hideout(s, 0, 1)  # a gangster on the own Hideout may attack
    business(s, 1, 1)
    begin(s, 0, "attack")
    assert can(s, "target:+1:hideout") and can(s, "target:+1:slot0")


def test_gangsters_from_different_businesses_attack_together():
    """R3.1: 'Gangsters can leave from different businesses and attack the same target';
    the attack is the sum of their power."""
    s = blank(4)
    x = business(s, 0, 2, [1, 1])
    y = business(s, 0, 3, [2])
    hideout(s, 0, 1)
    t = business(s, 2, 4)
    money(s, 2, 6)
    begin(s, 0, "attack")
    attack(s, f"+2:slot{t}", f"g1@slot{x}", f"g2@slot{y}", "g1@hideout")
    assert s.biz[0, 2, t] == 0 and s.money[0, 2] == 2 and s.money[0, 0] == 7
    assert s.hidden[0, 0].tolist() == [2, 1, 0, 0]
    assert s.biz_g[0, 0, x].tolist() == [1, 0, 0, 0]  # the one left at home stays


def test_one_attack_per_business_per_turn():
    """R3.1/R4.3: 'A business can only be attacked once'; other businesses remain targets,
    and the player may make as many attacks as they want."""
    s = blank(4)
    x = business(s, 0, 4, [1, 1, 1, 1])
    a = business(s, 1, 3, [3])
    b = business(s, 1, 2)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{a}", f"g1@slot{x}")
    assert s.biz[0, 1, a] == 3  # it survived the power-1 attack ...
    assert not can(s, f"target:+1:slot{a}")  # ... and cannot be attacked again
    assert can(s, f"target:+1:slot{b}")
    attack(s, f"+1:slot{b}", f"g1@slot{x}", f"g1@slot{x}")
    assert s.biz[0, 1, b] == 0


def test_one_attack_rule_business_on_top_then_hideout():
    """R3.1/R3.6 'REMEMBER THE ONE ATTACK RULE': after attacking the business above the
    Hideout, the Hideout cannot be attacked in the same turn; the Hideout does not respond."""
    s = blank(4)
    x = business(s, 0, 4, [1, 1, 1, 1])
    top = business(s, 1, 3, [1], covers_hideout=True)
    other = business(s, 1, 1)
    hideout(s, 1, 3)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{top}", f"g1@slot{x}", f"g1@slot{x}")
    # a normal attack: 2 against 1 + 3; the Hideout's 3 did not fight back (attackers: 1 dmg)
    assert s.biz[0, 1, top] == 3 and s.ho_g[0, 1].tolist() == [0, 0, 1, 0]
    assert s.hidden[0, 0].tolist() == [1, 0, 0, 0]
    assert not can(s, "target:+1:hideout") and not can(s, f"target:+1:slot{top}")
    assert can(s, f"target:+1:slot{other}")


def test_one_attack_rule_hideout_then_business_on_top():
    """R3.1/R3.6: attacking the Hideout also uses up the business above it."""
    s = blank(4)
    x = business(s, 0, 4, [1, 1, 1, 1])
    top = business(s, 1, 3, [], covers_hideout=True)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", f"g1@slot{x}")
    assert not can(s, f"target:+1:slot{top}") and not can(s, "target:+1:hideout")
    assert can(s, "target:+2:hideout")


# --- R3.2: damage ------------------------------------------------------------------------------
def test_weakest_first_and_leftover_damage_is_lost():
    """R3.2: damage goes to the weakest defender first; damage too small to kill the next
    gangster is lost (it does not wound it, and never reaches the business). Both sides at
    once: the defenders' 4 kills the attackers' 1 and 2, and 1 is lost on the 3."""
    s = blank(4)
    x = business(s, 0, 4, [1, 3])
    hideout(s, 0, 2)
    t = business(s, 1, 4, [2, 2])
    money(s, 1, 5)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g1@slot{x}", f"g3@slot{x}", "g2@hideout")
    # attack 6: one 2 dies (2), the second 2 dies (4), 2 left hits the Casino: 6 < 8
    assert s.biz[0, 1, t] == 4 and s.biz_g[0, 1, t].sum() == 0
    assert s.money[0, 1] == 5
    # defense 4: the attacking 1 dies (1), the 2 dies (3), 1 is lost against the 3
    assert s.hidden[0, 0].tolist() == [0, 0, 1, 0]
    assert s.discard[0, C.G1] == 1 and s.discard[0, C.G2] == 3


def test_leftover_damage_does_not_reach_a_stronger_defender():
    """R3.2: attack 3 against two power-2 defenders: one dies, the 1 left is lost; the
    other 2 is unhurt and the Casino is untouched."""
    s = blank(4)
    x = business(s, 0, 3, [3])
    t = business(s, 1, 4, [2, 2])
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g3@slot{x}")
    assert s.biz_g[0, 1, t].tolist() == [0, 1, 0, 0] and s.biz[0, 1, t] == 4


def test_survivors_heal_after_each_fight():
    """R3.2 'Gangsters who are not killed ... will not be damaged'; III.A 'full health as
    soon as the attack is resolved': a power-3 defender survives 2 damage twice in a row
    (4 in total), in two players' turns."""
    s = blank(4)
    business(s, 0, 2, [2])
    t = business(s, 1, 3, [3])
    business(s, 2, 2, [2])
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", "g2@slot0")
    assert s.biz_g[0, 1, t].tolist() == [0, 0, 1, 0]
    begin(s, 2, "attack")
    attack(s, f"+3:slot{t}", "g2@slot0")
    assert s.biz_g[0, 1, t].tolist() == [0, 0, 1, 0] and s.biz[0, 1, t] == 3
    # the attackers died to the 3 each time
    assert s.hidden[0, 0].sum() == 0 and s.hidden[0, 2].sum() == 0


def test_undefended_business_deals_no_damage():
    """III.B: 'when attacking businesses that do not have Gangsters on them, the attacker
    will not take any damage'."""
    s = blank(4)
    x = business(s, 0, 1, [1])
    t = business(s, 1, 4)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g1@slot{x}")
    assert s.hidden[0, 0].tolist() == [1, 0, 0, 0] and s.biz[0, 1, t] == 4


# --- R3.3 / R3.4: destruction and stealing --------------------------------------------------
def test_destroyed_when_damage_equals_total():
    """R3.3 (noirburg): 'equal to or greater than the total power of the gangsters in the
    business and the business's income': 2 against a bare Bootlegger destroys it."""
    s = blank(4)
    x = business(s, 0, 2, [2])
    t = business(s, 1, 2)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g2@slot{x}")
    assert s.biz[0, 1, t] == 0 and s.money[0, 0] == 5 and s.money[0, 1] == 1


def test_stealing_is_capped_by_the_defenders_money():
    """R3.4: the attacker steals the destroyed business's income 'if the player has money';
    'There are no consequences if the defending player cannot pay': min(income, money)."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    t = business(s, 1, 4)
    money(s, 1, 2)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g4@slot{x}")
    assert s.biz[0, 1, t] == 0 and s.money[0, 1] == 0 and s.money[0, 0] == 5
    assert s.alive[0, 1] == 1  # not eliminated for failing to pay (business, not Hideout)


def test_stealing_from_a_broke_defender_takes_nothing():
    """R3.4: a defender with no money pays nothing and stays in the game."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    t = business(s, 1, 3)
    money(s, 1, 0)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g4@slot{x}")
    assert s.biz[0, 1, t] == 0 and s.money[0, 0] == 3 and s.alive[0, 1] == 1


# --- R3.5: HIDDEN attackers ---------------------------------------------------------------
def test_attackers_become_hidden_and_free_their_space():
    """R3.5: surviving attackers are HIDDEN; 'Hidden Gangsters do not take up space in
    businesses', so a new gangster can be deployed where they were."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    t = business(s, 1, 1)
    give(s, 0, C.G4)
    money(s, 0, 5)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g4@slot{x}")
    assert s.hidden[0, 0, 3] == 1 and s.biz_g[0, 0, x].sum() == 0
    # no gangster left to attack with: the Attack step ends by itself (R2.5)
    assert s.phase[0] == C.PH_DEPLOY
    act(s, "deploy:gangster_4")  # the only place with room is taken at once (R2.5)
    assert s.biz_g[0, 0, x, 3] == 1 and s.money[0, 0] == 6 - 3


def hidden_return_position():
    s = blank(4)
    sp = business(s, 0, 3)  # room for 3
    hideout(s, 0, 1, 2)  # full
    hidden(s, 0, 3, 2)  # a 3 and a 2 come back: only one of them fits
    s.turn_no[0] = 4
    return s, sp


def test_hidden_gangsters_return_at_move_gangsters():
    """R3.5/R4.2: HIDDEN gangsters are placed again in the next Move Gangsters step; while
    one still fits somewhere the step cannot end."""
    s, sp = hidden_return_position()
    begin(s, 0, "move_gangsters")
    assert not can(s, "end")
    assert can(s, "from:g3@hidden") and can(s, "from:g2@hidden")
    act(s, "from:g3@hidden")  # only the Speakeasy has room: put down at once (R2.5)
    assert s.biz_g[0, 0, sp].tolist() == [0, 0, 1, 0] and s.phase[0] == C.PH_MOVE
    # the 2 fits nowhere now: the step may end, and it is discarded
    assert can(s, "end") and not can(s, "from:g2@hidden")
    act(s, "end")
    assert s.hidden[0, 0].sum() == 0 and s.discard[0, C.G2] == 1
    assert events(s, C.EV_MOVE_DISCARD) == [[0, 1, 0, 0, 0, 0, 0]]
    assert s.phase[0] == C.PH_ATTACK


def test_hidden_gangsters_with_no_place_are_discarded():
    """R4.2: 'Gangsters who run out of places to fit into are forced to be discarded'; with
    no room anywhere, ending Move Gangsters discards every HIDDEN gangster."""
    s = blank(4)
    hideout(s, 0, 3)
    hidden(s, 0, 1, 4)
    begin(s, 0, "move_gangsters")
    assert can(s, "end") and not can(s, "from:g1@hidden")
    act(s, "end")
    assert s.hidden[0, 0].sum() == 0
    assert s.discard[0, C.G1] == 1 and s.discard[0, C.G4] == 1


def test_hidden_attackers_return_on_the_next_turn():
    """R3.5: attackers 'return during the next Gangster Move phase': a full round later
    the player's Move Gangsters puts the HIDDEN 4 back on its Casino (the only place for
    it, so the core does it unasked, R2.5)."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    t = business(s, 1, 1)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g4@slot{x}")
    assert s.hidden[0, 0, 3] == 1
    for _ in range(200):
        if s.turn_no[0] == 8:
            break
        act(s, "end" if can(s, "end") else "pass")
    assert s.active[0] == 0 and s.turn_no[0] == 8 and s.phase[0] == C.PH_ATTACK
    assert s.hidden[0, 0].sum() == 0 and s.biz_g[0, 0, x].tolist() == [0, 0, 0, 1]
    assert events(s, C.EV_MOVE)[-1][:4] == [0, 4, C.PLACE_HIDDEN, x]


# --- R3.6: more Hideout attacks ------------------------------------------------------------
def test_breach_of_an_open_hideout():
    """R3.6: an open Hideout (no business on top) defends with 3 + its gangsters; an attack
    of 6 against 3 + 2 breaches: the defender pays (6 - 5) + die."""
    s = blank(4)
    x = business(s, 0, 4, [2, 2])
    business(s, 0, 2, [2])
    hideout(s, 1, 2)
    money(s, 1, 10)
    begin(s, 0, "attack")
    force_dice(s, 5)
    attack(s, "+1:hideout", f"g2@slot{x}", f"g2@slot{x}", "g2@slot1")
    assert events(s, C.EV_BREACH) == [[0, 1, 6, 5, 5, 606, 0]]
    assert s.money[0, 1] == 4 and s.money[0, 0] == 9
    # 3 + 2 damage to the attackers: two of the 2s die, 1 is lost
    assert s.hidden[0, 0].tolist() == [0, 1, 0, 0]


def test_failed_hideout_attack_fights_the_stack():
    """R3.6 (not breached; docs/RULES.md): the attackers fight the whole stack weakest
    first, the Hideout adds 3 to the damage they take; nobody pays a ransom."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    top = business(s, 1, 1, [1], covers_hideout=True)
    hideout(s, 1, 3)
    money(s, 1, 6)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", f"g4@slot{x}")
    # defense 3 + 1 + 3 + 1 = 8 > 4: no breach. The 4 damage kills the 1 and then the 3,
    # weakest first; the Moonshine Still (1 more) stands. The 4 takes 3 + 4 and dies.
    assert events(s, C.EV_BREACH) == []
    assert s.biz_g[0, 1, top].sum() == 0 and s.ho_g[0, 1].sum() == 0
    assert s.biz[0, 1, top] == 1 and s.ho_top[0, 1] == top
    assert s.money[0, 1] == 6 and s.alive[0, 1] == 1
    assert s.hidden[0, 0].sum() == 0 and s.discard[0, C.G4] == 1


# --- R3.8: elimination ----------------------------------------------------------------------
def test_elimination_takes_every_card_and_the_hideout():
    """R3.8: the player who destroys a Hideout takes all the loser's cards into hand: hand,
    businesses and gangsters on the table, HIDDEN gangsters; the Hideout is a trophy, and a
    trophy the loser held passes on too. R6.3: the countdown starts (trigger 1)."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    business(s, 0, 1, [1])  # stays at home
    hideout(s, 0, 3)
    give(s, 1, C.G3, C.B2)  # seat 1: hand of 2, two businesses, a hidden 2, a trophy
    business(s, 1, 1, [1])
    business(s, 1, 3, [1, 2])
    hidden(s, 1, 2)
    money(s, 1, 0)
    s.trophies[0, 1] = 1
    begin(s, 0, "attack")
    before = s.hand[0, 0].copy()
    force_dice(s, 1)
    attack(s, "+1:hideout", f"g4@slot{x}", "g3@hideout")
    assert s.alive[0, 1] == 0
    got = s.hand[0, 0] - before
    assert got[C.G3] == 1 and got[C.B2] == 1 and got[C.B1] == 1 and got[C.B3] == 1
    assert got[C.G1] == 2 and got[C.G2] == 2
    assert got.sum() == 8
    assert s.hand[0, 1].sum() == 0 and s.biz[0, 1].sum() == 0 and s.hidden[0, 1].sum() == 0
    assert s.trophies[0, 0] == 2 and s.trophies[0, 1] == 0 and s.kills[0, 0] == 1
    assert events(s, C.EV_ELIMINATED) == [[1, 0, 8, 0, 0, 0, 0]]
    assert s.cd_on[0] == 1 and s.cd_holder[0] == 0 and s.cd_tokens[0] == 4
    assert events(s, C.EV_COUNTDOWN) == [[0, C.CD_HIDEOUT, 0, 0, 0, 0, 0]]
    # the eliminated seat is skipped from now on: seat 0 may not target it
    assert not can(s, "target:+1:hideout") and can(s, "target:+2:hideout")


def test_second_elimination_wins_the_war():
    """R6.1 'The player who removes two opponents from the game by destroying their
    HIDEOUTS wins'; R6.5 rewards: the winner +1, the others share -1."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    hideout(s, 1, 1)
    money(s, 1, 0)
    # seat 3 was eliminated by seat 0 earlier
    money(s, 3, 0)
    s.alive[0, 3] = 0
    s.kills[0, 0] = 1
    s.trophies[0, 0] = 1
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 0, 4, 2
    begin(s, 0, "attack")
    force_dice(s, 2)
    rewards, done = attack(s, "+1:hideout", f"g4@slot{x}")
    assert done and s.phase[0] == C.PH_GAME_OVER and s.win_reason[0] == C.WIN_WAR
    assert s.winners[0].tolist() == [1, 0, 0, 0, 0, 0]
    assert np.allclose(rewards[:4], [1, -1 / 3, -1 / 3, -1 / 3])
