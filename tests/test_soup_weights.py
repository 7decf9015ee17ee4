"""train.soup's weights are checked as a whole: real, finite, positive numbers whose sum is
finite too (`--weights 1e308,1e308` overflowed to an all-zero policy), turned into shares
without overflow or underflow."""

from __future__ import annotations

import math

import pytest
import torch
from test_soup import _write

from train import soup as soup_cli
from train.soup import mixing_shares


@pytest.mark.parametrize(
    "weights, says",
    [
        ("1e308,1e308", "their sum must be a finite number"),
        ("1.7e308,1e308,1", "their sum must be a finite number"),
        ("inf,1", "every weight must be a positive number"),
        ("nan,1", "every weight must be a positive number"),
        ("0,1", "every weight must be a positive number"),
        ("1,-0.0", "every weight must be a positive number"),
    ],
)
def test_weights_that_cannot_be_shares_are_one_line_and_exit_2(weights, says, tmp_path, capsys):
    files = [str(_write(tmp_path, f"p{k}", k)) for k in range(weights.count(",") + 1)]
    with pytest.raises(SystemExit) as exit_info:
        soup_cli.main([*files, "--out", str(tmp_path / "out.pt"), "--weights", weights])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out.pt").exists()


def test_shares_keep_the_ratios_of_huge_and_tiny_weights():
    assert mixing_shares([1e307, 3e307], 2) == pytest.approx([0.25, 0.75], rel=1e-15)
    assert mixing_shares([1e-320, 3e-320], 2) == pytest.approx([0.25, 0.75], rel=1e-3)
    assert math.fsum(mixing_shares([5, 5, 5], 3)) == 1.0
    for bad in (["0.5", 0.5], [True, 1.0], [None, 1.0]):
        with pytest.raises(ValueError, match="must be a positive number"):
            mixing_shares(bad, 2)


def test_a_soup_of_huge_weights_is_the_mean(tmp_path):
    a, b = _write(tmp_path, "a", 1), _write(tmp_path, "b", 2)
    even = soup_cli.soup([a, b]).state_dict()
    for name, t in soup_cli.soup([a, b], [1e307, 1e307]).state_dict().items():
        assert torch.isfinite(t).all() and torch.equal(t, even[name]), name
