"""The rules card of a prompt: a short summary of a game's rules, for a player who has never
seen the game, per rule set and player count.

    card = rules_card("noir", get_rules("original"), num_players=4)

The card is written once, in the rules documents themselves (section "Rules card" of
docs/RULES.md and docs/DISTRICT_NOIR.md, between `<!-- rules-card: <game> -->` and
`<!-- /rules-card -->`), next to the rules it cites. `python -m noir_env.text.rules_card`
copies those sections into `rules_cards.json` beside this module (the package ships no
docs), and a test fails when the copy differs from the documents, so the card cannot drift
from the rules.

A template line may start with a condition on a `Rules` field, kept only where it holds:
`(if field)`, `(if not field)` or `(if field=value)`; `{field}` is replaced by the field's
value, and `{money_threshold}`, `{total_money}`, `{third}` by the money win, the coins in
play and a third of them rounded up at the game's player count (docs/RULES.md R6.2, R1.2,
R6.3). Rule citations, "(R3.6)", "(DN4.1)", are dropped from the card.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from .._atomic import atomic_write_text

CARDS_FILE = Path(__file__).with_name("rules_cards.json")
DOCS = {"noir": "RULES.md", "district_noir": "DISTRICT_NOIR.md"}  # in the docs folder
_SECTION = re.compile(r"<!-- rules-card: (\w+) -->\n(.*?)\n<!-- /rules-card -->", re.S)
_CONDITION = re.compile(r"^(\s*-\s+)\(if (not )?(\w+)(?:=(\w+))?\)\s*")
_CITATION = re.compile(r"\s*\((?:R|DN)\d[^()]*\)")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def extract(docs: Path) -> dict[str, list[str]]:
    """The card templates of the rules documents in the folder `docs`, by game: the lines
    of each marked section. ValueError when a document has no section for its game, or
    another game's."""
    cards = {}
    for game, filename in DOCS.items():
        text = (docs / filename).read_text(encoding="utf-8")
        found = {name: body for name, body in _SECTION.findall(text)}
        if set(found) != {game}:
            raise ValueError(f"{filename} must hold one rules card, for {game!r}; "
                             f"found {sorted(found) or 'none'}")  # fmt: skip
        cards[game] = found[game].splitlines()
    return cards


@cache
def templates() -> dict[str, tuple[str, ...]]:
    """The shipped card templates by game (`rules_cards.json`)."""
    data = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    return {game: tuple(lines) for game, lines in data.items()}


def rules_card(game: str, rules: Any = None, num_players: int | None = None) -> str:
    """The rules card of `game` (a game name) under `rules` (NOIR: a `Rules`; None for a
    game without rule sets) at `num_players`, from the shipped template (module
    docstring). ValueError for a game without a card, a condition or placeholder that
    `rules` cannot answer."""
    lines = templates().get(game)
    if lines is None:
        raise ValueError(f"no rules card for the game {game!r}; cards: {sorted(templates())}")
    values = _values(rules, num_players)
    out = []
    for line in lines:
        m = _CONDITION.match(line)
        if m:
            indent, negated, field, wanted = m.groups()
            if _holds(rules, field, wanted) == bool(negated):
                continue
            line = indent + line[m.end() :]
        line = _CITATION.sub("", line)
        out.append(_PLACEHOLDER.sub(lambda p: _value(values, p.group(1), game), line))
    return "\n".join(out)


def _values(rules: Any, num_players: int | None) -> dict[str, Any]:
    if rules is None:
        return {}
    values = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
    if num_players is not None:
        from ..core.rules import total_money

        total = int(total_money(num_players))
        values.update(money_threshold=rules.money_threshold(num_players), total_money=total,
                      third=-(-total // 3))  # fmt: skip
    return values


def _value(values: dict[str, Any], name: str, game: str) -> str:
    if name not in values:
        raise ValueError(f"the {game} rules card names {{{name}}}, which is not a rules field "
                         "or a value of the player count")  # fmt: skip
    return str(values[name])


def _holds(rules: Any, field: str, wanted: str | None) -> bool:
    if rules is None or not hasattr(rules, field):
        raise ValueError(f"a rules card line depends on {field!r}, which {rules!r} does not have")
    value = getattr(rules, field)
    return bool(value) if wanted is None else str(value) == wanted


def main(argv: list[str] | None = None) -> int:
    """Write `rules_cards.json` from the rules documents (`--check`: only say whether the
    shipped file is up to date, exit 1 if not)."""
    args = sys.argv[1:] if argv is None else argv
    docs = Path(__file__).resolve().parents[2] / "docs"
    text = json.dumps(extract(docs), indent=1, ensure_ascii=False) + "\n"
    current = CARDS_FILE.read_text(encoding="utf-8") if CARDS_FILE.exists() else ""
    if args == ["--check"]:
        print("up to date" if text == current else f"{CARDS_FILE.name} differs from the docs")
        return 0 if text == current else 1
    if args:
        print("usage: python -m noir_env.text.rules_card [--check]", file=sys.stderr)
        return 2
    atomic_write_text(CARDS_FILE, text)
    print(f"wrote {CARDS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
