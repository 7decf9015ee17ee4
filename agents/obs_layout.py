"""Where the compiled rule agents read each part of a NOIR observation, taken from the env's
named layout (`noir_env.spaces.OBS_SLICES`, the contract between the env and its agents),
never from the core's internals.

Numba reads module-level ints as constants, so the kernels index the flat float32 row with
these: `O_*` the start of a global part, `S_*` the start of a part within one seat block
(seat r's block starts at `GLOBAL_SIZE + r * SEAT_SIZE`, r counted clockwise from the
observer), `Q_*` the start of a part within one entry of the reaction queue.
"""

from __future__ import annotations

from noir_env.spaces import (  # noqa: F401 - OBS_SIZE, SLOT_FEATURES: for the agents
    OBS_SIZE,
    OBS_SLICES,
    QUEUE_ENTRY_SIZE,
    QUEUE_ENTRY_SLICES,
    SLOT_FEATURES,
)

GLOBAL_SIZE = OBS_SLICES["seat0.present"].start
SEAT_SIZE = OBS_SLICES["seat1.present"].start - GLOBAL_SIZE
SF = len(SLOT_FEATURES)  # values per business slot, one per named feature
QF = QUEUE_ENTRY_SIZE  # values per queue entry


def _global(name: str) -> int:
    return OBS_SLICES[name].start


def _seat(name: str) -> int:
    return OBS_SLICES[f"seat0.{name}"].start - GLOBAL_SIZE


O_PHASE = _global("phase")
O_ACTIVE = _global("active")
O_NP = _global("num_players")
O_FIRST = _global("first_round")
O_CD_ON = _global("countdown_on")
O_CD_LEFT = _global("countdown_turns_left")
O_HAND = _global("hand")
O_COUNT = _global("step_count")
O_SELPOW = _global("selected_power")
O_RTKIND = _global("reaction_kind")
O_ATK = _global("attack_pending")
O_ATK_SEAT = _global("attack_target_seat")
O_ATK_HO = _global("attack_on_hideout")
O_ATK_G = _global("attackers")
O_WIN = _global("window")
O_STEP = _global("step")
O_QUEUE = _global("queue")
O_RULES = _global("rules")

S_PRESENT = _seat("present")
S_ALIVE = _seat("alive")
S_MONEY = _seat("money")
S_HAND = _seat("hand_size")
S_TROPH = _seat("trophies")
S_KILLS = _seat("kills")
S_HO_G = _seat("hideout_gangsters")
S_HIDDEN = _seat("hidden")
S_TC_HIDDEN = _seat("turncoat_target_hidden")
S_TC_ATK = _seat("turncoat_target_attack")
S_BIZ = _seat("businesses")

Q_KIND = QUEUE_ENTRY_SLICES["kind"].start
Q_STANDING = QUEUE_ENTRY_SLICES["standing"].start
Q_TSEAT = QUEUE_ENTRY_SLICES["target_seat"].start
Q_TPLACE = QUEUE_ENTRY_SLICES["target_place"].start
