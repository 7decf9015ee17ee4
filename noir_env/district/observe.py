"""The observation of one seat: everything public plus the seat's own hand (DN5.3).

One flat float32 vector, seat-relative: seat block 0 is the observer, block 1 the opponent.
The opponent's hand appears only as its size; the draw pile and the boxed cards only as
counts (`unseen`: per card type, the cards the observer cannot see, i.e. the opponent's
hand, the draw pile and the box together). The line is shown in order, newest card first,
so the first five positions are what a take would collect. `spaces.OBS_SLICES` names the
parts.
"""

from noir_env.engine.jit import kernel

from ..engine.layout import field_offsets
from . import constants as C
from .score import points

K = C.NUM_CARD_TYPES

GLOBAL_FIELDS = [
    ("to_act", 2),  # one-hot, relative seat of the actor (zeros once the game is over)
    ("start_player", 2),  # one-hot, relative seat holding the start-player coin
    ("round", 1),  # rounds finished before this one
    ("deck", 1),  # cards in the draw pile
    ("game_over", 1),
    ("hand", K),  # the observer's own hand per card type
    ("unseen", K),  # cards the observer cannot see, per card type
    ("line_size", 1),
    ("line_counts", K),
    ("line", C.LINE_CAP * K),  # one-hot card type per position, position 0 = newest card
]
SEAT_FIELDS = [
    ("hand_size", 1),
    ("actions", 1),  # actions taken this round (0..6)
    ("taken", 1),  # 1 once the seat has taken this round
    ("collection", K),  # cards taken, per card type
    ("points", 1),  # the score by DN4.2-DN4.5 if the game ended now
]


GLOBAL_OFFSETS, GLOBAL_SIZE = field_offsets(GLOBAL_FIELDS)
SEAT_OFFSETS, SEAT_SIZE = field_offsets(SEAT_FIELDS)
OBS_SIZE = GLOBAL_SIZE + C.NUM_PLAYERS * SEAT_SIZE

_g = {k: v[0] for k, v in GLOBAL_OFFSETS.items()}
_s = {k: v[0] for k, v in SEAT_OFFSETS.items()}
O_TO_ACT, O_START, O_ROUND, O_DECK, O_OVER = (
    _g["to_act"],
    _g["start_player"],
    _g["round"],
    _g["deck"],
    _g["game_over"],
)
O_HAND, O_UNSEEN, O_LINE_N, O_LINE_COUNTS, O_LINE = (
    _g["hand"],
    _g["unseen"],
    _g["line_size"],
    _g["line_counts"],
    _g["line"],
)
S_HAND_N, S_ACTS, S_TAKEN, S_COLL, S_POINTS = (
    _s["hand_size"],
    _s["actions"],
    _s["taken"],
    _s["collection"],
    _s["points"],
)


@kernel
def write_observation(s, i, seat, o):
    """Fill the float32 vector `o` with what `seat` sees of game i."""
    o[:] = 0.0
    g = s[i]
    if g.actor >= 0:
        o[O_TO_ACT + (g.actor - seat) % 2] = 1.0
    o[O_START + (g.start_player - seat) % 2] = 1.0
    o[O_ROUND] = g.round_no
    o[O_DECK] = g.deck_n
    o[O_OVER] = 1.0 if g.phase == C.PH_GAME_OVER else 0.0
    o[O_LINE_N] = g.line_n
    for k in range(g.line_n):
        t = int(g.line[g.line_n - 1 - k])  # int: an int8 index would wrap without the JIT
        o[O_LINE + k * K + t] = 1.0
        o[O_LINE_COUNTS + t] += 1.0
    for t in range(K):
        o[O_HAND + t] = g.hand[seat, t]
        seen = g.hand[seat, t] + o[O_LINE_COUNTS + t] + g.coll[0, t] + g.coll[1, t]
        o[O_UNSEEN + t] = C.CARD_COUNTS[t] - seen
    for q in range(C.NUM_PLAYERS):
        _write_seat(s, i, q, o, GLOBAL_SIZE + ((q - seat) % 2) * SEAT_SIZE)


@kernel
def _write_seat(s, i, q, o, base):
    g = s[i]
    hand_n = 0
    for t in range(K):
        hand_n += g.hand[q, t]
        o[base + S_COLL + t] = g.coll[q, t]
    o[base + S_HAND_N] = hand_n
    o[base + S_ACTS] = g.acts[q]
    o[base + S_TAKEN] = g.taken[q]
    o[base + S_POINTS] = points(s, i, q)
