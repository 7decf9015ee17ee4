"""Scenarios for the rules-v3 changes: `original` attacks a building at most once a turn,
whichever target reaches it (R3.7, D7); a Turncoat is aimed at a place and does not follow a
gangster that an earlier card moved (R5.3, D15); `noirbrough` may discard a returning AWAY
gangster instead of placing it (R4.2, `away_discard`)."""

import pytest

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.log import game_log
from noir_env.core.observe import O_RULES, OBS_SIZE
from noir_env.core.rules import NUM_OBSERVED_RULE_FIELDS, rules_row
from noir_env.game import get_game
from noir_env.spaces import ACTION_NAMES, NUM_ACTIONS, action_id
from noir_env.text import legal_moves

from .helpers import (
    act,
    attack,
    begin,
    blank,
    business,
    can,
    events,
    give,
    hidden,
    legal,
    money,
    pass_all,
)


# --- 1. one attack per building, `original` (R3.7, D7) -------------------------------------------
def _original_speakeasy_on_the_hideout():
    """Seat 1's Hideout lies under a Speakeasy with a 2; seat 0 has two 1s and a 4 (which
    keeps the Attack step open once the 1s have attacked)."""
    s = blank(4, "original")
    business(s, 0, 4, gangsters=[1, 1])
    business(s, 0, 4, gangsters=[4])
    top = business(s, 1, 3, gangsters=[2], covers_hideout=True)
    money(s, 1, 5)
    begin(s, 0, "attack")
    return s, top


def test_original_a_hideout_attack_uses_up_the_business_on_top():
    """R3.7 [ORIG §Attack "never more than once to the same building"; "In order to attack a
    buried hideout, the business on top of it must be razed first"]: seat 0 declares the
    Hideout and fights the Speakeasy with 1 + 1; the raze fails (2 is not above 2 + 3).
    The Speakeasy has been fought this turn: it cannot be declared again (rules v2 let seat 0
    attack it a second time), nor can the Hideout it still covers."""
    s, top = _original_speakeasy_on_the_hideout()
    attack(s, "+1:hideout", "g1@slot0", "g1@slot0")
    assert [e[:3] for e in events(s, C.EV_COMBAT)] == [[0, 1, top]]
    assert s.biz[0, 1, top] == 3 and s.phase[0] == C.PH_ATTACK
    assert not can(s, f"target:+1:slot{top}") and not can(s, "target:+1:hideout")
    assert can(s, "target:+2:hideout")  # the other players' buildings stay targets


def test_original_an_attacked_business_keeps_the_hideout_under_it_out_of_reach():
    """R3.7 [ORIG "never more than once to the same building"]: seat 0 declares the
    Speakeasy itself and the raze fails. While it covers the Hideout, the Hideout cannot be
    declared: that attack would fight the Speakeasy a second time (rules v2 allowed it)."""
    s, top = _original_speakeasy_on_the_hideout()
    attack(s, f"+1:slot{top}", "g1@slot0", "g1@slot0")
    assert s.biz[0, 1, top] == 3 and len(events(s, C.EV_COMBAT)) == 1
    assert not can(s, "target:+1:hideout") and not can(s, f"target:+1:slot{top}")


def test_original_a_razed_business_leaves_the_hideout_open_to_attack():
    """R3.7 / D40 [ORIG "After the business is razed, remaining attackers can continue
    attacking the hideout"]: once the business on top is razed, the Hideout is in the open
    and is a building not yet attacked: here the Speakeasy was declared itself and razed
    by 4 + 1 + 1 = 6 > 2 + 3, and the Hideout may still be declared."""
    s = blank(4, "original")
    business(s, 0, 4, gangsters=[4])
    business(s, 0, 2, gangsters=[1, 1])
    business(s, 0, 3, gangsters=[3])
    top = business(s, 1, 3, gangsters=[2], covers_hideout=True)
    money(s, 1, 5)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{top}", "g4@slot0", "g1@slot1", "g1@slot1")
    assert s.biz[0, 1, top] == 0 and s.ho_top[0, 1] == -1
    assert can(s, "target:+1:hideout")


@pytest.mark.parametrize("rules", ["noirburg", "noirbrough"])
def test_breach_presets_never_fight_the_hideout_stack_twice(rules):
    """D7 [NB-EN p.10 "A player who attacks the Business above the Hideout cannot attack
    the Hideout in the same turn"; WEB §2 "Each target can only be attacked once per turn"]:
    in the breach rules the business on top and the Hideout are one target. After either
    was declared (both fights fail here), neither can be declared again: one COMBAT event
    per stack, whichever came first."""
    for first, second in (("slot", "hideout"), ("hideout", "slot")):
        s = blank(4, rules)
        business(s, 0, 4, gangsters=[1, 1])
        business(s, 0, 4, gangsters=[4])
        top = business(s, 1, 3, gangsters=[2], covers_hideout=True)
        begin(s, 0, "attack")
        where = {"slot": f"slot{top}", "hideout": "hideout"}
        attack(s, f"+1:{where[first]}", "g1@slot0", "g1@slot0")
        assert len(events(s, C.EV_COMBAT)) == 1 and s.biz[0, 1, top] == 3
        assert not can(s, f"target:+1:{where[second]}"), (rules, first)
        assert not can(s, f"target:+1:{where[first]}"), (rules, first)


