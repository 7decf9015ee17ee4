"""Scenarios for the rules-v1 changes: the window before the Attack step, play order
at a window's close, several Police in one window, the preset details the texts specify, the
presentation mode `ask_all`, and the public knowledge added to the observation."""

import numpy as np

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.observe import O_CD_LEFT, O_RULES, countdown_turns_left
from noir_env.core.rules import OBSERVED_RULE_FIELDS, rules_row
from noir_env.spaces import OBS_SLICES

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
    pass_all,
)


# --- R5.2(d): a window before the Attack step -------------------------------------------------
def test_window_opens_after_move_gangsters_before_attacks():
    """R5.2(d) [NB-TR p.8 "her an, başka bir oyuncunun sırasında dahi"]: gangsters that came
    back in Move Gangsters can be shot before they attack."""
    s = blank(4)
    slot = business(s, 0, 3)
    hidden(s, 0, 3)  # back from last turn's attack
    business(s, 0, 1, gangsters=[1])
    business(s, 1, 1)
    give(s, 2, C.DRIVEBY)
    begin(s, 0, "move_gangsters")
    act(s, "from:g3@hidden", f"to:slot{slot}", "end")
    assert s.phase[0] == C.PH_WINDOW and s.win_kind[0] == C.WIN_STEP
    assert s.actor[0] == 2  # seat 1 holds nothing: passes unasked
    force_dice(s, 4)
    act(s, "play:driveby", "target:+2:slot0")
    pass_all(s)
    assert s.biz_g[0, 0, slot].tolist() == [0, 0, 0, 0]  # 4 damage killed the 3
    assert s.biz[0, 0, slot] == 3  # 4 < 3 + 3: the Speakeasy stands
    assert s.phase[0] == C.PH_ATTACK and s.actor[0] == 0


def test_step_windows_are_a_rules_field():
    """R5.2(d) is `Rules.step_windows`: () gives the old turn without that window."""
    rules = core.NOIRBURG.replace(step_windows=())
    s = blank(4)
    s.rules[0] = rules_row(rules)
    business(s, 0, 3, gangsters=[3])
    business(s, 1, 1)
    give(s, 2, C.DRIVEBY)
    begin(s, 0, "move_gangsters")
    act(s, "end")
    assert s.phase[0] == C.PH_ATTACK


def test_no_window_before_attack_in_round_1():
    """R2.3: round 1 has no Attack step, so no window opens before it."""
    s = blank(4)
    give(s, 0, C.B1, C.B2)
    give(s, 1, C.DRIVEBY)
    begin(s, 0, "deploy", turn_no=0)
    act(s, "deploy:moonshine_still", "end")
    assert s.phase[0] == C.PH_MOVE_HIDEOUT or s.phase[0] == C.PH_DISCARD


# --- R5.3: play order at the close -------------------------------------------------------------
def _casino_with_two_2s():
    s = blank(4)
    slot = business(s, 2, 4, gangsters=[2, 2])
    business(s, 0, 1)
    give(s, 1, C.DRIVEBY)
    give(s, 3, C.POLICE)
    begin(s, 0, "draw")
    act(s, "end")  # end-of-turn window: seat 1 is asked first
    return s, slot


def test_driveby_played_before_police_resolves_first():
    """R5.3 [NB-TR p.3, p.8 "masaya ilk düşen kart önce çözümlenir"]: a Drive-by (die 2) played
    before a Police kidnap on the same Casino kills one 2 first; the Police hides the other."""
    s, slot = _casino_with_two_2s()
    act(s, "play:driveby", f"target:+1:slot{slot}")
    assert s.actor[0] == 3  # seat 2 holds no card: passes unasked
    force_dice(s, 2)  # the window closes as soon as nobody holding a card is left to ask
    act(s, "play:police")  # the only business with gangsters: its target is taken unasked
    pass_all(s)
    assert s.biz_g[0, 2, slot].tolist() == [0, 0, 0, 0]
    assert s.hidden[0, 2].tolist() == [0, 1, 0, 0]
    assert s.discard[0, C.G2] == 1 and s.biz[0, 2, slot] == 4


