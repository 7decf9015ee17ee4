"""The tournament harness (train/tournament.py, train/evaluate.py, noir_env/vector/arena.py):
balanced seating, Wilson intervals, finishing ranks, files, reproducibility, the CLI."""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from noir_env.spaces import OBS_SIZE
from noir_env.vector.arena import ArenaPolicy, GameRecords, play_games
from tests.hook_agents import LowestLegalOnState
from train.tournament import (
    finishing_ranks,
    head_to_head,
    load_results,
    make_schedule,
    openskill_ratings,
    run_tournament,
    save,
    wilson_interval,
)

ROOT = Path(__file__).resolve().parents[2]


def first_legal(obs, mask):
    """A deterministic Python agent: the lowest legal action id."""
    return np.argmax(mask, axis=1)


def last_legal(obs, mask):
    """Another one: the highest legal action id (reads the observation's shape too)."""
    assert obs.shape[0] == mask.shape[0]
    return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


# --- intervals -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [  # Newcombe (1998), Stat. Med. 17:857, Table I, method 3 (Wilson score, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=6e-5)
    assert hi == pytest.approx(high, abs=6e-5)


def test_wilson_bounds_solve_the_score_equation():
    """Each interior bound p satisfies |k - n p| = z sqrt(n p (1 - p)) exactly."""
    k, n, z = np.array([3, 50, 97]), np.array([10, 100, 100]), 1.959963984540054
    for bound in wilson_interval(k, n):
        assert np.allclose(np.abs(k - n * bound), z * np.sqrt(n * bound * (1 - bound)))
    lo, hi = wilson_interval(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    lo, hi = wilson_interval(np.array([0, 7]), np.array([7, 7]))
    assert lo[0] == 0.0 and hi[1] == 1.0  # exact at the ends


# --- schedule --------------------------------------------------------------------------------
@pytest.mark.parametrize(("entrants", "players"), [(4, [4]), (6, [4]), (5, [3, 4, 5]), (6, [6])])
def test_schedule_seats_every_entrant_in_every_seat_equally(entrants, players):
    sch = make_schedule(entrants, players, games=50, seed=3)
    rounds = -(-50 // entrants)
    assert sch.seeds.size == rounds * entrants * len(players)
    for n in players:
        table = sch.lineups[(sch.lineups >= 0).sum(1) == n]
        for q in range(n):  # every entrant sits in seat q once per round
            assert (np.bincount(table[:, q], minlength=entrants) == rounds).all()
        assert (table[:, n:] == -1).all()
        assert all(len(set(row[:n])) == n for row in table.tolist())  # no one sits twice
    # a round's games share one deal; different rounds get different deals
    per_round = sch.seeds.reshape(-1, entrants)
    assert (per_round == per_round[:, :1]).all()
    assert np.unique(per_round[:, 0]).size == per_round.shape[0]


def test_schedule_with_as_many_entrants_as_seats_rotates_one_deal():
    sch = make_schedule(4, 4, games=4, seed=0)
    rows = sch.lineups[:, :4]
    assert sorted(map(tuple, rows.tolist())) == sorted(
        tuple(np.roll(rows[0], -j).tolist()) for j in range(4)
    )


def test_schedule_rejects_bad_settings():
    with pytest.raises(ValueError, match="at least 4 agents"):
        make_schedule(3, 4, games=10, seed=0)
    with pytest.raises(ValueError, match="3..6"):
        make_schedule(8, 7, games=10, seed=0)
    with pytest.raises(ValueError, match="at least one table size"):
        make_schedule(4, [], games=10, seed=0)
    with pytest.raises(ValueError, match="games must be >= 1"):
        make_schedule(4, 4, games=0, seed=0)


# --- ranks and head-to-head ------------------------------------------------------------------
def _records(winners, scores, out_at, truncated=False):
    g = len(winners)
    pad = lambda rows, fill: np.array([r + [fill] * (6 - len(r)) for r in rows])  # noqa: E731
    return GameRecords(
        num_players=np.array([len(r) for r in winners], np.int8),
        winners=pad(winners, 0).astype(bool),
        win_reason=np.ones(g, np.int8),
        scores=pad(scores, 0).astype(np.int32),
        out_at=pad(out_at, -1).astype(np.int32),
        length=np.full(g, 100, np.int32),
        turns=np.full(g, 10, np.int32),
        truncated=np.full(g, truncated),
    )


def test_finishing_order_winner_then_score_then_last_eliminated_first():
    rec = _records(
        winners=[[0, 1, 0, 0, 0], [0, 0, 0]],
        scores=[[9, 3, 9, 0, 0], [5, 5, 2]],
        out_at=[[-1, -1, -1, 40, 70], [-1, -1, -1]],
    )
    ranks = finishing_ranks(rec)
    assert ranks[0].tolist() == [2, 1, 2, 5, 4, 0]  # tie on score shares the better place
    assert ranks[1].tolist() == [1, 1, 3, 0, 0, 0]


def test_head_to_head_is_complementary():
    sch = make_schedule(5, [3, 4], games=10, seed=1)
    rng = np.random.default_rng(0)
    g = sch.seeds.size
    n = (sch.lineups >= 0).sum(1)
    winner = rng.integers(0, n)
    winners = np.zeros((g, 6), bool)
    winners[np.arange(g), winner] = True
    rec = GameRecords(
        num_players=n.astype(np.int8),
        winners=winners,
        win_reason=np.ones(g, np.int8),
        scores=rng.integers(0, 5, (g, 6)).astype(np.int32),
        out_at=np.full((g, 6), -1, np.int32),
        length=np.ones(g, np.int32),
        turns=np.ones(g, np.int32),
        truncated=np.zeros(g, bool),
    )
    ahead, together = head_to_head(5, sch, rec)
    assert (together == together.T).all() and (np.diag(together) == 0).all()
    off = ~np.eye(5, dtype=bool)
    assert np.allclose((ahead + ahead.T)[off], 1.0)


def test_openskill_rates_the_entrant_that_always_wins_first():
    sch = make_schedule(4, 4, games=40, seed=0)
    g = sch.seeds.size
    winners = sch.lineups == 0  # entrant 0 wins every game
    rec = GameRecords(
        num_players=np.full(g, 4, np.int8),
        winners=winners,
        win_reason=np.ones(g, np.int8),
        scores=np.where(sch.lineups >= 0, 10 - sch.lineups, 0).astype(np.int32),  # 1 > 2 > 3
        out_at=np.full((g, 6), -1, np.int32),
        length=np.ones(g, np.int32),
        turns=np.ones(g, np.int32),
        truncated=np.zeros(g, bool),
    )
    mu = [r["mu"] for r in openskill_ratings(["a", "b", "c", "d"], sch, rec)]
    assert mu == sorted(mu, reverse=True) and mu[0] > mu[1] + 5


# --- playing ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_result():
    return run_tournament(["random", first_legal, "random", last_legal], num_players=[3, 4],
                          games=24, seed=5, slots=32)  # fmt: skip


def test_tournament_plays_every_game_balanced(small_result):
    r = small_result
    assert r.labels == ["random", "first_legal", "random#2", "last_legal"]
    assert r.config["games"] == 48
    assert (r.seat_counts[:, :3] == r.seat_counts[0, 0]).all()  # 3 seats of both sizes
    assert (r.seat_counts[:, 3] == r.seat_counts[0, 3]).all()  # the 4th seat: 4-player games
    rec = r.records
    over = ~rec.truncated
    assert over.all()  # random play ends well before max_steps
    assert (rec.winners[over].sum(1) >= 1).all() and (rec.win_reason[over] > 0).all()
    for row in r.summary:
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
        reasons = sum(v for k, v in row.items() if k.startswith("wins_"))
        assert reasons == row["wins"]
    by_size = {n: sum(x["games"] for x in r.summary if x["players"] == str(n)) for n in (3, 4)}
    assert by_size == {3: 24 * 3, 4: 24 * 4}  # a seat-game per seat of every game
    assert [x["agent"] for x in r.ratings] == r.labels


def test_same_seed_same_numbers_and_files_reread(small_result, tmp_path):
    again = run_tournament(["random", first_legal, "random", last_legal], num_players=[3, 4],
                           games=24, seed=5, slots=32)  # fmt: skip
    first, second = small_result.to_json(), again.to_json()
    for key in ("summary", "head_to_head", "ratings", "seat_counts", "config"):
        assert json.dumps(first[key]) == json.dumps(second[key])
    other = run_tournament(["random"] * 4, num_players=4, games=8, seed=6, ratings=False)
    assert json.dumps(other.summary) != json.dumps(small_result.summary)

    paths = save(small_result, tmp_path / "eval")
    assert {p.name for p in paths.values()} == {
        "results.json", "summary.csv", "head_to_head.csv", "games.csv", "win_rates.png"
    }  # fmt: skip
    assert paths["plot"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    loaded = load_results(tmp_path / "eval")
    assert json.dumps(loaded["summary"]) == json.dumps(first["summary"])
    with paths["summary"].open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(small_result.summary)
    for row, want in zip(rows, small_result.summary, strict=True):
        assert row["agent"] == want["agent"] and int(row["wins"]) == want["wins"]
        assert float(row["ci_high"]) == pytest.approx(want["ci_high"])
    with paths["games"].open() as f:
        games = list(csv.DictReader(f))
    assert len(games) == 48 and all(g["winners"] for g in games)


def test_builtin_random_games_do_not_depend_on_the_batch():
    sch = make_schedule(4, 4, games=40, seed=2)
    a = play_games(sch.seeds, sch.lineups, [ArenaPolicy("random")] * 4, slots=7)
    b = play_games(sch.seeds, sch.lineups, [ArenaPolicy("random")] * 4, slots=2048)
    for field in ("winners", "scores", "out_at", "length", "turns"):
        assert (getattr(a, field) == getattr(b, field)).all()


def test_a_python_agent_plays_its_seats_only():
    calls = []

    def watcher(obs, mask):
        calls.append(mask.shape[0])
        assert obs.shape == (mask.shape[0], OBS_SIZE) and mask.dtype == bool
        assert (mask.sum(1) >= 2).all()  # single-choice decisions are answered for it
        return first_legal(obs, mask)

    sch = make_schedule(3, 3, games=3, seed=0)
    rec = play_games(sch.seeds, sch.lineups, [ArenaPolicy("w", watcher), ArenaPolicy("r"),
                                              ArenaPolicy("r2")])  # fmt: skip
    assert sum(calls) > 0 and not rec.truncated.any()


def test_a_search_agent_plays_through_its_state_hook_on_a_copy():
    """The arena calls act_on_state, not act, for an agent with uses_state; it plays the
    same games as the same choices made through act(obs, mask), also when the agent wrecks
    the state it was handed."""
    runs = {}
    for key, agent in (("act", first_legal), ("hook", LowestLegalOnState()),
                       ("wreck", LowestLegalOnState(wreck=True))):  # fmt: skip
        runs[key] = run_tournament([agent, "random", "random"], num_players=3, games=6, seed=3,
                                   ratings=False)  # fmt: skip
    base = runs["act"].records
    for key in ("hook", "wreck"):
        for field in ("winners", "scores", "out_at", "length", "turns"):
            np.testing.assert_array_equal(getattr(runs[key].records, field), getattr(base, field))
    with pytest.raises(ValueError, match="declares uses_state but has no act_on_state"):
        run_tournament([type("NoHook", (), {"uses_state": True})(), "random", "random"],
                       num_players=3, games=3)  # fmt: skip


def test_ismcts_plays_tournaments_and_matches_deterministically(capsys):
    """IS-MCTS at a tiny budget beside batched agents: the games finish, its seat is
    searched, and the same seed gives the same games."""
    import agents
    from train.match import play

    def tournament(progress=False):
        searcher = agents.load("ismcts", budget=4, horizon=2, seed=0)
        result = run_tournament({"ismcts": searcher, "heuristic": "heuristic", "random": "random"},
                                num_players=3, games=3, seed=11, ratings=False,
                                progress=progress)  # fmt: skip
        return result, searcher.stats

    (a, stats) = tournament()
    assert "search_decisions=" not in capsys.readouterr().err
    # with a bar, it counts the search's decisions (the games end together, minutes in)
    (b, _) = tournament(progress=True)
    assert "search_decisions=" in capsys.readouterr().err
    assert not a.records.truncated.any() and stats.searched > 0
    assert a.labels[0] == "ismcts" and a.summary[0]["games"] == 3
    for field in ("winners", "scores", "out_at", "length"):
        np.testing.assert_array_equal(getattr(a.records, field), getattr(b.records, field))
    assert json.dumps(a.summary) == json.dumps(b.summary)

    searcher = agents.load("ismcts", budget=4, horizon=2, seed=0)
    match = play([searcher, agents.load("heuristic", seed=1)], lineup=[0, 1, 1], num_games=3)
    assert match.finished.all() and searcher.stats.searched > 0
    np.testing.assert_allclose(match.win_share.sum(1), 1.0)


def test_ask_forced_presents_single_choice_decisions_too():
    singles = []

    def watcher(obs, mask):
        singles.append(int((mask.sum(1) == 1).sum()))
        return first_legal(obs, mask)

    run_tournament([watcher, "random", "random"], num_players=3, games=3, ask_forced=True,
                   ratings=False)  # fmt: skip
    assert sum(singles) > 0


def test_bad_agents_raise_clear_errors():
    def illegal(obs, mask):
        return np.where(mask[:, 0], 1, 0)  # a wrong choice somewhere

    def wrong_shape(obs, mask):
        return np.zeros(mask.shape[0] + 1, np.int64)

    with pytest.raises(ValueError, match="'illegal' chose an illegal action"):
        run_tournament([illegal, "random", "random"], num_players=3, games=3, ratings=False)
    with pytest.raises(ValueError, match="'wrong_shape' returned actions of shape"):
        run_tournament([wrong_shape, "random", "random"], num_players=3, games=3, ratings=False)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        run_tournament(["nobody", "random", "random"], num_players=3, games=3)
    with pytest.raises(ValueError, match="key=value"):
        run_tournament(["random:fast", "random", "random"], num_players=3, games=3)


def test_a_checkpoint_path_without_a_loader_is_a_clear_error(tmp_path):
    from agents import load

    path = tmp_path / "policy.zip"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=r"no agent loader reads \.zip checkpoints"):
        load(str(path))


# --- the command line ------------------------------------------------------------------------
def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "train.evaluate", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_cli_runs_prints_and_writes(tmp_path):
    out = tmp_path / "cli"
    proc = _run("--agents", "random", "random", "random", "--players", "3", "--games", "6",
                "--seed", "1", "--out", str(out), "--no-progress")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "== 3 players: 6 games, " in proc.stdout and "random#3" in proc.stdout
    assert load_results(out)["config"]["games"] == 6
    assert (out / "win_rates.png").stat().st_size > 0


def test_cli_seats_a_search_agent(tmp_path):
    out = tmp_path / "search"
    proc = _run("--agents", "ismcts:budget=4,horizon=2", "heuristic", "random", "--players",
                "3", "--games", "3", "--out", str(out), "--no-progress", "--no-plot")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    summary = load_results(out)["summary"]
    assert [row["agent"] for row in summary] == ["ismcts:budget=4,horizon=2", "heuristic", "random"]
    assert summary[0]["games"] == 3


def test_cli_reports_bad_input():
    proc = _run("--agents", "random", "random", "--players", "3", "--no-progress")
    assert proc.returncode == 2 and "3-player tables need at least 3 agents" in proc.stderr
