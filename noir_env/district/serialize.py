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
hand-written position may box more than three cards). The loaded position is checked
(validate.py) and its legal actions computed; a forced decision is not taken by itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import constants as C
from .mask import fill_mask
from .state import State, allocate, check_state, kernel_view
from .validate import DECK, MESSAGES, OK, first_violation

FORMAT = "district-noir-state/1"
DEFAULT_RNG = 0x2545F4914F6CDD1D


def _cards(counts) -> dict[str, int]:
    return {C.CARD_NAMES[t]: int(n) for t, n in enumerate(counts) if n}


def _card_id(name, what: str) -> int:
    if name not in C.CARD_NAMES:
        raise ValueError(f"{what}: unknown card {name!r}; cards: {C.CARD_NAMES}")
    return C.CARD_NAMES.index(name)


def _card_counts(d, what: str) -> np.ndarray:
    if not isinstance(d, dict):
        raise ValueError(f"{what}: a dict {{card name: count}} is needed, got {d!r}")
    out = np.zeros(C.NUM_CARD_TYPES, np.int8)
    for name, n in d.items():
        t = _card_id(name, what)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= C.CARD_COUNTS[t]:
            raise ValueError(f"{what}: count of {name} must be 0..{C.CARD_COUNTS[t]}, got {n!r}")
        out[t] = n
    return out


def _card_list(v, what: str, cap: int) -> list[int]:
    if not isinstance(v, list) or len(v) > cap:
        raise ValueError(f"{what}: a list of at most {cap} card names is needed, got {v!r}")
    return [_card_id(name, f"{what}[{k}]") for k, name in enumerate(v)]


def _int(d: dict, key: str, default: int, lo: int, hi: int, what: str = "") -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"{what}{key} must be an integer {lo}..{hi}, got {v!r}")
    return v


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


def state_from_dict(d: dict[str, Any]) -> State:
    """A batch of one game from the dict form; raises ValueError naming what is wrong."""
    if not isinstance(d, dict):
        raise ValueError(f"a state dict is needed, got {type(d).__name__}")
    if d.get("format", FORMAT) != FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}; expected {FORMAT!r}")
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
    phase = d.get("phase", "play")
    if phase not in C.PHASE_NAMES:
        raise ValueError(f"phase: {phase!r} is not one of {C.PHASE_NAMES}")
    g.phase = C.PHASE_NAMES.index(phase)
    g.round_no = _int(d, "round", 0, 0, C.NUM_ROUNDS - 1)
    g.start_player = _int(d, "start_player", 0, 0, 1)
    rng = d.get("rng", DEFAULT_RNG)
    try:
        g.rng = np.uint64(int(rng, 16) if isinstance(rng, str) else int(rng))
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"rng must be a 64-bit integer or a hex string, got {rng!r}") from None
    if g.rng == 0:
        raise ValueError("rng must be non-zero (xorshift64 state)")
    g.steps = _int(d, "steps", 0, 0, 2**31 - 1)


def _load_players(g, d: dict) -> None:
    players = d.get("players")
    if not isinstance(players, list) or len(players) != C.NUM_PLAYERS:
        raise ValueError(f"players must be a list of {C.NUM_PLAYERS} dicts, got {players!r}")
    for p, pd in enumerate(players):
        what = f"players[{p}]."
        if not isinstance(pd, dict):
            raise ValueError(f"players[{p}] must be a dict, got {pd!r}")
        g.hand[p] = _card_counts(pd.get("hand", {}), what + "hand")
        g.coll[p] = _card_counts(pd.get("collection", {}), what + "collection")
        g.acts[p] = _int(pd, "actions", 0, 0, C.ACTIONS_PER_ROUND, what)
        taken = pd.get("taken", False)
        if not isinstance(taken, bool):
            raise ValueError(f"{what}taken must be true or false, got {taken!r}")
        g.taken[p] = taken
        g.takes[p] = _int(pd, "takes", int(g.round_no) + taken, 0, C.NUM_ROUNDS, what)
    sp = int(g.start_player)
    derived = sp if g.acts[sp] == g.acts[1 - sp] else 1 - sp
    if g.phase == C.PH_GAME_OVER:
        derived = -1
    g.actor = _int(d, "actor", derived, -1, 1)


def _load_result(g, d: dict) -> None:
    res = d.get("result", {})
    if not isinstance(res, dict):
        raise ValueError(f"result must be a dict, got {res!r}")
    winner = res.get("winner")
    if winner not in (None, 0, 1):
        raise ValueError(f"result.winner must be null, 0 or 1, got {winner!r}")
    g.winner = -1 if winner is None else winner
    reason = res.get("reason", "none")
    if reason not in C.WIN_REASONS:
        raise ValueError(f"result.reason: {reason!r} is not one of {C.WIN_REASONS}")
    g.win_reason = C.WIN_REASONS.index(reason)


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
        g.removed = _card_counts(removed, "removed")
    if deck is not None:
        cards = np.asarray(_card_list(deck, "deck", C.DECK_SIZE), np.int8)
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