# --- 2. a Turncoat is aimed at a place (R5.3, D15) ------------------------------------------------
def test_turncoat_does_not_follow_a_gangster_kidnapped_before_it():
    """D15 [NB-EN p.9 Turncoat takes a gangster "deployed on a business or is HIDDEN"; NB-EN
    p.8 "the first card on the table is resolved first"]: seat 0 kidnaps seat 2's 2 on its
    Speakeasy, then seat 1 aims a Turncoat at that 2 on the Speakeasy. At the close the
    kidnap hides the 2 first; the Turncoat is aimed at the Speakeasy, finds no 2 there and
    takes nothing, though the 2 is now HIDDEN, which a Turncoat may take."""
    s = blank(4)
    t = business(s, 2, 3, [2])
    business(s, 0, 1)
    give(s, 0, C.POLICE, C.B1)
    give(s, 1, C.TURNCOAT)
    begin(s, 0, "deploy")
    act(s, "play:police")  # the only target: a response window opens (R5.2c)
    assert s.win_kind[0] == C.WIN_RESPONSE and s.actor[0] == 1
    act(s, "play:turncoat")  # its only target and power, chosen unasked (R2.5); it closes
    assert events(s, C.EV_POLICE) == [[0, 2, t, 1, 0, 0, 0]]
    assert events(s, C.EV_TURNCOAT) == []
    assert events(s, C.EV_TURNCOAT_MISS) == [[1, 2, t, 2, 0, 0, 0]]
    assert s.hidden[0, 2].tolist() == [0, 1, 0, 0] and s.hand[0, 1, C.G2] == 0
    assert s.discard[0, C.TURNCOAT] == 1  # the card is spent


def _noirbrough_attack_on_seat_1():
    """Seat 0 attacks seat 1's Bootlegger with a 2; seat 1 holds a Police and a Turncoat."""
    s = blank(4, "noirbrough")
    business(s, 0, 3, [2])
    business(s, 0, 1, [1])
    t = business(s, 1, 2)
    business(s, 2, 1, [1])  # another target, so that the Turncoat's target is asked for
    give(s, 1, C.POLICE, C.TURNCOAT)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", "g2@slot0")
    assert s.win_kind[0] == C.WIN_ATTACK and s.actor[0] == 1
    return s, t


def test_noirbrough_turncoat_on_attackers_a_police_cancel_hid_first_takes_nothing():
    """D15 [WEB §C "Turncoat can also be used to take Gangsters involved in an attack";
    "Police ... Block an attack, rendering attacking Gangsters AWAY"]: seat 1 cancels the
    attack, then aims a Turncoat at the attacking 2. The cancel acts first and makes the 2
    HIDDEN (AWAY): there is no attack left, so the Turncoat takes nothing, though it could
    have been aimed at seat 0's HIDDEN gangsters."""
    s, t = _noirbrough_attack_on_seat_1()
    act(s, "play:police_cancel")  # seats 2, 3 and 0 hold nothing: seat 1 is asked again
    assert s.actor[0] == 1 and s.phase[0] == C.PH_WINDOW
    act(s, "play:turncoat", "target:+3:attack")  # the power (2) is the only one there
    pass_all(s)
    assert len(events(s, C.EV_CANCELLED)) == 1 and events(s, C.EV_TURNCOAT) == []
    assert events(s, C.EV_TURNCOAT_MISS) == [[1, 0, C.TGT_ATTACK, 2, 0, 0, 0]]
    assert s.hidden[0, 0].tolist() == [0, 1, 0, 0] and s.hand[0, 1, C.G2] == 0
    assert s.biz[0, 1, t] == 2 and events(s, C.EV_COMBAT) == []


def test_noirbrough_turncoat_on_attackers_before_a_police_cancel_takes_one():
    """D15, the other order: the Turncoat played first takes the attacking 2 at the close;
    the cancel then finds the attack empty (nothing is left to hide)."""
    s, t = _noirbrough_attack_on_seat_1()
    act(s, "play:turncoat", "target:+3:attack")
    assert s.actor[0] == 1 and s.phase[0] == C.PH_WINDOW
    act(s, "play:police_cancel")
    pass_all(s)
    assert events(s, C.EV_TURNCOAT) == [[1, 0, C.TGT_ATTACK, 2, 0, 0, 0]]
    assert s.hand[0, 1, C.G2] == 1 and s.hidden[0, 0].sum() == 0
    assert s.biz[0, 1, t] == 2 and events(s, C.EV_COMBAT) == []


