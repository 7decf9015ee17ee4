"""The history format of `noir_v1` (`env.history`: the seed, the settings and every action of a
game, JSON-ready): the rules as JSON, checking, saving and loading. `noir_v1.replay` plays a
history back; the vector engine writes its games in this format too.

A history holds `seed` and `actions` (required), `env`, `num_players`, `rules`, `max_steps`
and `ask_all`. `ask_all` true (the AEC env's, and the default of a history without it):
`actions` holds every decision presented to an agent, single-action ones included. false
(the vector envs' games, dealt in the core's fast mode): only the real choices; the core took
every forced decision itself, and `max_steps` counts the choices.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any

import numpy as np

from ._atomic import atomic_write_text
from ._json_file import read_json_file
from .core.args import as_int
from .core.rules import PRESETS, Rules

NOIR_ENVS = ("noir_v1", "noir_v0")  # the `env` of the histories noir_v1.replay plays
MAX_HISTORY_BYTES = 16 << 20  # a game is a few thousand action ids: a few kB


def rules_to_json(rules: Rules) -> str | dict:
    """The rules as JSON: a preset's name, or every field of custom rules."""
    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    return dataclasses.asdict(rules)


def rules_from_json(value) -> str | Rules:
    """The rules `rules_to_json` wrote: a preset name, or a `Rules`."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"history 'rules' must be a preset name or a dict, got {value!r}")
    fields = dict(value)
    if fields.get("money_win_threshold") is not None:
        fields["money_win_threshold"] = tuple(fields["money_win_threshold"])
    if "step_windows" in fields:  # JSON has lists; Rules holds tuples (it is hashable)
        fields["step_windows"] = tuple(fields["step_windows"])
    try:
        return Rules(**fields)
    except TypeError as err:  # an unknown field, or a value of the wrong kind
        raise ValueError(f"history 'rules': {err}") from None


def check_history(history: Any, defaults: dict[str, Any]) -> dict[str, Any]:
    """The settings of a NOIR history, checked before anything is played: a dict with
    `seed` (int) and `actions` (a list of integer ids), and `num_players`, `max_steps`
    (ints), `rules` and `ask_all` (a bool), each taken from `defaults` where the history
    has none. Raises ValueError naming the key that is missing or wrong (a bool, float or
    string where an int is meant included: "12" is not an action id)."""
    if not isinstance(history, dict):
        raise ValueError(f"a history is a dict, got {type(history).__name__}")
    env = history.get("env", NOIR_ENVS[0])
    if env not in NOIR_ENVS:
        raise ValueError(f"history 'env' is {env!r}: not a NOIR game ({', '.join(NOIR_ENVS)})")
    for key in ("seed", "actions"):
        if key not in history:
            raise ValueError(f"the history has no {key!r} (keys: {sorted(history)})")
    out = {"seed": as_int(history["seed"], "history 'seed'")}
    for key in ("num_players", "max_steps"):
        out[key] = as_int(history.get(key, defaults[key]), f"history {key!r}")
    out["rules"] = rules_from_json(history["rules"]) if "rules" in history else defaults["rules"]
    ask_all = history.get("ask_all", defaults["ask_all"])
    if not isinstance(ask_all, bool | np.bool_):
        raise ValueError(f"history 'ask_all' must be true or false, got {ask_all!r}")
    out["ask_all"] = bool(ask_all)
    actions = history["actions"]
    if not isinstance(actions, list | tuple | np.ndarray):
        raise ValueError(f"history 'actions' must be a list of action ids, got {actions!r}")
    out["actions"] = [as_int(a, f"history 'actions'[{k}]") for k, a in enumerate(actions)]
    return out


def save_history(history: dict, path: str | os.PathLike) -> None:
    """Write a game's history (`env.history`) as JSON, atomically (`noir_env._atomic`)."""
    atomic_write_text(path, json.dumps(history))


def load_history(path: str | os.PathLike) -> Any:
    """Read a history written by `save_history` (its JSON value: `check_history` checks
    it). ValueError naming the file if it is missing, larger than `MAX_HISTORY_BYTES`, or
    not JSON (nesting bounded: `noir_env._json_file`)."""
    return read_json_file(path, "game history", MAX_HISTORY_BYTES)
