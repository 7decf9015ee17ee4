"""Small per-game kernels over the table: seats, places and capacities, cards, money, the log.

Every function takes the batched state `s`, the game index `i` and scalars, and reads or
writes `s.<field>[i, ...]` in place. Rule numbers refer to docs/RULES.md.
"""

import numpy as np

from noir_env.engine.jit import kernel

from ..engine.rng import shuffle_prefix
from . import constants as C
from .rules import total_money

S = C.NUM_SLOTS


# --- the game log (noir_env/core/log.py renders it) -----------------------------------------
@kernel(inline="always")
def log_event(s, i, code, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """Append one event (code and up to seven small ints) to game i's ring buffer. Inlined:
    its callers pass every mix of integer types, each of which would be a compile of its own."""
    k = s[i].log_n % C.LOG_LEN
    row = s[i].log[k]
    row[0] = code
    row[1] = a
    row[2] = b
    row[3] = c
    row[4] = d
    row[5] = e
    row[6] = f
    row[7] = g
    s[i].log_n += 1


# --- seats ---------------------------------------------------------------------------------
@kernel
def next_alive(s, i, p):
    """The next living seat clockwise after p (p itself if it is the only one)."""
    n = s[i].num_players
    for k in range(1, n + 1):
        q = (p + k) % n
        if s[i].alive[q]:
            return q
    return p


@kernel(inline="always")
def prev_alive(s, i, p):
    """The previous living seat (counter-clockwise) before p."""
    n = s[i].num_players
    for k in range(1, n + 1):
        q = (p - k) % n
        if s[i].alive[q]:
            return q
    return p


@kernel
def num_alive(s, i):
    n = 0
    for q in range(s[i].num_players):
        n += s[i].alive[q]
    return n


@kernel
def in_first_round(s, i):
    """Round 1 (R2.3): the first turn of every player, i.e. the first num_players turns."""
    return s[i].turn_no < s[i].num_players


@kernel
def seat_of(s, i, actor, rel):
    """Absolute seat of the player `rel` seats clockwise from `actor`."""
    return (actor + rel) % s[i].num_players


# --- gangsters and places (R3.5, R4.5) -------------------------------------------------------
@kernel
def power_of(counts):
    """Total power of a per-power gangster count vector."""
    return counts[0] + 2 * counts[1] + 3 * counts[2] + 4 * counts[3]


@kernel
def num_gangsters(counts):
    return counts[0] + counts[1] + counts[2] + counts[3]


@kernel
def place_counts(s, i, p, place):
    """View of the gangster counts at one of p's places (slot or Hideout)."""
    if place == C.PLACE_HIDEOUT:
        return s[i].ho_g[p]
    return s[i].biz_g[p, place]


@kernel
def capacity_left(s, i, p, place):
    """Free gangster power at a place: income minus gangsters' power (R4.5); 0 if no card."""
    if place == C.PLACE_HIDEOUT:
        return C.HIDEOUT_CAPACITY - power_of(s[i].ho_g[p])
    inc = s[i].biz[p, place]
    if inc == 0:
        return 0
    return inc - power_of(s[i].biz_g[p, place])


@kernel
def fits_somewhere(s, i, p, power):
    """True if a gangster of this power fits on one of p's businesses or the Hideout."""
    if C.HIDEOUT_CAPACITY - power_of(s[i].ho_g[p]) >= power:
        return True
    for t in range(S):
        if s[i].biz[p, t] >= power and capacity_left(s, i, p, t) >= power:
            return True
    return False


@kernel(inline="always")
def has_table_gangster(s, i, p):
    """True if p has a gangster on a business or the Hideout (one that may attack, R3.1)."""
    if num_gangsters(s[i].ho_g[p]) > 0:
        return True
    for t in range(S):
        if s[i].biz[p, t] > 0 and num_gangsters(s[i].biz_g[p, t]) > 0:
            return True
    return False


@kernel(inline="always")
def has_business(s, i, p):
    for t in range(S):
        if s[i].biz[p, t] > 0:
            return True
    return False


@kernel(inline="always")
def has_casino(s, i, p):
    for t in range(S):
        if s[i].biz[p, t] == 4:
            return True
    return False


@kernel
def free_slot(s, i, p):
    """First empty business slot of p (-1 if none; cannot happen with 28 slots)."""
    for t in range(S):
        if s[i].biz[p, t] == 0:
            return t
    return -1


@kernel
def discard_gangsters(s, i, counts):
    """Put gangsters (a count vector) on the discard pile and zero the vector."""
    for pw in range(4):
        s[i].discard[C.G1 + pw] += counts[pw]
        counts[pw] = 0


@kernel
def remove_business(s, i, q, t):
    """Destroy q's business in slot t: card and any gangsters left on it to the discard pile."""
    s[i].discard[C.B1 + s[i].biz[q, t] - 1] += 1
    discard_gangsters(s, i, s[i].biz_g[q, t])
    s[i].biz[q, t] = 0
    if s[i].ho_top[q] == t:
        s[i].ho_top[q] = -1  # R3.6: the Hideout is in the open again


@kernel
def card_leaves_hand(s, i, p, card):
    """p deploys, discards or plays one `card`: it leaves p's hand, and a card publicly
    known to be there (R7.3) is no longer known to be (identical cards are indistinguishable,
    so the known count stays a lower bound of what p holds)."""
    s[i].hand[p, card] -= 1
    if s[i].known[p, card] > 0:
        s[i].known[p, card] -= 1


@kernel
def hand_size(s, i, p):
    n = 0
    for t in range(C.NUM_CARD_TYPES):
        n += s[i].hand[p, t]
    return n


# --- cards (R4.8, R1.5) ----------------------------------------------------------------------
@kernel(inline="always")
def reshuffle_discard(s, i):
    """R4.9: the empty draw pile is replaced by the shuffled discard pile."""
    m = 0
    for t in range(C.NUM_CARD_TYPES):
        for _ in range(s[i].discard[t]):
            s[i].deck[m] = t
            m += 1
        s[i].discard[t] = 0
    shuffle_prefix(s, i, s[i].deck, m)
    s[i].deck_n = m
    log_event(s, i, C.EV_RESHUFFLE, m)


@kernel
def draw_cards(s, i, p, n):
    """p draws n cards from the top of the draw pile, reshuffling the discards when empty."""
    for _ in range(n):
        if s[i].deck_n == 0:
            reshuffle_discard(s, i)
            if s[i].deck_n == 0:
                return
        s[i].deck_n -= 1
        s[i].hand[p, s[i].deck[s[i].deck_n]] += 1
        s[i].deck[s[i].deck_n] = 0  # keep the state canonical: nothing beyond deck_n


@kernel(inline="always")
def cards_available(s, i):
    """Cards that can still be drawn: the draw pile plus the discard pile (R4.9)."""
    n = np.int32(s[i].deck_n)
    for t in range(C.NUM_CARD_TYPES):
        n += s[i].discard[t]
    return n


# --- money and the countdown trigger (R6.3) --------------------------------------------------
@kernel
def trigger_countdown(s, r, i, p, reason):
    """Start the countdown (once per game) because of player p (R6.3)."""
    if s[i].cd_on:
        return
    s[i].cd_on = 1
    s[i].cd_holder = p
    s[i].cd_tokens = r.cd_tokens
    s[i].cd_turn = s[i].turn_no
    log_event(s, i, C.EV_COUNTDOWN, p, reason, s[i].cd_holder)


@kernel
def gain_money(s, r, i, p, amount):
    """p receives coins; holding a third of all money starts the countdown (R6.3 trigger 3)."""
    s[i].money[p] += amount
    if r.cd_third and amount > 0:
        total = total_money(s[i].num_players)
        if s[i].money[p] * 3 >= total:  # money >= ceil(total / 3)
            trigger_countdown(s, r, i, p, C.CD_THIRD)


@kernel
def pay_bank(s, i, p, amount):
    """p pays a cost to the bank (deploying, drawing)."""
    s[i].money[p] -= amount
    s[i].bank += amount


@kernel
def transfer(s, r, i, payer, payee, amount):
    """payer gives payee up to `amount` coins; returns what was actually paid."""
    paid = min(amount, np.int32(s[i].money[payer]))
    s[i].money[payer] -= paid
    gain_money(s, r, i, payee, paid)
    return paid
