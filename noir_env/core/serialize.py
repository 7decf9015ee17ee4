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

from . import constants as C
from .rules import NOIRBURG, RULE_FIELDS, get_rules, rules_from_row, rules_row, total_money
from .state import State, allocate, check_state
from .validate import game_problems

FORMAT = "noir-state/2"  # /2: rules v1 (reaction queue, known cards, ask_all)
PHASES = [p.name for p in sorted(C.Phase)]
STEPS = ["tribute", "move_gangsters", "attack", "deploy", "move_hideout", "discard", "draw", "end"]
PLAYS = C.PLAY_NAMES


def _powers(counts) -> list[int]:
    return [pw + 1 for pw in range(4) for _ in range(int(counts[pw]))]


def _counts(powers, what: str) -> np.ndarray:
    out = np.zeros(4, np.int8)
    for p in powers:
        if p not in (1, 2, 3, 4):
            raise ValueError(f"{what}: gangster power {p!r} is not 1..4")
        out[p - 1] += 1
    return out


def _cards(counts) -> dict[str, int]:
    return {C.CARD_NAMES[t]: int(n) for t, n in enumerate(counts) if n}


def _card_counts(d: dict, what: str) -> np.ndarray:
    out = np.zeros(C.NUM_CARD_TYPES, np.int8)
    for name, n in d.items():
        if name not in C.CARD_NAMES:
            raise ValueError(f"{what}: unknown card {name!r}; cards: {C.CARD_NAMES}")
        if int(n) < 0:
            raise ValueError(f"{what}: negative count for {name}")
        out[C.CARD_NAMES.index(name)] = int(n)
    return out


def _slot_name(t: int) -> int | str:
    return "hideout" if t == C.TGT_HIDEOUT else int(t)


def _slot_id(v, what: str) -> int:
    if v == "hideout":
        return C.TGT_HIDEOUT
    if not isinstance(v, int) or not 0 <= v < C.NUM_SLOTS:
        raise ValueError(f"{what}: {v!r} is neither 'hideout' nor a slot 0..27")
    return v


def _enum(value, names: list[str], what: str) -> int:
    if value not in names:
        raise ValueError(f"{what}: {value!r} is not one of {names}")
    return names.index(value)


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
    else:
        entry["standing"] = bool(g.rq_standing[k])
    return entry


def _load_queue(g, queue) -> None:
    if not isinstance(queue, list) or len(queue) > C.QUEUE_LEN:
        raise ValueError(f"queue must be a list of at most {C.QUEUE_LEN} entries")
    for k, e in enumerate(queue):
        what = f"queue[{k}]"
        kind = _enum(e.get("kind"), C.QUEUE_NAMES[1:], f"{what}.kind") + 1
        g.rq_kind[k] = kind
        g.rq_player[k] = int(e["player"])
        g.rq_tp[k] = int(e["target"])
        g.rq_ts[k] = _slot_id(e.get("at", 0), f"{what}.at")
        if kind == C.RQ_DRIVEBY:
            g.rq_dice[k] = int(e.get("dice", 1))
        else:
            g.rq_standing[k] = int(e.get("standing", True))
    g.rq_n = len(queue)


def state_from_dict(d: dict[str, Any]) -> State:
    """A batch of one game from the dict form; raises ValueError naming what is wrong."""
    if not isinstance(d, dict):
        raise ValueError(f"a state dict is needed, got {type(d).__name__}")
    if d.get("format", FORMAT) != FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}; expected {FORMAT!r}")
    old = {"police", "drivebys"} & set(d)
    if old:
        raise ValueError(f"{sorted(old)}: replaced by 'queue' in {FORMAT} (docs/STATE.md)")
    s = allocate(1)
    g = s[0]
    n = d.get("num_players")
    if n not in (3, 4, 5, 6):
        raise ValueError(f"num_players must be 3..6, got {n!r}")
    g.num_players = n
    _load_rules(g, d.get("rules"))
    players = d.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise ValueError(f"players must be a list of {n} entries")
    g.ho_top[n:] = -1
    try:
        for q, pd in enumerate(players):
            _load_player(g, q, pd)
        _load_turn(g, d, n)
        _load_cards(g, d, n)
    except (TypeError, KeyError, IndexError, OverflowError, AttributeError) as err:
        raise ValueError(f"malformed state dict: {type(err).__name__}: {err}") from None
    _check_position(g, n)
    problems = game_problems(s, 0)
    if problems:
        raise ValueError("inconsistent position: " + "; ".join(problems))
    from .api import refresh  # api imports serialize's siblings only; no cycle at import time

    return refresh(s)


