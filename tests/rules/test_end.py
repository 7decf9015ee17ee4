"""Rulebook scenarios for the end of the game (R6): war, money win, the countdown and its
three triggers, the final score with its tie-breaks, and the rewards."""

import numpy as np

from noir_env.core import NOIRBURG
from noir_env.core import constants as C

from .helpers import (
    act,
    attack,
    begin,
    blank,
    business,
    events,
    force_dice,
    hidden,
    hideout,
    money,
)


def run_turns(s, limit=400):
    """Every player ends each step (no draw, no reaction) until the game is over."""
    for _ in range(limit):
        if s.phase[0] == C.PH_GAME_OVER:
            return
        act(s, "pass" if s.phase[0] == C.PH_WINDOW else "end")
    raise AssertionError("the game did not end")


# --- R6.1: war ----------------------------------------------------------------------------------
def test_last_player_standing():
    """R6.1: with three players, once two are out the last one wins (here each of the two
    eliminations was made by a different player)."""
    s = blank(3)
    business(s, 2, 4, [4])
    money(s, 0, 0)
    money(s, 1, 0)
    s.alive[0, 1] = 0
    s.kills[0, 0] = 1
    s.trophies[0, 0] = 1
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 0, 4, 3
    begin(s, 2, "attack")
    force_dice(s, 1)
    rewards, done = attack(s, "+1:hideout", "g4@slot0")
    assert done and s.win_reason[0] == C.WIN_LAST and s.winners[0, :3].tolist() == [0, 0, 1]
    assert s.trophies[0, 2] == 2  # seat 0's trophy passed on (R3.8)
    assert np.allclose(rewards[:3], [-0.5, -0.5, 1.0])


# --- R6.2: money ------------------------------------------------------------------------------
def test_money_win_thresholds_are_more_than_half():
    """R6.2: 'more than half of the money in play' (50/60/70/80 coins)."""
    assert [NOIRBURG.money_threshold(n) for n in (3, 4, 5, 6)] == [26, 31, 36, 41]


def test_money_win_at_the_end_of_own_turn():
    """R6.2: 31 of 60 coins at the end of one's own turn wins; R6.5: +1 for the winner,
    the others share -1."""
    s = blank(4)
    money(s, 0, 31)
    begin(s, 0, "draw")
    rewards, done = act(s, "end")
    assert done and s.win_reason[0] == C.WIN_MONEY and s.winners[0, 0] == 1
    assert np.allclose(rewards[:4], [1, -1 / 3, -1 / 3, -1 / 3])


def test_thirty_of_sixty_is_not_a_money_win():
    """R6.2: exactly half is not more than half."""
    s = blank(4)
    money(s, 0, 30)
    begin(s, 0, "draw")
    act(s, "end")
    assert s.phase[0] != C.PH_GAME_OVER and s.active[0] == 1


def test_money_win_only_at_the_end_of_the_rich_players_turn():
    """R6.2: 'at the end of their round': seat 1 holding 31 does not win when seat 0's turn
    ends, but at the end of its own turn."""
    s = blank(4)
    money(s, 1, 31)
    begin(s, 0, "draw")
    act(s, "end")
    assert s.phase[0] != C.PH_GAME_OVER and s.active[0] == 1
    run_turns(s)
    assert s.win_reason[0] == C.WIN_MONEY and s.winners[0, 1] == 1 and s.turn_no[0] == 5


# --- R6.3: the countdown -------------------------------------------------------------------------
def test_bank_short_starts_the_countdown_and_it_runs_four_turns():
    """R6.3 trigger 2: the first time a player cannot take all the tribute, they take all
    that is left and the countdown starts. 'Starting with the end of their next turn' they
    take a token at the end of each of their turns; the last token ends the game (R6.4:
    a three-way tie on score, business value and money is shared, R6.5)."""
    s = blank(4)
    for q in (0, 1, 2):
        money(s, q, 19)
    money(s, 3, 1)  # bank: 60 - 58 = 2, seat 3's tribute is 3
    begin(s, 2, "draw")
    act(s, "end")
    assert events(s, C.EV_TRIBUTE) == [[3, 2, 3, 0, 0, 0, 0]]
    assert events(s, C.EV_COUNTDOWN) == [[3, C.CD_BANK, 3, 0, 0, 0, 0]]
    assert s.bank[0] == 0 and s.cd_on[0] == 1 and s.cd_turn[0] == 7
    ends = []
    while s.phase[0] != C.PH_GAME_OVER:
        n = len(events(s, C.EV_TOKEN))
        turn = int(s.turn_no[0])
        act(s, "pass" if s.phase[0] == C.PH_WINDOW else "end")
        if len(events(s, C.EV_TOKEN)) > n:
            ends.append(turn)
    assert events(s, C.EV_TOKEN) == [[3, k, 0, 0, 0, 0, 0] for k in (3, 2, 1, 0)]
    assert ends == [11, 15, 19, 23]  # seat 3's next four turns, not the triggering one
    assert s.win_reason[0] == C.WIN_SCORE and s.winners[0, :4].tolist() == [1, 1, 1, 0]


