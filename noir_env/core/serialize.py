"""A readable JSON form of one game: `state_to_dict` / `state_from_dict` (docs/STATE.md).

The form is exact (a round trip restores every field, the RNG state included) and can be
written by hand: every key but `num_players` and `players` may be left out and takes the
default documented in docs/STATE.md. Gangsters are written as lists of powers ([1, 2, 2]),
cards in hand / discard pile as {card name: count}, the draw pile as a list of card names
from bottom to top. A loaded position is checked (validate.py) and its legal mask computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._shown import shown
from ..engine.batch import settle_records
from ..engine.fields import (
    DEFAULT_RNG,
    card_counts,
    dict_of,
    flag,
    int_in,
    known_keys,
    list_of,
    name_index,
    rng_state,
)
from . import constants as C
from .kernels import KERNELS
from .positions import MAX_COUNTER, check_position
from .rules import (
    NOIRBURG,
    RULE_FIELDS,
    get_rules,
    rules_from_kernel_values,
    rules_from_row,
    rules_row,
    total_money,
)
from .state import LAYOUT, State, allocate, check_state
from .validate import game_problems

FORMAT = "noir-state/3"  # /3: rules v2 (Turncoat and Poker Night queued, kidnapped_this_move)
READABLE_FORMATS = ("noir-state/2", FORMAT)  # /2 (rules v1) lacks only what /3 added
PHASES = [p.name for p in sorted(C.Phase)]
STEPS = ["tribute", "move_gangsters", "attack", "deploy", "move_hideout", "discard", "draw", "end"]
PLAYS = C.PLAY_NAMES


def _powers(counts) -> list[int]:
    return [pw + 1 for pw in range(4) for _ in range(int(counts[pw]))]


def _cards(counts) -> dict[str, int]:
    return {C.CARD_NAMES[t]: int(n) for t, n in enumerate(counts) if n}


_TARGET_WORDS = {C.TGT_HIDEOUT: "hideout", C.TGT_HIDDEN: "hidden", C.TGT_ATTACK: "attack"}


def _slot_name(t: int) -> int | str:
    """A slot's number, or the word for the Hideout / a Turncoat's hidden or attack target."""
    return _TARGET_WORDS.get(int(t), int(t))


def state_to_dict(state: State, game: int = 0) -> dict[str, Any]:
    """Game `game` of the batch as a JSON-able dict (exact; see docs/STATE.md)."""
    check_state(state)
    g = state[game]
    n = int(g.num_players)
    players = []
    for q in range(n):
        players.append(
            {
                "alive": bool(g.alive[q]),
                "money": int(g.money[q]),
                "hand": _cards(g.hand[q]),
                "hideout": {
                    "gangsters": _powers(g.ho_g[q]),
                    "covered_by": None if g.ho_top[q] < 0 else int(g.ho_top[q]),
                },
                "businesses": [
                    {"slot": t, "income": int(g.biz[q, t]), "gangsters": _powers(g.biz_g[q, t])}
                    for t in range(C.NUM_SLOTS)
                    if g.biz[q, t]
                ],
                "hidden": _powers(g.hidden[q]),
                "known": _cards(g.known[q]),
                "trophies": int(g.trophies[q]),
                "kills": int(g.kills[q]),
            }
        )
    return {
        "format": FORMAT,
        "rules": rules_from_row(g.rules),
        "num_players": n,
        "phase": PHASES[g.phase],
        "actor": int(g.actor),
        "active": int(g.active),
        "first_player": int(g.first_player),
        "turn_no": int(g.turn_no),
        "step": STEPS[_step_order(g)[g.step_idx]] if g.step_idx >= 0 else None,
        "count": int(g.count),
        "bank": int(g.bank),
        "deck": [C.CARD_NAMES[t] for t in g.deck[: g.deck_n]],
        "discard": _cards(g.discard),
        "removed": _cards(g.removed),
        "players": players,
        "attacked": [
            [q, _slot_name(t)] for q in range(n) for t in range(C.NUM_PLACES) if g.attacked[q, t]
        ],
        "move_locked": [
            [_slot_name(p), pw + 1, int(g.lock[p, pw])]
            for p in range(C.NUM_PLACES)
            for pw in range(4)
            if g.lock[p, pw]
        ],
        "kidnapped_this_move": _powers(g.kept_hidden),
        "selection": [int(g.sel_a), int(g.sel_b)],
        "attack": None
        if g.atk_player < 0
        else {
            "target": int(g.atk_player),
            "at": _slot_name(g.atk_slot),
            "attackers": _powers(g.atk_g),
        },
        "window": None
        if g.win_kind == C.WIN_NONE
        else {
            "kind": C.WINDOW_NAMES[g.win_kind],
            "owner": int(g.win_owner),
            "passes_left": int(g.win_left),
            "return_phase": PHASES[g.win_ret],
        },
        "queue": [_queued(g, k) for k in range(g.rq_n)],
        "reaction": {"kind": PLAYS[g.rt_kind], "return_phase": PHASES[g.rt_ret]},
        "countdown": {
            "started": bool(g.cd_on),
            "holder": int(g.cd_holder),
            "tokens": int(g.cd_tokens),
            "turn": int(g.cd_turn),
        },
        "result": {
            "winners": [q for q in range(n) if g.winners[q]],
            "reason": C.WIN_REASONS[g.win_reason],
        },
        "ask_all": bool(g.ask_all),
        "rng": f"0x{int(g.rng):016x}",
        "steps": int(g.steps),
        "log": {"n": int(g.log_n), "events": g.log.tolist()},
    }


def _queued(g, k: int) -> dict[str, Any]:
    kind = int(g.rq_kind[k])
    entry = {
        "kind": C.QUEUE_NAMES[kind],
        "player": int(g.rq_player[k]),
        "target": int(g.rq_tp[k]),
        "at": _slot_name(g.rq_ts[k]),
    }
    if kind == C.RQ_DRIVEBY:
        entry["dice"] = int(g.rq_dice[k])
    elif kind == C.RQ_TURNCOAT:
        entry["power"] = int(g.rq_power[k]) + 1
    elif kind == C.RQ_POKER:
        del entry["target"], entry["at"]  # a Poker Night has a host, no target
    else:
        entry["standing"] = bool(g.rq_standing[k])
    return entry


# --- loading: every value is type- and range-checked as it is read (ValueError naming the
# key and the value); positions.py then checks that the parts agree with each other
TOP_KEYS = {
    "format", "rules", "num_players", "phase", "actor", "active", "first_player", "turn_no",
    "step", "count", "bank", "deck", "discard", "removed", "players", "attacked",
    "move_locked", "kidnapped_this_move", "selection", "attack", "window", "queue", "reaction",
    "countdown", "result", "ask_all", "rng", "steps", "log",
}  # fmt: skip
PLAYER_KEYS = {
    "alive", "money", "hand", "hideout", "businesses", "hidden", "known", "trophies", "kills",
}  # fmt: skip


def state_from_dict(d: dict[str, Any]) -> State:
    """A batch of one game from the dict form, its forced decisions taken as `step` takes
    them (R2.5), so its legal mask shows a real decision. Raises ValueError naming the key
    and the value of anything wrong (nothing is returned then)."""
    if not isinstance(d, dict):
        raise ValueError(f"a state dict is needed, got {type(d).__name__}")
    if d.get("format", FORMAT) not in READABLE_FORMATS:
        raise ValueError(f"unknown state format {shown(d.get('format'))}; expected {FORMAT!r}")
    old = {"police", "drivebys"} & set(d)
    if old:
        raise ValueError(f"{sorted(old)}: replaced by 'queue' in {FORMAT} (docs/STATE.md)")
    known_keys(d, TOP_KEYS, "the state dict")
    n = d.get("num_players")
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n not in (3, 4, 5, 6):
        raise ValueError(f"num_players must be 3..6, got {shown(n)}")
    n = int(n)  # a numpy integer too
    s = allocate(1)
    g = s[0]
    g.num_players = n
    _load_rules(g, d.get("rules"))
    players = d.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise ValueError(f"players must be a list of {n} entries, got {shown(players)}")
    g.ho_top[:] = -1
    for q, pd in enumerate(players):
        _load_player(g, q, pd, n)
    _load_turn(g, d, n)
    _load_table_state(g, d, n)
    _load_window(g, d, n)
    _load_end(g, d, n)
    _load_cards(g, d)
    check_position(g, n)  # before any kernel reads the record
    problems = game_problems(s, 0)
    if problems:
        raise ValueError("inconsistent position: " + "; ".join(problems))
    _check_log_renders(s)
    return settle_records(LAYOUT, KERNELS, s)


def _slot(value, key: str, hideout: bool = True) -> int:
    """A business slot 0..27, or "hideout" where that is allowed."""
    if hideout and value == "hideout":
        return C.TGT_HIDEOUT
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < C.NUM_SLOTS:
        also = "'hideout' or " if hideout else ""
        raise ValueError(f"{key}={shown(value)}: must be {also}a slot 0..{C.NUM_SLOTS - 1}")
    return value


def _counts(powers, key: str) -> np.ndarray:
    """A list of gangster powers as counts per power."""
    out = np.zeros(4, np.int8)
    for k, p in enumerate(list_of(powers, key, C.DECK_SIZE)):
        p = int_in(p, f"{key}[{k}] (a gangster's power)", 1, 4)
        if out[p - 1] == C.DECK_COUNTS[p - 1]:
            raise ValueError(f"{key}: more power-{p} gangsters than the deck has")
        out[p - 1] += 1
    return out


def _load_rules(g, rules) -> None:
    """A preset name, or kernel rule values by name over noirburg's, checked by `Rules`."""
    if rules is None or isinstance(rules, str):
        g.rules[:] = rules_row(get_rules(rules or NOIRBURG))
        return
    values = rules_from_row(rules_row(NOIRBURG))
    values.update(dict_of(rules, "rules", set(RULE_FIELDS)))
    row = rules_row(rules_from_kernel_values(values))
    if row.tolist() != [values[k] for k in RULE_FIELDS]:  # the encoding is exact: never
        raise ValueError(f"rules={shown(rules)}: not the row of any Rules")
    g.rules[:] = row


