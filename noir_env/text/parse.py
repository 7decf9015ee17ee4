"""From a text reply to an action: the move it chooses, by this grammar.

Terms:
- A *name* is a run of the characters of action names (letters, digits, `_ : + @ -`), with
  `:` and `-` stripped from its ends; it *names* a move when it equals a move's stable name
  (draw:1 is never found inside draw:12). Names of the game's other actions are known too,
  so that an illegal move is told from prose.
- A *number* is a text that holds only a move's number in the prompt's list, optionally
  after a word `move`, `choice`, `option`, `action`, `number` or `#`, with punctuation
  around it ("3", "Move 3.", "#2").
- An *answer mark* is a bracketed group `[...]` or an *Answer line*: the word `answer`
  followed by `:` or `is` ("Answer: 2", "Final Answer: [3]", "**Final answer:** end",
  "my answer is draw:2"), whose text is the rest of its line, or the next non-empty line
  if that rest is empty. A mark *holds a choice* when its text is a number or names an
  action (legal or not).

The reply's choice, in this order:
1. The answer mark that holds a choice and begins last in the reply: its number, else the
   first action it names.
   What it chooses is the reply's move, legal or not: an illegal move there makes the
   reply invalid, whatever else the reply names.
2. Else, when the whole reply is a number: that move.
3. Else the last action named anywhere in the reply (a model that reasons in prose names
   its choice last); illegal makes the reply invalid.
4. Else the reply is invalid: it names no move.

So "I think about it. [3]", "I pick [2]", "Final Answer: 2" and "Answer: [3]" choose by the
mark, prose numbers ("I have 3 coins") are never a choice, and an illegal move is never
swapped for a legal one named elsewhere. Only the last `MAX_REPLY_CHARS` characters of a
reply are read (the answer comes last), and a number of more than `MAX_NUMBER_DIGITS`
digits is refused without being converted, so any reply is parsed in bounded time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .moves import Move

MAX_REPLY_CHARS = 20_000  # the tail of a reply that is read: room for a long reasoning
MAX_NUMBER_DIGITS = 6  # a longer number is no move's number: refused without int()


class InvalidReply(ValueError):
    """A reply that names no legal move; the message lists the legal moves."""


_NAME = re.compile(r"[\w:+@-]+")
_BRACKETED = re.compile(r"\[([^\[\]\n]*)\]")
_ANSWER = re.compile(r"\banswer\b[*_\s]*(?::|\bis\b)[*_:\s]*?([^\n]*)", re.I)
_NUMBER_WORDS = r"^[\W_]*(?:(?:move|choice|option|action|number)\b[\W_]*|#\s*)?(\d+)"
_NUMBER_ONLY = re.compile(_NUMBER_WORDS + r"[\W_]*$", re.I)  # "3", "[Move 3.]"
_NUMBER_FIRST = re.compile(_NUMBER_WORDS + r"(?!\w)", re.I)  # "3 (end the step)"


def parse_reply(reply: str, moves: Sequence[Move], all_names: Sequence[str] = ()) -> int:
    """The action id of the legal move `reply` chooses (the module docstring's grammar).
    `moves`: the legal moves as the prompt listed them (numbered from 1); `all_names`:
    every action name of the game, to tell an illegal move from prose. Raises InvalidReply
    naming what is wrong and listing the legal moves."""
    if not isinstance(reply, str):
        raise InvalidReply(f"a reply is a string, got {type(reply).__name__}; {_legal(moves)}")
    if not moves:
        raise InvalidReply("there is no legal move: the game is over")
    text = _tail(reply)
    known = set(all_names) | {m.name for m in moves}
    choice = None
    for number_pattern, mark in reversed(_answer_marks(text)):
        choice = _number(mark, number_pattern) or _first_name(mark, known)
        if choice is not None:
            break
    if choice is None:
        choice = _number(text, _NUMBER_ONLY)
    if choice is None:
        named = _names(text, known)
        choice = Choice(name=named[-1]) if named else None
    if choice is None:
        shown = reply.strip().replace("\n", " ")
        if len(shown) > 80:  # a long reply's end: where its answer would be
            shown = "..." + shown[-77:]
        raise InvalidReply(f"the reply {shown!r} names no legal move; {_legal(moves)}")
    return choice.action(moves)


@dataclass(frozen=True)
class Choice:
    """What a reply chooses: a move by its number's digits in the list, or by name."""

    digits: str = ""
    name: str = ""

    def action(self, moves: Sequence[Move]) -> int:
        """The action id of the chosen move, or InvalidReply: not in the list, or not legal."""
        if self.digits:
            if len(self.digits) > MAX_NUMBER_DIGITS:
                raise InvalidReply(f"there is no move number {self.digits[:8]}... "
                                   f"({len(self.digits)} digits): {_legal(moves)}")  # fmt: skip
            k = int(self.digits)
            if 1 <= k <= len(moves):
                return moves[k - 1].id
            raise InvalidReply(f"there is no move number {k}: {_legal(moves)}")
        for m in moves:
            if m.name == self.name:
                return m.id
        raise InvalidReply(f"{self.name!r} is not a legal move now; {_legal(moves)}")


def _tail(reply: str) -> str:
    """The last MAX_REPLY_CHARS characters of `reply`, from the first whole word on (a
    name cut in two must not read as another one)."""
    if len(reply) <= MAX_REPLY_CHARS:
        return reply
    tail = reply[-MAX_REPLY_CHARS:]
    cut = re.search(r"[^\w:+@-]", tail)
    return tail[cut.start() :] if cut else ""


def _answer_marks(text: str) -> list[tuple[re.Pattern, str]]:
    """The reply's answer marks in the order they begin in it, each as (the pattern of the
    number it may choose by, its text): a bracket's whole text is a number, an Answer
    line's text may begin with one ("Answer: 3 (deploy the gangster)")."""
    marks = [(m.start(), _NUMBER_ONLY, m.group(1)) for m in _BRACKETED.finditer(text)]
    for m in _ANSWER.finditer(text):
        rest = m.group(1)
        if not rest.strip():  # the answer on the next non-empty line
            rest = text[m.end() :].lstrip("\n\r\t ").split("\n", 1)[0]
        marks.append((m.start(), _NUMBER_FIRST, rest))
    marks.sort(key=lambda mark: mark[0])
    return [(pattern, t) for _, pattern, t in marks]


def _number(text: str, pattern: re.Pattern) -> Choice | None:
    m = pattern.match(text.strip())
    return Choice(digits=m.group(1)) if m else None


def _names(text: str, known: set[str]) -> list[str]:
    return [t for t in (t.strip(":-") for t in _NAME.findall(text)) if t in known]


def _first_name(text: str, known: set[str]) -> Choice | None:
    named = _names(text, known)
    return Choice(name=named[0]) if named else None


def _legal(moves: Sequence[Move]) -> str:
    listed = ", ".join(f"{k}. {m.name}" for k, m in enumerate(moves, start=1))
    return f"legal moves: {listed}"
