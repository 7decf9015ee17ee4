"""Where the `noirbrough` (current web rules) and `original` (designers' blog) presets differ
from the printed Noirburg rulebook (docs/RULES.md, section V)."""

from noir_env import core
from noir_env.core import NOIRBROUGH, ORIGINAL
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
    hideout,
    money,
)


def casino_example(rules):
    """The p.6 example: 1 + 4 against a Casino (4) held by a power-1 gangster."""
    s = blank(4, rules)
    casino = business(s, 0, 4, [4])
    still = business(s, 0, 1, [1])  # not the Hideout: noirbrough's Hideout gangsters stay home
    give(s, 0, C.B1)  # keeps seat 0's Deploy step open: the turn does not run on
    t = business(s, 1, 4, [1])
    money(s, 1, 5)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g1@slot{still}", f"g4@slot{casino}")
    return s, t


# --- noirbrough ---------------------------------------------------------------------------------
def test_noirbrough_destruction_is_strict():
    """R3.3 (noirbrough): 'If the combined damage exceeds the total strength of defenders and
    the business income, the business is destroyed': 5 against 1 + 4 no longer razes the
    Casino, so nothing is stolen (noirburg: destroyed, 4 stolen)."""
    s, t = casino_example("noirbrough")
    assert s.biz[0, 1, t] == 4 and s.biz_g[0, 1, t].sum() == 0
    assert s.money[0, 1] == 5 and s.money[0, 0] == 3
    s, t = casino_example("noirburg")
    assert s.biz[0, 1, t] == 0 and s.money[0, 1] == 1


def test_noirbrough_preparation_phase_comes_first():
    """R2.1 (noirbrough): Preparation (tribute, gangsters, discard, draw, Hideout), then
    Attack, then Deployment."""
    s = blank(4, "noirbrough")
    business(s, 0, 1, [1], covers_hideout=True)
    give(s, 0, C.G1, C.B1)
    begin(s, 3, "draw")
    act(s, "end")
    phases = []
    while s.active[0] == 0:
        phases.append(int(s.phase[0]))
        act(s, "end")
    assert phases == [
        C.PH_MOVE,
        C.PH_DISCARD,
        C.PH_DRAW,
        C.PH_MOVE_HIDEOUT,
        C.PH_ATTACK,
        C.PH_DEPLOY,
    ]


def test_noirbrough_countdown_counts_the_triggering_turn():
    """R6.3 (noirbrough): 'At the end of each of their turns, the triggering player removes
    one countdown token' (from the triggering turn on); the bank trigger is the last coin
    taken from the pile."""
    assert NOIRBROUGH.countdown_on_bank == "empty" and not NOIRBROUGH.countdown_starts_next_turn
    s = blank(4, "noirbrough")
    for q in (0, 1, 2):
        money(s, q, 19)
    money(s, 3, 1)
    begin(s, 2, "draw")
    act(s, "end")
    assert s.cd_on[0] == 1 and s.cd_holder[0] == 3
    while s.active[0] == 3:
        act(s, "pass" if s.phase[0] == C.PH_WINDOW else "end")
    assert events(s, C.EV_TOKEN) == [[3, 3, 0, 0, 0, 0, 0]]


def test_noirbrough_poker_night_in_round_one_and_never_boxed():
    """R5.8 (noirbrough): no first-round restriction and no boxing rule for Poker Night."""
    s = blank(4, "noirbrough")
    give(s, 0, C.POKER, C.B1)
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 2, 4, 0
    begin(s, 0, "deploy", turn_no=0)
    assert can(s, "play:poker_night")
    act(s, "play:poker_night")
    assert s.discard[0, C.POKER] == 1 and s.removed[0, C.POKER] == 0


# --- original ----------------------------------------------------------------------------------
def raze_position(rules):
    """Seat 1's Hideout lies under a Bootlegger with a 1 on it and a 1 on the Hideout;
    seat 0 attacks the Hideout with 4 + 3."""
    s = blank(4, rules)
    business(s, 0, 4, [4])
    business(s, 0, 3, [3])
    give(s, 0, C.B1)  # keeps seat 0's turn open after the attack
    top = business(s, 1, 2, [1], covers_hideout=True)
    hideout(s, 1, 1)
    money(s, 1, 10)
    begin(s, 0, "attack")
    force_dice(s, 2)
    attack(s, "+1:hideout", "g4@slot0", "g3@slot1")
    if rules == "original":  # R3.7: after the raze the attacker chooses to go on
        act(s, "continue_into_hideout")
    return s, top


def test_original_raze_first_hideout_attack():
    """R3.7 (original): 'In order to attack a buried hideout, the business on top of it must
    be razed first. After the business is razed, remaining attackers can continue attacking
    the hideout and gangsters that defend it': 7 razes the Bootlegger (7 > 1 + 2, 2 stolen),
    then 7 against 3 + 1 breaches: seat 1 pays (7 - 4) + 2 = 5."""
    s, top = raze_position("original")
    combat = events(s, C.EV_COMBAT)
    assert combat[0][:3] == [0, 1, top] and combat[0][6] == 1 + 2 * 2
    assert events(s, C.EV_BREACH) == [[0, 1, 7, 4, 2, 505, 0]]
    assert s.money[0, 1] == 10 - 2 - 5 and s.money[0, 0] == 3 + 2 + 5
    # the Bootlegger's 1 dealt 1 (lost on the 3), the Hideout's 3 + 1 killed the 3
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 1]


