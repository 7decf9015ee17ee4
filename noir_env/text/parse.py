"""From a text reply to an action: the legal move it names.

A reply chooses a move by its stable name anywhere in it ("I'll attack: target:+1:hideout.")
or by its number in the prompt's list ("3", "[3]", "Move 3"). A name counts only as a whole
word of the reply (draw:1 is not found inside draw:12). When the reply names several legal
moves, the one in square brackets wins (TextArena's answer format: "[pass]"), else the
last one named: a model that reasons before it answers names its choice last. A number
counts only when the reply holds nothing else but a word or two around it, so the numbers
of an argument ("I have 3 coins") are never taken for a choice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .moves import Move


class InvalidReply(ValueError):
    """A reply that names no legal move; the message lists the legal moves."""


# a move name: word characters and ':' '+' '@' '-' (the action names' alphabet)
_TOKEN = re.compile(r"[\w:+@-]+")
_BRACKETED = re.compile(r"\[([^\[\]]*)\]")
_NUMBER_ONLY = re.compile(r"^\W*(?:(?:move|choice|option|action|number)\W*)?(\d+)\W*$", re.I)


def parse_reply(reply: str, moves: Sequence[Move], all_names: Sequence[str] = ()) -> int:
    """The action id of the legal move `reply` chooses (module docstring). `moves`: the
    legal moves as the prompt listed them (numbered from 1); `all_names`: every action name
    of the game, to tell an illegal move from gibberish. Raises InvalidReply naming what is
    wrong and listing the legal moves."""
    if not isinstance(reply, str):
        raise InvalidReply(f"a reply is a string, got {type(reply).__name__}; {_legal(moves)}")
    if not moves:
        raise InvalidReply("there is no legal move: the game is over")
    by_name = {m.name: m.id for m in moves}
    for text in [*reversed(_BRACKETED.findall(reply)), reply]:  # brackets first
        named = [t.strip(":-") for t in _TOKEN.findall(text)]
        legal = [t for t in named if t in by_name]
        if legal:
            return by_name[legal[-1]]
    number = _NUMBER_ONLY.match(reply.strip())
    if number:
        k = int(number.group(1))
        if 1 <= k <= len(moves):
            return moves[k - 1].id
        raise InvalidReply(f"there is no move number {k}: {_legal(moves)}")
    known = set(all_names)
    illegal = [t for t in (t.strip(":-") for t in _TOKEN.findall(reply)) if t in known]
    if illegal:
        raise InvalidReply(f"{illegal[-1]!r} is not a legal move now; {_legal(moves)}")
    shown = reply.strip().replace("\n", " ")
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise InvalidReply(f"the reply {shown!r} names no legal move; {_legal(moves)}")


def _legal(moves: Sequence[Move]) -> str:
    listed = ", ".join(f"{k}. {m.name}" for k, m in enumerate(moves, start=1))
    return f"legal moves: {listed}"
