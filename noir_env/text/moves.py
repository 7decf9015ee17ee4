"""The legal moves of a decision as text: each move's stable name (the game's action name,
`Game.action_name`) and a one-line meaning written for the seat that decides, with places
and players named as the board names them ("target:+1:slot3" -> "attack player_2's
Casino (slot 3)").

Meanings read only what the deciding seat may know: the public table, the open window and
that seat's own choices; never another seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import constants as C
from ..core.names import ACTION_NAMES as NOIR_ACTION_NAMES
from ..district import constants as DC
from ..game import Game


@dataclass(frozen=True)
class Move:
    """One legal move: its action id, stable name and one-line meaning."""

    id: int
    name: str
    meaning: str


def legal_moves(game: Game, state, i: int, names: list[str]) -> list[Move]:
    """The legal moves of game i's actor, in action-id order (empty once the game is
    over). `names`: the players' names by seat. A game without meanings here (one added
    later) lists its moves by name alone."""
    ids = np.flatnonzero(game.legal_action_mask(state[i : i + 1])[0])
    describe = _MEANINGS.get(game.name)
    return [
        Move(int(a), game.action_names[a], describe(state[i], int(a), names) if describe else "")
        for a in ids
    ]


# --- District Noir ------------------------------------------------------------------------
def _district_meaning(g, a: int, names: list[str]) -> str:
    if a != DC.A_TAKE:
        return f"put your {DC.CARD_NAMES[a - DC.A_PLAY]} at the end of the line"
    n = int(g.line_n)
    taken = [DC.CARD_NAMES[t] for t in g.line[max(0, n - DC.TAKE_SIZE) : n]]
    return f"take the last {len(taken)} cards of the line: {', '.join(taken)} (once a round)"


# --- NOIR ------------------------------------------------------------------------------------
_END = {
    C.PH_MULLIGAN: "set no more cards aside (and draw as many as you set aside)",
    C.PH_MOVE: "end the Move Gangsters step",
    C.PH_ATTACK: "end the Attack step (attack nothing more)",
    C.PH_DEPLOY: "end the Deploy step",
    C.PH_MOVE_HIDEOUT: "leave your Hideout where it is",
    C.PH_DISCARD: "discard nothing more",
    C.PH_DRAW: "draw no cards",
    C.PH_CONTINUE: "stop at the razed business and leave the Hideout alone",
}
_PLAY = {
    "poker_night": "play a Poker Night: host a game of poker",
    "police": "play a Police: raid a place (its gangsters go into hiding)",
    "police_cancel": "play a Police to cancel the pending attack",
    "bribe": "play a Bribe: call off a Police of this window",
    "driveby": "play a Drive-by on a business",
    "turncoat": "play a Turncoat: take an opponent's gangster into your hand",
}


def _price(coins: int) -> str:
    """'for free', 'for 1 coin', 'for 3 coins' (the log's words)."""
    return "for free" if coins == 0 else f"for {coins} coin{'' if coins == 1 else 's'}"


def _card_words(t: int) -> str:
    """A card type as the log writes it: 'a 3-gangster', 'a Speakeasy', 'a Police'."""
    if t <= C.G4:
        return f"a {t + 1}-gangster"
    if t <= C.B4:
        return f"a {C.BUSINESS_NAMES[t - C.B1]}"
    return "a " + {C.POKER: "Poker Night", C.DRIVEBY: "Drive-by"}.get(t, C.CARD_NAMES[t].title())


def _business(g, q: int, t: int) -> str:
    inc = int(g.biz[q, t])
    return f"{C.BUSINESS_NAMES[inc - 1]} (slot {t})" if inc > 0 else f"slot {t}"


def _own_place(g, p: int, place: str) -> str:
    if place.startswith("slot"):
        return "your " + _business(g, p, int(place[4:]))
    return {"hideout": "your Hideout", "hidden": "your hidden gangsters"}.get(place, place)


def _target(g, q: int, where: str, names: list[str]) -> str:
    if where.startswith("slot"):
        return f"{names[q]}'s " + _business(g, q, int(where[4:]))
    what = {"hideout": "Hideout", "hidden": "hidden gangsters", "attack": "attacking gangsters"}
    return f"{names[q]}'s {what[where]}"


def _police(g, k: int, names: list[str]) -> str:
    """The k-th Police (1-based) of the open window, by who played it."""
    police = [j for j in range(int(g.rq_n)) if g.rq_kind[j] in (C.RQ_KIDNAP, C.RQ_CANCEL)]
    if k - 1 < len(police):
        return f"{names[int(g.rq_player[police[k - 1]])]}'s Police"
    return f"Police number {k}"


def _noir_meaning(g, a: int, names: list[str]) -> str:
    name = NOIR_ACTION_NAMES[a]
    p, phase = int(g.actor), int(g.phase)
    head, _, rest = name.partition(":")
    if name == "pass":
        return "play no reaction card in this window"
    if name == "end":
        return _END.get(phase, "end this step")
    if name == "confirm_attack":
        return "launch the attack with the gangsters chosen so far"
    if name == "continue_into_hideout":
        return "go on from the razed business into the Hideout"
    if name == "discard_away":
        return f"discard your hidden {int(g.sel_a) + 1}-gangster instead of bringing it back"
    if name == "hideout_to_open":
        return "move your Hideout into the open"
    if head == "discard":
        card = _card_words(C.CARD_NAMES.index(rest))
        verb = "set aside" if phase == C.PH_MULLIGAN else "discard"
        return f"{verb} {card} from your hand"
    if head == "draw":
        n = int(rest)
        return f"draw {n} card{'s' if n > 1 else ''} {_price(n - 1)}"
    if head == "deploy":
        t = C.CARD_NAMES.index(rest)
        if t <= C.G4:
            return f"deploy a {t + 1}-gangster {_price(t)}, then choose where it goes"
        inc = t - C.B1 + 1
        return f"open a {C.BUSINESS_NAMES[inc - 1]} (income {inc}) {_price(inc - 1)}"
    if head == "from":
        power, _, src = rest.partition("@")
        what = f"your {power[1:]}-gangster from {_own_place(g, p, src)}"
        return f"add {what} to the attack" if phase == C.PH_ATTACKERS else f"pick up {what}"
    if head == "to":
        return "put it aside (hidden)" if rest == "aside" else f"put it on {_own_place(g, p, rest)}"
    if head == "hideout_under":
        return f"move your Hideout under {_own_place(g, p, rest)}"
    if head == "play":
        return _PLAY[rest]
    if head == "target":
        rel, _, where = rest.partition(":")
        q = (p + int(rel)) % int(g.num_players)
        place = _target(g, q, where, names)
        if phase == C.PH_ATTACK:
            return f"attack {place}"
        return f"aim your {C.PLAY_NAMES[int(g.rt_kind)].replace('_', ' ')} at {place}"
    if head == "power":
        return f"take a {rest}-gangster"
    if head == "bribe":
        return f"bribe {_police(g, int(rest), names)} (the window's Police number {rest})"
    return ""


_MEANINGS = {"noir": _noir_meaning, "district_noir": _district_meaning}
