"""Rulebook scenarios for set-up (R1), the turn (R2) and its steps (R4): the deal, the
mulligan, round 1, tribute, Move Gangsters, Deploy, Move the Hideout, Discard and Draw."""

import numpy as np

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.validate import check_invariants
from noir_env.spaces import action_id

from .helpers import (
    act,
    begin,
    blank,
    business,
    can,
    deck_top,
    empty_deck_into_discard,
    events,
    give,
    hideout,
    legal,
    money,
)


# --- R1: set-up --------------------------------------------------------------------------------
def test_deck_of_83_playing_cards():
    """R1.1: 14/10/8/4 gangsters of power 1-4, 10/8/6/4 businesses of income 1-4, 3 Poker
    Night, 4 Police, 4 Bribe, 5 Drive-by, 3 Turncoat; Hideouts are not in the deck."""
    assert C.DECK_COUNTS.tolist() == [14, 10, 8, 4, 10, 8, 6, 4, 3, 4, 4, 5, 3]
    s = core.init(1, 5, "noirburg", seeds=1)
    g = s[0]
    counts = np.bincount(g.deck[: g.deck_n], minlength=C.NUM_CARD_TYPES)
    counts = counts + g.hand.sum(axis=0) + g.discard
    assert counts.tolist() == C.DECK_COUNTS.tolist()
    assert C.DECK_SIZE == 83


def test_money_and_deal_for_3_to_6_players():
    """R1.2: 50/60/70/80 coins in play, three to each player, the rest in the middle;
    R1.4: six cards to each player."""
    for n, total in zip((3, 4, 5, 6), (50, 60, 70, 80), strict=True):
        s = core.init(1, n, "noirburg", seeds=n)
        assert s.money[0, :n].tolist() == [3] * n and s.money[0, n:].sum() == 0
        assert s.bank[0] == total - 3 * n
        assert s.hand[0, :n].sum(axis=1).tolist() == [6] * n
        assert s.deck_n[0] == 83 - 6 * n
        assert check_invariants(s) == []


def test_shuffle_and_first_player_depend_on_the_seed():
    """R1.3: the deck is shuffled; R1.5: the first player is chosen at random (a die roll
    in the rulebook), and the mulligan starts with them."""
    games = core.init(40, 4, "noirburg", seeds=0)
    assert len({bytes(g.deck[: g.deck_n]) for g in games}) == 40
    assert set(games.first_player.tolist()) == {0, 1, 2, 3}
    assert (games.actor == games.first_player).all() and (games.phase == C.PH_MULLIGAN).all()


def test_mulligan_of_up_to_two_cards():
    """R1.6: starting with the first player, each player may discard up to two cards face up
    and draw back to six; only these two cards are free."""
    s = core.init(1, 4, "noirburg", seeds=3)
    fp = int(s.first_player[0])
    hand = s.hand[0, fp]
    cards = [t for t in range(C.NUM_CARD_TYPES) for _ in range(hand[t])]
    act(s, f"discard:{C.CARD_NAMES[cards[0]]}")
    assert can(s, "end") and s.hand[0, fp].sum() == 5
    act(s, f"discard:{C.CARD_NAMES[cards[1]]}")
    # a third card is not allowed: 'end' was the only choice left, taken unasked (R2.5)
    assert events(s, C.EV_MULLIGAN) == [[fp, 2, 0, 0, 0, 0, 0]]
    assert s.hand[0, fp].sum() == 6 and s.money[0, fp] == 3 and s.discard[0].sum() == 2
    assert s.actor[0] == (fp + 1) % 4 and s.phase[0] == C.PH_MULLIGAN


# --- R2: the turn --------------------------------------------------------------------------------
def test_round_one_is_deploy_discard_draw_only():
    """R2.3: 'In the first round of the game, only the following actions are allowed:
    Deploy, Discard, and Draw'; no tribute, no Move Gangsters, no attack. R4.1: every later
    round starts with Tribute Collection."""
    s = core.init(1, 4, "noirburg", seeds=11)
    fp = int(s.first_player[0])
    while s.phase[0] == C.PH_MULLIGAN:
        act(s, "end")
    seen = set()
    while s.turn_no[0] < 4:
        assert s.money[0, :4].tolist() == [3, 3, 3, 3]
        ph = int(s.phase[0])
        seen.add(ph)
        if ph == C.PH_DISCARD and s.count[0] == 0:  # discard one card to be offered a draw
            act(s, next(a for a in legal(s) if a.startswith("discard:")))
        elif ph == C.PH_DRAW:
            act(s, "draw:1")  # free
        else:
            act(s, "end" if can(s, "end") else "pass")
    assert not seen & {C.PH_MOVE, C.PH_ATTACK, C.PH_ATTACKERS}
    assert C.PH_DEPLOY in seen and C.PH_DISCARD in seen and C.PH_DRAW in seen
    assert events(s, C.EV_TRIBUTE) == [[fp, 3, 3, 0, 0, 0, 0]]  # round 2 begins with it
    assert s.active[0] == fp and s.money[0, fp] == 6


