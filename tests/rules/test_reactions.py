"""Rulebook scenarios for reaction cards (R5): windows, Police, Bribe, Drive-by, Turncoat and
Poker Night."""

from noir_env import core
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
    legal,
    money,
)


# --- R5.1 / R5.2: when reactions are played ----------------------------------------------------
def test_end_of_turn_window_asks_everyone_clockwise():
    """R2.2/R5.1 reactions 'can be used even on another player's turn'; R5.2(b): at the end of a
    turn a window asks each living player in turn, clockwise from the next one and ending with
    the active player; players without a playable reaction pass unasked (R2.5)."""
    s = blank(4)
    for q in (1, 2, 3):
        give(s, q, C.DRIVEBY)
    business(s, 0, 2)
    begin(s, 0, "draw")
    act(s, "end")
    assert s.phase[0] == C.PH_WINDOW and s.win_kind[0] == C.WIN_END_TURN
    seen = []
    while s.phase[0] == C.PH_WINDOW:
        seen.append(int(s.actor[0]))
        assert can(s, "play:driveby")
        act(s, "pass")
    assert seen == [1, 2, 3]  # seat 0 holds nothing: passes unasked
    assert s.active[0] == 1 and s.turn_no[0] == 5


def test_a_play_reopens_the_window():
    """R5.2: after a reaction is played everyone must pass again, the player who played it
    last, before the window closes."""
    s = blank(4)
    give(s, 1, C.DRIVEBY)
    give(s, 2, C.DRIVEBY, C.DRIVEBY)
    give(s, 3, C.DRIVEBY)
    business(s, 0, 2)
    business(s, 0, 1)
    begin(s, 0, "draw")
    act(s, "end", "pass")  # seat 1 passes
    assert s.actor[0] == 2
    act(s, "play:driveby", "target:+2:slot0")  # seat 2 shoots at seat 0's Bootlegger
    order = []
    while s.phase[0] == C.PH_WINDOW:
        order.append(int(s.actor[0]))
        act(s, "pass")
    assert order == [3, 1, 2]
    assert len(events(s, C.EV_DRIVEBY)) == 1 and s.active[0] == 1


def test_reaction_at_own_decision_point_opens_a_response_window():
    """R5.2(c): a reaction played at one's own decision point opens a response window; when
    it closes the player is back in the same step."""
    s = blank(4)
    give(s, 0, C.DRIVEBY)
    give(s, 0, C.B1)
    give(s, 2, C.BRIBE)  # holds a reaction but none is playable: not asked
    business(s, 1, 2)
    business(s, 2, 3)
    begin(s, 0, "deploy")
    force_dice(s, 2)
    act(s, "play:driveby", "target:+1:slot0")
    assert s.phase[0] == C.PH_DEPLOY and s.actor[0] == 0
    assert events(s, C.EV_DRIVEBY) == [[1, 0, 2, 0, 1, 2, 0]]
    assert s.biz[0, 1, 0] == 0 and s.discard[0, C.DRIVEBY] == 1


