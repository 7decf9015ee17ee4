"""The rules card of text prompts: written once in the rules documents, shipped as a copy
that must equal them, rendered per rule set and player count."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from noir_env.core.rules import PRESETS, Rules
from noir_env.game import get_game
from noir_env.text import TextView, rules_card
from noir_env.text.rules_card import CARDS_FILE, extract

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_card_is_the_docs_card():
    """Edit docs/RULES.md or docs/DISTRICT_NOIR.md's "Rules card", then run
    `python -m noir_env.text.rules_card` to ship it."""
    shipped = json.loads(CARDS_FILE.read_text(encoding="utf-8"))
    assert shipped == extract(ROOT / "docs"), "run: python -m noir_env.text.rules_card"
    proc = subprocess.run([sys.executable, "-m", "noir_env.text.rules_card", "--check"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.strip() == "up to date", proc.stdout


def test_the_card_cites_rules_that_exist():
    for game, doc in (("noir", "RULES.md"), ("district_noir", "DISTRICT_NOIR.md")):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        cited = set(
            re.findall(r"\b((?:R|DN)\d+(?:\.\d+)?)\b", "\n".join(extract(ROOT / "docs")[game]))
        )
        assert cited, game
        for rule in cited:
            assert re.search(rf"\*\*{re.escape(rule)}\b", text), (game, rule)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_preset_and_player_count_renders(preset, players):
    rules = PRESETS[preset]
    card = rules_card("noir", rules, players)
    assert "{" not in card and "(if " not in card and not re.search(r"\((?:R|DN)\d", card)
    assert 250 <= len(card.split()) <= 450  # short: it rides in every prompt
    money = rules.money_threshold(players)
    assert f"at least {money} of the {20 + 10 * players} coins" in card
    assert f"{rules.countdown_tokens} turns" in card
    for words in ("Police", "Bribe", "Drive-by", "Turncoat", "Poker Night", "Hideout"):
        assert words in card


def test_cards_follow_the_rules_fields():
    burg, orig = (
        rules_card("noir", PRESETS["noirburg"], 4),
        rules_card("noir", PRESETS["original"], 4),
    )
    assert "eliminating two players" in burg and "eliminating two players" not in orig
    assert "first turn has only Deploy" in burg and "first turn" not in orig
    assert "must fall first" in orig and "must fall first" not in burg
    assert "attack of at least its gangsters'" in burg and "more than its gangsters'" in orig
    custom = rules_card("noir", Rules(name="custom", war_win=False, countdown_tokens=9), 3)
    assert "Countdown** of 9 turns" in custom and "eliminating two players" not in custom
    district = rules_card("district_noir")
    assert "all three buildings wins at once" in district


def test_prompts_carry_the_card_of_their_rules():
    for preset in PRESETS:
        state = get_game("noir").init(1, 5, preset, seeds=[1], ask_all=True)
        prompt = TextView("noir").prompt(state, 0)
        assert f"({preset} rules)" in prompt
        assert rules_card("noir", PRESETS[preset], 5) in prompt
        assert rules_card("noir", PRESETS[preset], 5) not in TextView(
            "noir", rules_card=False
        ).prompt(state, 0)
    state = get_game("district_noir").init(1, 2, seeds=[1])
    assert rules_card("district_noir") in TextView("district_noir").intro(state, 0)


def test_card_errors_name_what_is_wrong():
    with pytest.raises(ValueError, match="no rules card for the game 'chess'"):
        rules_card("chess")
    with pytest.raises(ValueError, match="depends on 'step_order'"):
        rules_card("noir", None, 4)
