"""NOIR's board as text: `render_board` writes any game of a state from one seat's view (only
its hand is shown). `noir_v2` renders with it (`render()`, `board_text()`, replays), as do the
single-seat Gymnasium env and the text interface, through NOIR's views."""

from __future__ import annotations

from . import constants as C
from .log import gangsters_text

PHASE_NAMES = [C.Phase(k).name for k in range(C.NUM_PHASES)]


def _business_name(inc: int) -> str:
    return C.BUSINESS_NAMES[inc - 1]


def _place_name(g, q: int, t: int) -> str:
    """A target on q's table: 'Casino (slot 2)', 'Hideout', ..."""
    if t < C.NUM_SLOTS:
        inc = int(g["biz"][q, t])
        return f"{_business_name(inc)} (slot {t})" if inc > 0 else f"slot {t}"
    return {C.TGT_HIDEOUT: "Hideout", C.TGT_HIDDEN: "hidden gangsters"}.get(t, "attackers")


def _gangsters(counts) -> str:
    return f"gangsters {gangsters_text(counts)}" if counts.any() else "no gangsters"


def _hand_text(hand) -> str:
    parts = []
    for t in range(C.NUM_CARD_TYPES):
        k = int(hand[t])
        if k:
            parts.append(f"{k}x {C.CARD_NAMES[t]}" if k > 1 else C.CARD_NAMES[t])
    return ", ".join(parts) if parts else "(empty)"


def render_board(
    state,
    i: int = 0,
    observer: int | None = None,
    names: list[str] | None = None,
    rules_name: str = "",
) -> str:
    """Game i of a core state as text, from seat `observer`'s view (only its hand is shown;
    None shows no hand)."""
    g = state[i]
    n = int(g["num_players"])
    names = names or [f"player_{q}" for q in range(n)]
    phase = int(g["phase"])
    actor = int(g["actor"])
    active = int(g["active"])
    lines = []
    head = f"NOIR{f' ({rules_name} rules)' if rules_name else ''}, {n} players"
    if phase == C.PH_GAME_OVER:
        winners = [names[q] for q in range(n) if g["winners"][q]]
        why = C.WIN_REASONS[int(g["win_reason"])]
        lines.append(f"{head}: game over, {' and '.join(winners)} won ({why})")
    else:
        lines.append(
            f"{head}: turn {int(g['turn_no']) + 1}, {names[active]}'s turn; "
            f"phase {PHASE_NAMES[phase]}, {names[actor]} to decide"
        )
    cd = "not started"
    if g["cd_on"]:
        cd = f"{int(g['cd_tokens'])} tokens left, held by {names[int(g['cd_holder'])]}"
    lines.append(
        f"Bank {int(g['bank'])} coins | draw pile {int(g['deck_n'])} | discard pile "
        f"{int(g['discard'].sum())} | out of the game {int(g['removed'].sum())} | "
        f"countdown: {cd}"
    )
    q = int(g["atk_player"])
    if q >= 0:
        t = int(g["atk_slot"])
        atk = g["atk_g"]
        power = int(atk[0]) + 2 * int(atk[1]) + 3 * int(atk[2]) + 4 * int(atk[3])
        verb = "Attack being declared" if phase == C.PH_ATTACKERS else "Pending attack"
        lines.append(
            f"{verb}: {names[active]} -> {names[q]}'s {_place_name(g, q, t)} with "
            f"{_gangsters(atk)} (power {power})"
        )
    win = int(g["win_kind"])
    if win != C.WIN_NONE:
        w = f"Reaction window: {C.WINDOW_NAMES[win]} (owner {names[int(g['win_owner'])]})"
        lines.append(w)
        for k in range(int(g["rq_n"])):
            lines.append("  " + _queued_text(g, k, names))
    if phase in (C.PH_REACT_TARGET, C.PH_TURNCOAT_POWER):
        lines.append(f"Choosing the target of: {C.PLAY_NAMES[int(g['rt_kind'])]}")
    for p in range(n):
        lines.append("")
        lines.extend(_seat_lines(g, p, names, observer, actor))
    return "\n".join(lines)


def _queued_text(g, k: int, names: list[str]) -> str:
    kind = int(g["rq_kind"][k])
    who = names[int(g["rq_player"][k])]
    tq, ts = int(g["rq_tp"][k]), int(g["rq_ts"][k])
    if kind == C.RQ_POKER:
        return f"{k + 1}. Poker Night hosted by {who}"
    place = f"{names[tq]}'s {_place_name(g, tq, ts)}"
    if kind == C.RQ_DRIVEBY:
        return f"{k + 1}. Drive-by x{int(g['rq_dice'][k])} by {who} on {place}"
    if kind == C.RQ_TURNCOAT:
        return f"{k + 1}. Turncoat by {who} on a {int(g['rq_power'][k]) + 1}-gangster of {place}"
    what = "cancel the attack" if kind == C.RQ_CANCEL else f"raid {place}"
    state = "standing" if g["rq_standing"][k] else "bribed"
    return f"{k + 1}. Police by {who} to {what}: {state}"


def _seat_lines(g, p: int, names: list[str], observer: int | None, actor: int) -> list[str]:
    tags = []
    if p == actor:
        tags.append("to decide")
    if p == observer:
        tags.append("you")
    tag = f"  <- {', '.join(tags)}" if tags else ""
    if not g["alive"][p]:
        return [f"{names[p]}: eliminated (trophies {int(g['trophies'][p])}){tag}"]
    hand_n = int(g["hand"][p].sum())
    out = [
        f"{names[p]}: money {int(g['money'][p])} | hand {hand_n} card{'' if hand_n == 1 else 's'}"
        f" | trophies {int(g['trophies'][p])} | kills {int(g['kills'][p])}{tag}"
    ]
    top = int(g["ho_top"][p])
    cover = "in the open"
    if top >= 0:
        cover = f"under the {_business_name(int(g['biz'][p, top]))} (slot {top})"
    note = "  [attacked this turn]" if g["attacked"][p, C.PLACE_HIDEOUT] else ""
    out.append(f"  Hideout {cover}: {_gangsters(g['ho_g'][p])}{note}")
    for t in range(C.NUM_SLOTS):
        inc = int(g["biz"][p, t])
        if inc == 0:
            continue
        notes = []
        if top == t:
            notes.append("covers the Hideout")
        if g["attacked"][p, t]:
            notes.append("attacked this turn")
        note = f"  [{'; '.join(notes)}]" if notes else ""
        out.append(
            f"  slot {t}: {_business_name(inc)} (income {inc}): "
            f"{_gangsters(g['biz_g'][p, t])}{note}"
        )
    if g["hidden"][p].any():
        out.append(f"  hidden {_gangsters(g['hidden'][p])}")
    if g["known"][p].any() and p != observer:
        out.append(f"  known to be in hand: {_hand_text(g['known'][p])}")
    if p == observer:
        out.append(f"  your hand: {_hand_text(g['hand'][p])}")
    return out