# --- 3. noirbrough: AWAY gangsters may be discarded (R4.2) ----------------------------------------
def _returning(rules: str):
    """Seat 0's Move Gangsters step: an empty Speakeasy, a HIDDEN 1 and a HIDDEN 2."""
    s = blank(4, rules)
    business(s, 0, 3)
    hidden(s, 0, 1, 2)
    begin(s, 0, "move_gangsters")
    return s


def test_noirbrough_a_returning_gangster_may_be_discarded():
    """R4.2 [WEB §1 "AWAY Gangsters can be reassigned to businesses or discarded"]: seat 0
    picks up its HIDDEN 2 and discards it instead of placing it (`discard_away`); the 1 that
    fits must still come back before the step can end."""
    s = _returning("noirbrough")
    act(s, "from:g2@hidden")
    assert set(legal(s)) == {"to:slot0", "to:hideout", "discard_away"}
    act(s, "discard_away")
    assert s.discard[0, C.G2] == 1 and s.biz_g[0, 0, 0].sum() == 0
    assert events(s, C.EV_AWAY_DISCARD) == [[0, 2, 0, 0, 0, 0, 0]]
    assert "player_0 discards a hidden 2-gangster instead of bringing it back" in game_log(s)
    # the 1 fits, so `end` is not legal: its pick-up was the only move, taken unasked (R2.5)
    assert s.phase[0] == C.PH_MOVE_TO and s.sel_a[0] == 0 and s.hidden[0, 0].sum() == 0
    act(s, "to:slot0", "end")
    assert s.biz_g[0, 0, 0].tolist() == [1, 0, 0, 0] and s.discard[0, C.G2] == 1


def test_noirbrough_a_gangster_left_away_in_the_step_may_be_discarded():
    """R4.2 [WEB §1 "Gangsters not assigned to a business are considered AWAY ... AWAY
    Gangsters can be reassigned to businesses or discarded"]: a gangster taken off its
    business and put aside is AWAY like the returning ones."""
    s = blank(4, "noirbrough")
    business(s, 0, 3, [3])
    begin(s, 0, "move_gangsters")
    act(s, "from:g3@slot0", "to:aside")  # the 3 must come back: picked up unasked (R2.5)
    assert s.phase[0] == C.PH_MOVE_TO and s.sel_b[0] == C.PLACE_HIDDEN
    act(s, "discard_away", "end")
    assert s.biz_g[0, 0, 0].sum() == 0 and s.hidden[0, 0].sum() == 0
    assert s.discard[0, C.G3] == 1


@pytest.mark.parametrize("rules", ["noirburg", "original"])
def test_other_presets_place_every_returning_gangster_that_fits(rules):
    """R4.2 [NB-EN p.5 §B HIDDEN gangsters "are placed in their businesses or discarded.
    Gangsters who run out of places to fit into are forced to be discarded"; ORIG "you have
    to have enough businesses to accommodate your gangsters or they will be discarded"]:
    no voluntary discard; the same position under `noirbrough` offers it."""
    for preset, offered in ((rules, False), ("noirbrough", True)):
        s = blank(4, preset)
        business(s, 0, 3)
        business(s, 0, 2)
        hidden(s, 0, 2)
        begin(s, 0, "move_gangsters")
        act(s, "from:g2@hidden")
        want = {"to:slot0", "to:slot1", "to:hideout"} | ({"discard_away"} if offered else set())
        assert set(legal(s)) == want, preset


def test_discard_away_is_a_new_action_and_the_observation_is_unchanged():
    """R8: `discard_away` is appended (id 384) so every earlier id keeps its meaning; the
    observation keeps its 2631 values, its rules part the fields of rules v2 (R7.1)."""
    assert NUM_ACTIONS == 385 and action_id("discard_away") == 384
    assert ACTION_NAMES[383] == "continue_into_hideout" and ACTION_NAMES[1] == "end"
    assert OBS_SIZE == 2631 and NUM_OBSERVED_RULE_FIELDS == 31
    s = core.init(1, 4, "noirbrough", seeds=3)
    row = rules_row(core.PRESETS["noirbrough"])
    assert row[-1] == 1 and core.observe(s)[0, O_RULES : O_RULES + 31].tolist() == row[:31].tolist()


def test_discard_away_in_the_text_interface():
    """The text interface names the move and what it does for the seat that decides."""
    s = _returning("noirbrough")
    act(s, "from:g2@hidden")
    moves = {m.name: m.meaning for m in legal_moves(get_game("noir"), s, 0, ["a", "b", "c", "d"])}
    assert moves["discard_away"] == "discard your hidden 2-gangster instead of bringing it back"
