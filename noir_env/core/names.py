"""NOIR's names for its data: the stable action table and the observation layout as named
slices over the flat vector. The core's error messages use them; `noir_env.spaces` builds
the Gymnasium spaces on them (data flows core -> spaces -> env, never back).

Actions are one flat Discrete space for every phase (docs/RULES.md, R8). Names are
stable across versions and read as what the action does:

    pass, end, confirm_attack           window pass / end the step / confirm the attack
    discard:<card>                      discard one card of that type (mulligan, Discard step)
    draw:<n>                            draw n cards for n-1 coins
    deploy:<card>                       deploy a gangster (then to:<place>) or a business
    from:g<p>@<src>                     pick up an own power-p gangster (move, or add to attack)
    to:<place>                          put the picked / deployed gangster down
    hideout_under:slot<k>, hideout_to_open
    play:<reaction>                     poker_night, police, police_cancel, bribe, driveby, turncoat
    target:+<r>:<where>                 a place of the player r seats clockwise (attack/reaction)
    power:<p>                           the power of the gangster a Turncoat takes
    bribe:<k>                           the Police a Bribe answers: the window's k-th Police
                                        (1-based, play order; 1..4, ids of 5..9 never legal)
    continue_into_hideout               raze-first rules: go on from the razed business
                                        into the Hideout (`end` stops)
    discard_away                        `away_discard` rules: discard the AWAY (HIDDEN)
                                        gangster just picked up instead of placing it

Places: slot0..slot27 (business slots), hideout, hidden (source), aside (destination).
"""

from __future__ import annotations

import numpy as np

from ..engine.layout import ActionTable, field_offsets, named_slices
from . import constants as C
from .observe import (
    GLOBAL_OFFSETS,
    GLOBAL_SIZE,
    OBS_SIZE,
    QUEUE_FEATURES,
    SEAT_OFFSETS,
    SEAT_SIZE,
    SLOT_FEATURES,
)
from .state import State

NUM_ACTIONS = C.NUM_ACTIONS
SLOT_NAMES = [f"slot{k}" for k in range(C.NUM_SLOTS)]
SOURCE_NAMES = [*SLOT_NAMES, "hideout", "hidden"]
DEST_NAMES = [*SLOT_NAMES, "hideout", "aside"]
TARGET_NAMES = [*SLOT_NAMES, "hideout", "hidden", "attack"]


def _build_action_names() -> list[str]:
    names = ["pass", "end", "confirm_attack"]
    names += [f"discard:{c}" for c in C.CARD_NAMES]
    names += [f"draw:{n}" for n in range(1, C.HAND_SIZE + 1)]
    names += [f"deploy:{c}" for c in C.CARD_NAMES[: C.B4 + 1]]
    names += [f"from:g{pw + 1}@{src}" for pw in range(4) for src in SOURCE_NAMES]
    names += [f"to:{d}" for d in DEST_NAMES]
    names += [f"hideout_under:{s}" for s in SLOT_NAMES]
    names += ["hideout_to_open"]
    names += [f"play:{k}" for k in C.PLAY_NAMES]
    names += [f"target:+{rel}:{t}" for rel in range(1, C.MAX_PLAYERS) for t in TARGET_NAMES]
    names += [f"power:{p}" for p in range(1, 5)]
    names += [f"bribe:{k}" for k in range(1, C.NUM_BRIBE_IDS + 1)]  # the k-th Police
    names += ["continue_into_hideout"]
    names += ["discard_away"]  # rules v3
    assert len(names) == C.NUM_ACTIONS, (len(names), C.NUM_ACTIONS)
    return names


ACTION_NAMES: list[str] = _build_action_names()
_TABLE = ActionTable(ACTION_NAMES)
action_name = _TABLE.action_name
action_id = _TABLE.action_id
legal_action_names = _TABLE.legal_action_names


def phase_name(phase: int) -> str:
    return C.Phase(int(phase)).name


def describe_illegal(state: State, game: int, action: int) -> str:
    """The message of the ValueError for an illegal action in game `game`."""
    name = _TABLE.name_or_id(action)
    legal = legal_action_names(state.mask[game])
    where = f" in game {game}" if state.phase.shape[0] > 1 else ""
    return (
        f"illegal action {name!r} (id {action}){where}: phase {phase_name(state.phase[game])}, "
        f"player {int(state.actor[game])} to act; legal: {legal}"
    )


# --- observation layout: named slices over the flat float32 vector -------------------------
OBS_SIZE = OBS_SIZE
OBS_SLICES = named_slices(GLOBAL_OFFSETS, GLOBAL_SIZE, SEAT_OFFSETS, SEAT_SIZE, C.MAX_PLAYERS)
"""Named parts of an observation: global fields, then `seat<r>.<field>` for the player r
seats clockwise from the observer (seat0 = the observer). `seat<r>.businesses` reshapes to
(28, len(SLOT_FEATURES))."""

SLOT_FEATURES = SLOT_FEATURES
"""The name of each business slot's feature, in order: `seat<r>.businesses` is 28 rows of them."""
_QUEUE_OFFSETS, QUEUE_ENTRY_SIZE = field_offsets(QUEUE_FEATURES)
QUEUE_ENTRY_SLICES = {name: slice(k, k + n) for name, (k, n) in _QUEUE_OFFSETS.items()}
"""Named parts of one entry of the `queue` part (a reaction waiting in the window, in play
order): the part is `C.QUEUE_LEN` entries of `QUEUE_ENTRY_SIZE` values each."""


# counts (money, cards, gangsters) stay below 256; these parts hold wider state fields: the
# turn number (int32, which only max_steps bounds), the cards set aside in a step (int8) and
# rule values such as trophy_points (int16); each is bounded by its field's type
WIDE_PARTS = {"turn_no": 2**31 - 1, "step_count": 2**7 - 1, "rules": 2**15 - 1}


def observation_high() -> np.ndarray:
    """float32 [OBS_SIZE]: the largest value of each observation entry (255 for counts, the
    largest value of the state field for the parts in `WIDE_PARTS`); the least is 0. Every
    bound is finite and no observation exceeds it."""
    high = np.full(OBS_SIZE, 255.0, dtype=np.float32)
    for name, most in WIDE_PARTS.items():
        high[OBS_SLICES[name]] = most
    return high
