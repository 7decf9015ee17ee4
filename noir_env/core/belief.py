"""Belief sampling: re-deal what one seat cannot see, consistently with what it has seen.

    worlds = core.sample_hidden(state, seats=0, seeds=7)   # a new batch; `state` unchanged

(the batched loop and its argument checks are the engine's; `resample_game` is NOIR's part)

Hidden from a seat (docs/RULES.md R7.1): the other players' hands, the order of the draw
pile and the random state of future chance events (`rng`: dice, reshuffles). A re-deal keeps
everything else: the seat's own hand, the table, the discard pile, boxed cards, money, the
window and its queue, the log, each hand's size, and every card publicly known to be in a
hand (`known`, R7.3) stays in that hand. The cards re-dealt are exactly those the seat
cannot place: the draw pile plus the unknown part of the other hands.

The deal is uniform over the arrangements of those physical cards (each unknown hand slot
and each position of the draw pile gets a uniformly shuffled card), i.e. the posterior of a
fair shuffle given what the seat saw, ignoring what the other players' choices might reveal.
The pool is built from card counts, never from the order the cards had, so a re-deal is a
function of the seat's information and the seed alone: two states the seat cannot tell apart
give the same re-deal for the same seed (search agents rely on this to be unable to peek).
"""

from __future__ import annotations

import numpy as np

from noir_env.engine.jit import kernel

from ..engine.refcount import borrowed
from ..engine.rng import shuffle_prefix
from . import constants as C
from .mask import fill_mask
from .rules import rules_of


@kernel(inline="always")
def unseen_counts(s, i, seat, out):
    """out[t] = cards of type t that `seat` cannot place in game i (the draw pile and the
    unknown part of the other hands); returns their total."""
    out[:] = 0
    for k in range(s[i].deck_n):
        out[s[i].deck[k]] += 1
    for q in range(s[i].num_players):
        if q != seat:
            for t in range(C.NUM_CARD_TYPES):
                out[t] += s[i].hand[q, t] - s[i].known[q, t]
    total = 0
    for t in range(C.NUM_CARD_TYPES):
        total += out[t]
    return total


@kernel
def resample_game(s, i, seat, rng_state):
    """Re-deal game i from `seat`'s point of view (module docstring), drawing from the
    non-zero xorshift state `rng_state`, which also becomes the game's new `rng`. Recomputes
    the legal-action cache (the actor's hand may have changed); takes no decision."""
    s = borrowed(s)  # called once per search iteration: no reference counting (refcount.py)
    counts = np.zeros(C.NUM_CARD_TYPES, np.int64)
    total = unseen_counts(s, i, seat, counts)
    pool = np.empty(C.DECK_SIZE, np.int8)
    m = 0
    for t in range(C.NUM_CARD_TYPES):  # canonical order: the old arrangement is not read
        for _ in range(counts[t]):
            pool[m] = t
            m += 1
    s[i].rng = rng_state
    shuffle_prefix(s, i, pool, total)
    m = 0
    for q in range(s[i].num_players):
        if q == seat:
            continue
        unknown = 0
        for t in range(C.NUM_CARD_TYPES):
            unknown += s[i].hand[q, t] - s[i].known[q, t]
            s[i].hand[q, t] = s[i].known[q, t]
        for _ in range(unknown):
            s[i].hand[q, pool[m]] += 1
            m += 1
    for k in range(s[i].deck_n):  # the rest is the draw pile, bottom to top
        s[i].deck[k] = pool[m]
        m += 1
    fill_mask(s, rules_of(s, i), i)