def _bad(key: str, value, why: str) -> ValueError:
    return ValueError(f"{key}={value!r}: {why}")


def _check_position(g, n: int) -> None:
    """Reject what the kernels could not handle or a game could not reach: every seat,
    selection, attack, window, queue, countdown and result field in range and consistent
    with who is still in the game (ValueError naming the key and the value)."""
    seats = range(n)
    alive = [bool(g.alive[q]) for q in seats]
    live = [q for q in seats if alive[q]]
    over = g.phase == C.PH_GAME_OVER
    if not over and len(live) < 2:
        raise _bad("players[].alive", alive, "a game in play needs two players in it")
    if over:
        if g.actor != -1:
            raise _bad("actor", int(g.actor), "a finished game has no actor (-1)")
    elif g.actor not in live:
        raise _bad("actor", int(g.actor), f"must be a seat still in the game {live}")
    if not over and g.active not in live:
        raise _bad("active", int(g.active), f"must be a seat still in the game {live}")
    if g.turn_no < 0:
        raise _bad("turn_no", int(g.turn_no), "must be >= 0")
    if g.steps < 0 or g.log_n < 0:
        raise _bad("steps / log.n", (int(g.steps), int(g.log_n)), "must be >= 0")
    if not 0 <= g.count <= C.DECK_SIZE:
        raise _bad("count", int(g.count), f"must be in 0..{C.DECK_SIZE}")
    dead = n - len(live)
    if int(g.trophies[:n].sum()) > dead or int(g.kills[:n].sum()) > dead:
        raise _bad(
            "players[].trophies / kills",
            (g.trophies[:n].tolist(), g.kills[:n].tolist()),
            f"more than the {dead} players out of the game could have given",
        )
    _check_selection(g, n, live)
    _check_attack_and_window(g, n, live, over)
    _check_countdown_and_result(g, n, live, over)


def _check_selection(g, n: int, live: list[int]) -> None:
    a, b = int(g.sel_a), int(g.sel_b)
    if g.phase in (C.PH_MOVE_TO, C.PH_DEPLOY_TO) and not 0 <= a <= 3:
        raise _bad("selection", [a, b], "the picked gangster's power index must be 0..3")
    if g.phase == C.PH_MOVE_TO and not 0 <= b < C.NUM_SOURCES:
        raise _bad("selection", [a, b], f"the source must be 0..{C.NUM_SOURCES - 1}")
    if g.phase == C.PH_TURNCOAT_POWER and (a not in live or not 0 <= b <= C.TGT_ATTACK):
        raise _bad("selection", [a, b], f"a Turncoat target seat in {live} and place 0..30")
    if not (0 <= a < max(C.MAX_PLAYERS, C.NUM_CARD_TYPES) and 0 <= b <= C.TGT_ATTACK):
        raise _bad("selection", [a, b], "out of range")


def _check_attack_and_window(g, n: int, live: list[int], over: bool) -> None:
    if g.atk_player != -1:
        if g.atk_player not in live or g.atk_player == g.active:
            raise _bad("attack.target", int(g.atk_player), f"must be an opponent in {live}")
        t = int(g.atk_slot)
        if t != C.TGT_HIDEOUT and not g.biz[g.atk_player, t]:
            raise _bad("attack.at", t, "no business of the target there")
    if g.phase == C.PH_WINDOW and g.win_kind == C.WIN_NONE:
        raise _bad("window", None, "the reaction_window phase needs an open window")
    if g.win_kind != C.WIN_NONE:
        if g.win_owner not in live:
            raise _bad("window.owner", int(g.win_owner), f"must be a seat in the game {live}")
        if not 0 <= g.win_left <= n:
            raise _bad("window.passes_left", int(g.win_left), f"must be in 0..{n}")
    for k in range(int(g.rq_n)):
        if g.rq_player[k] not in range(n) or g.rq_tp[k] not in range(n):
            raise _bad(f"queue[{k}]", (int(g.rq_player[k]), int(g.rq_tp[k])), "bad seat")
        if not 0 <= g.rq_dice[k] <= 6:
            raise _bad(f"queue[{k}].dice", int(g.rq_dice[k]), "must be in 0..6")
    for q, t in zip(*np.nonzero(g.attacked), strict=True):
        if q >= n:
            raise _bad("attacked", [int(q), int(t)], f"seat must be 0..{n - 1}")