def _load_player(g, q: int, pd, n: int) -> None:
    key = f"players[{q}]"
    pd = dict_of(pd, key, PLAYER_KEYS)
    g.alive[q] = flag(pd.get("alive", True), f"{key}.alive")
    g.money[q] = int_in(pd.get("money", 0), f"{key}.money", 0, int(total_money(n)))
    g.hand[q] = card_counts(pd.get("hand", {}), f"{key}.hand", C.CARD_NAMES, C.DECK_COUNTS)
    ho = dict_of(pd.get("hideout", {}), f"{key}.hideout", {"gangsters", "covered_by"})
    g.ho_g[q] = _counts(ho.get("gangsters", []), f"{key}.hideout.gangsters")
    top = ho.get("covered_by")
    g.ho_top[q] = -1 if top is None else _slot(top, f"{key}.hideout.covered_by", False)
    for k, b in enumerate(list_of(pd.get("businesses", []), f"{key}.businesses", C.NUM_SLOTS)):
        what = f"{key}.businesses[{k}]"
        b = dict_of(b, what, {"slot", "income", "gangsters"})
        t = _slot(b.get("slot", k), f"{what}.slot", False)
        if g.biz[q, t]:
            raise ValueError(f"{what}.slot={t}: slot used twice")
        g.biz[q, t] = int_in(b.get("income"), f"{what}.income", 1, 4)
        g.biz_g[q, t] = _counts(b.get("gangsters", []), f"{what}.gangsters")
    g.hidden[q] = _counts(pd.get("hidden", []), f"{key}.hidden")
    g.known[q] = card_counts(pd.get("known", {}), f"{key}.known", C.CARD_NAMES, C.DECK_COUNTS)
    g.trophies[q] = int_in(pd.get("trophies", 0), f"{key}.trophies", 0, n - 1)
    g.kills[q] = int_in(pd.get("kills", 0), f"{key}.kills", 0, n - 1)


