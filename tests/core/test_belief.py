"""Belief sampling (`core.sample_hidden`, noir_env/core/belief.py): a re-deal changes nothing
the seat sees, keeps the invariants and the public cards (R7.3), is deterministic and a
function of the seat's information, and is uniform over the consistent deals."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from noir_env import core
from noir_env.core import constants as C
from noir_env.core import random_playout
from noir_env.core.serialize import state_from_dict
from noir_env.core.validate import check_invariants
from noir_env.game import get_game

HIDDEN_FIELDS = get_game("noir").hidden_fields  # what a re-deal may change


def played_positions(ask_all: bool) -> core.State:
    """96 games of 3-6 players, each stopped after 0..150 random decisions."""
    s = core.init(96, np.arange(96) % 4 + 3, "noirburg", seeds=11, ask_all=ask_all)
    for k, lo in enumerate(range(0, 96, 8)):
        part = core.take(s, np.arange(lo, lo + 8))
        random_playout(part, seed=k, max_steps=13 * k, parallel=False)
        s[lo : lo + 8] = part
    return s


def public_bytes(state: core.State) -> np.ndarray:
    """Every field but those a re-deal may change, as bytes per game."""
    keep = [f for f in state.dtype.names if f not in HIDDEN_FIELDS]
    n = state.shape[0]
    return np.concatenate(
        [np.ascontiguousarray(state[f]).view(np.uint8).reshape(n, -1) for f in keep], 1
    )


@pytest.mark.parametrize("ask_all", [False, True])
def test_resampling_changes_nothing_the_seat_sees(ask_all):
    s = played_positions(ask_all)
    live = core.current_player(s) >= 0
    for rel in range(3):  # the actor and two other seats observe
        seats = (np.maximum(core.current_player(s), 0) + rel) % s.num_players
        w = core.sample_hidden(s, seats, seeds=100 * rel)
        assert check_invariants(w) == []
        np.testing.assert_array_equal(core.observe(w, seats), core.observe(s, seats))
        np.testing.assert_array_equal(public_bytes(w), public_bytes(s))
        for i in range(s.shape[0]):
            n, seat = int(s.num_players[i]), int(seats[i])
            np.testing.assert_array_equal(w.hand[i, seat], s.hand[i, seat])
            np.testing.assert_array_equal(w.hand[i, :n].sum(1), s.hand[i, :n].sum(1))
            assert (w.hand[i] >= w.known[i]).all()
            if rel == 0 and live[i]:  # the actor's legal actions depend on its own cards
                np.testing.assert_array_equal(w.mask[i], s.mask[i])
        # it does re-deal: other hands and the draw pile's order differ in most games
        assert (w.deck != s.deck).any(axis=1).mean() > 0.9
        assert (w.hand != s.hand).any(axis=(1, 2)).mean() > 0.9


def test_same_seed_same_deal_and_only_the_information_set_matters():
    s = played_positions(ask_all=False)
    seats = np.maximum(core.current_player(s), 0)
    a = core.sample_hidden(s, seats, seeds=7)
    np.testing.assert_array_equal(a, core.sample_hidden(s, seats, seeds=7))
    assert (core.sample_hidden(s, seats, seeds=8).deck != a.deck).any()
    # another world the seat cannot tell from `s` gives the same re-deal for the same seed
    other_world = core.sample_hidden(s, seats, seeds=99)
    np.testing.assert_array_equal(core.sample_hidden(other_world, seats, seeds=7), a)
    # the input is not changed
    np.testing.assert_array_equal(public_bytes(s), public_bytes(other_world))


def test_bad_arguments_are_named():
    s = core.init(2, 3, seeds=0)
    with pytest.raises(ValueError, match="seats"):
        core.sample_hidden(s, 3, seeds=0)
    with pytest.raises(ValueError, match="seeds"):
        core.sample_hidden(s, 0, seeds=[1, 2, 3])
    with pytest.raises(ValueError, match="NOIR state"):
        core.sample_hidden(np.zeros(3), 0, seeds=0)


# --- uniformity ------------------------------------------------------------------------------
SEEN = {"gangster_2": 1, "speakeasy": 1}  # seat 0's hand
UNSEEN = ["police", "police", "bribe", "casino", "gangster_1"]  # 5 physical cards
# seat 1 holds a publicly known gangster_3 and 2 unseen cards, seat 2 one, the draw pile 2


def small_position() -> core.State:
    placed = Counter(SEEN) + Counter(UNSEEN) + Counter({"gangster_3": 1})
    discard = {
        name: int(C.DECK_COUNTS[t]) - placed[name]
        for t, name in enumerate(C.CARD_NAMES)
        if C.DECK_COUNTS[t] > placed[name]
    }
    players = [
        {"money": 3, "hand": SEEN},
        {"money": 3, "hand": {"gangster_3": 1, "police": 1, "casino": 1},
         "known": {"gangster_3": 1}},
        {"money": 3, "hand": {"police": 1}},
    ]  # fmt: skip
    return state_from_dict(
        {
            "num_players": 3,
            "phase": "deploy",
            "players": players,
            "discard": discard,
            "deck": ["bribe", "gangster_1"],
        }  # fmt: skip
    )


def outcome(g) -> tuple:
    """A deal as the seat would tell it apart: the two hands' unseen parts, the pile's order."""
    return (tuple(g.hand[1] - g.known[1]), tuple(g.hand[2]), tuple(g.deck[: g.deck_n]))


def exact_distribution(position) -> dict[tuple, float]:
    """Every ordering of the 5 physical unseen cards, equally likely, mapped to its deal."""
    g = position[0].copy()
    types = [C.CARD_NAMES.index(name) for name in UNSEEN]
    counts: Counter = Counter()
    for perm in itertools.permutations(range(len(types))):
        cards = [types[k] for k in perm]
        g.hand[1] = g.known[1]
        g.hand[2] = 0
        for c in cards[:2]:
            g.hand[1, c] += 1
        g.hand[2, cards[2]] += 1
        g.deck[:2] = cards[3:]
        counts[outcome(g)] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with `dof` degrees of freedom > x): the regularised upper incomplete
    gamma Q(dof/2, x/2) from its power series (fine for the small dof used here)."""
    a, z = dof / 2.0, x / 2.0
    term = total = 1.0 / a
    for k in range(1, 1000):
        term *= z / (a + k)
        total += term
        if term < total * 1e-15:
            break
    return max(0.0, 1.0 - math.exp(a * math.log(z) - z - math.lgamma(a)) * total)