def test_round_one_attack_not_offered_even_with_gangsters():
    """R2.3: no Attack (nor Move Gangsters) in round 1, although the player has a gangster
    on the table."""
    s = blank(4)
    business(s, 1, 2, [2])
    give(s, 1, C.B1)
    business(s, 2, 1)
    begin(s, 0, "draw", turn_no=0)
    act(s, "end")
    assert s.active[0] == 1 and s.turn_no[0] == 1 and s.phase[0] == C.PH_DEPLOY
    assert s.money[0, 1] == 3  # no tribute


def test_step_order_of_a_turn():
    """R2.1: Tribute Collection, Move Gangsters, Attack, Deploy, Move the Hideout, Discard,
    Draw; 'The action order cannot be changed.' R4.1: the Hideout earns 3, each business its
    income."""
    s = blank(4)
    business(s, 0, 1, [1], covers_hideout=True)
    give(s, 0, C.G1, C.B1)
    begin(s, 3, "draw")
    act(s, "end")
    assert s.active[0] == 0 and events(s, C.EV_TRIBUTE) == [[0, 4, 4, 0, 0, 0, 0]]
    assert s.money[0, 0] == 7
    phases = []
    while s.active[0] == 0:
        phases.append(int(s.phase[0]))
        act(s, "end")
    assert phases == [
        C.PH_MOVE,
        C.PH_ATTACK,
        C.PH_DEPLOY,
        C.PH_MOVE_HIDEOUT,
        C.PH_DISCARD,
        C.PH_DRAW,
    ]


def test_forced_decisions_are_taken_by_the_core():
    """R2.5: a decision with a single legal action is taken without asking, so every
    decision a caller sees offers a choice (random play, 600 steps, 4 games)."""
    rng = np.random.default_rng(0)
    s = core.init(4, 4, "noirburg", seeds=5)
    for _ in range(600):
        m = s.mask.astype(bool)
        live = s.phase != C.PH_GAME_OVER
        assert (m[live].sum(axis=1) >= 2).all()
        acts = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in m])
        core.step(s, acts)
    assert check_invariants(s) == []


# --- R4.1: tribute ------------------------------------------------------------------------------
def test_tribute_is_hideout_plus_business_income():
    """R4.1: 'Hideout earns 3 money. Additionally, each business brings in money based on
    its capacity' (Moonshine 1 + Bootlegger 2 + Casino 4)."""
    s = blank(4)
    for inc in (1, 2, 4):
        business(s, 1, inc)
    begin(s, 0, "draw")
    bank = int(s.bank[0])
    act(s, "end")
    assert s.money[0, 1] == 3 + 10 and s.bank[0] == bank - 10
    assert s.cd_on[0] == 0


# --- R4.2: Move Gangsters --------------------------------------------------------------------
def test_move_gangsters_between_businesses():
    """R4.2: gangsters on businesses may be moved to other places with room; each is put
    down once per step."""
    s = blank(4)
    boot = business(s, 0, 2, [2])
    casino = business(s, 0, 4, [3])
    moon = business(s, 0, 1)
    begin(s, 0, "move_gangsters")
    act(s, f"from:g2@slot{boot}")
    assert can(s, "to:hideout") and can(s, f"to:slot{boot}") and can(s, "to:aside")
    assert not can(s, f"to:slot{casino}") and not can(s, f"to:slot{moon}")  # no room
    act(s, "to:hideout")
    assert s.ho_g[0, 0].tolist() == [0, 1, 0, 0] and s.biz_g[0, 0, boot].sum() == 0
    assert not can(s, "from:g2@hideout")  # already moved in this step
    act(s, f"from:g3@slot{casino}")
    assert not can(s, f"to:slot{boot}") and not can(s, "to:hideout")  # no room for a 3
    act(s, f"to:slot{casino}")
    # both gangsters were put down in this step: ending it was the only choice (R2.5)
    assert s.phase[0] == C.PH_ATTACK and s.biz_g[0, 0, casino].tolist() == [0, 0, 1, 0]


