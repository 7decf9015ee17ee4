"""Ids, sizes and lookup tables of the NOIR rules core.

Everything here is a plain module-level int (or a small numpy table) so that numba kernels
can use it as a compile-time constant. `IntEnum` mirrors give readable names outside kernels.
Rule numbers (R..) refer to docs/RULES.md.
"""

from enum import IntEnum

import numpy as np

MAX_PLAYERS = 6
MIN_PLAYERS = 3
HAND_SIZE = 6  # R1.4: cards dealt; R4.8: the draw limit
NUM_SLOTS = 28  # business slots per player: the deck holds 28 businesses, so no cap is ever hit

# --- card types, as held in hands / discard pile (R1.1) -----------------------------------
G1, G2, G3, G4 = 0, 1, 2, 3  # gangsters, power = id + 1
B1, B2, B3, B4 = 4, 5, 6, 7  # businesses, income = id - 3
POKER, POLICE, BRIBE, DRIVEBY, TURNCOAT = 8, 9, 10, 11, 12
NUM_CARD_TYPES = 13
DECK_COUNTS = np.array([14, 10, 8, 4, 10, 8, 6, 4, 3, 4, 4, 5, 3], dtype=np.int8)
DECK_SIZE = int(DECK_COUNTS.sum())  # 83


class Card(IntEnum):
    gangster_1 = G1
    gangster_2 = G2
    gangster_3 = G3
    gangster_4 = G4
    moonshine_still = B1
    bootlegger = B2
    speakeasy = B3
    casino = B4
    poker_night = POKER
    police = POLICE
    bribe = BRIBE
    driveby = DRIVEBY
    turncoat = TURNCOAT


CARD_NAMES = [c.name for c in sorted(Card)]
BUSINESS_NAMES = ["Moonshine Still", "Bootlegger", "Speakeasy", "Casino"]

HIDEOUT_INCOME = 3  # R3.6
HIDEOUT_DEFENSE = 3  # R3.6
HIDEOUT_CAPACITY = 3  # R3.6

# --- places on a player's own table -----------------------------------------------------
# 0..27 business slots, then the Hideout; gangster sources add the hidden pool;
# gangster destinations in Move Gangsters add "aside" (back into the hidden pool).
PLACE_HIDEOUT = NUM_SLOTS  # 28
PLACE_HIDDEN = NUM_SLOTS + 1  # 29 (as a source)
PLACE_ASIDE = NUM_SLOTS + 1  # 29 (as a destination)
NUM_PLACES = NUM_SLOTS + 1  # slots + Hideout
NUM_SOURCES = NUM_SLOTS + 2  # slots + Hideout + hidden pool

# --- targets on another player's table (seat-relative 1..5) ------------------------------
TGT_HIDEOUT = NUM_SLOTS  # 28
TGT_HIDDEN = NUM_SLOTS + 1  # 29: the hidden gangsters (Turncoat)
TGT_ATTACK = NUM_SLOTS + 2  # 30: the gangsters in the pending attack (Turncoat)
NUM_TARGETS = NUM_SLOTS + 3  # 31

# --- the flat action space (R8 in docs/RULES.md; names in noir_env/spaces.py) -----------
A_PASS = 0  # pass in a reaction window
A_END = 1  # end the current step (also: keep everything as it is)
A_CONFIRM = 2  # confirm the declared attack
A_DISCARD = 3  # + card type (13)
A_DRAW = A_DISCARD + NUM_CARD_TYPES  # + (n - 1), n = 1..6
A_DEPLOY = A_DRAW + HAND_SIZE  # + card type G1..B4 (8)
A_FROM = A_DEPLOY + 8  # + power_idx * NUM_SOURCES + source
A_TO = A_FROM + 4 * NUM_SOURCES  # + destination (slot, Hideout, aside)
A_HIDE_UNDER = A_TO + NUM_SOURCES  # + slot
A_HIDE_OPEN = A_HIDE_UNDER + NUM_SLOTS
A_PLAY = A_HIDE_OPEN + 1  # + play kind (6)
A_TARGET = A_PLAY + 6  # + (rel - 1) * NUM_TARGETS + target
A_POWER = A_TARGET + (MAX_PLAYERS - 1) * NUM_TARGETS  # + power_idx (Turncoat)
# rules v1 appends (ids above stay stable): a Bribe names the Police it answers; a raze-first
# attack may go on into the Hideout (R3.7)
# reactions that wait for a window's close (R5.3): every card played in a window but a Bribe,
# at most 4 Police + 5 Drive-by + 3 Turncoat + 3 Poker Night (rules v2; 9 in rules v1)
QUEUE_LEN = 15
NUM_POLICE_CARDS = 4
# `bribe:<k>` answers the k-th Police of the window (rules v2; the k-th card of the queue in
# rules v1): ids for k = 1..9 stay so that later ids keep their meaning; only 1..4 can be legal
NUM_BRIBE_IDS = 9
A_BRIBE = A_POWER + 4  # + (k - 1): the k-th Police of the window's queue
A_CONTINUE = A_BRIBE + NUM_BRIBE_IDS  # go on from the razed business into the Hideout
# rules v3 appends: discard the AWAY (HIDDEN) gangster just picked up in Move Gangsters
# instead of placing it (`away_discard`, R4.2)
A_DISCARD_AWAY = A_CONTINUE + 1
NUM_ACTIONS = A_DISCARD_AWAY + 1

