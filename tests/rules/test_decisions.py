"""Scenarios for the numbered decisions of docs/RULES.md (D..): where the rule texts are silent
or ambiguous, the engine's choice, pinned down."""

import numpy as np

from noir_env import core
from noir_env.core import constants as C

from .helpers import (
    act,
    attack,
    begin,
    blank,
    business,
    can,
    empty_deck_into_discard,
    events,
    force_dice,
    give,
    hidden,
    hideout,
    money,
)


def test_stack_business_gangsters_die_before_hideout_ones():
    """R3.6 not breached / D6: the stack fights weakest first, and at equal power the covering
    business's gangsters die before the Hideout's."""
    s = blank(4)
    business(s, 0, 2, [1])
    business(s, 0, 1, [1])
    top = business(s, 1, 1, [1], covers_hideout=True)
    hideout(s, 1, 1)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", "g1@slot0")
    assert s.biz_g[0, 1, top].sum() == 0 and s.ho_g[0, 1].tolist() == [1, 0, 0, 0]
    assert s.biz[0, 1, top] == 1  # 1 < 1 + 1 + 1: the Moonshine Still stands


def test_breach_test_is_at_least_in_strict_presets():
    """D28: the breach is attack >= defense in every preset, also where business destruction
    is strict (noirbrough): 4 against 3 + 1 breaches."""
    s = blank(4, "noirbrough")
    business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    hideout(s, 1, 1)
    money(s, 1, 10)
    begin(s, 0, "attack")
    force_dice(s, 2)
    attack(s, "+1:hideout", "g4@slot0")
    assert events(s, C.EV_BREACH) == [[0, 1, 4, 4, 2, 202, 0]]
    assert s.money[0, 1] == 8


def test_turncoat_taking_every_attacker_makes_the_attack_fizzle():
    """R5.3 / D15: an attack whose attackers were all taken fizzles at the close; the target
    stays marked as attacked (noirbrough: Turncoat may take pending attackers)."""
    s = blank(4, "noirbrough")
    business(s, 0, 2, [2])
    business(s, 0, 1, [1])
    t = business(s, 1, 2)
    give(s, 1, C.TURNCOAT)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", "g2@slot0")
    act(s, "play:turncoat", "target:+3:attack")  # the 2 is the only power there: taken
    assert s.hand[0, 1, C.G2] == 1
    assert events(s, C.EV_FIZZLE) == [[0, 1, t, 0, 0, 0, 0]]
    assert s.biz[0, 1, t] == 2 and events(s, C.EV_COMBAT) == []
    assert s.phase[0] == C.PH_ATTACK and not can(s, f"target:+1:slot{t}")


def test_kidnap_of_a_business_emptied_before_the_close_does_nothing():
    """D13: if the kidnap target is empty at the Police's turn in the queue, nothing
    happens: two Police on one business act in play order (R5.3), the second finds nobody."""
    s = blank(4)
    give(s, 0, C.POLICE, C.B1)
    t = business(s, 1, 2, [2])
    business(s, 3, 1, [1])
    give(s, 2, C.POLICE)
    begin(s, 0, "deploy")
    act(s, "play:police", f"target:+1:slot{t}")
    assert s.actor[0] == 2  # seat 1 holds nothing and passed unasked
    act(s, "play:police", f"target:+3:slot{t}")
    assert events(s, C.EV_POLICE) == [[0, 1, t, 1, 0, 0, 0], [2, 1, t, 0, 0, 0, 0]]
    assert s.hidden[0, 1].tolist() == [0, 1, 0, 0] and s.phase[0] == C.PH_DEPLOY


def test_driveby_misses_pending_attackers():
    """D35: pending attackers have left their places: a Drive-by on the Casino the 4 came
    from razes the empty Casino, and the 4's attack still resolves."""
    s = blank(4)
    casino = business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    t = business(s, 1, 2)
    give(s, 2, C.DRIVEBY)
    begin(s, 0, "attack")
    force_dice(s, 4)
    attack(s, f"+1:slot{t}", f"g4@slot{casino}")
    assert s.actor[0] == 2
    act(s, "play:driveby", f"target:+2:slot{casino}")
    assert events(s, C.EV_DRIVEBY) == [[0, casino, 4, 0, 1, 4, 0]]
    assert s.biz[0, 0, casino] == 0 and s.biz[0, 1, t] == 0
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 1]


