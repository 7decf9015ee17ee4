"""Belief sampling for District Noir: re-deal what one seat cannot see, as NOIR's
`noir_env.core.belief` does for NOIR.

    worlds = district.sample_hidden(state, seats=0, seeds=7)   # a new batch; `state` unchanged

Hidden from a seat (DN5.3): the other seat's hand, the order of the draw pile, the three
cards boxed unseen at set-up (DN2.1) and the random state of the game (`rng`). Everything
else is public and kept: the seat's own hand, the line, both collections, each hand's size,
the round, who acts. The cards re-dealt are exactly those the seat cannot place: the other
hand, the draw pile and the boxed cards, drawn from per-type counts (never from the order
they had), so a re-deal is a function of the seat's information and the seed alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core import args as A
from ..core.refcount import borrowed
from ..core.rng import seed_to_state, shuffle_prefix
from . import constants as C
from .mask import fill_mask
from .state import State, kernel_view


@njit(cache=True)
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


@njit(cache=True)
def _resample_batch(s, seats, rng_states):
    for i in range(s.shape[0]):
        resample_game(s, i, seats[i], rng_states[i])


def sample_hidden(
    state: State, seats: int | np.ndarray, seeds: int | np.ndarray | None = 0
) -> State:
    """A copy of `state` in which each game's hidden part is re-dealt as `seats` could
    believe it to be (module docstring): the other hand, the draw pile's order, the boxed
    cards and `rng`.

    seats: one seat (0 or 1) for every game or one per game. seeds: an int s gives game i
    the seed s + i, an array one seed per game; the same seeds give the same deal.
    Everything `seats` observes is unchanged (`district.observe(out, seats)` ==
    `district.observe(state, seats)`). Raises ValueError (or TypeError) naming a bad
    argument.
    """
    kv = kernel_view(state)
    seat_arr = A.seats(seats, np.full(kv.shape[0], C.NUM_PLAYERS, np.int64))
    seed_arr = A.seeds(seeds, kv.shape[0])
    rng_states = np.array([seed_to_state(x) for x in seed_arr.tolist()], np.uint64)
    out = kv.copy().view(np.recarray)
    _resample_batch(kernel_view(out), seat_arr, rng_states)
    return out