def test_police_played_before_driveby_resolves_first():
    """R5.3: the other order: the kidnap empties the Casino, the Drive-by then hits an empty
    Casino (2 < 4: it stands) and nobody dies."""
    s, slot = _casino_with_two_2s()
    act(s, "pass")  # seat 1 (seat 2 holds no card)
    act(s, "play:police")  # seat 3, on the only business with gangsters
    assert s.actor[0] == 1  # the round reopens: seat 0 holds no card
    force_dice(s, 2)
    act(s, "play:driveby", f"target:+1:slot{slot}")  # seat 1, after the Police
    pass_all(s)
    assert s.hidden[0, 2].tolist() == [0, 2, 0, 0]
    assert s.discard[0, C.G2] == 0 and s.biz[0, 2, slot] == 4


def test_driveby_dice_on_one_business_keep_their_places_around_a_kidnap():
    """R5.6 [NB-TR p.9] with R5.3 (rules v2): Drive-bys on one business roll together only
    when played one right after the other; a kidnap played between them keeps its place, so
    the first Drive-by rolls alone, the kidnap hides the survivors, the second hits an empty
    Casino. (Rules v1 let the second join the first, ahead of the kidnap.)"""
    s = blank(4)
    slot = business(s, 2, 4, gangsters=[2, 2])
    business(s, 0, 1)
    give(s, 1, C.DRIVEBY)
    give(s, 3, C.POLICE, C.DRIVEBY)
    begin(s, 0, "draw")
    act(s, "end", "play:driveby", f"target:+1:slot{slot}")  # seat 1; seat 2 holds no card
    act(s, "play:police")  # seat 3 raids the only business with gangsters
    force_dice(s, 1, 1)
    act(s, "play:driveby", f"target:+3:slot{slot}")  # its own place, after the kidnap
    rolls = events(s, C.EV_DRIVEBY)
    assert [r[:4] for r in rolls] == [[2, slot, 1, 0], [2, slot, 1, 0]]  # two rolls of 1 die
    assert s.discard[0, C.G2] == 0 and s.hidden[0, 2].tolist() == [0, 2, 0, 0]
    assert s.biz[0, 2, slot] == 4


# --- R5.4 / R5.5: several Police, each with its own Bribe chain -------------------------------
def _attack_with_kidnap_pending():
    s = blank(4)
    business(s, 0, 3, gangsters=[3])
    target = business(s, 1, 2, gangsters=[1])
    other = business(s, 3, 2, gangsters=[2])
    give(s, 1, C.POLICE)
    give(s, 2, C.POLICE, C.BRIBE)
    begin(s, 0, "attack")
    act(s, f"target:+1:slot{target}")  # the lone gangster joins unasked, confirm
    if s.phase[0] == C.PH_ATTACKERS:
        act(s, "confirm_attack")
    assert s.win_kind[0] == C.WIN_ATTACK and s.actor[0] == 1
    act(s, "pass")  # seat 1
    act(s, "play:police", f"target:+1:slot{other}")  # seat 2 raids seat 3's Bootlegger
    return s, target, other


def test_a_kidnap_and_a_cancel_stand_in_the_same_window():
    """R5.4: no text limits Police in play: the defender cancels the attack while another
    player's kidnap stands; both act at the close."""
    s, target, other = _attack_with_kidnap_pending()
    assert s.actor[0] == 1  # seats 3 and 0 hold no card: the defender is next
    assert can(s, "play:police_cancel")
    act(s, "play:police_cancel")
    pass_all(s)
    assert s.hidden[0, 3].tolist() == [0, 1, 0, 0]  # kidnapped
    assert s.hidden[0, 0].tolist() == [0, 0, 1, 0]  # cancelled attack: attackers hidden
    assert s.biz_g[0, 1, target].tolist() == [1, 0, 0, 0]  # untouched
    assert len(events(s, C.EV_CANCELLED)) == 1 and len(events(s, C.EV_POLICE)) == 1