# --- R5.4 / R5.5: Police and Bribe ---------------------------------------------------------------
def police_position(seat0_cards=(), seat1_cards=(C.POLICE,)):
    """Seat 0 attacks seat 1's open Hideout (defense 3) with a 4; seat 0 keeps a 1 at home."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    give(s, 0, *seat0_cards)
    give(s, 1, *seat1_cards)
    money(s, 1, 10)
    begin(s, 0, "attack")
    return s, x


def test_police_cancels_an_attack_on_a_hideout():
    """R5.4(b): Police blocks an attack on a Business or Hideout: 'the attacking Gangsters
    will not deal any damage but will remain in a HIDDEN state'; III.D: this is the only
    use of Police against a Hideout."""
    s, x = police_position()
    attack(s, "+1:hideout", f"g4@slot{x}")
    assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 1 and s.win_kind[0] == C.WIN_ATTACK
    assert can(s, "play:police_cancel")
    act(s, "play:police_cancel")
    assert events(s, C.EV_CANCELLED) == [[1, 0, 1, C.TGT_HIDEOUT, 0, 0, 0]]
    assert events(s, C.EV_BREACH) == [] and s.money[0, 1] == 10
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 1]
    assert s.discard[0, C.POLICE] == 1
    assert s.phase[0] == C.PH_ATTACK and not can(s, "target:+1:hideout")


def test_police_cannot_kidnap_from_a_hideout():
    """III.D 'The Police card can only be used to block incoming attacks to a Hideout';
    R5.4(a) kidnaps target businesses only."""
    s = blank(4)
    give(s, 0, C.POLICE)
    hideout(s, 1, 1, 2)
    business(s, 2, 2, [2])
    business(s, 3, 1, [1])
    begin(s, 0, "deploy")
    act(s, "play:police")
    assert sorted(legal(s)) == ["target:+2:slot0", "target:+3:slot0"]


def test_police_cancel_only_against_an_attack():
    """R5.4(b): the blocking use needs an attack to block."""
    s = blank(4)
    give(s, 0, C.POLICE)
    business(s, 1, 2)
    begin(s, 0, "deploy")
    assert not can(s, "play:police_cancel") and not can(s, "play:police")


def test_bribe_cancels_the_police():
    """R5.5: 'Bribe is used to counter and disable the Police card'; the attack goes on."""
    s, x = police_position(seat0_cards=(C.BRIBE,))
    force_dice(s, 2)
    attack(s, "+1:hideout", f"g4@slot{x}")
    act(s, "play:police_cancel")
    assert s.actor[0] == 0 and can(s, "play:bribe")  # seats 2 and 3 passed unasked
    act(s, "play:bribe")  # the only Police in the queue: `bribe:1` is taken unasked
    assert events(s, C.EV_BRIBE) == [[0, 0, 0, 1, 0, 0, 0]]
    assert events(s, C.EV_CANCELLED) == []
    # 4 against 3: breached, seat 1 pays (4 - 3) + 2
    assert events(s, C.EV_BREACH) == [[0, 1, 4, 3, 2, 303, 0]]
    assert s.money[0, 1] == 7 and s.discard[0, C.BRIBE] == 1 and s.discard[0, C.POLICE] == 1


def test_second_bribe_restores_the_police():
    """R5.5: 'A Bribe card can be disabled with another Bribe card': the Police stands
    again and the attack is cancelled."""
    s, x = police_position(seat0_cards=(C.BRIBE,), seat1_cards=(C.POLICE, C.BRIBE))
    attack(s, "+1:hideout", f"g4@slot{x}")
    act(s, "play:police_cancel", "play:bribe")
    assert s.actor[0] == 1 and can(s, "play:bribe")
    act(s, "play:bribe")
    assert [e[1] for e in events(s, C.EV_BRIBE)] == [0, 1]
    assert len(events(s, C.EV_CANCELLED)) == 1 and events(s, C.EV_BREACH) == []
    assert s.money[0, 1] == 10 and s.hidden[0, 0, 3] == 1


def test_bribe_needs_a_police_to_cancel():
    """R5.5: Bribe only counters Police: with no Police in play it cannot be played."""
    s, x = police_position(seat1_cards=(C.BRIBE,))
    attack(s, "+1:hideout", f"g4@slot{x}")
    assert s.phase[0] == C.PH_ATTACK  # seat 1 was not even asked
    assert s.hand[0, 1, C.BRIBE] == 1


def test_police_kidnap_makes_defenders_hidden():
    """R5.4(a): Police makes a business vulnerable by putting its gangsters in the HIDDEN
    state; the undefended Casino then falls to a 4 that could not have taken it (4 < 8)."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    give(s, 0, C.POLICE)
    t = business(s, 1, 4, [2, 2])
    money(s, 1, 5)
    business(s, 2, 1, [1])  # a second possible kidnap target
    begin(s, 0, "attack")
    act(s, "play:police", f"target:+1:slot{t}")
    assert events(s, C.EV_POLICE) == [[0, 1, t, 2, 0, 0, 0]]
    assert s.biz_g[0, 1, t].sum() == 0 and s.hidden[0, 1].tolist() == [0, 2, 0, 0]
    assert s.phase[0] == C.PH_ATTACK and s.actor[0] == 0
    attack(s, f"+1:slot{t}", f"g4@slot{x}")
    assert s.biz[0, 1, t] == 0 and s.money[0, 0] == 7 and s.hidden[0, 0, 3] == 1
    assert s.hidden[0, 1].tolist() == [0, 2, 0, 0]  # the kidnapped ones were not there


