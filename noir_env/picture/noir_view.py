"""What one viewpoint sees of a NOIR game, decoded from the observation the agents get.

A seat's view is read from `core.observe(state, seat)` alone (plus the game's result,
which is public): the picture of a seat can show nothing its observation does not hold,
so it reuses the very filter that keeps hidden information from the agents (R7). The
spectator's view is the same decoding plus every hand, read from the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import core
from ..core import constants as C
from ..core.observe import (
    GLOBAL_OFFSETS,
    GLOBAL_SIZE,
    QF,
    QUEUE_OFFSETS,
    SEAT_OFFSETS,
    SEAT_SIZE,
    SF,
    SLOT_FEATURES,
)

SPECTATOR = None  # the viewpoint that sees every hand


@dataclass
class Business:
    """A business on a player's table, as seen."""

    slot: int
    income: int
    gangsters: list[int]  # per power 1..4
    covers_hideout: bool
    attacked: bool  # attacked this turn
    target: bool  # the pending attack's target
    turncoat: bool  # the target of the Turncoat being played
    kidnaps: int  # standing Police kidnaps queued on it
    dice: int  # Drive-by dice queued on it


@dataclass
class Seat:
    """One player's public table."""

    alive: bool
    money: int
    hand_size: int
    trophies: int
    kills: int
    hideout: list[int]  # gangsters per power
    covered_by: int | None  # slot of the business covering the Hideout
    hideout_attacked: bool
    hideout_target: bool
    hidden: list[int]  # HIDDEN gangsters per power (R3.5)
    hidden_target: bool  # a Turncoat's target
    target_slot: int | None  # the pending attack's slot here (a razed one included, R3.7)
    known: list[int]  # cards publicly known to be in the hand (R7.3), per type
    businesses: list[Business]


@dataclass
class Queued:
    """A reaction waiting in the open window (R5.3)."""

    kind: str  # QUEUE_NAMES: police_kidnap, police_cancel, driveby, turncoat, poker_night
    player: int
    target: int
    place: int  # slot, or TGT_HIDEOUT / TGT_HIDDEN / TGT_ATTACK
    standing: bool
    dice: int
    power: int  # a Turncoat's gangster power (1-4)


@dataclass
class Table:
    """Everything public about one NOIR game (absolute seats)."""

    num_players: int
    phase: str
    actor: int  # -1 once the game is over
    active: int
    turn_no: int
    step: str | None
    bank: int
    deck: int
    discard: int
    removed: int
    countdown: tuple[int, int, int] | None  # (tokens, holder, turns left)
    attack: tuple[int, int, list[int]] | None  # (defender, slot or TGT_HIDEOUT, attackers)
    window: tuple[str, int] | None  # (kind, owner)
    queue: list[Queued]
    choosing: str | None  # the reaction whose target is being chosen
    seats: list[Seat]
    winners: list[int] = field(default_factory=list)
    win_reason: str = ""


def _one_hot(o: np.ndarray, start: int, size: int) -> int:
    hot = np.flatnonzero(o[start : start + size] > 0.5)
    return int(hot[0]) if hot.size else -1


def _ints(a: np.ndarray) -> list[int]:
    return [int(round(float(x))) for x in a]


def decode(o: np.ndarray, observer: int) -> Table:
    """The public table in observation `o` of seat `observer` (seats made absolute again)."""
    g = {k: v[0] for k, v in GLOBAL_OFFSETS.items()}
    n = _one_hot(o, g["num_players"], 4) + 3

    def seat(rel_start: int, size: int = C.MAX_PLAYERS) -> int:
        rel = _one_hot(o, rel_start, size)
        return -1 if rel < 0 else (observer + rel) % n

    step = _one_hot(o, g["step"], C.ST_END + 1)
    cd = None
    if o[g["countdown_on"]] > 0.5:
        cd = (int(o[g["countdown_tokens"]]), seat(g["countdown_holder"]),
              int(o[g["countdown_turns_left"]]))  # fmt: skip
    win = _one_hot(o, g["window"], C.NUM_WINDOWS)
    rt = _one_hot(o, g["reaction_kind"], 6)
    seats = [_seat(o, GLOBAL_SIZE + rel * SEAT_SIZE) for rel in range(n)]
    seats = [seats[(q - observer) % n] for q in range(n)]
    attack = None
    if o[g["attack_pending"]] > 0.5:  # the target place: the flag on the defender's table
        defender = seat(g["attack_target_seat"])
        s = seats[defender]
        where = C.TGT_HIDEOUT if s.hideout_target else s.target_slot
        if where is None:
            raise ValueError(
                f"observation of seat {observer}: an attack on seat {defender} is pending, "
                "but no place of that seat is its target"
            )
        attack = (defender, where, _ints(o[g["attackers"] : g["attackers"] + 4]))
    return Table(
        num_players=n,
        phase=C.Phase(_one_hot(o, g["phase"], C.NUM_PHASES)).name,
        actor=seat(g["actor"]),
        active=seat(g["active"]),
        turn_no=int(o[g["turn_no"]]),
        step=C.STEP_NAMES[step] if step >= 0 else None,
        bank=int(o[g["bank"]]),
        deck=int(o[g["deck"]]),
        discard=int(o[g["discard_pile"] : g["discard_pile"] + C.NUM_CARD_TYPES].sum()),
        removed=int(o[g["removed"] : g["removed"] + C.NUM_CARD_TYPES].sum()),
        countdown=cd,
        attack=attack,
        window=(C.WINDOW_NAMES[win], seat(g["window_owner"])) if win > 0 else None,
        queue=_queue(o, g["queue"], observer, n),
        choosing=C.PLAY_NAMES[rt] if rt >= 0 else None,
        seats=seats,
    )