# --- R4.5: Deploy ------------------------------------------------------------------------------
def test_deploy_costs_one_less_than_the_number():
    """R4.5: 'Each card's value is one less than the number on the card': a Casino costs 3,
    a power-4 gangster 3, a power-1 gangster and a Moonshine Still are free."""
    s = blank(4)
    give(s, 0, C.B4, C.B1, C.G1, C.G4)
    money(s, 0, 2)
    begin(s, 0, "deploy")
    assert not can(s, "deploy:casino") and can(s, "deploy:moonshine_still")
    assert can(s, "deploy:gangster_1")
    assert not can(s, "deploy:gangster_4")  # no Casino to hold it, and too dear
    money(s, 0, 3)
    begin(s, 0, "deploy")
    act(s, "deploy:casino")
    assert s.money[0, 0] == 0 and s.biz[0, 0, 0] == 4
    act(s, "deploy:moonshine_still")
    assert s.money[0, 0] == 0 and s.biz[0, 0, 1] == 1


def test_first_business_goes_over_the_hideout():
    """R4.5 (III.D): 'The player must open their first Business above their Hideout.'"""
    s = blank(4)
    give(s, 0, C.B2, C.B1)
    begin(s, 0, "deploy")
    act(s, "deploy:bootlegger")
    assert s.ho_top[0, 0] == 0
    act(s, "deploy:moonshine_still")
    assert s.ho_top[0, 0] == 0 and s.biz[0, 0, :2].tolist() == [2, 1]
    assert events(s, C.EV_DEPLOY)[0][:4] == [0, C.B2, 0, 1]


def test_casino_capacity_worked_example():
    """R4.5 worked example (III.A): 'two Gangsters with a power of 2, or one Gangster with
    a power of 3 and one Gangster with a power of 1 can be placed on top of a Casino'; a third
    gangster does not fit (the mask excludes it)."""
    for first, second in ((2, 2), (3, 1)):
        s = blank(4)
        casino = business(s, 0, 4)
        moon = business(s, 0, 1)
        hideout(s, 0, 3)  # full
        give(s, 0, C.G1 + first - 1, C.G1 + second - 1, C.G1)
        money(s, 0, 10)
        begin(s, 0, "deploy")
        act(s, f"deploy:gangster_{first}")
        if s.phase[0] == C.PH_DEPLOY_TO:
            act(s, f"to:slot{casino}")
        act(s, f"deploy:gangster_{second}")
        if s.phase[0] == C.PH_DEPLOY_TO:
            act(s, f"to:slot{casino}")
        want = [0, 0, 0, 0]
        want[first - 1] += 1
        want[second - 1] += 1
        assert s.biz_g[0, 0, casino].tolist() == want
        # the third gangster: the Casino is full, only the Moonshine Still has room
        act(s, "deploy:gangster_1")
        assert s.biz_g[0, 0, moon].tolist() == [1, 0, 0, 0]
        assert s.biz_g[0, 0, casino].tolist() == want


def test_casino_full_is_not_offered_as_a_place():
    """R4.5: 'Gangsters whose combined power is equal to or less than the building's income
    can be placed'; a Casino holding 2 + 2 is not offered, the Hideout and a Moonshine
    Still are."""
    s = blank(4)
    casino = business(s, 0, 4, [2, 2])
    moon = business(s, 0, 1)
    give(s, 0, C.G1, C.G4)
    money(s, 0, 5)
    begin(s, 0, "deploy")
    assert not can(s, "deploy:gangster_4")  # the 4 fits nowhere: the Casino is full
    act(s, "deploy:gangster_1")
    assert s.phase[0] == C.PH_DEPLOY_TO
    assert can(s, "to:hideout") and can(s, f"to:slot{moon}") and not can(s, f"to:slot{casino}")
    assert not can(s, "to:aside")


def test_hideout_holds_three_power():
    """R3.6/R4.5: the Hideout houses up to 3 power of gangsters; a 4 never fits there."""
    s = blank(4)
    give(s, 0, C.G4, C.G3)
    money(s, 0, 5)
    begin(s, 0, "deploy")
    assert not can(s, "deploy:gangster_4") and can(s, "deploy:gangster_3")
    act(s, "deploy:gangster_3")
    assert s.ho_g[0, 0].tolist() == [0, 0, 1, 0] and s.money[0, 0] == 3