def test_bribe_names_the_police_it_answers():
    """R5.5: a Bribe answers one Police of the queue (`bribe:<k>`, k its place in the queue);
    the other Police still acts."""
    s, target, other = _attack_with_kidnap_pending()
    while s.actor[0] != 1:
        act(s, "pass")
    act(s, "play:police_cancel")  # queue: 1 = kidnap (seat 2), 2 = cancel (seat 1)
    assert s.actor[0] == 2
    act(s, "play:bribe")
    assert set(legal(s)) == {"bribe:1", "bribe:2"}
    act(s, "bribe:2")  # seat 2 bribes the defender's cancel
    pass_all(s)
    assert s.hidden[0, 3].tolist() == [0, 1, 0, 0]  # the kidnap stood
    assert s.biz[0, 1, target] == 0  # the attack went through: 3 >= 1 + 2
    assert events(s, C.EV_BRIBE)[0][:3] == [2, 0, 1]


# --- R3.1: Hideout gangsters stay home in noirbrough --------------------------------------------
def test_noirbrough_hideout_gangsters_do_not_attack():
    """R3.1 [WEB §2 "Only Gangsters in open businesses can attack"]."""
    s = blank(4, "noirbrough")
    hideout(s, 0, 3)
    business(s, 1, 1)
    begin(s, 0, "attack")
    assert s.phase[0] != C.PH_ATTACK or legal(s) == ["end"]
    s = blank(4, "noirbrough")
    hideout(s, 0, 3)
    slot = business(s, 0, 2, gangsters=[2])
    business(s, 1, 1)
    begin(s, 0, "attack")
    act(s, "target:+1:slot0")  # the 2 is the only possible attacker: added and confirmed
    declared = events(s, C.EV_DECLARE)[-1]
    assert declared[3:6] == [0, 1, 0] and slot == 0  # the Hideout's 3 stayed home


# --- R3.7: raze first, then a choice ------------------------------------------------------------
def _original_buried_hideout():
    s = blank(4, "original")
    business(s, 0, 4, gangsters=[4])
    business(s, 0, 4, gangsters=[4])
    top = business(s, 1, 1, covers_hideout=True)
    money(s, 1, 2)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", "g4@slot0", "g4@slot1")
    return s, top


def test_raze_first_attackers_may_stop_after_the_raze():
    """R3.7 [ORIG §Attack "remaining attackers CAN continue attacking the hideout"]: after the
    raze the attacker chooses; `end` leaves the Hideout alone."""
    s, top = _original_buried_hideout()
    pass_all(s)
    assert s.phase[0] == C.PH_CONTINUE and s.actor[0] == 0
    assert set(legal(s)) == {"continue_into_hideout", "end"}
    act(s, "end")
    assert s.biz[0, 1, top] == 0 and s.alive[0, 1] == 1 and s.ho_top[0, 1] == -1
    assert s.hidden[0, 0].tolist() == [0, 0, 0, 2] and s.phase[0] != C.PH_CONTINUE
    assert events(s, C.EV_BREACH) == [] and events(s, C.EV_RAZE_CHOICE)[-1][:3] == [0, 1, 0]


def test_raze_first_attackers_may_go_on_into_the_hideout():
    """R3.7: going on, 8 against the open Hideout (3): breached; the defender owes
    (8 - 3) + d6 and, short of it, is eliminated."""
    s, top = _original_buried_hideout()
    pass_all(s)
    force_dice(s, 3)
    act(s, "continue_into_hideout")
    assert s.alive[0, 1] == 0 and s.trophies[0, 0] == 1


