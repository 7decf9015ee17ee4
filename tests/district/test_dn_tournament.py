"""District Noir tournaments (train.tournament with game="district_noir", the batched loop in
noir_env/vector/arena.py): seats alternated over the same deals, the heuristic
beats random, reruns reproduce, files and the command line, bad settings refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from noir_env.vector.arena import ArenaPolicy, play_district_games
from train.tournament import load_results, run_tournament, save

ROOT = Path(__file__).resolve().parents[2]
GAMES = 300


@pytest.fixture(scope="module")
def heuristic_vs_random():
    return run_tournament(["district-heuristic", "random"], game="district_noir", games=GAMES,
                          seed=0, slots=64)  # fmt: skip


def test_heuristic_beats_random_with_seats_alternated_over_the_same_deals(heuristic_vs_random):
    r = heuristic_vs_random
    sch = r.schedule
    assert sch.lineups.shape == (GAMES, 2) and r.config["game"] == "district_noir"
    # each deal is played twice, once with each agent in each seat
    assert (sch.seeds[0::2] == sch.seeds[1::2]).all()
    assert (sch.lineups[0::2] == sch.lineups[1::2, ::-1]).all()
    assert r.seat_counts.tolist() == [[GAMES // 2, GAMES // 2]] * 2
    rows = {row["agent"]: row for row in r.summary}
    heur, rand = rows["district-heuristic"], rows["random"]
    assert heur["win_rate"] >= 0.80, heur
    assert heur["ci_low"] < heur["win_rate"] < heur["ci_high"] and heur["par"] == 0.5
    assert heur["wins"] + rand["wins"] + int((r.records.winners.sum(1) == 0).sum()) == GAMES
    assert heur["mean_score"] > rand["mean_score"] and heur["mean_rank"] < rand["mean_rank"]
    assert heur["wins_points"] + heur["wins_buildings"] + heur["wins_tiebreak"] == heur["wins"]
    assert r.ahead[0, 1] >= 0.80 and r.together[0, 1] == GAMES
    ratings = {x["agent"]: x["mu"] for x in r.ratings}
    assert ratings["district-heuristic"] > ratings["random"]
    assert (r.records.turns >= 1).all() and (r.records.turns <= 4).all()
    assert (r.records.length <= 48).all() and not r.records.truncated.any()
    text = r.table()
    assert "District Noir tournament: 300 games, seed 0" in text
    assert "== 2 players: 300 games" in text and "rounds a game" in text


def test_rerun_reproduces_and_files_are_written(heuristic_vs_random, tmp_path):
    again = run_tournament(["district-heuristic", "random"], game="district_noir", games=GAMES,
                           seed=0, slots=7)  # fmt: skip  # another batch size, same games
    a, b = heuristic_vs_random.records, again.records
    for field in ("winners", "scores", "win_reason", "length", "turns"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert again.summary == heuristic_vs_random.summary
    paths = save(heuristic_vs_random, tmp_path / "dn")
    for name in ("json", "summary", "head_to_head", "games", "plot"):
        assert paths[name].stat().st_size > 0, name
    results = load_results(tmp_path / "dn")
    assert results["config"]["game"] == "district_noir" and results["config"]["rules"] is None
    games_csv = paths["games"].read_text().splitlines()
    assert len(games_csv) == GAMES + 1 and games_csv[1].split(",")[5] in (
        "buildings", "points", "tiebreak", "draw",
    )  # fmt: skip


def test_random_seats_play_inside_and_games_do_not_depend_on_slots():
    seeds = np.repeat(np.arange(40, dtype=np.int64) * 7, 2)
    lineups = np.tile([[0, 1], [1, 0]], (40, 1))
    seen = []

    def mask_reader(obs, mask):
        seen.append(obs)
        return np.argmax(mask, axis=1)

    players = [ArenaPolicy("random"), ArenaPolicy("first", mask_reader, observes=False)]
    wide = play_district_games(seeds, lineups, players, slots=80)
    narrow = play_district_games(seeds, lineups, players, slots=3)
    np.testing.assert_array_equal(wide.scores, narrow.scores)
    np.testing.assert_array_equal(wide.winners, narrow.winners)
    assert seen and all(obs is None for obs in seen)
    with pytest.raises(ValueError, match="must seat two policies"):
        play_district_games(seeds[:2], np.array([[0, 2], [0, 1]]), players)


def test_bad_settings_and_wrong_game_agents_are_refused():
    with pytest.raises(ValueError, match="District Noir: players per table must be 2, got 3"):
        run_tournament(["random"] * 3, game="district_noir", num_players=3, games=2)
    with pytest.raises(ValueError, match="no rule presets"):
        run_tournament(["random", "random"], game="district_noir", rules="noirburg", games=2)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        run_tournament(["random", "random"], game="chess", games=2)
    with pytest.raises(ValueError, match="District Noir observation.*plays NOIR only"):
        run_tournament(["heuristic", "random"], game="district_noir", games=2, ratings=False)
    with pytest.raises(ValueError, match="chose an illegal action"):
        run_tournament([lambda o, m: np.full(len(m), 99), "random"], game="district_noir",
                       games=2, ratings=False)  # fmt: skip


def test_cli_plays_district_noir(tmp_path):
    out = tmp_path / "cli"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "train.evaluate", "--game", "district_noir", "--agents",
         "district-heuristic", "random", "--games", "40", "--seed", "1", "--out", str(out),
         "--no-progress"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "District Noir tournament: 40 games, seed 1" in proc.stdout
    config = json.loads((out / "results.json").read_text())["config"]
    assert config["players"] == [2] and config["agents"] == ["district-heuristic", "random"]
    assert (out / "win_rates.png").stat().st_size > 0
