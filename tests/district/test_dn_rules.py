"""Scenario tests of every District Noir rule (docs/DISTRICT_NOIR.md): hand-written
positions, scripted actions, expected values worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from noir_env import district
from noir_env.district import constants as C

from .helpers import act, cards, legal, line, position

FULL_COUNTS = dict(zip(C.CARD_NAMES, C.CARD_COUNTS.tolist(), strict=True))


def last_round(p0: dict, p1: dict, line_cards: list[str], **kw) -> district.State:
    """A position of the fourth round (empty draw pile; every other card boxed)."""
    return position(round=3, players=[p0, p1], line=line_cards, deck=[], **kw)


# --- DN1 / DN2: components and set-up ----------------------------------------------------------
def test_dn1_dn2_setup_deals_the_45_cards_as_the_text_says():
    """DN1.1-DN1.5 (45 cards), DN2.1 (3 boxed, 42 in play), DN2.2 (5 each), DN2.3 (a line of
    two face-up cards), DN2.4 (a random start player who acts first)."""
    s = district.init(400, seeds=0)
    total = s.removed + s.hand.sum(1) + s.coll.sum(1)
    for i in range(400):
        total[i] += np.bincount(s.deck[i, : s.deck_n[i]], minlength=13)
        total[i] += np.bincount(s.line[i, : s.line_n[i]], minlength=13)
    assert (total == C.CARD_COUNTS).all()
    assert FULL_COUNTS == {
        "gang_5": 5, "gang_6": 6, "gang_7": 7, "gang_8": 8,
        "alliance_2": 4, "alliance_3": 2, "alliance_4": 1,
        "betrayal_1": 3, "betrayal_2": 4, "betrayal_3": 2,
        "port": 1, "police_hq": 1, "city_hall": 1,
    }  # fmt: skip
    assert (s.removed.sum(1) == 3).all() and (s.deck_n == 30).all()
    assert (s.hand.sum(2) == 5).all() and (s.line_n == 2).all()
    assert (s.coll == 0).all() and (s.round_no == 0).all()
    assert (s.actor == s.start_player).all()
    assert 150 < (s.start_player == 0).sum() < 250, "a fair coin"
    assert (district.legal_action_mask(s)[:, C.A_TAKE]).all(), "a line of two can be taken"


# --- DN3: a round ---------------------------------------------------------------------------------
def test_dn3_2_playing_puts_the_card_at_the_end_of_the_line_and_passes_the_turn():
    s = last_round(
        {"hand": {"gang_5": 2, "alliance_2": 1, "betrayal_1": 2}},
        {"hand": {"gang_6": 3, "gang_8": 2}},
        ["gang_7", "port"],
    )
    assert legal(s) == ["play:gang_5", "play:alliance_2", "play:betrayal_1", "take"]
    act(s, "play:gang_5")
    assert line(s) == ["gang_7", "port", "gang_5"]
    assert cards(s.hand[0, 0]) == {"gang_5": 1, "alliance_2": 1, "betrayal_1": 2}
    assert s.acts[0].tolist() == [1, 0] and s.actor[0] == 1  # DN3.1: strict alternation
    assert legal(s) == ["play:gang_6", "play:gang_8", "take"]


def test_dn3_3_take_collects_the_last_five_cards_newest_end():
    s = last_round(
        {"hand": {"gang_5": 1, "gang_6": 4}},
        {"hand": {"gang_8": 5}},
        ["gang_5", "gang_6", "gang_7", "gang_8", "alliance_2", "betrayal_1", "port"],
    )
    act(s, "take")
    assert line(s) == ["gang_5", "gang_6"]  # the two oldest stay
    assert cards(s.coll[0, 0]) == {
        "gang_7": 1, "gang_8": 1, "alliance_2": 1, "betrayal_1": 1, "port": 1
    }  # fmt: skip
    assert s.taken[0].tolist() == [1, 0] and s.acts[0].tolist() == [1, 0]


def test_dn3_3_a_short_line_is_taken_whole_and_an_empty_line_cannot_be_taken():
    s = last_round(
        {"hand": {"gang_5": 1, "gang_6": 4}},
        {"hand": {"gang_7": 3, "gang_8": 2}},
        ["gang_8", "betrayal_2"],
    )
    act(s, "take")
    assert cards(s.coll[0, 0]) == {"gang_8": 1, "betrayal_2": 1} and line(s) == []
    assert legal(s) == ["play:gang_7", "play:gang_8"], "no take on an empty line"


def test_dn3_3_an_illegal_take_raises_naming_it_and_changes_nothing():
    s = last_round({"hand": {"gang_5": 1, "gang_6": 4}}, {"hand": {"gang_7": 3, "gang_8": 2}}, [])
    before = s.copy()
    with pytest.raises(ValueError, match=r"illegal action 'take'.*phase play.*legal: \["):
        act(s, "take")
    np.testing.assert_array_equal(s, before)


def test_dn3_3_only_one_take_per_round():
    s = last_round(
        {"hand": {"gang_5": 1, "gang_6": 4}},
        {"hand": {"gang_7": 3, "gang_8": 2}},
        ["gang_8", "betrayal_2", "gang_5"],
    )
    act(s, "take", "play:gang_7")
    assert s.actor[0] == 0
    assert legal(s) == ["play:gang_5", "play:gang_6"], "taken already: only plays"
    with pytest.raises(ValueError, match="illegal action 'take'"):
        act(s, "take")


def test_dn3_4_dn3_5_dn3_6_forced_take_forced_play_round_end_and_new_deal():
    """Round 3 of 4 (10 cards left to deal). Player 1 plays; player 0 has an empty hand and
    has not taken: the core takes for it (DN3.4, DN5.1); player 1's last card is then played
    by itself; both have six actions (DN3.5): five new cards each, seat 0 from the top of the
    pile, the coin passes to player 1, the line stays (DN3.6)."""
    deck = ["gang_6", "gang_6", "alliance_2", "betrayal_1", "gang_7"]  # bottom: seat 1's
    deck += ["gang_5", "gang_5", "gang_8", "betrayal_3", "city_hall"]  # top: seat 0's
    s = position(
        round=2,
        start_player=0,
        players=[
            {"actions": 5, "taken": False, "hand": {}},
            {"actions": 4, "taken": True, "hand": {"gang_6": 1, "alliance_3": 1}},
        ],
        line=["betrayal_3", "gang_8", "gang_8", "gang_7", "gang_5", "port"],
        deck=deck,
    )
    assert s.actor[0] == 1 and legal(s) == ["play:gang_6", "play:alliance_3"]
    rewards = act(s, "play:alliance_3")
    assert rewards.tolist() == [0.0, 0.0]
    assert cards(s.coll[0, 0]) == {
        "gang_5": 1, "gang_7": 1, "gang_8": 1, "alliance_3": 1, "port": 1
    }  # fmt: skip
    assert line(s) == ["betrayal_3", "gang_8", "gang_6"], "leftover line stays (DN3.6)"
    assert s.round_no[0] == 3 and s.deck_n[0] == 0
    assert s.start_player[0] == 1 and s.actor[0] == 1, "the coin passes"
    assert s.acts[0].tolist() == [0, 0] and s.taken[0].tolist() == [0, 0]
    assert s.takes[0].tolist() == [3, 3]
    assert cards(s.hand[0, 0]) == {"gang_5": 2, "gang_8": 1, "betrayal_3": 1, "city_hall": 1}
    assert cards(s.hand[0, 1]) == {"gang_6": 2, "gang_7": 1, "alliance_2": 1, "betrayal_1": 1}
    assert s.steps[0] == 1, "forced actions are not counted as steps"


def test_dn3_6_empty_draw_pile_at_the_end_of_the_round_ends_the_game():
    """Last round: player 1 plays, player 0's last card and player 1's last card are
    forced; the draw pile is empty, so the final count decides (DN4.2)."""
    s = last_round(
        {"actions": 5, "taken": True, "hand": {"gang_8": 1}, "collection": {"gang_8": 3}},
        {"actions": 4, "taken": True, "hand": {"gang_5": 1, "gang_6": 1}},
        ["gang_7"],
    )
    rewards = act(s, "play:gang_5")
    assert s.phase[0] == C.PH_GAME_OVER and s.actor[0] == -1
    assert line(s) == ["gang_7", "gang_5", "gang_8", "gang_6"]
    assert district.scores(s)[0].tolist() == [8, 0]
    assert rewards.tolist() == [1.0, -1.0] and s.win_reason[0] == C.WIN_POINTS
    assert not district.legal_action_mask(s).any()


# --- DN4: end of the game and scoring ------------------------------------------------------------
def test_dn4_1_all_three_buildings_win_at_once_whatever_the_points():
    s = position(
        round=1,
        start_player=1,
        players=[
            {
                "hand": {"gang_8": 5},
                "collection": {"alliance_4": 1, "alliance_3": 2, "alliance_2": 1},
            },
            {
                "hand": {"gang_7": 5},
                "collection": {
                    "port": 1,
                    "police_hq": 1,
                    "betrayal_3": 2,
                    "betrayal_2": 1,
                    "betrayal_1": 1,
                },
            },
        ],
        line=["city_hall", "gang_5"],
    )
    assert district.scores(s)[0].tolist() == [12, -9]
    rewards = act(s, "take")
    assert rewards.tolist() == [-1.0, 1.0]
    assert s.phase[0] == C.PH_GAME_OVER and s.winner[0] == 1
    assert s.win_reason[0] == C.WIN_BUILDINGS and s.round_no[0] == 1


@pytest.mark.parametrize(
    "coll0, coll1, expected",
    [
        # DN4.2: majority scores the gang's value once; a tie (7s) scores for nobody
        ({"gang_8": 3, "gang_7": 1}, {"gang_8": 2, "gang_7": 1, "gang_5": 1}, [8, 5]),
        # DN4.3: sets of four gangs = the smallest gang count (1 set for player 0)
        ({"gang_5": 2, "gang_6": 2, "gang_7": 2, "gang_8": 1}, {"gang_8": 3}, [23, 8]),
        # two sets: 5 + 6 (majorities) + 2 x 5
        (
            {"gang_5": 2, "gang_6": 3, "gang_7": 2, "gang_8": 2},
            {"gang_7": 2, "gang_8": 2},
            [21, 0],
        ),
        # DN4.4: minus betrayal, plus alliance; DN4.5: buildings score nothing
        (
            {"alliance_2": 2, "alliance_4": 1, "betrayal_3": 1, "port": 1, "police_hq": 1},
            {"betrayal_1": 2, "betrayal_2": 1, "city_hall": 1, "alliance_3": 1},
            [5, -1],
        ),
        ({}, {}, [0, 0]),
    ],
)
def test_dn4_2_to_dn4_5_final_count(coll0, coll1, expected):
    seat = {"actions": 5, "taken": True, "hand": {"gang_5": 1}}  # one card left each
    s = last_round({**seat, "collection": coll0}, {**seat, "collection": coll1}, [])
    assert district.scores(s)[0].tolist() == expected


def final_take(coll0: dict, coll1: dict, taken_by_1: list[str]) -> district.State:
    """The game's last action: player 1, hand empty and not taken yet, takes the line."""
    return last_round(
        {"actions": 6, "taken": True, "hand": {}, "collection": coll0},
        {"actions": 5, "taken": False, "hand": {}, "collection": coll1},
        taken_by_1,
    )