def test_bribe_stops_a_kidnap():
    """R5.5: a Bribe against a kidnapping Police: the gangsters stay."""
    s = blank(4)
    business(s, 0, 1, [1])
    give(s, 0, C.POLICE)
    t = business(s, 1, 4, [2, 2])
    give(s, 1, C.BRIBE)
    business(s, 2, 1, [1])
    begin(s, 0, "attack")
    act(s, "play:police", f"target:+1:slot{t}")
    assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 1
    act(s, "play:bribe")
    assert s.biz_g[0, 1, t].tolist() == [0, 2, 0, 0] and events(s, C.EV_POLICE) == []


def test_police_acts_before_drivebys_at_the_close():
    """R5.3: when a window closes a standing Police acts first, then the Drive-bys roll: the
    kidnapped 3 escapes, and the Drive-by's 4 alone razes the Casino (4 >= 4)."""
    s = blank(4)
    business(s, 0, 1, [1])
    give(s, 0, C.POLICE)
    give(s, 1, C.DRIVEBY)
    t = business(s, 2, 4, [3])
    business(s, 3, 1, [1])
    begin(s, 0, "attack")
    force_dice(s, 4)
    act(s, "play:police", f"target:+2:slot{t}")
    assert s.actor[0] == 1
    act(s, "play:driveby", f"target:+1:slot{t}")
    assert s.biz[0, 2, t] == 0 and s.hidden[0, 2].tolist() == [0, 0, 1, 0]
    assert events(s, C.EV_DRIVEBY) == [[2, t, 4, 0, 1, 4, 0]]


# --- R5.6: Drive-by -----------------------------------------------------------------------------
def test_two_players_drivebys_roll_together():
    """R5.6: 'More than one Drive-By card can be used simultaneously by one or more players
    ... the total damage from the dice rolled is dealt simultaneously'; nothing is stolen.
    2 + 5 = 7 razes a Casino with a 3 on it (7 >= 3 + 4), which each die alone could not."""
    s = blank(4)
    business(s, 0, 1)
    give(s, 0, C.DRIVEBY, C.B1)
    give(s, 1, C.DRIVEBY)
    t = business(s, 2, 4, [3])
    money(s, 2, 5)
    business(s, 3, 1)  # a second Drive-by target, so the target is a real choice
    begin(s, 0, "deploy")
    force_dice(s, 2, 5)
    act(s, "play:driveby", f"target:+2:slot{t}")
    assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 1
    assert s.rq_n[0] == 1 and s.rq_dice[0, 0] == 1  # declared, not rolled yet
    act(s, "play:driveby", f"target:+1:slot{t}")
    assert events(s, C.EV_DRIVEBY) == [[2, t, 7, 1, 1, 4, 0]]  # one roll of 7 in total
    assert s.biz[0, 2, t] == 0 and s.money[0, 2] == 5 and s.money[0, 0] == 3
    assert s.phase[0] == C.PH_DEPLOY and s.discard[0, C.DRIVEBY] == 2


def test_single_driveby_kills_weakest_first():
    """R5.6: 'Damage is distributed starting with the weakest Gangster': 5 on a Casino with
    a 1 and a 3 kills both, the 1 left over does not raze it (5 < 8)."""
    s = blank(4)
    give(s, 0, C.DRIVEBY)
    t = business(s, 1, 4, [1, 3])
    business(s, 2, 1)
    begin(s, 0, "deploy")
    force_dice(s, 5)
    act(s, "play:driveby", f"target:+1:slot{t}")
    assert s.biz[0, 1, t] == 4 and s.biz_g[0, 1, t].sum() == 0
    assert events(s, C.EV_DRIVEBY) == [[1, t, 5, 2, 0, 4, 0]]


