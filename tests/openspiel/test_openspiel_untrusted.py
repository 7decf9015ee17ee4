"""Serialized OpenSpiel states from outside: `game.deserialize_state` never unpickles, and
every record is replayed through the game's own checks, so a string that would run code and
records that would crash the kernels or load a state of another game are each refused with
one clear ValueError. The records that crashed the interpreter (an abort, a segmentation
fault) run in a subprocess, whose return code says whether it survived."""

import base64
import json
import os
import pickle
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="pyspiel is not installed: pip install -e '.[openspiel]'"
)

import noir_env.openspiel as nos  # noqa: E402 - after the skip


def legacy(fields: dict) -> str:
    """OpenSpiel's own form of a Python game's state: history, move number and the state's
    `__dict__` as a base64 pickle."""
    return "history=\nmove_number=0\n__dict__=" + base64.b64encode(pickle.dumps(fields)).decode()


class RunsCode:
    """Unpickling this runs a shell command (pickle calls os.system)."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_a_state_string_that_would_run_code_is_refused(name, tmp_path):
    marker = tmp_path / "ran"
    game = pyspiel.load_game(name)
    text = legacy({"_length": RunsCode(f"touch {marker}")})
    with pytest.raises(ValueError, match="pickled form .* refused"):
        game.deserialize_state(text)

    # the same string in a pickle of a state, whose pickled form is its serialized text
    from noir_env.openspiel.record import restore_state

    class Forged:
        def __reduce__(self):
            return restore_state, (game, text)

    with pytest.raises(ValueError, match="pickled form .* refused"):
        pickle.loads(pickle.dumps(Forged()))
    assert not marker.exists()


# The attacks on the old pickled form, each in a subprocess: a 9-player record aborted the
# interpreter (double free), a District record of random bytes segfaulted it, the others
# loaded and played (a 6-player state in a 4-player game, a hand count of -100, a decision
# count of -1e9, a batch of two games). Every one must be refused and the process live on.
LEGACY_ATTACKS = """
import base64, os, pickle, sys
import numpy as np, pyspiel
import noir_env.openspiel as nos
from noir_env.game import get_game

def legacy(fields):
    return "history=\\nmove_number=0\\n__dict__=" + base64.b64encode(pickle.dumps(fields)).decode()

def raw(name, players, games=1):
    return np.ndarray.view(get_game(name).init(games, players, seeds=0, ask_all=True), np.ndarray)

def fields(state, **extra):
    return {"_raw": state, "_length": 0, "_digests": [b""] * 6, **extra}

nine = raw("noir", 6); nine["num_players"] = 9
hand = raw("noir", 4); hand["hand"][0, 0, 0] = -100
noise = np.frombuffer(os.urandom(raw("district_noir", 2).nbytes), np.uint8)
cases = {
    "nine players": ("noir", fields(nine)),
    "random bytes": ("district_noir", fields(noise.view(raw("district_noir", 2).dtype))),
    "six players in four": ("noir", fields(raw("noir", 6))),
    "hand -100": ("noir", fields(hand)),
    "length -1e9": ("noir", fields(raw("noir", 4), _length=-10**9)),
    "two games": ("noir", fields(raw("noir", 4, games=2))),
}
for case, (name, data) in cases.items():
    game = pyspiel.load_game(name)
    try:
        state = game.deserialize_state(legacy(data))
        for _ in range(50):  # what the old code did next: play it
            state.observation_tensor(max(state.current_player(), 0))
            state.apply_action(state.legal_actions()[0])
        print(f"{case}: ACCEPTED", flush=True)
    except Exception as err:
        print(f"{case}: {type(err).__name__}: {err}", flush=True)