def test_noirburg_counts_the_whole_stack_instead():
    """R3.6 (noirburg) on the same position: one defense of 3 + 1 + 1 + 2 = 7; 7 breaches
    with nothing over: seat 1 pays 0 + 2 (die) + 2 (Bootlegger) = 4."""
    s, _ = raze_position("noirburg")
    assert events(s, C.EV_COMBAT) == []
    assert events(s, C.EV_BREACH) == [[0, 1, 7, 7, 2, 404, 0]]
    assert s.money[0, 1] == 6


def test_original_business_must_fall_before_the_hideout():
    """R3.7 (original): if the business on top stands, the Hideout is not reached."""
    s = blank(4, "original")
    business(s, 0, 2, [2])
    top = business(s, 1, 2, [1], covers_hideout=True)
    hideout(s, 1, 1)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", "g2@slot0")
    assert s.biz[0, 1, top] == 2 and s.biz_g[0, 1, top].sum() == 0  # 2 is not > 1 + 2
    assert s.ho_g[0, 1].tolist() == [1, 0, 0, 0]
    assert events(s, C.EV_BREACH) == [] and s.hidden[0, 0].tolist() == [0, 1, 0, 0]


def test_original_has_no_mulligan_and_money_win_at_35():
    """R1.6 (original): no free mulligan; R6.2 (original): 35 tokens at the end of one's
    round win a four-player game."""
    s = core.init(1, 4, "original", seeds=2)
    assert s.phase[0] != C.PH_MULLIGAN
    assert ORIGINAL.money_threshold(4) == 35
    s = blank(4, "original")
    money(s, 0, 34)
    begin(s, 0, "deploy")  # the last step of a turn in this preset
    act(s, "end")
    assert s.phase[0] != C.PH_GAME_OVER and s.active[0] == 1
    s = blank(4, "original")
    money(s, 0, 35)
    begin(s, 0, "deploy")
    act(s, "end")
    assert s.win_reason[0] == C.WIN_MONEY and s.winners[0, 0] == 1


def test_original_must_discard_down_to_six():
    """R4.7 (original): 'If you have more ... discard until you drop to 6. You can discard
    as many cards as you like'."""
    s = blank(4, "original")
    give(s, 0, C.G1, C.G1, C.G2, C.G2, C.B1, C.B1, C.B2, C.B2)
    begin(s, 0, "discard")
    assert not can(s, "end")
    act(s, "discard:gangster_1")
    assert not can(s, "end")
    act(s, "discard:gangster_1")
    assert can(s, "end")
    act(s, "discard:gangster_2", "discard:gangster_2", "discard:moonshine_still")
    assert can(s, "discard:bootlegger")  # more than four is fine


def test_original_turncoat_only_takes_deployed_gangsters():
    """R5.7 (original): 'Take any Gangster deployed on the table, except gangsters currently
    placed on a hide-out' (AWAY ones lie on the table: D15), and no Casino is needed for a
    power-4 gangster."""
    s = blank(4, "original")
    give(s, 0, C.TURNCOAT, C.B1)
    hideout(s, 1, 2)
    begin(s, 0, "deploy")
    assert not can(s, "play:turncoat")
    s = blank(4, "original")
    give(s, 0, C.TURNCOAT, C.B1)
    business(s, 1, 4, [4])
    begin(s, 0, "deploy")
    act(s, "play:turncoat")
    assert s.hand[0, 0, C.G4] == 1


def test_original_countdown_on_empty_bank_five_turns_each():
    """R6.3 (original): 'the game ends 5 rounds after the money on the table is depleted for
    the first time ... all players including the one in whose turn the money is depleted will
    take five more turns'; the Hideout trigger and one-third trigger do not exist."""
    assert not ORIGINAL.countdown_on_hideout and not ORIGINAL.countdown_on_third
    s = blank(4, "original")
    for q in (0, 1, 2):
        money(s, q, 19)
    money(s, 3, 1)  # seat 3's tribute empties the bank
    begin(s, 2, "deploy")
    while s.active[0] == 2:
        act(s, "pass" if s.phase[0] == C.PH_WINDOW else "end")
    assert s.cd_on[0] == 1 and s.bank[0] == 0 and s.cd_tokens[0] == 5
    finished = []  # the seat of every turn that ends from now on
    while s.phase[0] != C.PH_GAME_OVER:
        turn, seat = int(s.turn_no[0]), int(s.active[0])
        act(s, "pass" if s.phase[0] == C.PH_WINDOW else "end")
        if s.phase[0] == C.PH_GAME_OVER or int(s.turn_no[0]) != turn:
            finished.append(seat)
    # after the turn in which the money ran out, every player, seat 3 included, plays five
    # more turns; the game ends with seat 3's fifth
    assert finished[0] == 3 and finished[-1] == 3
    assert [finished[1:].count(q) for q in range(4)] == [5, 5, 5, 5]
    assert [e[:2] for e in events(s, C.EV_TOKEN)] == [[3, k] for k in (4, 3, 2, 1, 0)]


def test_original_has_no_war_win():
    """R6.1 (original): 'kill them one by one and be the last one standing': a second
    elimination does not end a four-player game; no Hideout trigger for the countdown."""
    s = blank(4, "original")
    business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    money(s, 1, 0)
    money(s, 3, 0)
    s.alive[0, 3] = 0
    s.kills[0, 0] = 1
    s.trophies[0, 0] = 1
    begin(s, 0, "attack")
    force_dice(s, 1)
    attack(s, "+1:hideout", "g4@slot0")
    assert s.alive[0, 1] == 0 and s.kills[0, 0] == 2
    assert s.phase[0] != C.PH_GAME_OVER and s.cd_on[0] == 0