def _load_turn(g, d: dict, n: int) -> None:
    g.phase = name_index(d.get("phase", "deploy"), PHASES, "phase")
    g.active = int_in(d.get("active", 0), "active", 0, n - 1)
    default_actor = g.active if g.phase != C.PH_GAME_OVER else -1
    g.actor = int_in(d.get("actor", default_actor), "actor", -1, n - 1)
    g.first_player = int_in(d.get("first_player", 0), "first_player", 0, n - 1)
    default_turn = 0 if g.phase == C.PH_MULLIGAN else n
    g.turn_no = int_in(d.get("turn_no", default_turn), "turn_no", 0, MAX_COUNTER)
    g.count = int_in(d.get("count", 0), "count", 0, C.DECK_SIZE)
    total = int(total_money(n))
    g.bank = int_in(d.get("bank", total - int(g.money[:n].sum())), "bank", 0, total)
    g.steps = int_in(d.get("steps", 0), "steps", 0, MAX_COUNTER)
    g.ask_all = flag(d.get("ask_all", False), "ask_all")
    sel = list_of(d.get("selection", [0, 0]), "selection", 2)
    if len(sel) != 2:
        raise ValueError(f"selection={shown(sel)}: must be [a, b]")
    g.sel_a = int_in(sel[0], "selection[0]", 0, C.MAX_PLAYERS - 1)
    g.sel_b = int_in(sel[1], "selection[1]", 0, C.TGT_ATTACK)
    rt = dict_of(d.get("reaction", {}), "reaction", {"kind", "return_phase"})
    g.rt_kind = name_index(rt.get("kind", "poker_night"), PLAYS, "reaction.kind")
    g.rt_ret = name_index(rt.get("return_phase", "mulligan"), PHASES, "reaction.return_phase")