def _seat(o: np.ndarray, base: int) -> Seat:
    s = {k: base + v[0] for k, v in SEAT_OFFSETS.items()}
    f = {name: k for k, name in enumerate(SLOT_FEATURES)}
    bizs, target = [], None
    for t in range(C.NUM_SLOTS):
        row = o[s["businesses"] + t * SF : s["businesses"] + (t + 1) * SF]
        if row[f["attack_target"]] > 0.5:
            target = t  # razed-first attackers may stand on a slot with no business left
        if row[f["income"]] > 0:
            bizs.append(Business(
                slot=t, income=int(row[f["income"]]), gangsters=_ints(row[1:5]),
                covers_hideout=row[f["covers_hideout"]] > 0.5,
                attacked=row[f["attacked_this_turn"]] > 0.5,
                target=row[f["attack_target"]] > 0.5, turncoat=row[f["turncoat_target"]] > 0.5,
                kidnaps=int(row[f["police_kidnaps"]]), dice=int(row[f["drivebys"]]),
            ))  # fmt: skip
    top = next((b.slot for b in bizs if b.covers_hideout), None)
    return Seat(
        alive=o[s["alive"]] > 0.5,
        money=int(o[s["money"]]),
        hand_size=int(o[s["hand_size"]]),
        trophies=int(o[s["trophies"]]),
        kills=int(o[s["kills"]]),
        hideout=_ints(o[s["hideout_gangsters"] : s["hideout_gangsters"] + 4]),
        covered_by=top,
        hideout_attacked=o[s["hideout_attacked"]] > 0.5,
        hideout_target=o[s["hideout_attack_target"]] > 0.5,
        hidden=_ints(o[s["hidden"] : s["hidden"] + 4]),
        hidden_target=o[s["turncoat_target_hidden"]] > 0.5,
        target_slot=target,
        known=_ints(o[s["known_cards"] : s["known_cards"] + C.NUM_CARD_TYPES]),
        businesses=bizs,
    )


def _queue(o: np.ndarray, start: int, observer: int, n: int) -> list[Queued]:
    q = QUEUE_OFFSETS
    out = []
    for k in range(C.QUEUE_LEN):
        e = o[start + k * QF : start + (k + 1) * QF]
        kind = _one_hot(e, q["kind"], 5)
        if kind < 0:
            break
        out.append(Queued(
            kind=C.QUEUE_NAMES[kind + 1],
            player=(observer + _one_hot(e, q["player"], C.MAX_PLAYERS)) % n,
            target=(observer + _one_hot(e, q["target_seat"], C.MAX_PLAYERS)) % n,
            place=int(e[q["target_place"]]) - 1, standing=e[q["standing"]] > 0.5,
            dice=int(e[q["dice"]]), power=int(e[q["power"]]),
        ))  # fmt: skip
    return out


def view(
    state, i: int = 0, viewpoint: int | None = SPECTATOR
) -> tuple[Table, dict[int, list[int]]]:
    """(the public table, the hands shown: {seat: counts per card type}) of game i from
    `viewpoint`: a seat (its observation: its own hand only) or SPECTATOR (every hand)."""
    one = core.take(state, i)
    n = int(one.num_players[0])
    seat = 0 if viewpoint is SPECTATOR else int(viewpoint)
    if not 0 <= seat < n:
        raise ValueError(f"viewpoint must be a seat in 0..{n - 1} or None, got {viewpoint!r}")
    o = core.observe(one, seat)[0]
    table = decode(o, seat)
    table.winners = [q for q in range(n) if one.winners[0, q]]  # the result is public
    table.win_reason = C.WIN_REASONS[int(one.win_reason[0])]
    if viewpoint is SPECTATOR:
        hands = {q: _ints(one.hand[0, q]) for q in range(n)}
    else:
        own = GLOBAL_OFFSETS["hand"][0]
        hands = {seat: _ints(o[own : own + C.NUM_CARD_TYPES])}
    return table, hands
