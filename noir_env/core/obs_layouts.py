"""Earlier NOIR observation layouts, and the column map from today's observation to one of
them: a policy trained on an earlier env version keeps playing the current one.

Every column has a key that says what it holds (a global field and its index, a queue card,
a feature and its index, a rule by name, a seat's field). A column of the earlier layout
reads the current column with the same key; one whose key no longer exists reads 0, and
the current columns it never had are dropped. Plain Python, off the kernels' path.
"""

from __future__ import annotations

import functools

import numpy as np

from . import constants as C
from .observe import (
    GLOBAL_FIELDS,
    OBS_SIZE,
    QUEUE_FEATURES,
    SEAT_FIELDS,
    SLOT_FEATURES,
)
from .rules import OBSERVED_RULE_FIELDS

Key = tuple


def column_keys(
    global_fields: list[tuple[str, int]],
    queue_len: int,
    queue_features: list[tuple[str, int]],
    rule_fields: list[str],
    seat_fields: list[tuple[str, int]],
    slot_features: list[str],
) -> list[Key]:
    """The key of every column of the layout these lists describe, in order."""
    keys: list[Key] = []
    for name, size in global_fields:
        if name == "queue":
            keys += [("queue", k, f, j) for k in range(queue_len) for f, n in queue_features
                     for j in range(n)]  # fmt: skip
        elif name == "rules":
            keys += [("rules", r) for r in rule_fields]
        else:
            keys += [("global", name, j) for j in range(size)]
    for seat in range(C.MAX_PLAYERS):
        for name, size in seat_fields:
            if name == "businesses":
                keys += [("seat", seat, "business", t, f) for t in range(C.NUM_SLOTS)
                         for f in slot_features]  # fmt: skip
            else:
                keys += [("seat", seat, name, j) for j in range(size)]
    return keys


def _current_keys() -> list[Key]:
    keys = column_keys(
        GLOBAL_FIELDS, C.QUEUE_LEN, QUEUE_FEATURES, OBSERVED_RULE_FIELDS, SEAT_FIELDS, SLOT_FEATURES
    )
    assert len(keys) == OBS_SIZE, (len(keys), OBS_SIZE)
    return keys


# --- the layouts of earlier env versions (frozen: never derive them from today's code) ----
_V1_RULES = [
    "prep_first", "restricted_first_round", "mulligan_max", "discard_limit", "forced_discard",
    "first_business_on_hideout", "raze_first", "destroy_strict", "turncoat_casino_for_4",
    "turncoat_hidden", "poker_first_round", "poker_boxed", "money_win", "trophy_points",
    "cd_tokens", "cd_hideout", "cd_bank", "cd_third", "war_win", "cd_next_turn",
    "attack_window", "end_turn_window", "step_windows", "hideout_attackers", "poker_all_in",
    "discard_weakest", "money_thr_3", "money_thr_4", "money_thr_5", "money_thr_6",
]  # fmt: skip
_V1_SEATS = [
    ("present", 1), ("alive", 1), ("money", 1), ("hand_size", 1), ("trophies", 1),
    ("kills", 1), ("hideout_gangsters", 4), ("hideout_open", 1), ("hideout_attacked", 1),
    ("hideout_attack_target", 1), ("hidden", 4), ("known_cards", 13),
    ("turncoat_target_hidden", 1), ("turncoat_target_attack", 1), ("businesses", 308),
]  # fmt: skip
_V1_SLOTS = [
    "income", "gangsters_1", "gangsters_2", "gangsters_3", "gangsters_4", "covers_hideout",
    "attacked_this_turn", "attack_target", "police_kidnaps", "drivebys", "turncoat_target",
]  # fmt: skip
_V1_GLOBALS = [
    ("phase", 15), ("actor", 6), ("active", 6), ("num_players", 4), ("first_round", 1),
    ("turn_no", 1), ("bank", 1), ("deck", 1), ("discard_pile", 13), ("removed", 13),
    ("countdown_on", 1), ("countdown_tokens", 1), ("countdown_holder", 6),
    ("countdown_turns_left", 1), ("hand", 13), ("step_count", 1), ("selected_power", 4),
    ("reaction_kind", 6), ("attack_pending", 1), ("attack_target_seat", 6),
    ("attack_on_hideout", 1), ("attackers", 4), ("window", 5), ("window_owner", 6),
    ("step", 8), ("queue", 9 * 18), ("move_locked", 116), ("rules", 30),
]  # fmt: skip
_V1_QUEUE = [("kind", 3), ("standing", 1), ("dice", 1), ("player", 6), ("target_seat", 6),
             ("target_place", 1)]  # fmt: skip
LAYOUTS: dict[int, tuple[str, list[Key]]] = {
    # noir_v0 (rules v1, noir_env 0.2.0): a 9-card queue of Police and Drive-bys only
    2473: (
        "rules v1 (noir_v0)",
        column_keys(_V1_GLOBALS, 9, _V1_QUEUE, _V1_RULES, _V1_SEATS, _V1_SLOTS),
    ),
}


@functools.cache
def columns_for(obs_size: int) -> np.ndarray | None:
    """For an earlier layout of `obs_size` columns: int64 [obs_size], the current column
    each of its columns reads (OBS_SIZE where it reads 0). None for today's layout; a
    ValueError naming the known sizes for any other size."""
    if obs_size == OBS_SIZE:
        return None
    if obs_size not in LAYOUTS:
        known = {OBS_SIZE: "current", **{n: v[0] for n, v in LAYOUTS.items()}}
        raise ValueError(f"no NOIR observation layout has {obs_size} columns; known: {known}")
    where = {key: k for k, key in enumerate(_current_keys())}
    _, keys = LAYOUTS[obs_size]
    assert len(keys) == obs_size
    return np.array([where.get(key, OBS_SIZE) for key in keys], dtype=np.int64)


def to_layout(obs: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Today's observations [B, OBS_SIZE] as the earlier layout `columns_for` mapped."""
    padded = np.concatenate([obs, np.zeros((obs.shape[0], 1), obs.dtype)], axis=1)
    return padded[:, columns]