def _load_table_state(g, d: dict, n: int) -> None:
    """What happened earlier in this turn: places attacked, gangsters put down, the attack."""
    for k, e in enumerate(list_of(d.get("attacked", []), "attacked", n * C.NUM_PLACES)):
        e = list_of(e, f"attacked[{k}]", 2)
        if len(e) != 2:
            raise ValueError(f"attacked[{k}]={shown(e)}: must be [seat, slot or 'hideout']")
        q = int_in(e[0], f"attacked[{k}][0]", 0, n - 1)
        g.attacked[q, _slot(e[1], f"attacked[{k}][1]")] = 1
    locks = list_of(d.get("move_locked", []), "move_locked", C.NUM_PLACES * 4)
    for k, e in enumerate(locks):
        e = list_of(e, f"move_locked[{k}]", 3)
        if len(e) != 3:
            raise ValueError(
                f"move_locked[{k}]={shown(e)}: must be [slot or 'hideout', power, count]"
            )
        place = _slot(e[0], f"move_locked[{k}][0]")
        pw = int_in(e[1], f"move_locked[{k}][1]", 1, 4) - 1
        if g.lock[place, pw]:
            raise ValueError(f"move_locked[{k}]={shown(e)}: that place and power twice")
        g.lock[place, pw] = int_in(e[2], f"move_locked[{k}][2]", 1, int(C.DECK_COUNTS[pw]))
    g.kept_hidden = _counts(d.get("kidnapped_this_move", []), "kidnapped_this_move")
    g.atk_player = -1
    atk = d.get("attack")
    if atk is not None:
        atk = dict_of(atk, "attack", {"target", "at", "attackers"})
        g.atk_player = int_in(atk.get("target"), "attack.target", 0, n - 1)
        g.atk_slot = _slot(atk.get("at", "hideout"), "attack.at")
        g.atk_g = _counts(atk.get("attackers", []), "attack.attackers")


def _load_window(g, d: dict, n: int) -> None:
    win = d.get("window")
    if win is not None:
        win = dict_of(win, "window", {"kind", "owner", "passes_left", "return_phase"})
        g.win_kind = name_index(win.get("kind"), C.WINDOW_NAMES[1:], "window.kind") + 1
        g.win_owner = int_in(win.get("owner", int(g.active)), "window.owner", 0, n - 1)
        g.win_left = int_in(win.get("passes_left", n), "window.passes_left", 0, n)
        ret = win.get("return_phase", "reaction_window")
        g.win_ret = name_index(ret, PHASES, "window.return_phase")
    for k, e in enumerate(list_of(d.get("queue", []), "queue", C.QUEUE_LEN)):
        _load_queued(g, k, e, n)
    g.rq_n = len(d.get("queue", []))


# what each kind of queued card holds besides its kind and player (R5.3)
_QUEUE_KEYS = {
    C.RQ_KIDNAP: {"target", "at", "standing"},
    C.RQ_CANCEL: {"target", "at", "standing"},
    C.RQ_DRIVEBY: {"target", "at", "dice"},
    C.RQ_TURNCOAT: {"target", "at", "power"},
    C.RQ_POKER: set(),
}