def _check_countdown_and_result(g, n: int, live: list[int], over: bool) -> None:
    tokens = int(g.rules[RULE_FIELDS.index("cd_tokens")])
    if g.cd_on:
        if g.cd_holder not in live and not over:
            raise _bad("countdown.holder", int(g.cd_holder), f"must be a seat in the game {live}")
        if not 0 <= g.cd_tokens <= tokens:
            raise _bad("countdown.tokens", int(g.cd_tokens), f"must be in 0..{tokens}")
        if not 0 <= g.cd_turn <= g.turn_no:
            raise _bad("countdown.turn", int(g.cd_turn), "must be in 0..turn_no")
    elif g.cd_holder not in (-1, *range(n)):
        raise _bad("countdown.holder", int(g.cd_holder), "must be -1 or a seat")
    winners = [q for q in range(C.MAX_PLAYERS) if g.winners[q]]
    if any(q >= n for q in winners) or (not over and winners):
        raise _bad("result.winners", winners, "only seats of a finished game win")


def _load_rules(g, rules) -> None:
    if rules is None or isinstance(rules, str):
        g.rules[:] = rules_row(get_rules(rules or NOIRBURG))
        return
    base = dict(zip(RULE_FIELDS, rules_row(NOIRBURG).tolist(), strict=True))
    unknown = set(rules) - set(base)
    if unknown:
        raise ValueError(f"unknown rule fields {sorted(unknown)}; fields: {RULE_FIELDS}")
    base.update({k: int(v) for k, v in rules.items()})
    g.rules[:] = [base[k] for k in RULE_FIELDS]


def _load_player(g, q: int, pd: dict) -> None:
    what = f"players[{q}]"
    g.alive[q] = int(pd.get("alive", True))
    g.money[q] = int(pd.get("money", 0))
    g.hand[q] = _card_counts(pd.get("hand", {}), f"{what}.hand")
    ho = pd.get("hideout", {})
    g.ho_g[q] = _counts(ho.get("gangsters", []), f"{what}.hideout")
    top = ho.get("covered_by")
    g.ho_top[q] = -1 if top is None else _slot_id(top, f"{what}.hideout.covered_by")
    for k, b in enumerate(pd.get("businesses", [])):
        t = _slot_id(b.get("slot", k), f"{what}.businesses[{k}].slot")
        inc = b.get("income")
        if inc not in (1, 2, 3, 4):
            raise ValueError(f"{what}.businesses[{k}]: income must be 1..4, got {inc!r}")
        if g.biz[q, t]:
            raise ValueError(f"{what}.businesses: slot {t} used twice")
        g.biz[q, t] = inc
        g.biz_g[q, t] = _counts(b.get("gangsters", []), f"{what}.businesses[{k}]")
    g.hidden[q] = _counts(pd.get("hidden", []), f"{what}.hidden")
    g.known[q] = _card_counts(pd.get("known", {}), f"{what}.known")
    g.trophies[q] = int(pd.get("trophies", 0))
    g.kills[q] = int(pd.get("kills", 0))


