"""A readable JSON form of one District Noir game: `state_to_dict` / `state_from_dict`.

The form is exact (a round trip restores every field, the RNG state included) and can be
written by hand. Only `players` is required; every other key takes a default:

    {"format": "district-noir-state/1",
     "phase": "play",                  # or "game_over"
     "round": 0,                       # rounds finished before this one (0..3)
     "start_player": 0,                # seat holding the start-player coin
     "actor": 0,                       # derived from start_player and actions if left out
     "players": [{"hand": {"gang_5": 2, ...}, "collection": {"port": 1, ...},
                  "actions": 0, "taken": false, "takes": 0}, {...}],
     "line": ["gang_8", "betrayal_2"],  # oldest first; a take collects from the end
     "deck": ["gang_6", ...],           # bottom to top
     "removed": {"alliance_4": 1, ...}, # boxed unseen at set-up
     "result": {"winner": null, "reason": "none"},
     "rng": "0x...", "steps": 0}

Per player, `takes` defaults to round + taken. If `deck` is left out, the cards placed
nowhere else are shuffled (by a generator seeded from `rng`, so one dict always loads one
position): three go to the box unless `removed` is given, the rest form the draw pile. If
`deck` is given and `removed` is not, every card placed nowhere else is in the box (so a
hand-written position may box more than three cards). Every value is type- and range-checked
as it is read (an int is an int, not a bool, a float or a string; an unknown key is refused),
the loaded position is checked (validate.py) and its legal actions computed; a forced
decision is not taken by itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._shown import shown
from ..engine.fields import (
    DEFAULT_RNG,
    card_counts,
    dict_of,
    int_in,
    known_keys,
    list_of,
    name_index,
    rng_state,
)
from . import constants as C
from .mask import fill_mask
from .state import State, allocate, check_state, kernel_view
from .validate import DECK, MESSAGES, OK, first_violation

FORMAT = "district-noir-state/1"


def _cards(counts) -> dict[str, int]:
    return {C.CARD_NAMES[t]: int(n) for t, n in enumerate(counts) if n}


def _card_list(v, key: str, cap: int) -> list[int]:
    """A list of card names as card ids."""
    return [
        name_index(name, C.CARD_NAMES, f"{key}[{k}]") for k, name in enumerate(list_of(v, key, cap))
    ]


def state_to_dict(state: State, game: int = 0) -> dict[str, Any]:
    """Game `game` of the batch as a JSON-able dict (exact; see the module docstring)."""
    check_state(state)
    g = state[game]
    return {
        "format": FORMAT,
        "phase": C.PHASE_NAMES[g.phase],
        "round": int(g.round_no),
        "start_player": int(g.start_player),
        "actor": int(g.actor),
        "players": [
            {
                "hand": _cards(g.hand[p]),
                "collection": _cards(g.coll[p]),
                "actions": int(g.acts[p]),
                "taken": bool(g.taken[p]),
                "takes": int(g.takes[p]),
            }
            for p in range(C.NUM_PLAYERS)
        ],
        "line": [C.CARD_NAMES[t] for t in g.line[: g.line_n]],
        "deck": [C.CARD_NAMES[t] for t in g.deck[: g.deck_n]],
        "removed": _cards(g.removed),
        "result": {
            "winner": None if g.winner < 0 else int(g.winner),
            "reason": C.WIN_REASONS[g.win_reason],
        },
        "rng": f"0x{int(g.rng):016x}",
        "steps": int(g.steps),
    }


# every value is type- and range-checked as it is read, with NOIR's helpers (ValueError
# naming the key and the value); validate.py then checks that the parts agree
TOP_KEYS = {"format", "phase", "round", "start_player", "actor", "players", "line", "deck",
            "removed", "result", "rng", "steps"}  # fmt: skip
PLAYER_KEYS = {"hand", "collection", "actions", "taken", "takes"}


def state_from_dict(d: dict[str, Any]) -> State:
    """A batch of one game from the dict form; raises ValueError naming the key and the
    value of anything wrong (an unknown key, a value of the wrong type or out of range, a
    position whose parts disagree)."""
    if not isinstance(d, dict):
        raise ValueError(f"a state dict is needed, got {type(d).__name__}")
    if d.get("format", FORMAT) != FORMAT:
        raise ValueError(f"unknown state format {shown(d.get('format'))}; expected {FORMAT!r}")
    known_keys(d, TOP_KEYS, "the state dict")
    s = allocate(1)
    g = s[0]
    _load_turn(g, d)
    _load_players(g, d)
    _load_result(g, d)
    _load_cards(g, d)
    code = first_violation(kernel_view(s), 0)
    if code != OK:
        detail = ""
        if code == DECK:
            need = 2 * C.HAND_SIZE * (C.NUM_ROUNDS - 1 - int(g.round_no))
            detail = f": round {int(g.round_no)} needs {need}, the position has {int(g.deck_n)}"
        raise ValueError(f"inconsistent position: {MESSAGES[int(code)]}{detail}")
    fill_mask(kernel_view(s), 0)  # the legal-action cache of the loaded position
    return s


def _load_turn(g, d: dict) -> None:
    g.phase = name_index(d.get("phase", "play"), C.PHASE_NAMES, "phase")
    g.round_no = int_in(d.get("round", 0), "round", 0, C.NUM_ROUNDS - 1)
    g.start_player = int_in(d.get("start_player", 0), "start_player", 0, 1)
    g.rng = rng_state(d.get("rng", DEFAULT_RNG))
    g.steps = int_in(d.get("steps", 0), "steps", 0, 2**31 - 1)


def _load_players(g, d: dict) -> None:
    players = d.get("players")
    if not isinstance(players, list) or len(players) != C.NUM_PLAYERS:
        raise ValueError(f"players must be a list of {C.NUM_PLAYERS} dicts, got {shown(players)}")
    for p, pd in enumerate(players):
        key = f"players[{p}]"
        pd = dict_of(pd, key, PLAYER_KEYS)
        g.hand[p] = card_counts(pd.get("hand", {}), f"{key}.hand", C.CARD_NAMES, C.CARD_COUNTS)
        g.coll[p] = card_counts(
            pd.get("collection", {}), f"{key}.collection", C.CARD_NAMES, C.CARD_COUNTS
        )
        g.acts[p] = int_in(pd.get("actions", 0), f"{key}.actions", 0, C.ACTIONS_PER_ROUND)
        taken = pd.get("taken", False)
        if not isinstance(taken, bool | np.bool_):
            raise ValueError(f"{key}.taken={shown(taken)}: must be true or false")
        g.taken[p] = taken
        default_takes = int(g.round_no) + bool(taken)
        g.takes[p] = int_in(pd.get("takes", default_takes), f"{key}.takes", 0, C.NUM_ROUNDS)
    sp = int(g.start_player)
    derived = sp if g.acts[sp] == g.acts[1 - sp] else 1 - sp
    if g.phase == C.PH_GAME_OVER:
        derived = -1
    g.actor = int_in(d.get("actor", derived), "actor", -1, 1)


def _load_result(g, d: dict) -> None:
    res = dict_of(d.get("result", {}), "result", {"winner", "reason"})
    winner = res.get("winner")
    g.winner = -1 if winner is None else int_in(winner, "result.winner (null, 0 or 1)", 0, 1)
    g.win_reason = name_index(res.get("reason", "none"), C.WIN_REASONS, "result.reason")


def _load_cards(g, d: dict) -> None:
    line = _card_list(d.get("line", []), "line", C.LINE_CAP)
    g.line[: len(line)] = line
    g.line_n = len(line)
    placed = np.bincount(line, minlength=C.NUM_CARD_TYPES) + g.hand.sum(0) + g.coll.sum(0)
    missing = C.CARD_COUNTS.astype(np.int64) - placed
    if (missing < 0).any():
        t = int(np.flatnonzero(missing < 0)[0])
        raise ValueError(f"the position holds more {C.CARD_NAMES[t]} than the game has")
    removed = d.get("removed")
    deck = d.get("deck")
    if removed is not None:
        g.removed = card_counts(removed, "removed", C.CARD_NAMES, C.CARD_COUNTS)
    if deck is not None:
        cards: np.ndarray = np.asarray(_card_list(deck, "deck", C.DECK_SIZE), np.int8)
        if removed is None:
            boxed = missing - np.bincount(cards, minlength=C.NUM_CARD_TYPES)
            _check_not_negative(boxed, "deck")
            g.removed = boxed
    else:
        left = missing - g.removed
        _check_not_negative(left, "removed")
        pool = np.repeat(np.arange(C.NUM_CARD_TYPES), left)
        pool = np.random.default_rng(int(g.rng)).permutation(pool).astype(np.int8)
        if removed is None:
            g.removed = np.bincount(pool[: C.BOXED], minlength=C.NUM_CARD_TYPES)
            pool = pool[C.BOXED :]
        cards = pool
    if len(cards) > C.DECK_SIZE:
        raise ValueError(f"deck: at most {C.DECK_SIZE} cards, got {len(cards)}")
    g.deck[: len(cards)] = cards
    g.deck_n = len(cards)


def _check_not_negative(left: np.ndarray, what: str) -> None:
    if (left < 0).any():
        t = int(np.flatnonzero(left < 0)[0])
        raise ValueError(f"{what}: the position holds more {C.CARD_NAMES[t]} than the game has")