# --- Move the Hideout (rulebook II.E) ------------------------------------------------------------
def test_move_the_hideout_with_its_gangsters():
    """R4.6 (II.E): 'Players can move the Hideout below a business if they have one. Gangsters
    that are currently deployed on the Hideout move with it'; the Turkish text also lets it
    go back into the open."""
    s = blank(4)
    a = business(s, 0, 1, covers_hideout=True)
    b = business(s, 0, 3)
    hideout(s, 0, 1, 2)
    give(s, 0, C.B1)
    begin(s, 0, "move_hideout")
    assert can(s, f"hideout_under:slot{b}") and can(s, "hideout_to_open")
    assert not can(s, f"hideout_under:slot{a}")
    act(s, f"hideout_under:slot{b}")
    assert s.ho_top[0, 0] == b and s.ho_g[0, 0].tolist() == [1, 1, 0, 0]
    assert s.phase[0] == C.PH_DISCARD


# --- R4.7: Discard -----------------------------------------------------------------------------
def test_discard_at_most_four_cards():
    """R4.7: 'Players may discard up to four cards from their hand', face up."""
    s = blank(4)
    give(s, 0, C.G1, C.G2, C.B1, C.B2, C.POLICE, C.DRIVEBY)
    business(s, 1, 1)  # a Drive-by target keeps a second choice open
    begin(s, 0, "discard")
    act(s, "discard:gangster_1", "discard:gangster_2", "discard:moonshine_still")
    assert can(s, "discard:bootlegger")
    act(s, "discard:bootlegger")
    assert not can(s, "discard:police") and not can(s, "discard:driveby")
    assert can(s, "end") and s.hand[0, 0].sum() == 2 and s.discard[0].sum() == 4


# --- R4.8 / R4.9: Draw -------------------------------------------------------------------------
def test_draw_costs_n_minus_one():
    """R4.8: 'Players must pay one less than the number of cards they will draw'; all are
    drawn at once, then the step is over."""
    s = blank(4)
    give(s, 0, C.G1, C.G2, C.B1)
    money(s, 0, 1)
    deck_top(s, C.POLICE, C.B4, C.G3)
    begin(s, 0, "draw")
    assert can(s, "draw:1") and can(s, "draw:2") and not can(s, "draw:3")
    bank = int(s.bank[0])
    act(s, "draw:2")
    assert s.money[0, 0] == 0 and s.bank[0] == bank + 1 - 3  # seat 1 then took tribute
    assert s.hand[0, 0, C.POLICE] == 1 and s.hand[0, 0, C.B4] == 1 and s.hand[0, 0, C.G3] == 0
    assert s.active[0] == 1  # no second draw: the turn is over
    assert events(s, C.EV_DRAW) == [[0, 2, 1, 0, 0, 0, 0]]


def test_draw_never_above_six_cards():
    """R4.8: 'Players cannot draw cards if their hand have or would have after the draw more
    than six cards. Players with six or more cards in their hand cannot draw'."""
    s = blank(4)
    give(s, 0, C.G1, C.G2, C.B1)
    money(s, 0, 10)
    begin(s, 0, "draw")
    assert [can(s, f"draw:{n}") for n in range(1, 7)] == [True] * 3 + [False] * 3
    give(s, 0, C.G1, C.G1, C.G1, C.G1)
    begin(s, 0, "draw")
    assert not any(can(s, f"draw:{n}") for n in range(1, 7)) and legal(s) == ["end"]


def test_empty_draw_pile_reshuffles_the_discards():
    """R4.9: 'When the draw pile is finished, the discard pile is shuffled and placed face
    down on the table, and the game continues.'"""
    s = blank(4)
    empty_deck_into_discard(s)
    pile = int(s.discard[0].sum())
    begin(s, 0, "draw")
    act(s, "draw:1")
    assert events(s, C.EV_RESHUFFLE) == [[pile, 0, 0, 0, 0, 0, 0]]
    assert s.discard[0].sum() == 0 and s.deck_n[0] == pile - 1 and s.hand[0, 0].sum() == 1


def test_action_ids_round_trip():
    """R8 (action table): names used by these scenarios are stable ids."""
    assert action_id("target:+1:hideout") == C.A_TARGET + C.TGT_HIDEOUT
    assert action_id("play:police_cancel") == C.A_PLAY + C.PLAY_POLICE_CANCEL