def test_driveby_never_targets_a_hideout():
    """R5.6/III.D: 'Drive-by is not allowed on the Hideout'; with no business in play the
    card cannot be played at all."""
    s = blank(4)
    give(s, 0, C.DRIVEBY)
    hideout(s, 1, 1)
    begin(s, 0, "deploy")
    assert not can(s, "play:driveby")
    business(s, 1, 1)
    business(s, 2, 1)
    begin(s, 0, "deploy")
    act(s, "play:driveby")
    assert not any(can(s, f"target:+{r}:hideout") for r in (1, 2, 3))
    assert can(s, "target:+1:slot0") and can(s, "target:+2:slot0")


# --- R5.7: Turncoat ------------------------------------------------------------------------------
# the printed rulebook's attack with the web rules' Turncoat on attackers (D15, rules v2)
TURNCOAT_ON_ATTACKERS = core.NOIRBURG.replace(turncoat_attackers=True)


def turncoat_position(defender_has_casino: bool):
    """Seat 0 attacks seat 1's Bootlegger with 4 + 2 + 1; seat 1 holds a Turncoat."""
    s = blank(4, TURNCOAT_ON_ATTACKERS)
    business(s, 0, 4, [4])
    business(s, 0, 2, [2])
    hideout(s, 0, 1)
    t = business(s, 1, 2)
    if defender_has_casino:
        business(s, 1, 4)
    give(s, 1, C.TURNCOAT)
    money(s, 1, 5)
    business(s, 2, 1, [1])  # another gangster a Turncoat could take
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", "g4@slot0", "g2@slot1", "g1@hideout")
    assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 1
    act(s, "play:turncoat", "target:+3:attack")
    return s, t


def test_turncoat_power_4_needs_a_casino():
    """R5.7(ii): 'To take a 4 power Gangster, the player playing the Turncoat card must
    have deployed one Casino card.'"""
    s, _ = turncoat_position(defender_has_casino=False)
    assert s.phase[0] == C.PH_TURNCOAT_POWER
    assert can(s, "power:1") and can(s, "power:2") and not can(s, "power:4")


def test_turncoat_takes_an_attacking_gangster():
    """R5.7 (`turncoat_attackers`): a Turncoat takes any gangster on a business or HIDDEN,
    including one in an attack: queued in the window, it acts at the close before the attack
    (R5.3): the 4 leaves the attack for seat 1's hand; the 2 + 1 left raze the Bootlegger."""
    s, t = turncoat_position(defender_has_casino=True)
    assert can(s, "power:4")
    act(s, "power:4")
    assert s.hand[0, 1, C.G4] == 1 and s.discard[0, C.TURNCOAT] == 1
    assert events(s, C.EV_TURNCOAT) == [[1, 0, C.TGT_ATTACK, 4, 0, 0, 0]]
    assert s.phase[0] != C.PH_WINDOW
    assert events(s, C.EV_COMBAT)[0][3] == 3  # attack of 3
    assert s.biz[0, 1, t] == 0 and s.money[0, 1] == 3
    assert s.hidden[0, 0].tolist() == [1, 1, 0, 0]


def test_turncoat_cannot_take_hideout_gangsters():
    """R5.7(i): 'Gangsters in the Hideout ... cannot be targeted by the Turncoat card'."""
    s = blank(4)
    give(s, 0, C.TURNCOAT)
    hideout(s, 1, 1, 2)
    hideout(s, 2, 3)
    begin(s, 0, "deploy")
    assert not can(s, "play:turncoat")
    business(s, 3, 2, [2])
    begin(s, 0, "deploy")
    act(s, "play:turncoat")
    # the only target left: taken without asking (R2.5)
    assert s.hand[0, 0, C.G2] == 1 and s.biz_g[0, 3, 0].sum() == 0
    assert s.ho_g[0, 1].tolist() == [1, 1, 0, 0] and s.ho_g[0, 2].tolist() == [0, 0, 1, 0]