# play kinds (offsets from A_PLAY)
PLAY_POKER, PLAY_POLICE, PLAY_POLICE_CANCEL, PLAY_BRIBE, PLAY_DRIVEBY, PLAY_TURNCOAT = range(6)
PLAY_NAMES = ["poker_night", "police", "police_cancel", "bribe", "driveby", "turncoat"]
PLAY_CARD = np.array([POKER, POLICE, POLICE, BRIBE, DRIVEBY, TURNCOAT], dtype=np.int8)

# --- phases: who must decide what (R2) ----------------------------------------------------
PH_MULLIGAN = 0
PH_MOVE = 1  # Move Gangsters: pick a gangster up (or end)
PH_MOVE_TO = 2  # ... put the picked gangster down
PH_ATTACK = 3  # choose an attack target (or end)
PH_ATTACKERS = 4  # add attackers one by one, then confirm
PH_DEPLOY = 5  # choose a card to deploy (or end)
PH_DEPLOY_TO = 6  # ... choose where the gangster goes
PH_MOVE_HIDEOUT = 7
PH_DISCARD = 8
PH_DRAW = 9
PH_WINDOW = 10  # a reaction window: play a reaction or pass
PH_REACT_TARGET = 11  # choose the target of the reaction just played
PH_TURNCOAT_POWER = 12  # choose which gangster the Turncoat takes
PH_GAME_OVER = 13
PH_CONTINUE = 14  # raze-first (R3.7): go on into the Hideout, or stop
NUM_PHASES = 15


class Phase(IntEnum):
    mulligan = PH_MULLIGAN
    move_gangsters = PH_MOVE
    move_gangsters_to = PH_MOVE_TO
    attack = PH_ATTACK
    attackers = PH_ATTACKERS
    deploy = PH_DEPLOY
    deploy_to = PH_DEPLOY_TO
    move_hideout = PH_MOVE_HIDEOUT
    discard = PH_DISCARD
    draw = PH_DRAW
    reaction_window = PH_WINDOW
    reaction_target = PH_REACT_TARGET
    turncoat_power = PH_TURNCOAT_POWER
    game_over = PH_GAME_OVER
    continue_attack = PH_CONTINUE


# --- turn steps (R2.1); a rules preset picks their order ---------------------------------
ST_TRIBUTE, ST_MOVE, ST_ATTACK, ST_DEPLOY, ST_MOVE_HIDEOUT, ST_DISCARD, ST_DRAW, ST_END = range(8)
STEP_ORDER_NOIRBURG = np.array(
    [ST_TRIBUTE, ST_MOVE, ST_ATTACK, ST_DEPLOY, ST_MOVE_HIDEOUT, ST_DISCARD, ST_DRAW, ST_END],
    dtype=np.int8,
)
STEP_NAMES = [
    "tribute",
    "move_gangsters",
    "attack",
    "deploy",
    "move_hideout",
    "discard",
    "draw",
    "end_of_turn",
]
STEP_ORDER_PREP_FIRST = np.array(
    [ST_TRIBUTE, ST_MOVE, ST_DISCARD, ST_DRAW, ST_MOVE_HIDEOUT, ST_ATTACK, ST_DEPLOY, ST_END],
    dtype=np.int8,
)

# --- reaction windows (R5.2) ------------------------------------------------------------
WIN_NONE, WIN_ATTACK, WIN_END_TURN, WIN_RESPONSE, WIN_STEP = 0, 1, 2, 3, 4
WINDOW_NAMES = ["none", "attack", "end_of_turn", "response", "before_step"]
NUM_WINDOWS = 5
# reactions queued in a window, resolved at its close in the order played (R5.3)
RQ_NONE, RQ_KIDNAP, RQ_CANCEL, RQ_DRIVEBY, RQ_TURNCOAT, RQ_POKER = 0, 1, 2, 3, 4, 5
QUEUE_NAMES = ["none", "police_kidnap", "police_cancel", "driveby", "turncoat", "poker_night"]

# --- countdown (R6) -----------------------------------------------------------------------
CD_HIDEOUT, CD_BANK, CD_THIRD = 0, 1, 2
BANK_TRIGGER_OFF, BANK_TRIGGER_SHORT, BANK_TRIGGER_EMPTY = 0, 1, 2
WIN_NONE_REASON, WIN_WAR, WIN_LAST, WIN_MONEY, WIN_SCORE = 0, 1, 2, 3, 4
WIN_REASONS = ["", "eliminated two players", "last player standing", "money", "countdown score"]

# --- game log events (noir_env/core/log.py turns them into sentences) ---------------------
LOG_LEN = 128  # ring buffer length per game
LOG_FIELDS = 8  # code + 7 arguments
(
    EV_TURN,
    EV_TRIBUTE,
    EV_MULLIGAN,
    EV_MOVE,
    EV_MOVE_DISCARD,
    EV_DECLARE,
    EV_COMBAT,
    EV_BREACH,
    EV_ELIMINATED,
    EV_DEPLOY,
    EV_HIDEOUT_MOVE,
    EV_DISCARD,
    EV_DRAW,
    EV_PLAY,
    EV_BRIBE,
    EV_POLICE,
    EV_DRIVEBY,
    EV_TURNCOAT,
    EV_POKER,
    EV_COUNTDOWN,
    EV_TOKEN,
    EV_GAME_OVER,
    EV_RESHUFFLE,
    EV_CANCELLED,
    EV_FIZZLE,
    EV_RAZE_CHOICE,
    EV_TURNCOAT_MISS,
    EV_AWAY_DISCARD,
) = range(28)
