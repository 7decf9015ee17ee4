"""Checks that a game loaded from its dict form (serialize.py) is a position the kernels can
run safely and that a game could reach.

`check_position` runs on the loaded record before anything compiled reads it: every seat,
slot, selection, queue entry and counter the kernels index with is in range, and the
position's parts agree with each other (who may act in which phase, which window is open,
whether an attack is pending, what the countdown and the result say). It raises ValueError
naming the key and the value. Conservation of money and cards and the table's capacities
are checked afterwards by validate.py.

Plain Python on purpose (no compiled code): it runs once per loaded position, and keeping
it out of the kernel modules keeps the numba cache key stable.
"""

from __future__ import annotations

import numpy as np

from .._shown import shown
from . import constants as C
from .rules import RULE_FIELDS

MAX_COUNTER = 2**30  # turn_no, steps, log.n: int32 fields that each step may increment

# the turn step (ST_*) each phase of the active player's own turn belongs to
STEP_OF_PHASE = {
    C.PH_MOVE: C.ST_MOVE,
    C.PH_MOVE_TO: C.ST_MOVE,
    C.PH_ATTACK: C.ST_ATTACK,
    C.PH_ATTACKERS: C.ST_ATTACK,
    C.PH_CONTINUE: C.ST_ATTACK,
    C.PH_DEPLOY: C.ST_DEPLOY,
    C.PH_DEPLOY_TO: C.ST_DEPLOY,
    C.PH_MOVE_HIDEOUT: C.ST_MOVE_HIDEOUT,
    C.PH_DISCARD: C.ST_DISCARD,
    C.PH_DRAW: C.ST_DRAW,
}
# decision points of one's own turn where a reaction may be played (R5.2c; mask.py)
REACTION_POINTS = (C.PH_MOVE, C.PH_ATTACK, C.PH_DEPLOY, C.PH_MOVE_HIDEOUT, C.PH_DISCARD, C.PH_DRAW)
CHOOSING = (C.PH_REACT_TARGET, C.PH_TURNCOAT_POWER)  # the target of a reaction just played
TARGETED = (C.PLAY_POLICE, C.PLAY_BRIBE, C.PLAY_DRIVEBY, C.PLAY_TURNCOAT)


def bad(key: str, value, why: str) -> ValueError:
    """The error of a loaded position: the key, its value, and what is wrong."""
    return ValueError(f"{key}={shown(value)}: {why}")


def phase_name(phase) -> str:
    return C.Phase(int(phase)).name


def rule(g, name: str) -> int:
    """A kernel rule value of the loaded game (rules.RULE_FIELDS)."""
    return int(g.rules[RULE_FIELDS.index(name)])


def step_of(g) -> int:
    """The turn step (ST_*) at the game's `step_idx` in its rules' step order."""
    order = C.STEP_ORDER_PREP_FIRST if rule(g, "prep_first") else C.STEP_ORDER_NOIRBURG
    return int(order[g.step_idx])


def window_open(g) -> bool:
    """Whether the position needs an open window: a reaction window, or the target of a
    reaction played inside one being chosen."""
    return g.phase == C.PH_WINDOW or (g.phase in CHOOSING and g.rt_ret == C.PH_WINDOW)


def attack_pending(g) -> bool:
    """Whether the position needs a pending attack (declared, not yet resolved)."""
    return g.phase in (C.PH_ATTACKERS, C.PH_CONTINUE) or g.win_kind == C.WIN_ATTACK


def check_position(g, n: int) -> None:
    """Raise ValueError (naming the key and the value) unless the loaded game `g` of n
    players is a position the kernels can run and a game could reach."""
    live = [q for q in range(n) if g.alive[q]]
    _check_seats(g, n, live)
    _check_hands(g, n, live)
    _check_counters(g, n)
    _check_step(g)
    _check_selection(g, live)
    _check_kept_hidden(g)
    _check_reaction(g)
    _check_window(g, live)
    _check_queue(g, live)
    _check_attack(g, n, live)
    _check_countdown(g, n, live)
    _check_result(g, live)
    if g.phase == C.PH_MULLIGAN:
        _check_mulligan(g, n, live)


