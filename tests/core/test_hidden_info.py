"""Hidden information stays hidden (R7): re-dealing the cards a seat cannot see (the other
hands, same sizes, except the cards publicly known to be in them (R7.3), and the order of the
draw pile) changes neither that seat's observation nor its legal actions."""

import numpy as np
import pytest

from noir_env import core
from noir_env.core.validate import check_invariants


def redeal_unseen(state, i, seat, rng):
    """Shuffle every card `seat` cannot see among the other hands and the draw pile; cards
    publicly known to be in a hand (R7.3) stay there."""
    g = state[i]
    n = int(g.num_players)
    others = [q for q in range(n) if q != seat]
    unknown = {q: g.hand[q] - g.known[q] for q in others}
    sizes = [int(unknown[q].sum()) for q in others]
    pool = np.concatenate(
        [np.repeat(np.arange(13), unknown[q]) for q in others] + [g.deck[: g.deck_n]]
    )
    pool = rng.permutation(pool)
    k = 0
    for q, size in zip(others, sizes, strict=True):
        g.hand[q] = g.known[q] + np.bincount(pool[k : k + size], minlength=13)
        k += size
    g.deck[: g.deck_n] = pool[k:]


@pytest.mark.parametrize("ask_all", [False, True])
def test_redealing_unseen_cards_changes_nothing_a_seat_sees(ask_all):
    rng = np.random.default_rng(1)
    s = core.init(48, np.arange(48) % 4 + 3, ["noirburg", "original"][ask_all], 21, ask_all)
    checked = with_known = 0
    for step in range(500):
        mask = core.legal_action_mask(s)
        live = mask.any(axis=1)
        if not live.any():
            break
        if step % 7 == 0:
            for i in np.flatnonzero(live)[:6]:
                seat = int(s.actor[i])
                other = (seat + 1) % int(s.num_players[i])
                before = core.take(s, i)
                obs_actor, obs_other = core.observe(before, seat), core.observe(before, other)
                mask_before = core.legal_action_mask(before).copy()
                after = core.clone(before)
                redeal_unseen(after, 0, seat, rng)
                core.refresh(after)
                assert check_invariants(after) == []
                with_known += int(after.known[0].sum() > 0)
                np.testing.assert_array_equal(core.observe(after, seat), obs_actor)
                np.testing.assert_array_equal(core.legal_action_mask(after), mask_before)
                # a seat whose own hand was re-dealt sees its new hand, nothing else changes
                changed = (core.observe(after, other) != obs_other)[0]
                hand = slice(*_hand_slice())
                assert not changed[np.r_[0 : hand.start, hand.stop : changed.shape[0]]].any()
                checked += 1
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        core.step(s, acts)
    assert checked > 200 and with_known > 0


def _hand_slice():
    from noir_env.spaces import OBS_SLICES

    return OBS_SLICES["hand"].start, OBS_SLICES["hand"].stop


def test_observation_shows_own_hand_and_only_sizes_of_others():
    from noir_env.spaces import OBS_SLICES

    s = core.init(1, 4, seeds=5)
    for seat in range(4):
        o = core.observe(s, seat)[0]
        np.testing.assert_array_equal(o[OBS_SLICES["hand"]], s.hand[0, seat])
        for rel in range(4):
            q = (seat + rel) % 4
            assert o[OBS_SLICES[f"seat{rel}.hand_size"]][0] == s.hand[0, q].sum()
