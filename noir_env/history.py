"""Histories (`env.history` of the AEC env: the seed, the settings and every action of a game,
JSON-ready) and their replay, for every game: the rules as JSON, checking, saving, loading,
and playing a history back (`replay`, `replay_steps`, `play_back`, `print_replay`). The
vector envs write their games in this format too.

A history holds `seed` and `actions` (required), `env` (the AEC env's name, which names the
game: "noir_v2" when absent), `num_players`, `rules`, `max_steps` and `ask_all`. `ask_all`
true (the AEC env's, and the default of a history without it): `actions` holds every
decision presented to an agent, single-action ones included. false (the vector envs' games,
dealt in the core's fast mode): only the real choices; the core took every forced decision
itself, and `max_steps` counts the choices.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ._atomic import atomic_write_text
from ._json_file import read_json_file
from ._shown import shown
from .core.rules import PRESETS, Rules
from .engine.args import as_int
from .engine.registry import get_game
from .views import views_of

if TYPE_CHECKING:
    from .aec import GameAECEnv

# a history's `env` -> the game it is a game of (histories without `env` are NOIR's)
# (noir_v1's histories are NOIR's rules v2: a noirburg game replays the same under rules v3;
# a noirbrough or original one may meet a move that is no longer legal, named as such)
GAME_OF_ENV = {"noir_v2": "noir", "noir_v1": "noir", "district_noir_v0": "district_noir"}
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
        raise ValueError(f"history 'rules' must be a preset name or a dict, got {shown(value)}")
    fields = dict(value)
    if fields.get("money_win_threshold") is not None:
        fields["money_win_threshold"] = tuple(fields["money_win_threshold"])
    if "step_windows" in fields:  # JSON has lists; Rules holds tuples (it is hashable)
        fields["step_windows"] = tuple(fields["step_windows"])
    try:
        return Rules(**fields)
    except TypeError as err:  # an unknown field, or a value of the wrong kind
        raise ValueError(f"history 'rules': {err}") from None


def check_history(history: Any, defaults: dict[str, Any], game: str = "noir") -> dict[str, Any]:
    """The settings of a history of `game`, checked before anything is played: a dict with
    `seed` (int) and `actions` (a list of integer ids), and `num_players`, `max_steps`
    (ints), `rules` and `ask_all` (a bool), each taken from `defaults` where the history
    has none. Raises ValueError naming the key that is missing or wrong (a bool, float or
    string where an int is meant included: "12" is not an action id)."""
    if not isinstance(history, dict):
        raise ValueError(f"a history is a dict, got {type(history).__name__}")
    env = history.get("env", "noir_v2")
    envs = sorted(name for name, of in GAME_OF_ENV.items() if of == game)
    if env not in envs:
        raise ValueError(f"history 'env' is {shown(env)}: not a game of {envs}")
    for key in ("seed", "actions"):
        if key not in history:
            raise ValueError(f"the history has no {shown(key)} (keys: {sorted(history)})")
    out: dict[str, Any] = {"seed": as_int(history["seed"], "history 'seed'")}
    for key in ("num_players", "max_steps"):
        value = history.get(key, defaults[key])
        out[key] = None if value is None else as_int(value, f"history {shown(key)}")
    rules = history.get("rules", defaults["rules"])
    views = views_of(get_game(game))
    out["rules"] = views.rules_from_json(rules) if "rules" in history else rules
    ask_all = history.get("ask_all", defaults["ask_all"])
    if not isinstance(ask_all, bool | np.bool_):
        raise ValueError(f"history 'ask_all' must be true or false, got {shown(ask_all)}")
    out["ask_all"] = bool(ask_all)
    actions = history["actions"]
    if not isinstance(actions, list | tuple | np.ndarray):
        raise ValueError(f"history 'actions' must be a list of action ids, got {shown(actions)}")
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


# --- replay ----------------------------------------------------------------------------------
class Frame(NamedTuple):
    """One step of a replay: the action taken (None for the deal), by whom, the log lines
    it produced and the board after it."""

    index: int  # type: ignore[assignment]  # the step's number (shadows tuple.index)
    agent: str | None
    action: str | None
    log: list[str]
    board: str


class Step(NamedTuple):
    """One step of `replay_steps`: as a Frame, with the env itself instead of a board."""

    index: int  # type: ignore[assignment]  # the step's number (shadows tuple.index)
    agent: str | None
    action: str | None
    log: list[str]
    env: GameAECEnv


def replay(
    history: dict | int,
    actions: list[int] | None = None,
    num_players: int | None = None,
    rules: Any = None,
    observer: str | None = None,
    max_steps: int = 10_000,
    ask_all: bool = True,
    game: str | None = None,
) -> Iterator[Frame]:
    """Play a saved game back: `replay(env.history)` or `replay(seed, actions,
    num_players, rules, max_steps=...)` (NOIR). Yields a Frame for the deal and one after
    each action; the board is shown from the acting agent's seat (or `observer`'s). A
    history records its env's `max_steps`, so a truncated game ends with the truncation's
    log line. A history of the vector envs (`"ask_all": false`) holds only real choices: it
    is played in the core's fast mode, which takes the forced decisions as it did. The
    keywords are the defaults of what a history leaves out (None: the game's own); `game`
    ("noir", ...) refuses a history of another game. Everything is checked before the first
    frame: a ValueError names a missing or wrong key or argument, and an action that is not
    legal where the history plays it names its place in `actions`."""
    e, actions = _dealt(history, actions, num_players, rules, max_steps, ask_all, observer, game)
    return _frames(e, actions, observer)


def play_back(
    history: dict | int,
    actions: list[int] | None = None,
    num_players: int | None = None,
    rules: Any = None,
    max_steps: int = 10_000,
    ask_all: bool = True,
    game: str | None = None,
) -> GameAECEnv:
    """The raw env at the end of a saved game (arguments as `replay`'s): every action of
    the history played, so its `state`, `infos`, `game_log` and scores are the game's."""
    e, actions = _dealt(history, actions, num_players, rules, max_steps, ask_all, None, game)
    for k, a in enumerate(actions):
        _play_recorded(e, k, a)
    return e


def replay_steps(
    history: dict | int,
    actions: list[int] | None = None,
    num_players: int | None = None,
    rules: Any = None,
    max_steps: int = 10_000,
    ask_all: bool = True,
    game: str | None = None,
) -> Iterator[Step]:
    """`replay` with the raw env in each step instead of a board as text: its `state`,
    `picture(observer)` and `board_text(observer)` are the game after the step's action (the
    replay viewer draws them, train/replay.py). The env is the same object in every step,
    played on: copy what you keep (`step.env.state.copy()`)."""
    e, actions = _dealt(history, actions, num_players, rules, max_steps, ask_all, None, game)
    return _steps(e, actions)


def print_replay(history: dict | int, *args, boards: bool = True, **kwargs) -> None:
    """Print a replay: each action, its log lines and (boards=True) the board after it."""
    for frame in replay(history, *args, **kwargs):
        if frame.agent is not None:
            print(f"\n=== step {frame.index}: {frame.agent} plays {frame.action} ===")
        for line in frame.log:
            print(line)
        if boards:
            print(frame.board)


def _dealt(history, actions, num_players, rules, max_steps, ask_all, observer, only=None):
    """(a raw env dealt as the history says, its checked actions); ValueError for a bad
    history or argument."""
    from .aec import GameAECEnv  # the env layer sits above this module's format

    if not isinstance(history, dict):
        if actions is None:
            raise ValueError("replay(seed, actions, ...) needs the actions")
        history = {"seed": history, "actions": actions}
    env = history.get("env", "noir_v2")
    envs = sorted(name for name, of in GAME_OF_ENV.items() if only in (None, of))
    if env not in envs:
        raise ValueError(f"history 'env' is {shown(env)}: not a game of {envs}")
    game = GAME_OF_ENV[env]
    g = get_game(game)
    defaults = {
        "num_players": g.default_players if num_players is None else num_players,
        "rules": g.default_rules if rules is None else rules,
        "max_steps": max_steps,
        "ask_all": ask_all,
    }
    h = check_history(history, defaults, game)
    e = GameAECEnv(game, h["num_players"], h["rules"], max_steps=h["max_steps"])
    if observer is not None and observer not in e.possible_agents:
        raise ValueError(f"observer must be one of {e.possible_agents}, got {shown(observer)}")
    e._ask_all = h["ask_all"]
    e.reset(seed=h["seed"])
    return e, h["actions"]


def _play_recorded(e: GameAECEnv, k: int, a: int) -> str:
    """Play the history's action k (`a`) after the dead steps due; returns the agent that
    took it. ValueError naming k if the game is over or `a` is not legal there."""
    while e.agents and (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(None)
    if not e.agents:
        raise ValueError(f"history 'actions'[{k}]: the game ended before it")
    agent = e.agent_selection
    try:
        e.step(a)
    except ValueError as err:
        err.add_note(f"history 'actions'[{k}] is not legal where the history plays it")
        raise
    return agent


def _steps(e: GameAECEnv, actions: list[int]) -> Iterator[Step]:
    seen = len(e.game_log)
    yield Step(0, None, None, list(e.game_log), e)
    for k, a in enumerate(actions):
        agent = _play_recorded(e, k, a)
        new = e.game_log[seen:]
        seen = len(e.game_log)
        if e.agents and all(e.truncations[x] for x in e.agents):
            new.append(f"The game is truncated after {e.num_steps} decisions (max_steps).")
        yield Step(k + 1, agent, e.game.action_name(a), new, e)


def _frames(e: GameAECEnv, actions: list[int], observer: str | None) -> Iterator[Frame]:
    for s in _steps(e, actions):
        who = observer or (e.agent_selection if e.agents or s.agent is None else s.agent)
        yield Frame(s.index, s.agent, s.action, s.log, e.board_text(who))