def test_police_cancel_by_the_attacker_itself():
    """D14: any player may play Police against the pending attack, the attacker included."""
    s = blank(4)
    business(s, 0, 2, [2])
    business(s, 0, 1, [1])
    give(s, 0, C.POLICE)
    t = business(s, 1, 2)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", "g2@slot0")
    assert s.actor[0] == 0 and can(s, "play:police_cancel")  # the owner is asked last
    act(s, "play:police_cancel")
    assert len(events(s, C.EV_CANCELLED)) == 1 and s.biz[0, 1, t] == 2


def test_poker_host_without_two_coins_does_not_play():
    """D17: a host with fewer than 2 coins does not take part; a single staker takes their
    own stake back."""
    s = blank(4)
    give(s, 0, C.POKER, C.B1)
    money(s, 0, 1)
    money(s, 2, 0)
    money(s, 3, 1)
    begin(s, 0, "deploy")
    act(s, "play:poker_night")
    assert events(s, C.EV_POKER) == [[0, 1, 2, 0, 0, 0, 0]]
    assert s.money[0, :4].tolist() == [1, 3, 0, 1]


def test_bank_paying_exactly_the_rest():
    """D18: 'short' (noirburg) triggers only when the bank cannot pay the full tribute:
    paying exactly the rest does not; 'empty' (noirbrough) triggers when the bank is at 0."""
    for rules, triggered in (("noirburg", 0), ("noirbrough", 1)):
        s = blank(4, rules)
        for q in (0, 1, 2):
            money(s, q, 19)
        money(s, 3, 0)  # bank 3 = seat 3's tribute
        begin(s, 2, "draw")
        act(s, "end")
        assert events(s, C.EV_TRIBUTE)[0] == [3, 3, 3, 0, 0, 0, 0]
        assert s.bank[0] == 0 and s.cd_on[0] == triggered


def test_money_win_comes_before_the_last_token():
    """R2.4 / D19: at the end of a turn the money win is checked before the countdown
    token, so the holder of the last token who has 31 coins wins by money."""
    s = blank(4)
    money(s, 0, 31)
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 0, 1, 0
    begin(s, 0, "draw")
    act(s, "end")
    assert s.win_reason[0] == C.WIN_MONEY and s.cd_tokens[0] == 1


def test_war_counts_only_own_eliminations():
    """D21: a trophy inherited from an eliminated player adds points but not an elimination:
    seat 0 eliminates seat 1 (who had eliminated seat 2) and holds two trophies, but one
    kill; the game goes on."""
    s = blank(4)
    business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    money(s, 1, 0)
    money(s, 2, 0)
    s.alive[0, 2] = 0
    s.kills[0, 1] = 1
    s.trophies[0, 1] = 1
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 1, 4, 2
    begin(s, 0, "attack")
    force_dice(s, 1)
    attack(s, "+1:hideout", "g4@slot0")
    assert s.alive[0, 1] == 0 and s.trophies[0, 0] == 2 and s.kills[0, 0] == 1
    assert s.phase[0] != C.PH_GAME_OVER
    assert s.cd_holder[0] == 0  # the holder was eliminated: the previous player continues


def test_more_than_six_cards_allowed_but_no_draw():
    """D24 (noirburg): a hand above 6 (after an elimination) is kept: no forced discard,
    no draw."""
    s = blank(4)
    give(s, 0, C.G1, C.G1, C.G1, C.G2, C.G2, C.B1, C.B1, C.B2)
    begin(s, 0, "discard")
    assert can(s, "end")
    act(s, "end")
    # seat 0's Draw step offered nothing but 'end' and passed by itself (R2.5)
    assert s.active[0] == 1 and s.hand[0, 0].sum() == 8 and events(s, C.EV_DRAW) == []


def test_draw_limited_by_the_cards_left():
    """D26: draw:n needs n cards in the draw pile and discard pile together."""
    s = blank(4)
    n = int(s.deck_n[0])
    for card in s.deck[0, : n - 1].tolist():  # all but the top card go to seat 1's hand
        s.hand[0, 1, card] += 1
    s.deck[0, 0] = s.deck[0, n - 1]
    s.deck_n[0] = 1
    begin(s, 0, "draw")
    assert can(s, "draw:1") and not can(s, "draw:2")


