"""An opponent mix's probabilities are real numbers (not the string "0.5", not a bool, not
None), finite, >= 0, with a positive finite sum: anything else is a ValueError naming them
(noir_env/vector/opponents.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from noir_env.vector import make_vector_env
from noir_env.vector.opponents import resolve


@pytest.mark.parametrize(
    "probs, says",
    [
        (["0.5", 0.5], "must be numbers"),
        ([True, 0.5], "must be numbers"),
        ([None, 1.0], "must be numbers"),
        ([b"1", 1.0], "must be numbers"),
        ([1j, 1.0], "must be numbers"),
        ([math.nan, 1.0], "finite numbers >= 0"),
        ([math.inf, 1.0], "finite numbers >= 0"),
        ([-0.5, 1.0], "finite numbers >= 0"),
        ([0, 0.0], "a positive, finite sum"),
        ([1e308, 1e308], "a positive, finite sum"),
    ],
)
def test_probabilities_that_are_not_real_numbers_are_refused(probs, says):
    with pytest.raises(ValueError, match=says):
        resolve(dict(zip(["random", "heuristic"], probs, strict=True)))
    with pytest.raises(ValueError, match=says):
        resolve(list(zip(["random", "heuristic"], probs, strict=True)))


def test_an_env_refuses_them_too():
    with pytest.raises(ValueError, match="must be numbers"):
        make_vector_env(2, opponents={"random": "0.5"}, seed=0)


def test_numbers_of_every_kind_are_shares():
    mix = resolve({"random": np.float32(1), "heuristic": np.int64(3)})
    assert mix.probs.tolist() == [0.25, 0.75]
    assert resolve([("random", 2), ("heuristic", 0)]).probs.tolist() == [1.0, 0.0]
