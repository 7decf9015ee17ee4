"""District Noir's belief sampling (`district.sample_hidden`, noir_env/district/belief.py): a
re-deal changes nothing the seat sees, conserves the cards, re-deals exactly the other hand,
the draw pile and the boxed cards, and is a function of the seat's information and the seed."""

import numpy as np
import pytest

from noir_env import district
from noir_env.district import constants as C
from noir_env.district import random_playout
from noir_env.game import get_game

HIDDEN_FIELDS = get_game("district_noir").hidden_fields  # what a re-deal may change


def played_positions() -> district.State:
    """64 games, each stopped after 0..45 random decisions (some over)."""
    s = district.init(64, seeds=5)
    for k, lo in enumerate(range(0, 64, 8)):
        part = district.take(s, np.arange(lo, lo + 8))
        random_playout(part, seed=k, max_steps=6 * k)
        s[lo : lo + 8] = part
    return s


def public_bytes(state: district.State) -> np.ndarray:
    keep = [f for f in state.dtype.names if f not in HIDDEN_FIELDS]
    n = state.shape[0]
    return np.concatenate(
        [np.ascontiguousarray(state[f]).view(np.uint8).reshape(n, -1) for f in keep], 1
    )


def all_cards(state: district.State) -> np.ndarray:
    """int [N, 13]: every card of each game by type, wherever it lies."""
    deck = np.zeros((state.shape[0], C.NUM_CARD_TYPES), np.int64)
    for i in range(state.shape[0]):
        deck[i] = np.bincount(state.deck[i, : state.deck_n[i]], minlength=C.NUM_CARD_TYPES)
        deck[i] += np.bincount(state.line[i, : state.line_n[i]], minlength=C.NUM_CARD_TYPES)
    return deck + state.hand.sum(1) + state.coll.sum(1) + state.removed


@pytest.mark.parametrize("rel", [0, 1])
def test_resampling_changes_nothing_the_seat_sees(rel):
    s = played_positions()
    seats = (np.maximum(district.current_player(s), 0) + rel) % 2
    w = district.sample_hidden(s, seats, seeds=100 + rel)
    np.testing.assert_array_equal(district.observe(w, seats), district.observe(s, seats))
    np.testing.assert_array_equal(public_bytes(w), public_bytes(s))
    np.testing.assert_array_equal(all_cards(w), all_cards(s))
    np.testing.assert_array_equal(all_cards(s), np.broadcast_to(C.CARD_COUNTS, all_cards(s).shape))
    idx = np.arange(64)
    np.testing.assert_array_equal(w.hand[idx, seats], s.hand[idx, seats])
    np.testing.assert_array_equal(w.hand.sum(2), s.hand.sum(2))
    np.testing.assert_array_equal(w.removed.sum(1), s.removed.sum(1))
    if rel == 0:  # the actor's legal actions depend on its own cards only
        np.testing.assert_array_equal(w.mask, s.mask)
    # it does re-deal: the other hand or the draw pile differ in most games with a pile
    other = w.hand[idx, 1 - seats] != s.hand[idx, 1 - seats]
    changed = other.any(1) | (w.deck != s.deck).any(1) | (w.removed != s.removed).any(1)
    assert changed[s.deck_n > 0].mean() > 0.9


def test_same_seed_same_deal_and_only_the_information_set_matters():
    s = played_positions()
    seats = np.maximum(district.current_player(s), 0)
    a = district.sample_hidden(s, seats, seeds=7)
    np.testing.assert_array_equal(a, district.sample_hidden(s, seats, seeds=7))
    assert (district.sample_hidden(s, seats, seeds=8).deck != a.deck).any()
    other_world = district.sample_hidden(s, seats, seeds=99)
    np.testing.assert_array_equal(district.sample_hidden(other_world, seats, seeds=7), a)


def test_every_unseen_card_can_reach_the_other_hand():
    """Over re-deals, each card type the seat cannot place shows up in the other hand, in
    proportion to its count in the unseen pool (a loose check that the deal is not biased to
    the old arrangement)."""
    s = district.init(1, seeds=3)
    seat = int(district.current_player(s)[0])
    unseen = C.CARD_COUNTS - s.hand[0, seat] - np.bincount(s.line[0, : s.line_n[0]], minlength=13)
    worlds = district.sample_hidden(district.concat([s] * 4000), seat, seeds=0)
    freq = worlds.hand[:, 1 - seat].sum(0) / (4000 * 5)
    np.testing.assert_allclose(freq, unseen / unseen.sum(), atol=0.02)


def test_bad_arguments_are_named():
    s = district.init(2, seeds=0)
    with pytest.raises(ValueError, match="seats"):
        district.sample_hidden(s, 2, seeds=0)
    with pytest.raises(ValueError, match="seeds"):
        district.sample_hidden(s, 0, seeds=[1, 2, 3])
