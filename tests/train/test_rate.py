"""train.rate and the ladder: the model recovers known strengths, rating a rung reproduces its
published rating, results files resume and merge, and the command line's mistakes are one
line with exit code 2."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from train import rate as rate_cli
from train.ladder import head_to_head, order_disagreements, published
from train.ladder import protocol as P
from train.ladder.model import ELO, Games, fit
from train.ladder.play import merge, read_results
from train.rate import rate

SMALL = {"games": 420, "players": [3, 4], "search": False}  # 6 batches of cheap tables


def _luce_games(strength: np.ndarray, count: int, seed: int) -> Games:
    """Games whose winner is drawn from the model itself."""
    rng = np.random.default_rng(seed)
    players = np.full((count, 6), -1)
    won = np.zeros((count, 6), bool)
    for g in range(count):
        n = int(rng.integers(3, 7))
        who = rng.choice(strength.size, n, replace=False)
        p = np.exp(strength[who]) / np.exp(strength[who]).sum()
        players[g, :n] = who
        won[g, rng.choice(n, p=p)] = True
    return Games(players, won, np.arange(count) // 3)


def test_fit_recovers_known_strengths_within_its_intervals():
    truth = np.array([0.0, 1.0, -1.0, 0.5, 2.0, -0.5])
    result = fit(_luce_games(truth, 6000, seed=0), truth.size, {0: 0.0})
    z = np.abs(result.theta - truth)[1:] / result.std()[1:]
    assert result.theta[0] == 0.0 and np.all(z < 3.5), z
    assert np.all(result.std()[1:] * ELO < 60)  # 6000 games place each within tens of points


def test_rating_a_rung_reproduces_its_published_rating():
    rung = {r["name"]: r for r in published()["rungs"]}["style-rusher"]
    result = rate("style-rusher", seed=3, **SMALL)
    assert result.games == result.settings["games"] == 420  # the agent sits in every game
    # both are estimates: they agree when they differ by less than their combined 95% half-width
    half = math.hypot(result.high - result.rating, rung["high"] - rung["rating"])
    assert abs(result.rating - rung["rating"]) <= half, (result, rung)
    assert result.high - result.low < 400  # an interval that says something at this budget
    assert {x["players"] for x in result.per_players} == {3, 4}
    assert all(x["rung"] in P.CHEAP for x in result.per_rung)


def test_a_killed_run_resumes_and_shards_merge_into_the_whole(tmp_path):
    whole = rate("heuristic-v1", out=tmp_path / "whole", **SMALL)
    results = tmp_path / "whole" / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    again = rate("heuristic-v1", out=tmp_path / "whole", **SMALL)  # replays the torn batch
    assert again.to_json()["rating"] == whole.rating
    for i in range(2):
        rate("heuristic-v1", out=tmp_path / f"part{i}", shard=(i, 2), **SMALL)
    merged = tmp_path / "merged"
    merged.mkdir()
    merge([tmp_path / f"part{i}" / "results.jsonl" for i in range(2)], merged / "results.jsonl")
    _, done = read_results(merged / "results.jsonl")
    assert len(done) == len(lines) - 1
    assert rate("heuristic-v1", out=merged, **SMALL).rating == whole.rating
    report = json.loads((merged / "rating.json").read_text())
    assert report["settings"]["complete"] and report["settings"]["versions"]["package"]
    assert "Ladder rating of `heuristic-v1`" in (merged / "rating.md").read_text()
    with pytest.raises(ValueError, match="another protocol"):
        rate("style-bully", out=merged, **SMALL)


def test_module_attr_agents_are_built_with_their_seed():
    result = rate("agents.random_agent:RandomAgent", games=140, players=[3], search=False)
    assert result.agent == "agents.random_agent:RandomAgent"
    weakest_style = min(r["rating"] for r in published()["rungs"] if r["name"].startswith("style"))
    assert result.rating < weakest_style and result.above is not None


def test_order_check_lists_a_pair_whose_head_to_head_contradicts_the_ratings():
    entries = [{"games": [["0", ["a", "b", "c"], [1, 2, 3], [1, 0, 0]]] * 3
                + [["1", ["a", "b", "c"], [2, 1, 3], [0, 1, 0]]]}]  # fmt: skip
    assert head_to_head(entries)[("a", "b")] == (3, 1)
    rows = [{"name": "b"}, {"name": "a"}, {"name": "c"}]  # b rated above a
    bad = order_disagreements(rows, entries)
    assert [(x["higher"], x["lower"]) for x in bad] == [("b", "a")]


@pytest.mark.parametrize("argv", [
    ["nope-agent"], ["heuristic", "--players", "7"], ["heuristic", "--games", "0"],
    ["heuristic", "--shard", "2/2"], ["heuristic", "--shard", "x"], ["no.such.module:Agent"],
    ["heuristic", "--ladder", "/nonexistent.json"], ["heuristic", "--text"],
    ["heuristic", "--merge", "/nonexistent.jsonl"],
])  # fmt: skip
def test_cli_mistakes_are_one_line_and_exit_2(argv, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        rate_cli.main([*argv, "--out", str(tmp_path / "out"), "--no-progress"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