def test_raze_first_only_the_declared_target_counts_as_attacked():
    """R3.7 / D7: in raze-first rules the Hideout is a building of its own: attacking the
    business on top does not mark the Hideout (which is out of reach only while that
    business still covers it, rules v3)."""
    s = blank(4, "original")
    business(s, 0, 4, gangsters=[1])
    give(s, 0, C.B1)  # keeps seat 0's turn open (Deploy) so the marks can be read
    top = business(s, 1, 4, gangsters=[4], covers_hideout=True)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{top}", "g1@slot0")
    pass_all(s)
    assert s.attacked[0, 1, top] == 1 and s.attacked[0, 1, C.PLACE_HIDEOUT] == 0


# --- R4.2: the weakest returning gangsters are discarded (original) ----------------------------
def test_original_returning_gangsters_placed_strongest_first():
    """R4.2 [ORIG "discarded starting from the weakest"]: only the strongest HIDDEN gangster
    that fits can be picked up, so the weakest are the ones left over."""
    s = blank(4, "original")
    business(s, 0, 3)
    hidden(s, 0, 1, 3)
    begin(s, 0, "move_gangsters")
    assert can(s, "from:g3@hidden") and not can(s, "from:g1@hidden")
    s = blank(4)
    business(s, 0, 3)
    hidden(s, 0, 1, 3)
    begin(s, 0, "move_gangsters")
    assert can(s, "from:g3@hidden") and can(s, "from:g1@hidden")


# --- R5.8: Poker Night stakes in original --------------------------------------------------------
def test_original_poker_player_with_one_coin_stakes_it():
    """R5.8 / D17 [ORIG "each player who has tokens wagers 2 tokens"]: with one coin a player
    stakes that coin (`poker_all_in`); in noirburg they do not take part."""
    for preset, pot in (("original", 7), ("noirburg", 6)):
        s = blank(4, preset)
        give(s, 0, C.POKER)
        money(s, 1, 1)
        begin(s, 0, "draw")
        force_dice(s, 6, 6, 1, 1, 1)
        act(s, "play:poker_night")
        assert events(s, C.EV_POKER)[-1][:3] == [0, 0, pot], preset


# --- R5.7: Turncoat takes AWAY gangsters in original ---------------------------------------------
def test_original_turncoat_may_take_hidden_gangsters():
    """R5.7 [ORIG "any Gangster deployed on the table, except ... on a hide-out"]: AWAY
    (HIDDEN) gangsters lie on the table, so they can be taken."""
    s = blank(4, "original")
    give(s, 0, C.TURNCOAT)
    hidden(s, 1, 2)
    begin(s, 0, "draw")
    act(s, "play:turncoat")  # the only target and power: chosen unasked
    assert s.hand[0, 0, C.G2] == 1 and s.hidden[0, 1].sum() == 0


# --- R7.3: public knowledge in the observation ----------------------------------------------------
def test_turncoat_makes_a_card_publicly_known_until_it_leaves():
    """R7.3: a gangster taken by Turncoat is known to be in the taker's hand, seen by every
    seat; it is forgotten when the taker deploys (or discards) one of that type."""
    s = blank(4)
    give(s, 0, C.TURNCOAT)
    business(s, 0, 2)
    business(s, 1, 2, gangsters=[2])
    money(s, 0, 5)
    begin(s, 0, "deploy")
    act(s, "play:turncoat")  # the only target and power: chosen unasked
    assert s.known[0, 0, C.G2] == 1
    obs = core.observe(s, seats=1)[0]  # seat 0 is seat 1's block 3
    assert obs[OBS_SLICES["seat3.known_cards"]][C.G2] == 1
    act(s, "deploy:gangster_2", "to:hideout")
    assert s.known[0, 0, C.G2] == 0