def _load_queued(g, k: int, e, n: int) -> None:
    key = f"queue[{k}]"
    e = dict_of(e, key, {"kind", "player", "target", "at", "dice", "standing", "power"})
    kind = name_index(e.get("kind"), C.QUEUE_NAMES[1:], f"{key}.kind") + 1
    extra = set(e) - {"kind", "player"} - _QUEUE_KEYS[kind]
    if extra:
        allowed = sorted(_QUEUE_KEYS[kind])
        raise ValueError(f"{key}: a {C.QUEUE_NAMES[kind]} has {allowed}, not {sorted(extra)}")
    g.rq_kind[k] = kind
    g.rq_player[k] = int_in(e.get("player"), f"{key}.player", 0, n - 1)
    if kind == C.RQ_POKER:
        g.rq_tp[k] = g.rq_player[k]  # the host (state.py)
        return
    g.rq_tp[k] = int_in(e.get("target"), f"{key}.target", 0, n - 1)
    at = e.get("at", 0)
    if kind == C.RQ_TURNCOAT and at in ("hidden", "attack"):
        g.rq_ts[k] = C.TGT_HIDDEN if at == "hidden" else C.TGT_ATTACK
    else:
        g.rq_ts[k] = _slot(at, f"{key}.at")
    if kind == C.RQ_DRIVEBY:
        g.rq_dice[k] = int_in(e.get("dice", 1), f"{key}.dice", 1, int(C.DECK_COUNTS[C.DRIVEBY]))
    elif kind == C.RQ_TURNCOAT:
        g.rq_power[k] = int_in(e.get("power"), f"{key}.power", 1, 4) - 1
    else:
        g.rq_standing[k] = flag(e.get("standing", True), f"{key}.standing")


def _load_end(g, d: dict, n: int) -> None:
    """The countdown, the result, the random state and the event log."""
    cd = dict_of(d.get("countdown", {}), "countdown", {"started", "holder", "tokens", "turn"})
    g.cd_on = flag(cd.get("started", False), "countdown.started")
    g.cd_holder = int_in(cd.get("holder", -1), "countdown.holder", -1, n - 1)
    g.cd_tokens = int_in(cd.get("tokens", 0), "countdown.tokens", 0, 100)
    g.cd_turn = int_in(cd.get("turn", 0), "countdown.turn", 0, MAX_COUNTER)
    res = dict_of(d.get("result", {}), "result", {"winners", "reason"})
    for k, q in enumerate(list_of(res.get("winners", []), "result.winners", n)):
        q = int_in(q, f"result.winners[{k}]", 0, n - 1)
        if g.winners[q]:
            raise ValueError(f"result.winners: seat {q} twice")
        g.winners[q] = 1
    g.win_reason = name_index(res.get("reason", ""), C.WIN_REASONS, "result.reason")
    g.rng = rng_state(d.get("rng", DEFAULT_RNG))
    log = d.get("log")
    if log is not None:
        _load_log(g, dict_of(log, "log", {"n", "events"}))


def _load_log(g, log: dict) -> None:
    """The event ring buffer: LOG_LEN rows of an event code and 7 int16 arguments; the rows
    not yet written are zero."""
    g.log_n = int_in(log.get("n", 0), "log.n", 0, MAX_COUNTER)
    rows = list_of(log.get("events", []), "log.events", C.LOG_LEN)
    if len(rows) != C.LOG_LEN:
        raise ValueError(f"log.events: must be {C.LOG_LEN} rows, got {len(rows)}")
    written = min(int(g.log_n), C.LOG_LEN)
    for k, row in enumerate(rows):
        row = list_of(row, f"log.events[{k}]", C.LOG_FIELDS)
        if len(row) != C.LOG_FIELDS:
            raise ValueError(f"log.events[{k}]: must be {C.LOG_FIELDS} ints (code, arguments)")
        values = [
            int_in(v, f"log.events[{k}][{j}]", -(2**15), 2**15 - 1) for j, v in enumerate(row)
        ]
        if k >= written and any(values):
            why = f"log.n={g.log_n} events leave this row unwritten (zeros)"
            raise ValueError(f"log.events[{k}]={values}: {why}")
        if k < written and not 0 <= values[0] <= C.EV_AWAY_DISCARD:
            why = f"not an event code 0..{C.EV_AWAY_DISCARD}"
            raise ValueError(f"log.events[{k}][0]={values[0]}: {why}")
        g.log[k] = values


