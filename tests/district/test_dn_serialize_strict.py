"""District Noir's `state_from_dict` is as strict as NOIR's (noir_env/district/serialize.py
reads with noir_env/core/serialize.py's helpers): an unknown key at any level is refused, an
int is an int (not a bool, a float or a string), every value is range-checked, and whatever is
accepted is a valid position. A sweep puts hostile values at every key of a real position's
dict form: each is refused with a ValueError or gives a valid position, never another
exception."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from noir_env import district
from noir_env.district.validate import check_invariants


def _position() -> dict:
    """The dict form of a game a few actions in (a line, a collection, both turns taken)."""
    s = district.init(1, seeds=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        legal = np.flatnonzero(district.legal_action_mask(s)[0])
        district.step(s, np.array([rng.choice(legal)]))
    return district.state_to_dict(s)


@pytest.mark.parametrize(
    "edit, says",
    [
        (lambda d: d.update(stpes=99), r"the state dict: unknown keys \['stpes'\]"),
        (lambda d: d["players"][1].update(hnad={}), r"players\[1\]: unknown keys \['hnad'\]"),
        (lambda d: d["result"].update(winners=[0]), r"result: unknown keys \['winners'\]"),
        (lambda d: d.update(rng=1.5), "rng .*=1.5: must be an int"),
        (lambda d: d.update(rng=True), "rng .*=True: must be an int"),
        (lambda d: d.update(rng=-1), "rng .*=-1: must be in 1..18446744073709551615"),
        (lambda d: d.update(rng=2**64), "rng .*: must be in 1.."),
        (lambda d: d.update(rng="-0x5"), "rng .*=-5: must be in 1.."),
        (lambda d: d.update(rng=None), "rng .*=None: must be an int"),
        (lambda d: d.update(round=True), "round=True: must be an int"),
        (lambda d: d.update(round=1.0), "round=1.0: must be an int"),
        (lambda d: d.update(steps="3"), "steps='3': must be an int"),
        (lambda d: d.update(actor=False), "actor=False: must be an int"),
        (lambda d: d.update(phase=0), "phase: 0 is not one of"),
        (lambda d: d["players"][0].update(actions=2.0), r"\].actions=2.0: must be an int"),
        (lambda d: d["players"][0].update(taken=None), r"players\[0\].taken=None: must be true"),
        (lambda d: d["players"][0].update(hand={"gang_5": True}), "gang_5=True: must be an int"),
        (lambda d: d["players"][0].update(hand={1: 1}), r"hand: unknown card 1"),
        (lambda d: d["players"][0].update(collection=[]), r"collection=\[\]: must be a dict"),
        (lambda d: d.update(line="gang_5"), "line='gang_5': must be a list"),
        (lambda d: d.update(line=[["gang_5"]]), r"line\[0\]: \['gang_5'\] is not one of"),
        (lambda d: d.update(deck=["gang_5"] * 43), "deck=.*: must be a list of at most 42"),
        (lambda d: d.update(result={"winner": True}), r"result.winner .*=True: must be an int"),
        (lambda d: d.update(result={"winner": 0.0}), r"result.winner .*=0.0: must be an int"),
        (lambda d: d.update(result=[]), r"result=\[\]: must be a dict"),
    ],
)
def test_what_noir_refuses_district_refuses(edit, says):
    d = _position()
    edit(d)
    with pytest.raises(ValueError, match=says):
        district.state_from_dict(d)


HOSTILE = [1.5, math.nan, math.inf, True, False, None, "1", "", [], {}, [1], -1, 2**64, 10**30,
           "x" * 10_000, {"gang_5": 1}, ["gang_5"]]  # fmt: skip


def _leaves(d, path=()):
    """(path, value) of every key at every level of a dict form (list entries included)."""
    items = d.items() if isinstance(d, dict) else enumerate(d)
    for key, value in items:
        yield (*path, key), value
        if isinstance(value, dict | list) and value:
            yield from _leaves(value, (*path, key))


def _set(d, path, value):
    for key in path[:-1]:
        d = d[key]
    d[path[-1]] = value


def test_hostile_values_at_every_key_are_refused_or_valid():
    base = _position()
    tried = refused = 0
    for path, old in list(_leaves(base)):
        for value in HOSTILE:
            d = copy.deepcopy(base)
            _set(d, path, value)
            tried += 1
            try:
                s = district.state_from_dict(d)
            except ValueError:
                refused += 1
                continue
            assert check_invariants(s) == [], (path, value)
            # an accepted value is one of the kind the key holds, never a converted one
            assert type(value) is type(old) or old is None or value is None, (path, value)
    assert tried > 1000 and refused > 0.9 * tried
