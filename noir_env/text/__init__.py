"""Text for language-model players: prompts of any seat's decision and the move a reply
names, over the game protocol (`noir_env.game`), for NOIR and District Noir. Pure Python:
no extra is needed (`noir_env.textarena` puts the games in TextArena, behind its extra).

    from noir_env.text import TextView

    view = TextView("noir")
    prompt = view.prompt(state, i)          # game i of a batch, for the seat to act
    action = view.parse(reply, state, i)    # the move the reply chooses (`parse`'s grammar)
    view.record(state, i, action)           # then step the game

A prompt shows the game's rules in brief (`rules_card`, written in the rules documents),
the public table and the seat's own hand (never another seat's), what happened since the
seat's last decision (sentences of the game log), the phase and what is being decided, and
the legal moves by stable name with one-line meanings (`view`). `InvalidMovePolicy` asks
again after a reply that names no legal move, then falls back, warning when a player's
fallback rate passes a threshold (`policy`); `agents.TextAgent(fn)` plays any
`fn(prompt) -> str` through the tournament. docs/text.md shows it all.
"""

from .moves import Move, legal_moves
from .parse import InvalidReply, parse_reply
from .policy import FALLBACKS, FallbackWarning, InvalidMovePolicy, TextCounts
from .rules_card import rules_card
from .view import TextView

__all__ = [
    "FALLBACKS",
    "FallbackWarning",
    "InvalidMovePolicy",
    "InvalidReply",
    "Move",
    "TextCounts",
    "TextView",
    "legal_moves",
    "parse_reply",
    "rules_card",
]