def test_elimination_spoils_are_known():
    """R7.3 / R3.8: the eliminated player's table goes into the attacker's hand in view of
    all; their hand stays unknown (only what was known of it stays known)."""
    s = blank(4)
    business(s, 0, 4, gangsters=[4])
    business(s, 0, 4, gangsters=[4])
    business(s, 1, 2, gangsters=[1])
    give(s, 1, C.POLICE)
    money(s, 1, 0)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", "g4@slot0", "g4@slot1")
    force_dice(s, 1)
    while s.phase[0] == C.PH_WINDOW:
        act(s, "pass")
    assert s.alive[0, 1] == 0
    assert s.known[0, 0, C.B2] == 1 and s.known[0, 0, C.G1] == 1
    assert s.known[0, 0, C.POLICE] == 0 and s.hand[0, 0, C.POLICE] == 1


def test_countdown_turns_left_counts_the_turn_in_progress():
    """R7 / R6.3: with `countdown_starts_next_turn` the turn in which the countdown started
    takes no token: 4 tokens are then 5 turn ends of the holder."""
    s = blank(4)
    begin(s, 0, "draw")
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 0, 4, s.turn_no[0]
    assert countdown_turns_left(core.state.kernel_view(s), 0) == 5
    assert core.observe(s, seats=0)[0, O_CD_LEFT] == 5
    s.cd_turn[0] -= 4
    assert core.observe(s, seats=0)[0, O_CD_LEFT] == 4
    s.active[0] = 1
    assert core.observe(s, seats=0)[0, O_CD_LEFT] == 4


def test_rules_in_force_are_observed():
    """R7: the rules row is part of the observation, so one policy can play every preset
    (the fields of rules v2: those added later show in the legal actions, R7.1)."""
    for preset in ("noirburg", "noirbrough", "original"):
        s = core.init(1, 4, preset, seeds=3)
        got = core.observe(s)[0, O_RULES : O_RULES + len(OBSERVED_RULE_FIELDS)]
        want = rules_row(core.PRESETS[preset])[: len(OBSERVED_RULE_FIELDS)]
        assert np.array_equal(got, want.astype(np.float32))


# --- R2.5: presenting forced decisions (ask_all) -------------------------------------------
def test_ask_all_asks_every_player_holding_cards():
    """R2.5 with `ask_all`: in a window every living player with cards is asked, even with
    `pass` as the only legal action; a player with an empty hand (public) is not."""
    s = core.init(1, 4, seeds=5, ask_all=True)
    asked = set()
    for _ in range(3000):
        if s.phase[0] == C.PH_GAME_OVER:
            break
        x = int(s.actor[0])
        legal_ids = np.flatnonzero(s.mask[0])
        if s.phase[0] == C.PH_WINDOW:
            asked.add(x)
            assert s.hand[0, x].sum() > 0
        if len(legal_ids) == 1:  # presented although forced: never for a public reason
            assert s.hand[0, x].sum() > 0
        core.step(s, np.array([legal_ids[0]]))
    assert asked == {0, 1, 2, 3}


def test_ask_all_plays_the_same_game():
    """R2.5: presenting forced decisions changes nobody's options: taking each presented
    forced action replays the fast game exactly, decision for decision."""
    fields = ("phase", "actor", "money", "hand", "biz", "biz_g", "ho_g", "hidden", "deck", "rng")
    for seed in range(6):
        fast = core.init(1, 3 + seed % 4, seeds=seed)
        slow = core.init(1, 3 + seed % 4, seeds=seed, ask_all=True)
        rng = np.random.default_rng(seed)
        for _ in range(3000):
            while slow.phase[0] != C.PH_GAME_OVER and slow.mask[0].sum() == 1:
                core.step(slow, np.flatnonzero(slow.mask[0]))
            for f in fields:
                assert np.array_equal(fast[f], slow[f]), (seed, f)
            if fast.phase[0] == C.PH_GAME_OVER:
                break
            assert np.array_equal(fast.mask[0], slow.mask[0])
            a = np.array([rng.choice(np.flatnonzero(fast.mask[0]))])
            core.step(fast, a)
            core.step(slow, a)
        assert fast.phase[0] == C.PH_GAME_OVER
