"""Ids, sizes and tables of the District Noir rules core (docs/DISTRICT_NOIR.md, DN rules).

Plain module-level ints and small numpy tables, so numba kernels compile them in as
constants. Identical cards are interchangeable, so a hand or a collection is a count per
card type; only the line keeps its order (DN3.3 takes from its end).
"""

import numpy as np

NUM_PLAYERS = 2
HAND_SIZE = 5  # DN2.2 / DN3.6: cards dealt to each player per round
ACTIONS_PER_ROUND = 6  # DN3.1: five plays and one take per player
PLAYS_PER_ROUND = ACTIONS_PER_ROUND - 1
TAKE_SIZE = 5  # DN3.3: the last five cards of the line
START_LINE = 2  # DN2.3: face-up cards that start the line
BOXED = 3  # DN2.1: cards put back in the box unseen
SET_BONUS = 5  # DN4.3: points per set of four different gangs
NUM_ROUNDS = 4  # DN3.7: 42 = 2 + 4 x (5 + 5)

# --- card types (DN1) ------------------------------------------------------------------------
GANG_5, GANG_6, GANG_7, GANG_8 = 0, 1, 2, 3  # one gang (colour) per value, DN1.2
ALLY_2, ALLY_3, ALLY_4 = 4, 5, 6
BETRAY_1, BETRAY_2, BETRAY_3 = 7, 8, 9
PORT, POLICE_HQ, CITY_HALL = 10, 11, 12
NUM_CARD_TYPES = 13
NUM_GANGS = 4

CARD_NAMES = [
    "gang_5",
    "gang_6",
    "gang_7",
    "gang_8",
    "alliance_2",
    "alliance_3",
    "alliance_4",
    "betrayal_1",
    "betrayal_2",
    "betrayal_3",
    "port",
    "police_hq",
    "city_hall",
]
CARD_COUNTS = np.array([5, 6, 7, 8, 4, 2, 1, 3, 4, 2, 1, 1, 1], dtype=np.int8)
NUM_CARDS = int(CARD_COUNTS.sum())  # 45 (DN1.1)
DECK_SIZE = NUM_CARDS - BOXED  # 42 cards in play
LINE_CAP = DECK_SIZE  # the line can never hold more than every card in play
GANG_VALUE = np.array([5, 6, 7, 8], dtype=np.int8)  # DN4.2: points of a gang's majority
# DN4.4: printed points of alliance (+) and betrayal (-) cards; gangs and buildings 0 here
CARD_POINTS = np.array([0, 0, 0, 0, 2, 3, 4, -1, -2, -3, 0, 0, 0], dtype=np.int8)
BUILDINGS = (PORT, POLICE_HQ, CITY_HALL)

# --- actions: play:<card> has the card's id, take comes last ---------------------------------
A_PLAY = 0
A_TAKE = NUM_CARD_TYPES
NUM_ACTIONS = NUM_CARD_TYPES + 1

# --- phases and results ----------------------------------------------------------------------
PH_PLAY, PH_GAME_OVER = 0, 1
PHASE_NAMES = ["play", "game_over"]
WIN_NONE, WIN_BUILDINGS, WIN_POINTS, WIN_TIEBREAK, WIN_DRAW = range(5)
WIN_REASONS = ["none", "buildings", "points", "tiebreak", "draw"]