def _check_log_renders(s: State) -> None:
    """Every event of the log must turn into a sentence (its arguments name real seats,
    cards and places): the renderer itself is the check."""
    from .log import game_log

    try:
        game_log(s, 0)
    except Exception as err:  # noqa: BLE001 - any failure of the renderer is a bad event
        why = f"{type(err).__name__}: {err}"
        raise ValueError(f"log.events: an event cannot be rendered ({why})") from None


def _default_step(phase: int, window: int, window_return: int) -> str | None:
    """The step a phase belongs to (docs/STATE.md: `step` defaults from `phase`)."""
    if phase == C.PH_WINDOW:
        if window == C.WIN_RESPONSE:
            phase = window_return
        else:
            return "attack" if window == C.WIN_ATTACK else "end"
    return {
        C.PH_MOVE: "move_gangsters",
        C.PH_MOVE_TO: "move_gangsters",
        C.PH_ATTACK: "attack",
        C.PH_ATTACKERS: "attack",
        C.PH_CONTINUE: "attack",
        C.PH_DEPLOY: "deploy",
        C.PH_DEPLOY_TO: "deploy",
        C.PH_MOVE_HIDEOUT: "move_hideout",
        C.PH_DISCARD: "discard",
        C.PH_DRAW: "draw",
    }.get(phase)


def _step_order(g) -> np.ndarray:
    return (
        C.STEP_ORDER_PREP_FIRST
        if g.rules[RULE_FIELDS.index("prep_first")]
        else (C.STEP_ORDER_NOIRBURG)
    )


def _load_step(g, d: dict) -> None:
    phase = int(g.phase)
    if phase in (C.PH_REACT_TARGET, C.PH_TURNCOAT_POWER) and g.rt_ret != C.PH_WINDOW:
        phase = int(g.rt_ret)
    step = d.get("step", _default_step(phase, int(g.win_kind), int(g.win_ret)))
    if step is None:
        g.step_idx = -1
        return
    st = name_index(step, STEPS, "step")
    g.step_idx = int(np.flatnonzero(_step_order(g) == st)[0])


def _load_cards(g, d: dict) -> None:
    """The draw pile, the discard pile and the cards out of the game; then the step (its
    default depends on the phase, the window and the reaction)."""
    _load_step(g, d)
    g.removed = card_counts(d.get("removed", {}), "removed", C.CARD_NAMES, C.DECK_COUNTS)
    if g.removed.sum() != g.removed[C.POKER]:
        raise ValueError(
            f"removed={shown(d.get('removed'))}: only Poker Nights leave the game (R5.8)"
        )
    discard = d.get("discard")
    if discard is not None:
        g.discard = card_counts(discard, "discard", C.CARD_NAMES, C.DECK_COUNTS)
    deck = d.get("deck")
    if deck is not None:
        deck = list_of(deck, "deck", C.DECK_SIZE)
        g.deck[: len(deck)] = [
            name_index(c, C.CARD_NAMES, f"deck[{k}]") for k, c in enumerate(deck)
        ]
        g.deck_n = len(deck)
        return
    # no draw pile given: every card not placed elsewhere is in it, shuffled by a generator
    # seeded from the game's rng state (so the same dict always loads the same position)
    missing = C.DECK_COUNTS.astype(np.int64) - _placed(g)
    if (missing < 0).any():
        raise ValueError("the position holds more cards of some type than the deck has")
    cards = np.random.default_rng(int(g.rng)).permutation(
        np.repeat(np.arange(C.NUM_CARD_TYPES), missing)
    )
    g.deck[: len(cards)] = cards
    g.deck_n = len(cards)


def _placed(g) -> np.ndarray:
    n = g.discard.astype(np.int64) + g.removed + g.hand.sum(axis=0)
    for inc in range(1, 5):
        n[C.B1 + inc - 1] += int((g.biz == inc).sum())
    n[:4] += g.biz_g.sum(axis=(0, 1)) + g.ho_g.sum(axis=0) + g.hidden.sum(axis=0) + g.atk_g
    if g.phase == C.PH_MOVE_TO:  # the gangster picked up is in no place (validate.py)
        n[g.sel_a] += 1
    return n
