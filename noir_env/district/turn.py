"""Set-up, the two actions and the end of a round (DN2, DN3): per-game kernels.

`apply_action` assumes a legal action (the mask says which, mask.py); it plays it, passes
the turn and ends the round or the game when due. Chance events (the shuffle, the coin)
draw from the game's own generator (noir_env.engine.rng), only in `init_game`.
"""

from noir_env.engine.jit import kernel

from ..engine.rng import randint, shuffle_prefix
from . import constants as C
from .score import final_result, holds_all_buildings


@kernel
def _draw(s, i):
    """The top card of the draw pile (its slot is cleared: a state holds no stale cards)."""
    s[i].deck_n -= 1
    t = s[i].deck[s[i].deck_n]
    s[i].deck[s[i].deck_n] = 0
    return t


@kernel
def deal_hands(s, i):
    """DN2.2 / DN3.6: five cards each from the top of the draw pile, seat 0 first."""
    for p in range(C.NUM_PLAYERS):
        for _ in range(C.HAND_SIZE):
            s[i].hand[p, _draw(s, i)] += 1


@kernel
def init_game(s, i):
    """DN2: shuffle the 45 cards, box three unseen, deal five each, start the line with
    two face-up cards, toss the start-player coin. Uses only s[i].rng of the state."""
    k = 0
    for t in range(C.NUM_CARD_TYPES):
        for _ in range(C.CARD_COUNTS[t]):
            s[i].deck[k] = t
            k += 1
    s[i].deck_n = C.NUM_CARDS
    shuffle_prefix(s, i, s[i].deck, C.NUM_CARDS)
    for _ in range(C.BOXED):
        s[i].removed[_draw(s, i)] += 1
    deal_hands(s, i)
    for _ in range(C.START_LINE):
        s[i].line[s[i].line_n] = _draw(s, i)
        s[i].line_n += 1
    s[i].start_player = randint(s, i, 2)
    s[i].actor = s[i].start_player
    s[i].winner = -1
    s[i].phase = C.PH_PLAY


@kernel(inline="always")
def play_card(s, i, p, t):
    """DN3.2: one card of type t from p's hand, face up at the end of the line."""
    s[i].hand[p, t] -= 1
    s[i].line[s[i].line_n] = t
    s[i].line_n += 1


@kernel(inline="always")
def take_cards(s, i, p):
    """DN3.3: the last five cards of the line (all of them if fewer) go face up in front
    of p, for the rest of the game."""
    n = min(C.TAKE_SIZE, s[i].line_n)
    for k in range(s[i].line_n - n, s[i].line_n):
        s[i].coll[p, s[i].line[k]] += 1
        s[i].line[k] = 0
    s[i].line_n -= n
    s[i].taken[p] = 1
    s[i].takes[p] += 1


@kernel
def end_game(s, i, winner, reason):
    s[i].winner = winner
    s[i].win_reason = reason
    s[i].phase = C.PH_GAME_OVER
    s[i].actor = -1


@kernel
def end_round(s, i):
    """DN3.6: with the draw pile empty the game ends with the final count (DN4.2-DN4.7);
    else five new cards each and the coin passes. The line stays as it is."""
    if s[i].deck_n == 0:
        winner, reason = final_result(s, i)
        end_game(s, i, winner, reason)
        return
    deal_hands(s, i)
    s[i].start_player = 1 - s[i].start_player
    s[i].actor = s[i].start_player
    s[i].round_no += 1
    for p in range(C.NUM_PLAYERS):
        s[i].acts[p] = 0
        s[i].taken[p] = 0


@kernel
def apply_action(s, i, a):
    """Play the (legal) action a for the actor; then the building win (DN4.1), the end of
    the round (DN3.5) or the other player's action (DN3.1, strict alternation)."""
    p = s[i].actor
    if a == C.A_TAKE:
        take_cards(s, i, p)
    else:
        play_card(s, i, p, a - C.A_PLAY)
    s[i].acts[p] += 1
    if a == C.A_TAKE and holds_all_buildings(s, i, p):
        end_game(s, i, p, C.WIN_BUILDINGS)
    elif s[i].acts[1 - p] == C.ACTIONS_PER_ROUND and s[i].acts[p] == C.ACTIONS_PER_ROUND:
        end_round(s, i)
    else:
        s[i].actor = 1 - p