def test_countdown_never_restarts():
    """R6.3: 'the counter will not stop under any circumstances'; a later trigger does not
    reset it."""
    s = blank(4)
    money(s, 1, 19)
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 2, 2, 3
    begin(s, 0, "draw")
    act(s, "end")  # seat 1 reaches 22 (a third): already running
    assert s.money[0, 1] == 22 and s.cd_holder[0] == 2 and s.cd_tokens[0] == 2
    assert events(s, C.EV_COUNTDOWN) == []


def test_one_third_of_the_money_starts_the_countdown():
    """R6.3 trigger 3: 'one-third of the total amount of money ... If one-third of the money
    is not a whole number, it is rounded up': 70 coins (5 players): 23 does not, 24 does."""
    for start, triggers in ((20, False), (21, True)):
        s = blank(5)
        money(s, 0, start)
        begin(s, 4, "draw")
        act(s, "end")
        assert s.money[0, 0] == start + 3
        assert s.cd_on[0] == int(triggers)
        if triggers:
            assert events(s, C.EV_COUNTDOWN) == [[0, C.CD_THIRD, 0, 0, 0, 0, 0]]


def test_one_third_by_stealing():
    """R6.3 trigger 3 counts any gain: 16 + 4 stolen = 20 of 60."""
    s = blank(4)
    x = business(s, 0, 4, [4])
    business(s, 0, 1, [1])
    t = business(s, 1, 4)
    money(s, 0, 16)
    money(s, 1, 6)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", f"g4@slot{x}")
    assert s.money[0, 0] == 20 and s.cd_on[0] == 1 and s.cd_holder[0] == 0


def test_countdown_passes_to_the_previous_player_when_its_holder_is_out():
    """R6.3: 'If the player who started the countdown is eliminated, the previous player
    continues the countdown.'"""
    s = blank(4)
    business(s, 3, 4, [4])
    money(s, 1, 0)
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 1, 3, 5
    begin(s, 3, "attack")
    force_dice(s, 1)
    attack(s, "+2:hideout", "g4@slot0")
    assert s.alive[0, 1] == 0 and s.cd_holder[0] == 0 and s.cd_tokens[0] == 3


# --- R6.4: the final score ---------------------------------------------------------------------
def last_token(s):
    """The countdown is on its last token, held by seat 0, whose turn ends now."""
    s.cd_on[0], s.cd_holder[0], s.cd_tokens[0], s.cd_turn[0] = 1, 0, 1, 0
    begin(s, 0, "draw", turn_no=12)
    return act(s, "end")


def test_score_ties_broken_by_business_value():
    """R6.4: 'In the event of a tie, the total value of the businesses is considered':
    10 = Casino 4 + 6 coins beats 10 = Speakeasy 3 + gangster 1 + 6 and 10 coins."""
    s = blank(4)
    business(s, 0, 4)
    money(s, 0, 6)
    business(s, 1, 3, [1])
    money(s, 1, 6)
    money(s, 2, 10)
    rewards, done = last_token(s)
    assert done and s.win_reason[0] == C.WIN_SCORE and s.winners[0, :4].tolist() == [1, 0, 0, 0]
    assert events(s, C.EV_TOKEN) == [[0, 0, 0, 0, 0, 0, 0]]


def test_score_ties_broken_by_money():
    """R6.4: 'If the total value of the businesses is also tied, the player with the most
    money wins': Casino + 1-gangster + 5 coins loses to Casino + 6 coins."""
    s = blank(4)
    business(s, 0, 4, [1])
    money(s, 0, 5)
    business(s, 1, 4)
    money(s, 1, 6)
    last_token(s)
    assert s.winners[0, :4].tolist() == [0, 1, 0, 0]


def test_full_tie_is_shared():
    """R6.4/R6.5: equal on every count: the win is shared (+1/2 each, the others -1/2)."""
    s = blank(4)
    business(s, 0, 4)
    money(s, 0, 6)
    business(s, 1, 4)
    money(s, 1, 6)
    rewards, _ = last_token(s)
    assert s.winners[0, :4].tolist() == [1, 1, 0, 0]
    assert np.allclose(rewards[:4], [0.5, 0.5, -0.5, -0.5])


def test_score_counts_trophies_hidden_and_hideout_gangsters():
    """R6.4: 'A Hideout destroyed by a player is worth 10 points. Each card face up on the
    table is worth points equal to the number on it, including any gangsters that are
    HIDDEN. The money ... is also added': 10 + 2 + 1 = 13 beats 4 + 4 + 4 = 12 and 12;
    the eliminated seat is not scored."""
    s = blank(4)
    s.trophies[0, 0] = 1
    s.kills[0, 0] = 1
    hidden(s, 0, 2)
    hideout(s, 0, 1)
    money(s, 0, 0)
    business(s, 1, 4, [4])
    money(s, 1, 4)
    money(s, 2, 12)
    money(s, 3, 0)
    s.alive[0, 3] = 0
    last_token(s)
    assert s.winners[0, :4].tolist() == [1, 0, 0, 0]