def _check_seats(g, n: int, live: list[int]) -> None:
    """Who is in the game, who acts, and trophies / kills that match the players out."""
    over = g.phase == C.PH_GAME_OVER
    if not over and len(live) < 2:
        raise bad("players[].alive", g.alive[:n].tolist(), "a game in play needs two players")
    if over and g.actor != -1:
        raise bad("actor", int(g.actor), "a finished game has no actor (-1)")
    if not over and g.actor not in live:
        raise bad("actor", int(g.actor), f"must be a seat still in the game {live}")
    if not over and g.active not in live:
        raise bad("active", int(g.active), f"must be a seat still in the game {live}")
    own_turn = g.phase in STEP_OF_PHASE or (g.phase in CHOOSING and g.rt_ret != C.PH_WINDOW)
    if own_turn and g.actor != g.active:
        raise bad("actor", int(g.actor), f"in this phase the active player {g.active} acts")
    for q in range(n):
        if not g.alive[q] and (g.trophies[q] or g.ho_top[q] != -1 or g.known[q].any()):
            raise bad(f"players[{q}]", "out", "a player out holds no trophy, Hideout or card")
    # R3.8: each elimination gives the eliminator one kill and one trophy (plus the trophies
    # of the player eliminated), so both sums are the number of players out
    out = n - len(live)
    for key, values in (("trophies", g.trophies[:n]), ("kills", g.kills[:n])):
        if int(values.sum()) != out:
            raise bad(f"players[].{key}", values.tolist(), f"must add up to the {out} players out")


def _check_hands(g, n: int, live: list[int]) -> None:
    """R4.8 / D24: a hand holds at most 6 cards, unless its owner eliminated a player
    (R3.8 takes the loser's cards into hand). Draws stop at 6, a mulligan draws what it set
    aside and a Turncoat's gangster replaces the Turncoat played, so only a player with a
    kill can hold more (then card conservation is the only bound)."""
    for q in live:
        size = int(g.hand[q].sum())
        if g.phase == C.PH_MULLIGAN and q == g.actor:
            size += int(g.count)  # the cards set aside come back in the same number
        if size > C.HAND_SIZE and g.kills[q] == 0:
            raise bad(
                f"players[{q}].hand",
                size,
                f"more than {C.HAND_SIZE} cards (with those set aside in a mulligan) "
                "without an elimination (R4.8, D24)",
            )


def _check_counters(g, n: int) -> None:
    for key, value in (("turn_no", g.turn_no), ("steps", g.steps), ("log.n", g.log_n)):
        if not 0 <= value <= MAX_COUNTER:
            raise bad(key, int(value), f"must be in 0..{MAX_COUNTER}")
    limit = {C.PH_MULLIGAN: rule(g, "mulligan_max"), C.PH_DISCARD: rule(g, "discard_limit")}
    most = limit.get(int(g.phase), C.DECK_SIZE)
    if not 0 <= g.count <= most:
        raise bad("count", int(g.count), f"must be in 0..{most} in phase {phase_name(g.phase)}")


def _check_step(g) -> None:
    """The turn step agrees with the phase: a step's own phases, the window opened at the
    step (attack: the attack step, end of turn: the end), or the phase a reaction returns to."""
    if g.phase in (C.PH_MULLIGAN, C.PH_GAME_OVER):
        return  # the mulligan precedes the first turn; a finished game has no step
    if not 0 <= g.step_idx <= C.ST_END:
        raise bad("step", None, "a game in play is in a turn step")
    need = STEP_OF_PHASE.get(int(g.phase))
    if g.phase in CHOOSING and g.rt_ret != C.PH_WINDOW:
        need = STEP_OF_PHASE.get(int(g.rt_ret))
    elif window_open(g):
        need = {
            C.WIN_ATTACK: C.ST_ATTACK,
            C.WIN_END_TURN: C.ST_END,
            C.WIN_RESPONSE: STEP_OF_PHASE.get(int(g.win_ret)),
        }.get(int(g.win_kind))  # a before-step window: the step about to begin, any
    if need is not None and step_of(g) != need:
        raise bad(
            "step",
            C.STEP_NAMES[step_of(g)],
            f"phase {phase_name(g.phase)} needs step {C.STEP_NAMES[need]}",
        )