def _load_turn(g, d: dict, n: int) -> None:
    g.phase = _enum(d.get("phase", "deploy"), PHASES, "phase")
    g.active = int(d.get("active", 0))
    g.actor = int(d.get("actor", g.active if g.phase != C.PH_GAME_OVER else -1))
    g.first_player = int(d.get("first_player", 0))
    for name in ("active", "first_player"):
        if not 0 <= int(g[name]) < n:
            raise ValueError(f"{name} must be a seat 0..{n - 1}, got {int(g[name])}")
    g.turn_no = int(d.get("turn_no", n))
    step = d.get("step", _default_step(int(g.phase)))
    g.step_idx = -1 if step is None else _step_index(g, step)
    g.count = int(d.get("count", 0))
    placed = sum(int(p.get("money", 0)) for p in d["players"])
    g.bank = int(d.get("bank", total_money(n) - placed))
    for q, t in d.get("attacked", []):
        g.attacked[q, _slot_id(t, "attacked")] = 1
    for p, pw, k in d.get("move_locked", []):
        g.lock[_slot_id(p, "move_locked"), pw - 1] = k
    g.sel_a, g.sel_b = d.get("selection", [0, 0])
    atk = d.get("attack")
    g.atk_player = -1
    if atk:
        g.atk_player = int(atk["target"])
        g.atk_slot = _slot_id(atk.get("at", "hideout"), "attack.at")
        g.atk_g = _counts(atk.get("attackers", []), "attack.attackers")
    win = d.get("window")
    if win:
        g.win_kind = _enum(win["kind"], C.WINDOW_NAMES, "window.kind")
        g.win_owner = int(win.get("owner", g.active))
        g.win_left = int(win.get("passes_left", n))
        g.win_ret = _enum(win.get("return_phase", "reaction_window"), PHASES, "return_phase")
    _load_queue(g, d.get("queue", []))
    g.ask_all = int(bool(d.get("ask_all", False)))
    rt = d.get("reaction", {})
    g.rt_kind = _enum(rt.get("kind", "poker_night"), PLAYS, "reaction.kind")
    g.rt_ret = _enum(rt.get("return_phase", "mulligan"), PHASES, "reaction.return_phase")
    cd = d.get("countdown", {})
    g.cd_on = int(cd.get("started", False))
    g.cd_holder = int(cd.get("holder", -1))
    g.cd_tokens = int(cd.get("tokens", 0))
    g.cd_turn = int(cd.get("turn", 0))
    res = d.get("result", {})
    for q in res.get("winners", []):
        g.winners[q] = 1
    g.win_reason = _enum(res.get("reason", ""), C.WIN_REASONS, "result.reason")
    rng = d.get("rng", "0x2545f4914f6cdd1d")
    g.rng = np.uint64(int(rng, 16) if isinstance(rng, str) else int(rng))
    if g.rng == 0:
        raise ValueError("rng must be non-zero (xorshift64 state)")
    g.steps = int(d.get("steps", 0))
    log = d.get("log")
    if log:
        g.log_n = int(log["n"])
        g.log[:] = np.asarray(log["events"], np.int16)


def _default_step(phase: int) -> str | None:
    return {
        C.PH_MOVE: "move_gangsters",
        C.PH_MOVE_TO: "move_gangsters",
        C.PH_ATTACK: "attack",
        C.PH_ATTACKERS: "attack",
        C.PH_DEPLOY: "deploy",
        C.PH_DEPLOY_TO: "deploy",
        C.PH_MOVE_HIDEOUT: "move_hideout",
        C.PH_DISCARD: "discard",
        C.PH_DRAW: "draw",
        C.PH_WINDOW: "end",
    }.get(phase)


def _step_order(g) -> np.ndarray:
    return (
        C.STEP_ORDER_PREP_FIRST
        if g.rules[RULE_FIELDS.index("prep_first")]
        else (C.STEP_ORDER_NOIRBURG)
    )


def _step_index(g, step: str) -> int:
    st = _enum(step, STEPS, "step")
    return int(np.flatnonzero(_step_order(g) == st)[0])


def _load_cards(g, d: dict, n: int) -> None:
    deck = d.get("deck")
    discard = d.get("discard")
    g.removed = _card_counts(d.get("removed", {}), "removed")
    if discard is not None:
        g.discard = _card_counts(discard, "discard")
    if deck is not None:
        for name in deck:
            if name not in C.CARD_NAMES:
                raise ValueError(f"deck: unknown card {name!r}")
        g.deck[: len(deck)] = [C.CARD_NAMES.index(c) for c in deck]
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
    return n