def chi2_p(observed: Counter, expected: dict[tuple, float], n: int) -> float:
    assert set(observed) <= set(expected), "a deal the position does not allow"
    stat = sum((observed[k] - n * p) ** 2 / (n * p) for k, p in expected.items())
    return chi2_sf(stat, len(expected) - 1)


def test_deals_are_uniform_over_the_consistent_ones():
    position = small_position()
    n = 12_000
    worlds = core.sample_hidden(core.concat([position] * n), 0, seeds=2024)
    observed = Counter(outcome(worlds[k]) for k in range(n))
    expected = exact_distribution(position)
    assert len(expected) == 33 and set(observed) == set(expected)
    assert chi2_p(observed, expected, n) > 1e-3
    # the test's power: a sampler uniform over the 33 distinct deals instead of over the
    # physical cards' orderings (a natural mistake) would be rejected, as would one that
    # drifts 10% of its mass onto one deal
    flat = {k: 1 / len(expected) for k in expected}
    assert chi2_p(observed, flat, n) < 1e-6
    drift = Counter(observed)
    moved = n // 10
    for k, c in list(drift.items()):
        drift[k] = c - round(moved * c / n)
    drift[next(iter(expected))] += n - sum(drift.values())
    assert chi2_p(drift, expected, n) < 1e-6


def test_chi2_survival_matches_known_quantiles():
    # table values: the 0.95 quantile of chi-square with 1, 10 and 32 degrees of freedom
    for x, dof in ((3.841, 1), (18.307, 10), (46.194, 32)):
        assert chi2_sf(x, dof) == pytest.approx(0.05, abs=2e-4)


def test_a_plain_record_array_gives_a_state():
    s = core.init(3, 4, seeds=2)
    w = core.sample_hidden(s.view(np.ndarray), 0, seeds=1)
    assert isinstance(w, np.recarray) and w.dtype == s.dtype
    np.testing.assert_array_equal(w, core.sample_hidden(s, 0, seeds=1))