def _check_selection(g, live: list[int]) -> None:
    """The pending selection: the gangster picked up (Move Gangsters) or chosen (Deploy),
    or the Turncoat's target; elsewhere what is left of the last one."""
    a, b, p = int(g.sel_a), int(g.sel_b), int(g.active)
    if g.phase in (C.PH_MOVE_TO, C.PH_DEPLOY_TO) and not 0 <= a <= 3:
        raise bad("selection", [a, b], "the picked gangster's power index must be 0..3")
    if g.phase == C.PH_MOVE_TO and not 0 <= b < C.NUM_SOURCES:
        raise bad("selection", [a, b], f"the source must be 0..{C.NUM_SOURCES - 1}")
    if g.phase == C.PH_DEPLOY_TO and (g.hand[p, C.G1 + a] < 1 or g.money[p] < a):
        raise bad("selection", [a, b], "the deployed gangster must be in hand and paid for")
    if g.phase == C.PH_TURNCOAT_POWER and (a not in live or a == g.actor or b > C.TGT_ATTACK):
        raise bad("selection", [a, b], f"a Turncoat target: an opponent in {live}, place 0..30")
    if not (0 <= a < C.MAX_PLAYERS and 0 <= b <= C.TGT_ATTACK):
        raise bad("selection", [a, b], "must be [0..5, 0..30]")


def _check_kept_hidden(g) -> None:
    """R3.5: gangsters kidnapped during the active player's own Move Gangsters step are
    HIDDEN gangsters of that player, kept apart only until the step ends."""
    kept = [int(v) for v in g.kept_hidden]
    if not any(kept):
        return
    in_play = g.phase not in (C.PH_MULLIGAN, C.PH_GAME_OVER) and g.step_idx >= 0
    if not in_play or step_of(g) != C.ST_MOVE:
        raise bad("kidnapped_this_move", kept, "only during the active player's Move Gangsters")
    hidden = [int(v) for v in g.hidden[g.active]]
    if any(k < 0 or k > h for k, h in zip(kept, hidden, strict=True)):
        raise bad("kidnapped_this_move", kept, f"must be among the active player's {hidden}")


def _check_reaction(g) -> None:
    """A reaction whose target is being chosen: a kind that takes one, played at a point
    where reactions may be played."""
    if g.phase not in CHOOSING:
        return
    kinds = (C.PLAY_TURNCOAT,) if g.phase == C.PH_TURNCOAT_POWER else TARGETED
    if g.rt_kind not in kinds:
        names = [C.PLAY_NAMES[k] for k in kinds]
        raise bad("reaction.kind", C.PLAY_NAMES[g.rt_kind], f"must be one of {names} here")
    if g.rt_ret not in (*REACTION_POINTS, C.PH_WINDOW):
        names = [phase_name(p) for p in (*REACTION_POINTS, C.PH_WINDOW)]
        raise bad("reaction.return_phase", phase_name(g.rt_ret), f"must be one of {names}")


def _check_window(g, live: list[int]) -> None:
    kind = C.WINDOW_NAMES[g.win_kind]
    if not window_open(g):
        if g.win_kind != C.WIN_NONE:
            raise bad("window.kind", kind, f"no window is open in phase {phase_name(g.phase)}")
        return
    if g.win_kind == C.WIN_NONE:
        raise bad("window", None, f"phase {phase_name(g.phase)} needs an open window")
    if g.win_owner != g.active:  # every window opens at a decision of the active player
        raise bad("window.owner", int(g.win_owner), f"must be the active player {g.active}")
    if not 1 <= g.win_left <= len(live):
        raise bad("window.passes_left", int(g.win_left), f"must be in 1..{len(live)}")
    if g.win_kind == C.WIN_RESPONSE and g.win_ret not in REACTION_POINTS:
        names = [phase_name(p) for p in REACTION_POINTS]
        raise bad("window.return_phase", phase_name(g.win_ret), f"must be one of {names}")