@pytest.mark.parametrize(
    "coll0, coll1, line_cards, rewards, reason",
    [
        # DN4.6: more points wins (8 against 7)
        ({"gang_8": 2}, {"gang_8": 1}, ["gang_7"], [1, -1], C.WIN_POINTS),
        # DN4.6: 5 - 1 = 5 = 7 - 2; no 8s either side; player 1 has more 7s
        ({"gang_6": 2, "betrayal_1": 1}, {"gang_7": 1}, ["betrayal_2"], [-1, 1], C.WIN_TIEBREAK),
        # DN4.6: 10 = 10, 8s, 7s and 6s tied; player 0 has more 5s
        (
            {"gang_8": 1, "gang_7": 1, "gang_6": 1, "gang_5": 2},
            {"gang_8": 1, "gang_7": 1, "gang_6": 1, "gang_5": 1, "alliance_2": 1},
            ["alliance_3"],
            [1, -1],
            C.WIN_TIEBREAK,
        ),
        # DN4.7: everything equal: a draw
        ({"gang_8": 1, "alliance_2": 1}, {"gang_8": 1}, ["alliance_2"], [0, 0], C.WIN_DRAW),
    ],
)
def test_dn4_6_dn4_7_winner_tiebreak_and_draw(coll0, coll1, line_cards, rewards, reason):
    s = final_take(coll0, coll1, line_cards)
    assert legal(s) == ["take"]
    got = act(s, "take")
    assert got.tolist() == rewards and s.win_reason[0] == reason
    assert s.winner[0] == (-1 if reason == C.WIN_DRAW else rewards.index(1))
    a, b = district.scores(s)[0]
    assert (a == b) == (reason != C.WIN_POINTS)


def test_a_finished_game_ignores_actions_and_reports_done():
    s = final_take({"gang_8": 2}, {"gang_8": 1}, ["gang_7"])
    act(s, "take")
    before = s.copy()
    rewards, done, illegal = district.step(s, np.array([C.A_TAKE]))
    assert done.tolist() == [True] and not illegal.any() and (rewards == 0).all()
    np.testing.assert_array_equal(s, before)
    assert district.current_player(s).tolist() == [-1]
