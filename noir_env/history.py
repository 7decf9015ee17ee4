"""The history format of `noir_v1` (`env.history`: the seed, the settings and every action of a
game, JSON-ready): the rules as JSON, saving and loading. `noir_v1.replay` plays a history back;
the vector engine writes its games in this format too."""

from __future__ import annotations

import dataclasses
import json
import os

from .core.rules import PRESETS, Rules


def rules_to_json(rules: Rules) -> str | dict:
    """The rules as JSON: a preset's name, or every field of custom rules."""
    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    return dataclasses.asdict(rules)


def rules_from_json(value) -> str | Rules:
    """The rules `rules_to_json` wrote: a preset name, or a `Rules`."""
    if isinstance(value, str):
        return value
    fields = dict(value)
    if fields.get("money_win_threshold") is not None:
        fields["money_win_threshold"] = tuple(fields["money_win_threshold"])
    if "step_windows" in fields:  # JSON has lists; Rules holds tuples (it is hashable)
        fields["step_windows"] = tuple(fields["step_windows"])
    return Rules(**fields)


def save_history(history: dict, path: str | os.PathLike) -> None:
    """Write a game's history (`env.history`) as JSON."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(history, f)


def load_history(path: str | os.PathLike) -> dict:
    """Read a history written by `save_history`."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)
