"""Belief sampling for District Noir: re-deal what one seat cannot see, as NOIR's
`noir_env.core.belief` does for NOIR.

    worlds = district.sample_hidden(state, seats=0, seeds=7)   # a new batch; `state` unchanged

(the batched loop and its argument checks are the engine's; `resample_game` is this game's
part)

Hidden from a seat (DN5.3): the other seat's hand, the order of the draw pile, the three
cards boxed unseen at set-up (DN2.1) and the random state of the game (`rng`). Everything
else is public and kept: the seat's own hand, the line, both collections, each hand's size,
the round, who acts. The cards re-dealt are exactly those the seat cannot place: the other
hand, the draw pile and the boxed cards, drawn from per-type counts (never from the order
they had), so a re-deal is a function of the seat's information and the seed alone.
"""

from __future__ import annotations

import numpy as np

from noir_env.engine.jit import kernel

from ..engine.refcount import borrowed
from ..engine.rng import shuffle_prefix
from . import constants as C
from .mask import fill_mask


@kernel
def resample_game(s, i, seat, rng_state):
    """Re-deal game i from `seat`'s point of view (module docstring), drawing from the
    non-zero xorshift state `rng_state`, which also becomes the game's new `rng`. Recomputes
    the legal-action cache; takes no decision."""
    s = borrowed(s)  # called once per search iteration: no reference counting
    other = 1 - seat
    pool = np.empty(C.NUM_CARDS, np.int8)  # every card of the game fits
    m = 0
    for t in range(C.NUM_CARD_TYPES):  # canonical order: the old arrangement is not read
        count = s[i].hand[other, t] + s[i].removed[t]
        for k in range(s[i].deck_n):
            count += s[i].deck[k] == t
        for _ in range(count):
            pool[m] = t
            m += 1
    hand_n = 0
    for t in range(C.NUM_CARD_TYPES):
        hand_n += s[i].hand[other, t]
        s[i].hand[other, t] = 0
        s[i].removed[t] = 0
    s[i].rng = rng_state
    shuffle_prefix(s, i, pool, m)
    k = 0
    for _ in range(hand_n):
        s[i].hand[other, pool[k]] += 1
        k += 1
    for j in range(s[i].deck_n):  # then the draw pile, bottom to top
        s[i].deck[j] = pool[k]
        k += 1
    while k < m:  # the rest goes back in the box
        s[i].removed[pool[k]] += 1
        k += 1
    fill_mask(s, i)
