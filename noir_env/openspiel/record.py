"""The serialized form of an OpenSpiel state: plain data, replayed move by move.

    {"format": "noir_env.openspiel/1", "game": "noir",
     "parameters": {"max_game_length": 10000, "players": 3, "rng_seed": 0, "rules": "noirburg"},
     "history": [0, 0, 0, 7, 173, ...], "worlds": [[41, 2, 123456789]]}

`history` is OpenSpiel's: the deal's chance outcomes, then every decision; `worlds` the
re-deals of `resample_from_infostate` ([history length, seat, seed]). A game is a function
of its chance outcomes and its actions, so the state is rebuilt by replaying them on a new
game: each one passes the same checks as a live `apply_action` (the core's legality
check), so no record, however it was made, gives a state that play could not reach, and
nothing in it is ever unpickled or executed. OpenSpiel's own form for Python games (the
pyspiel `history=` / `__dict__=<pickle>` text) is refused: unpickling it could run code.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pyspiel

from .._json_file import parse_json
from .._shown import shown
from .deal import DEAL_NODES, WORLD_SEEDS

if TYPE_CHECKING:
    from .game import SpielGame
    from .state import SpielState

FORMAT = "noir_env.openspiel/1"
KEYS = ("format", "game", "parameters", "history", "worlds")
MAX_ID = 1_000_000  # above every action id and chance outcome of our games


def state_to_text(state: SpielState) -> str:
    """`state` as one line of JSON (module docstring)."""
    game = state.get_game()
    record = {
        "format": FORMAT,
        "game": game.core_game.name,
        "parameters": dict(sorted(game.get_parameters().items())),
        "history": [int(a) for a in state.history()],
        "worlds": [list(w) for w in state._worlds],
    }
    return json.dumps(record, separators=(",", ":"))


def restore_state(game: Any, text: str) -> SpielState:
    """The state a pickle holds (`SpielState.__reduce__`): `game.deserialize_state(text)`."""
    if not isinstance(game, pyspiel.Game) or not hasattr(game, "core_game"):  # not one of ours
        raise ValueError(f"not a noir_env OpenSpiel game: {type(game).__name__}")
    return game.deserialize_state(text)


def state_from_text(game: SpielGame, text: Any) -> SpielState:
    """The state `text` (from `state_to_text`) describes, replayed on `game`; ValueError
    naming what is wrong for anything else, `game`'s parameters differing included."""
    record = _parse(game, text)
    history, worlds = record["history"], record["worlds"]
    state = game.new_initial_state()
    pending = list(worlds)
    for i in range(len(history) + 1):
        while pending and pending[0][0] == i:
            _, seat, seed = pending.pop(0)
            if state.is_chance_node() or state.is_terminal():
                raise ValueError(f"worlds: no re-deal at history length {i} (not a decision)")
            state._redeal(seat, seed)
        if i < len(history):
            try:
                state.apply_action(history[i])
            except (ValueError, pyspiel.SpielError) as err:
                raise ValueError(f"history[{i}] = {history[i]}: {err}") from None
    return state


def _parse(game: SpielGame, text: Any) -> dict[str, Any]:
    """The record's fields, each checked against `game` (types, bounds, parameters)."""
    if not isinstance(text, str):
        raise ValueError(f"a serialized state is a str, got {type(text).__name__}")
    if text.startswith("history="):
        raise ValueError(
            "OpenSpiel's pickled form of a Python game's state is refused (unpickling it "
            "could run code): load only what state.serialize() wrote"
        )
    most = DEAL_NODES + game.max_length  # history entries a game can have
    limit = 1024 + 64 * (most + 1)
    if len(text) > limit:
        raise ValueError(f"a serialized state of {game} has at most {limit} characters, "
                         f"got {len(text)}")  # fmt: skip
    try:
        record = parse_json(text)  # NaN and Infinity refused, nesting bounded
    except ValueError as err:
        raise ValueError(f"not a serialized state (expected {FORMAT} JSON): {err}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a serialized state: expected a JSON object with format {FORMAT!r}")
    if sorted(record) != sorted(KEYS):
        raise ValueError(f"a serialized state has the keys {list(KEYS)}, got {sorted(record)}")
    if record["game"] != game.core_game.name:
        raise ValueError(f"a state of {shown(record['game'], 40)} cannot be loaded into {game}")
    expected = dict(sorted(game.get_parameters().items()))
    if record["parameters"] != expected:
        raise ValueError(
            f"the state was serialized with parameters {shown(record['parameters'], 200)}, this "
            f"game has {expected}: load it into the game it came from"
        )
    history = _int_list(record["history"], "history", most, MAX_ID)
    worlds = record["worlds"]
    if not isinstance(worlds, list) or len(worlds) > len(history) + 1:
        raise ValueError(f"worlds must be a list of at most {len(history) + 1} entries")
    bounds = (len(history), game.num_seats - 1, WORLD_SEEDS - 1)
    for k, world in enumerate(worlds):
        what = f"worlds[{k}]"
        w = _int_list(world, what, 3, WORLD_SEEDS - 1)
        if len(w) != 3 or any(not 0 <= x <= hi for x, hi in zip(w, bounds, strict=True)):
            raise ValueError(f"{what} = {shown(world)}: must be [history length 0..{bounds[0]}, "
                             f"seat 0..{bounds[1]}, seed 0..{bounds[2]}]")  # fmt: skip
        if k and w[0] < worlds[k - 1][0]:
            raise ValueError(f"{what}: re-deals must be in the order of the history")
    return record


def _int_list(value: Any, what: str, most: int, hi: int) -> list[int]:
    """`value` if it is a list of at most `most` integers in 0..hi (bools are not)."""
    if not isinstance(value, list) or len(value) > most:
        raise ValueError(f"{what} must be a list of at most {most} integers, got {shown(value)}")
    for i, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= hi:
            raise ValueError(f"{what}[{i}] = {shown(x, 40)}: must be an integer in 0..{hi}")
    return value