def _check_queue(g, live: list[int]) -> None:
    """R5.3: every card but a Bribe waits in an open window only; each was played from a
    card now on the discard pile (a Poker Night: or boxed), so the queue can never outgrow
    QUEUE_LEN."""
    if g.rq_n and not window_open(g):
        raise bad("queue", int(g.rq_n), "reactions wait only in an open window")
    played = dict.fromkeys((C.POLICE, C.DRIVEBY, C.TURNCOAT, C.POKER), 0)
    for k in range(int(g.rq_n)):
        kind, x, q, t = (int(g[f][k]) for f in ("rq_kind", "rq_player", "rq_tp", "rq_ts"))
        key = f"queue[{k}]"
        if x not in live:
            raise bad(f"{key}.player", x, f"must be a seat in the game {live}")
        if kind == C.RQ_CANCEL:
            played[C.POLICE] += 1
            if g.win_kind != C.WIN_ATTACK or (q, t) != (g.atk_player, g.atk_slot):
                raise bad(key, (q, t), "a Police cancel names the pending attack's target")
        elif kind == C.RQ_POKER:
            played[C.POKER] += 1
            if (q, t) != (x, 0):
                raise bad(key, (q, t), "a Poker Night has its host, no target")
        elif kind == C.RQ_TURNCOAT:
            played[C.TURNCOAT] += 1
            _check_turncoat_target(g, key, x, q, t, live)
        else:
            played[C.POLICE] += kind == C.RQ_KIDNAP
            played[C.DRIVEBY] += int(g.rq_dice[k]) if kind == C.RQ_DRIVEBY else 0
            if q not in live or q == x or t >= C.NUM_SLOTS or not g.biz[q, t]:
                raise bad(f"{key}.target", (q, t), "must be a business of an opponent")
        if kind == C.RQ_DRIVEBY and not 1 <= g.rq_dice[k] <= C.DECK_COUNTS[C.DRIVEBY]:
            raise bad(f"{key}.dice", int(g.rq_dice[k]), "must be 1..5 (one per Drive-by)")
        if kind != C.RQ_DRIVEBY and g.rq_dice[k]:
            raise bad(f"{key}.dice", int(g.rq_dice[k]), "only Drive-bys roll dice")
        if (kind != C.RQ_TURNCOAT and g.rq_power[k]) or not 0 <= g.rq_power[k] < 4:
            raise bad(f"{key}.power", int(g.rq_power[k]) + 1, "a Turncoat's only, 1..4")
        police = kind in (C.RQ_KIDNAP, C.RQ_CANCEL)
        if not police and g.rq_standing[k]:
            raise bad(f"{key}.standing", 1, "only a Police stands or is bribed")
    if g.phase == C.PH_REACT_TARGET:  # the card just played joins the queue next
        played[C.POLICE] += g.rt_kind == C.PLAY_POLICE
        played[C.DRIVEBY] += g.rt_kind == C.PLAY_DRIVEBY
    if g.phase in CHOOSING and g.rt_kind == C.PLAY_TURNCOAT:
        played[C.TURNCOAT] += 1
    for card, count in played.items():
        spent = int(g.discard[card]) + (int(g.removed[card]) if card == C.POKER else 0)
        if count > spent:
            name = C.CARD_NAMES[card]
            where = "discarded or boxed" if card == C.POKER else "discarded"
            raise bad("queue", int(g.rq_n), f"{count} {name} played, {spent} {where}")