def test_reshuffle_in_the_middle_of_a_draw():
    """R4.9: the discard pile becomes the draw pile also in the middle of a multi-card draw."""
    s = blank(4)
    empty_deck_into_discard(s)
    s.discard[0, C.POLICE] -= 1
    s.deck[0, 0] = C.POLICE
    s.deck_n[0] = 1
    begin(s, 0, "draw")
    act(s, "draw:3")
    assert s.hand[0, 0].sum() == 3 and s.hand[0, 0, C.POLICE] >= 1 and s.money[0, 0] == 1
    assert events(s, C.EV_RESHUFFLE) == [[82, 0, 0, 0, 0, 0, 0]] and s.deck_n[0] == 80


def test_no_reactions_in_the_mulligan():
    """R1.6 / D10: no reaction can be played during the mulligan."""
    s = core.init(16, 5, "noirburg", seeds=100)
    assert (s.phase == C.PH_MULLIGAN).all()
    assert not s.mask[:, C.A_PLAY : C.A_PLAY + 6].any()
    assert np.asarray(s.hand[:, :, C.POKER : C.TURNCOAT + 1]).sum() > 0


def test_attack_on_a_business_razed_in_its_window_fizzles():
    """R5.3 (3): the Drive-bys of the attack window roll before the attack; an attack whose
    target business is gone by then fizzles and its attackers become HIDDEN, unhurt."""
    s = blank(4)
    business(s, 0, 4, [2, 2])
    t = business(s, 1, 2, [2])
    give(s, 2, C.DRIVEBY)
    begin(s, 0, "attack")
    force_dice(s, 6)
    attack(s, f"+1:slot{t}", "g2@slot0")
    act(s, "play:driveby", f"target:+3:slot{t}")
    assert events(s, C.EV_DRIVEBY) == [[1, t, 6, 1, 1, 2, 0]]
    assert events(s, C.EV_FIZZLE) == [[0, 1, t, 0, 0, 0, 0]] and events(s, C.EV_COMBAT) == []
    assert s.hidden[0, 0].tolist() == [0, 1, 0, 0] and s.money[0, 1] == 3


def test_first_business_after_losing_all_covers_the_hideout_again():
    """R4.5 / D4: a business deployed while the player has none on the table covers the
    Hideout: the first of the game, and again the first after losing them all."""
    s = blank(4)
    business(s, 1, 4, [4])
    business(s, 1, 1, [1])
    top = business(s, 0, 2, covers_hideout=True)
    give(s, 0, C.B3, C.B1)
    begin(s, 1, "attack")
    attack(s, f"+3:slot{top}", "g4@slot0")
    assert s.biz[0, 0].sum() == 0 and s.ho_top[0, 0] == -1
    money(s, 0, 5)
    begin(s, 0, "deploy")
    act(s, "deploy:speakeasy")
    assert s.ho_top[0, 0] == 0
    act(s, "deploy:moonshine_still")
    assert s.ho_top[0, 0] == 0


def test_move_gangsters_aside_to_swap():
    """R4.2 / D2: 'aside' puts a table gangster into the HIDDEN pool to free room; a HIDDEN
    gangster that fits must be placed before the step can end, and the one that then fits
    nowhere is discarded. Here a 4 comes back to the Casino and the 2 there is let go."""
    s = blank(4)
    casino = business(s, 0, 4, [2])
    business(s, 0, 2, [2])
    hideout(s, 0, 1, 2)
    give(s, 0, C.B1)
    hidden(s, 0, 4)
    begin(s, 0, "move_gangsters")
    assert not can(s, "from:g4@hidden")  # the Casino holds a 2: no room for the 4
    act(s, f"from:g2@slot{casino}", "to:aside")
    assert s.hidden[0, 0].tolist() == [0, 1, 0, 1] and not can(s, "end")
    act(s, "from:g4@hidden")  # only the Casino has room for it
    assert s.biz_g[0, 0, casino].tolist() == [0, 0, 0, 1]
    assert can(s, "end") and not can(s, "from:g2@hidden")
    act(s, "end")
    assert s.hidden[0, 0].sum() == 0 and s.discard[0, C.G2] == 1


def test_kidnap_on_a_covering_business_spares_the_hideout():
    """D13: Police kidnaps the gangsters of one business, also one covering a Hideout; the
    Hideout's own gangsters stay."""
    s = blank(4)
    give(s, 0, C.POLICE, C.B1)
    top = business(s, 1, 3, [1, 2], covers_hideout=True)
    hideout(s, 1, 3)
    business(s, 2, 1, [1])
    begin(s, 0, "deploy")
    act(s, "play:police", f"target:+1:slot{top}")
    assert s.hidden[0, 1].tolist() == [1, 1, 0, 0] and s.ho_g[0, 1].tolist() == [0, 0, 1, 0]
