"""The batched game state: one numpy record array of shape [N], fixed-shape fields.

`state.phase` is the [N] array of phases, `state.biz` the [N, 6, 28] array of businesses,
`state[i]` is game i as a record. Numba kernels take the plain array (`kernel_view`) and read
`s[i].<field>`: one argument instead of ~50 arrays keeps compile and call times small.

Seats are absolute (0..num_players-1) inside the state; observations and actions are
seat-relative. Gangsters are counted per power (index 0..3 = power 1..4): identical cards are
interchangeable, so a multiset is the whole truth. docs/STATE.md documents the JSON form
written by `state_to_dict`. The record layout and the generic helpers (`clone`, `take`,
`concat`, `batch_size`) are the engine's (`noir_env.engine.records`).
"""

from __future__ import annotations

from ..engine.records import RecordLayout, State  # noqa: F401 - State: a batch's type, re-exported
from . import constants as C
from .rules import NUM_RULE_FIELDS

P, S, K = C.MAX_PLAYERS, C.NUM_SLOTS, C.NUM_CARD_TYPES

# (name, dtype, shape of one game's field, meaning)
FIELDS: list[tuple[str, str, tuple[int, ...], str]] = [
    # --- set-up and turn
    ("num_players", "i1", (), "3..6"),
    ("phase", "i1", (), "PH_*: who decides what"),
    ("actor", "i1", (), "seat that must act now (-1 once the game is over)"),
    ("active", "i1", (), "seat whose turn it is"),
    ("first_player", "i1", (), "seat that took the first turn"),
    ("turn_no", "i4", (), "turns begun before this one (round 1: turn_no < num_players)"),
    ("step_idx", "i1", (), "position in the rules' step order (ST_*)"),
    ("count", "i1", (), "cards set aside in the mulligan / discarded in this Discard step"),
    # --- cards
    ("deck", "i1", (C.DECK_SIZE,), "card types of the draw pile; the top is deck[deck_n-1]"),
    ("deck_n", "i1", (), "cards left in the draw pile"),
    ("discard", "i1", (K,), "discard pile per card type (face up: public)"),
    ("removed", "i1", (K,), "cards out of the game per type (boxed Poker Nights)"),
    ("hand", "i1", (P, K), "cards in hand per seat and type"),
    ("known", "i1", (P, K), "cards publicly known to be in each hand (Turncoat, spoils)"),
    # --- money
    ("money", "i2", (P,), "coins of each seat"),
    ("bank", "i2", (), "coins in the middle of the table"),
    # --- table
    ("alive", "i1", (P,), "1 while the seat is in the game"),
    ("biz", "i1", (P, S), "income of the business in each slot (0: empty slot)"),
    ("biz_g", "i1", (P, S, 4), "gangsters on each business, per power"),
    ("ho_g", "i1", (P, 4), "gangsters on each Hideout, per power"),
    ("ho_top", "i1", (P,), "slot of the business covering the Hideout (-1: in the open)"),
    ("hidden", "i1", (P, 4), "HIDDEN gangsters per power (R3.5)"),
    ("trophies", "i1", (P,), "Hideout trophies held (R6.4)"),
    ("kills", "i1", (P,), "players this seat eliminated (R6.1)"),
    # --- this turn
    ("attacked", "i1", (P, C.NUM_PLACES), "slot / Hideout attacked this turn (R3.1)"),
    ("lock", "i1", (C.NUM_PLACES, 4), "gangsters put down in this Move Gangsters step (R4.2)"),
    (
        "kept_hidden",
        "i1",
        (4,),
        "the active player's HIDDEN gangsters kidnapped in this Move "
        "Gangsters step: they stay HIDDEN until the next one (R3.5)",
    ),
    ("sel_a", "i1", (), "selection: power idx (move, deploy) or Turncoat target seat"),
    ("sel_b", "i1", (), "selection: source place (move) or Turncoat target"),
    # --- pending attack (R3)
    ("atk_player", "i1", (), "defending seat of the pending attack (-1: none)"),
    ("atk_slot", "i1", (), "its target: a slot, or TGT_HIDEOUT"),
    ("atk_g", "i1", (4,), "attacking gangsters per power"),
    # --- reaction window (R5.2)
    ("win_kind", "i1", (), "WIN_*: the open window"),
    ("win_owner", "i1", (), "seat the window's round ends with"),
    ("win_left", "i1", (), "passes still needed to close the window"),
    ("win_ret", "i1", (), "phase to return to after a response window"),
    ("rq_n", "i1", (), "reactions queued in this window (all but Bribes), in play order"),
    ("rq_kind", "i1", (C.QUEUE_LEN,), "RQ_*: each queued reaction"),
    ("rq_player", "i1", (C.QUEUE_LEN,), "seat that played it"),
    (
        "rq_tp",
        "i1",
        (C.QUEUE_LEN,),
        "its target seat (the defender for a Police cancel; the host for a Poker Night)",
    ),
    ("rq_ts", "i1", (C.QUEUE_LEN,), "its target slot (TGT_HIDEOUT / slot for a cancel)"),
    ("rq_standing", "i1", (C.QUEUE_LEN,), "Police: 1 while not bribed (toggled by each Bribe)"),
    ("rq_dice", "i1", (C.QUEUE_LEN,), "Drive-by: dice rolled together on that business"),
    ("rq_power", "i1", (C.QUEUE_LEN,), "Turncoat: power index of the gangster it takes"),
    ("rt_kind", "i1", (), "PLAY_* whose target is being chosen"),
    ("rt_ret", "i1", (), "phase in which that reaction was played"),
    # --- countdown and result (R6)
    ("cd_on", "i1", (), "1 once the countdown has started"),
    ("cd_holder", "i1", (), "seat taking the countdown tokens"),
    ("cd_tokens", "i1", (), "tokens left"),
    ("cd_turn", "i4", (), "turn_no when the countdown started"),
    ("winners", "i1", (P,), "1 for each winner once the game is over"),
    ("win_reason", "i1", (), "WIN_*: why the game ended"),
    # --- bookkeeping
    ("rules", "i2", (NUM_RULE_FIELDS,), "the game's rules (rules.RULE_FIELDS)"),
    ("ask_all", "i1", (), "1: present every decision whose skipping is not public (R2.5)"),
    ("rng", "u8", (), "xorshift64 state of this game's chance events"),
    ("steps", "i4", (), "actions taken by players (forced ones excluded)"),
    ("log", "i2", (C.LOG_LEN, C.LOG_FIELDS), "ring buffer of events: code + 7 arguments"),
    ("log_n", "i4", (), "events ever written"),
    ("mask", "u1", (C.NUM_ACTIONS,), "legal actions of `actor` (derived cache)"),
]

LAYOUT = RecordLayout("NOIR", FIELDS)
GAME_DTYPE = LAYOUT.dtype

allocate = LAYOUT.allocate
kernel_view = LAYOUT.kernel_view
check_state = LAYOUT.check