"""


def test_records_that_crashed_the_interpreter_are_refused():
    run = subprocess.run([sys.executable, "-c", LEGACY_ATTACKS], capture_output=True,
                         text=True, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 6, run.stdout
    for line in lines:
        assert "ValueError: OpenSpiel's pickled form" in line, line


def record(game, change: dict) -> str:
    """A well-formed record of a game dealt with seed 5 and two decisions, then `change`."""
    state = nos.deal(game, 5)
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    data = json.loads(state.serialize())
    data.update(change)
    return json.dumps(data)


NOIR4 = {"max_game_length": 10000, "players": 4, "rng_seed": 0, "rules": "noirburg"}


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"parameters": {**NOIR4, "players": 9}}, "serialized with parameters"),
        ({"parameters": {**NOIR4, "players": 6}}, "this game has"),
        ({"parameters": {**NOIR4, "rules": "original"}}, "load it into the game it came from"),
        ({"game": "district_noir"}, "cannot be loaded into"),
        ({"format": "noir_env.openspiel/0"}, "not a serialized state"),
        ({"state": {"players": [{"hand": -100}]}}, "has the keys"),
        ({"_length": -1e9}, "has the keys"),
        ({"history": [[0, 0, 0, 5], [0, 0, 0, 6]]}, r"history\[0\] = \[0, 0, 0, 5\]"),
        ({"history": [0, 0, 0, 256]}, "chance outcome 256"),
        ({"history": [0, 0, 0, 5, 99999]}, "action 99999"),
        ({"history": [0, 0, 0, 5, -1]}, r"history\[4\] = -1"),
        ({"history": [0, 0, 0, True]}, r"history\[3\] = True"),
        ({"history": [0, 0, 0, 5.0]}, r"history\[3\] = 5.0"),
        ({"history": [0, 0, 0, 10**30]}, "must be an integer in"),
        ({"history": [0] * 10_005}, "at most 10004"),
        ({"history": "0,0,0,5"}, "history must be a list"),
        ({"worlds": [[1, 0, 3]]}, "no re-deal at history length 1"),
        ({"worlds": [[6, 4, 3]]}, r"worlds\[0\]"),
        ({"worlds": [[6, 0, 2**62]]}, r"worlds\[0\]\[2\] = 4611686018427387904"),
        ({"worlds": [[6, 0]]}, r"worlds\[0\]"),
        ({"worlds": [[6, 0, 1], [5, 0, 1]]}, "in the order of the history"),
    ],
)  # fmt: skip
def test_a_hostile_record_is_refused_with_a_clear_error(change, error):
    game = pyspiel.load_game("noir")
    with pytest.raises(ValueError, match=error):
        game.deserialize_state(record(game, change))


def test_an_illegal_move_in_a_record_is_named():
    game = pyspiel.load_game("district_noir")
    state = nos.deal(game, 5)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=rf"history\[4\] = {illegal}: .*illegal action"):
        game.deserialize_state(record(game, {"history": [0, 0, 0, 5, illegal]}))


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (os.urandom(64).hex(), "not a serialized state"),
        ("[" * 100_000 + "]" * 100_000, "at most"),
        ("[" * 4_000, "not a serialized state"),  # nested past Python's recursion limit
        ('{"format": NaN}', "NaN is not a JSON number"),
        ("null", "expected a JSON object"),
        ("", "not a serialized state"),
        (b"history=", "is a str"),
        (None, "is a str"),
    ],
)
def test_random_and_malformed_text_is_refused(text, error):
    game = pyspiel.load_game("district_noir")
    with pytest.raises(ValueError, match=error):
        game.deserialize_state(text)


def test_rng_seed_is_checked():
    """rng_seed picks the block of 2**32 seeds the deal's chance nodes choose from: -1 (a
    time seed in some OpenSpiel games) is refused, as is a value pyspiel cannot convert."""
    with pytest.raises(ValueError, match=r"rng_seed must be an integer in 0\.\.2147483647"):
        pyspiel.load_game("noir", {"rng_seed": -1})
    with pytest.raises(ValueError, match="C\\+\\+ ints"):
        nos.load_game("noir", {"rng_seed": 2**62})
    with pytest.raises(ValueError, match="unknown parameter"):
        nos.load_game("noir", {"seed": 1})
    game = nos.load_game("noir", {"rng_seed": 2**31 - 1, "players": 3})
    assert game.num_players() == 3 and game.get_parameters()["rng_seed"] == 2**31 - 1