def test_turncoat_takes_hidden_gangsters():
    """R5.7: 'Hidden Gangsters can be targeted with the TURNCOAT card.'"""
    s = blank(4)
    give(s, 0, C.TURNCOAT)
    hidden(s, 2, 3, 1)
    business(s, 1, 1, [1])
    begin(s, 0, "deploy")
    act(s, "play:turncoat")
    assert can(s, "target:+2:hidden") and can(s, "target:+1:slot0")
    act(s, "target:+2:hidden", "power:3")
    assert s.hand[0, 0, C.G3] == 1 and s.hidden[0, 2].tolist() == [1, 0, 0, 0]


# --- R5.8: Poker Night -------------------------------------------------------------------------
def poker_position(turn_no=None, countdown=False):
    s = blank(4)
    give(s, 0, C.POKER, C.B1)  # the Moonshine Still keeps the Deploy step open
    business(s, 0, 1)
    money(s, 0, 5)
    money(s, 1, 4)
    money(s, 2, 1)  # fewer than two coins: not eligible
    money(s, 3, 2)
    if countdown:
        s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 2, 4, 2
    begin(s, 0, "deploy", turn_no=turn_no)
    return s


def test_poker_night_stakes_and_host_advantage():
    """R5.8: each player with two or more coins stakes two; the host rolls two dice and keeps
    the higher, the others one; the highest roll takes the pot. The host's 1 and 5 count as
    5 and beat seat 1's 4 and seat 3's 3; seat 2 (one coin) does not play."""
    s = poker_position()
    force_dice(s, 1, 5, 4, 3)  # host, host again, seat 1, seat 3
    act(s, "play:poker_night")
    assert events(s, C.EV_POKER) == [[0, 0, 6, 0, 0, 0, 0]]
    assert s.money[0].tolist()[:4] == [9, 2, 1, 0]
    assert s.phase[0] == C.PH_DEPLOY and s.actor[0] == 0
    assert s.discard[0, C.POKER] == 1 and s.removed[0, C.POKER] == 0


def test_poker_night_tie_rerolls_among_the_tied():
    """R5.8: 'If more than one player rolls the highest dice, they roll one die each until
    the tie is broken' (the host keeps no advantage in the re-roll)."""
    s = poker_position()
    force_dice(s, 1, 5, 6, 6, 2, 4)  # seats 1 and 3 tie on 6, then roll 2 and 4
    act(s, "play:poker_night")
    assert events(s, C.EV_POKER) == [[0, 3, 6, 0, 0, 0, 0]]
    assert s.money[0].tolist()[:4] == [3, 2, 1, 6]


def test_poker_night_not_in_round_one():
    """R5.8: 'Not available in the first round'."""
    s = poker_position(turn_no=0)
    assert not can(s, "play:poker_night")
    s = poker_position(turn_no=4)
    assert can(s, "play:poker_night")


def test_poker_night_is_boxed_once_the_countdown_runs():
    """R5.8 (noirburg, Turkish text): once the countdown has started a played Poker Night
    goes back into the box instead of the discard pile."""
    s = poker_position(countdown=True)
    force_dice(s, 6, 6, 1, 1)
    act(s, "play:poker_night")
    assert s.removed[0, C.POKER] == 1 and s.discard[0, C.POKER] == 0
    assert s.money[0, 0] == 9


def test_poker_night_on_another_players_turn():
    """R5.1: Poker Night is a reaction, played in another player's window too."""
    s = blank(4)
    give(s, 2, C.POKER)
    business(s, 0, 1)
    money(s, 2, 4)
    begin(s, 0, "draw")
    act(s, "end")
    assert s.phase[0] == C.PH_WINDOW and s.actor[0] == 2
    force_dice(s, 1, 1, 6, 6, 1)  # seats 0, 1, the host twice, seat 3
    act(s, "play:poker_night")
    assert events(s, C.EV_POKER)[0][:3] == [2, 2, 8]
    assert s.money[0, 2] == 10
