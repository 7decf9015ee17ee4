"""District Noir's `init` checks its seeds as NOIR's does (noir_env/core/args.py): integers
that fit int64, or a ValueError / TypeError naming them; a seed of 2**64 in a District history
made `train.replay` print an OverflowError traceback."""

from __future__ import annotations

import json

import numpy as np
import pytest

from noir_env import district
from train import replay as replay_cli


@pytest.mark.parametrize(
    "seeds, error, says",
    [
        (2**64, ValueError, "seeds must be in"),
        (2**63 - 1, ValueError, "seeds must be in"),  # the second game's seed overflows
        ([1, 2**63], ValueError, "seeds must be in"),
        (2.7, TypeError, "seeds must be an integer"),
        (True, TypeError, "seeds must be an integer"),
        ("3", TypeError, "seeds must be an integer"),
        (np.array([1.5, 2.5]), TypeError, "seeds must hold integers"),
        ([1, 2, 3], ValueError, "seeds must be an int or 2 ints"),
    ],
)
def test_seeds_that_are_not_int64_integers_are_refused(seeds, error, says):
    with pytest.raises(error, match=says):
        district.init(2, seeds=seeds)


def test_seeds_that_fit_deal_as_before():
    assert (district.init(3, seeds=5) == district.init(3, seeds=np.array([5, 6, 7]))).all()
    assert district.init(1, seeds=-(2**63)).shape == (1,)


def test_a_district_history_with_a_huge_seed_is_one_line_in_train_replay(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"env": "district_noir_v0", "seed": 2**64, "actions": [13]}))
    with pytest.raises(SystemExit) as exit_info:
        replay_cli.main([str(path)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and len(err.strip().splitlines()) == 1
    assert "seed must be in 0..2**63-1" in err  # the env's seed check, as NOIR's