def _check_turncoat_target(g, key: str, x: int, q: int, t: int, live: list[int]) -> None:
    """A queued Turncoat names an opponent's business, HIDDEN pool or pending attack (R5.7);
    the gangster itself may be gone by the close (an earlier card took it: it then misses)."""
    if q not in live or q == x:
        raise bad(f"{key}.target", q, "must be an opponent in the game")
    if t == C.TGT_ATTACK:
        if g.win_kind != C.WIN_ATTACK or q != g.active:
            raise bad(f"{key}.at", "attack", "only the pending attack's attacker, in its window")
    elif t != C.TGT_HIDDEN and (t >= C.NUM_SLOTS or not g.biz[q, t]):
        raise bad(f"{key}.at", t, "must be a business of the target, 'hidden' or 'attack'")


def _check_attack(g, n: int, live: list[int]) -> None:
    """R3.1: an attack is pending exactly while attackers are added, its window is open, or
    a raze-first attacker chooses whether to go on (R3.7)."""
    pending = g.atk_player != -1
    if pending != attack_pending(g):
        want = "needs" if attack_pending(g) else "has no"
        raise bad(
            "attack",
            None if not pending else int(g.atk_player),
            f"this position {want} pending attack",
        )
    if pending:
        q, t = int(g.atk_player), int(g.atk_slot)
        if q not in live or q == g.active:
            raise bad("attack.target", q, f"must be an opponent in {live}")
        if t != C.TGT_HIDEOUT and not g.biz[q, t]:
            raise bad("attack.at", t, "no business of the target there")
        if g.phase == C.PH_CONTINUE and (t != C.TGT_HIDEOUT or not g.atk_g.any()):
            raise bad("attack", [q, t], "going on into a Hideout needs attackers (R3.7)")
    for q, t in zip(*np.nonzero(g.attacked), strict=True):
        if q >= n or q == g.active:
            raise bad("attacked", [int(q), int(t)], f"must be an opponent of {g.active}")


def _check_countdown(g, n: int, live: list[int]) -> None:
    """R6.3: once started, a living holder and 1..countdown_tokens tokens left (0 only in
    a finished game); before, nothing."""
    tokens = rule(g, "cd_tokens")
    over = g.phase == C.PH_GAME_OVER
    if not g.cd_on:
        if (g.cd_holder, g.cd_tokens, g.cd_turn) != (-1, 0, 0):
            got = [int(g.cd_holder), int(g.cd_tokens), int(g.cd_turn)]
            raise bad("countdown", got, "holder -1, tokens 0, turn 0 until it starts")
        return
    seats = list(range(n)) if over else live  # in a finished game: any seat
    if g.cd_holder not in seats:
        raise bad("countdown.holder", int(g.cd_holder), f"must be a seat in {seats}")
    if not (0 if over else 1) <= g.cd_tokens <= tokens:
        raise bad("countdown.tokens", int(g.cd_tokens), f"must be in 1..{tokens}")
    if not 0 <= g.cd_turn <= g.turn_no:
        raise bad("countdown.turn", int(g.cd_turn), f"must be in 0..turn_no ({g.turn_no})")


def _check_result(g, live: list[int]) -> None:
    """R6: a finished game has a reason and winners among the players still in it."""
    winners = [q for q in range(C.MAX_PLAYERS) if g.winners[q]]
    reason = C.WIN_REASONS[g.win_reason]
    if g.phase != C.PH_GAME_OVER:
        if winners:
            raise bad("result.winners", winners, "only a finished game has winners")
        if reason:
            raise bad("result.reason", reason, "only a finished game has a reason")
        return
    if not winners or not set(winners) <= set(live):
        raise bad("result.winners", winners, f"a finished game's winners are among {live}")
    if not reason:
        raise bad("result.reason", reason, f"a finished game has one of {C.WIN_REASONS[1:]}")


def _check_mulligan(g, n: int, live: list[int]) -> None:
    """R1.6: the mulligan comes before the first turn, from the first player round."""
    if g.turn_no != 0 or len(live) != n:
        raise bad("turn_no", int(g.turn_no), "the mulligan comes before turn 0, all in the game")
    if g.active != g.first_player:
        raise bad("active", int(g.active), f"in the mulligan the first player {g.first_player}")
