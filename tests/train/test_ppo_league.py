"""train.ppo's league: prioritized fictitious self-play weights (docs: train/league.py
`LeagueResults`), per-opponent results in TensorBoard, eval.csv and the checkpoint, and
--stop-win-rate."""

import csv

import numpy as np
import pytest
import torch

from train import curves
from train.league import LeagueResults
from train.ppo import Args, train


@pytest.fixture()
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tiny(**changes) -> Args:
    base = dict(run_name="t", total_steps=3 * 16 * 8, num_envs=16, num_steps=8,
                num_minibatches=2, update_epochs=1, league="random:1,heuristic:1",
                eval_games=40, eval_interval=1, checkpoint_interval=1, progress=False,
                hidden="32")  # fmt: skip
    base.update(changes)
    return Args(**base)


def record(league: LeagueResults, name: str, wins: int, games: int, players: int = 4) -> None:
    won = np.zeros(games)
    won[:wins] = 1
    league.add(np.array([name] * games, object), won, np.full(games, players))


def test_pfsp_draws_the_opponents_the_learner_loses_to_more_often():
    league = LeagueResults({"strong": 1.0, "weak": 1.0, "new": 1.0}, power=2.0, min_games=50)
    record(league, "strong", wins=5, games=100)  # 5% at 4 players: 0.2 x par
    record(league, "weak", wins=60, games=100)  # 60%: 2.4 x par
    record(league, "new", wins=0, games=10)  # too few games: counts as par
    w = league.priorities()
    assert league.relative("strong") == pytest.approx(0.2)
    assert np.isnan(league.relative("new"))
    assert w["strong"] == pytest.approx(0.9**2 + 0.05)
    assert w["weak"] == pytest.approx(0.05)  # beaten at twice par or more: the floor alone
    assert w["new"] == pytest.approx(0.5**2 + 0.05)
    assert w["strong"] > w["new"] > w["weak"]
    # the given weights scale the priorities; power 0 leaves them as given
    scaled = LeagueResults({"strong": 3.0}, power=2.0, min_games=50)
    record(scaled, "strong", wins=5, games=100)
    assert scaled.priorities()["strong"] == pytest.approx(3 * w["strong"])
    fixed = LeagueResults({"strong": 1.0, "weak": 2.0}, power=0.0)
    record(fixed, "strong", wins=5, games=100)
    assert fixed.priorities() == {"strong": 1.0, "weak": 2.0}


def test_pfsp_counts_wins_relative_to_par_and_forgets_old_games():
    league = LeagueResults({"a": 1.0}, power=2.0, window=100, min_games=10)
    record(league, "a", wins=10, games=30, players=3)  # 33% at 3 players: par
    assert league.relative("a") == pytest.approx(1.0)
    record(league, "a", wins=0, games=100, players=6)  # the window keeps the last 100
    assert league.games("a") == 100 and league.relative("a") == 0.0
    record(league, "unknown", wins=3, games=3)  # not in the league: ignored
    restored = LeagueResults({"a": 1.0}, power=2.0, window=100, min_games=10)
    restored.load_state(league.state())
    assert restored.priorities() == league.priorities()


class QuickLeague(LeagueResults):
    """Rates from 5 games on (a tiny run ends few games)."""

    def __init__(self, weights, power, **kwargs):
        super().__init__(weights, power, min_games=5, **kwargs)


def test_training_logs_each_league_opponent_and_resumes_its_results(in_tmp, monkeypatch):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    monkeypatch.setattr("train.ppo.LeagueResults", QuickLeague)
    train(tiny(num_steps=64, total_steps=2 * 16 * 64))
    run = in_tmp / "runs" / "t"
    ckpt = torch.load(run / "checkpoint.pt", weights_only=True)
    results = ckpt["league"]
    assert set(results) == {"random", "heuristic"} and min(map(len, results.values())) >= 5
    events = EventAccumulator(str(next(run.glob("events.*"))))
    events.Reload()
    tags = events.Tags()["scalars"]
    assert {"league/weight_random", "league/weight_heuristic"} <= set(tags)
    rows = list(csv.DictReader((run / "eval.csv").open()))
    logged = {r["opponents"] for r in rows}
    assert "random" in logged  # the evaluation (--eval-opponents)
    assert {"league:random", "league:heuristic"} <= logged
    curves.main([str(run)])  # both panels draw
    assert (run / "learning_curve.png").stat().st_size > 1000
    from train.ppo import setup

    resumed = setup(tiny(num_steps=64, total_steps=3 * 16 * 64, resume=True))
    assert resumed.league.state() == {k: [float(v) for v in r] for k, r in results.items()}
    resumed.envs.close()
    resumed.writer.close()


def test_without_evaluation_games_the_league_is_still_logged(in_tmp, monkeypatch):
    monkeypatch.setattr("train.ppo.LeagueResults", QuickLeague)
    train(tiny(num_steps=64, total_steps=2 * 16 * 64, eval_games=0))
    run = in_tmp / "runs" / "t"
    rows = list(csv.DictReader((run / "eval.csv").open()))
    assert {r["opponents"] for r in rows} == {"league:random", "league:heuristic"}
    assert {r["update"] for r in rows} == {"1", "2"}  # every --eval-interval (1) update
    curves.main([str(run)])  # the league panel alone draws
    assert (run / "learning_curve.png").stat().st_size > 1000


def test_mixed_tables_are_logged_apart_and_leave_the_weights_alone(in_tmp, monkeypatch):
    monkeypatch.setattr("train.ppo.LeagueResults", QuickLeague)
    train(tiny(num_steps=64, total_steps=2 * 16 * 64, mixed_tables=0.5))
    run = in_tmp / "runs" / "t"
    results = torch.load(run / "checkpoint.pt", weights_only=True)["league"]
    assert set(results) == {"random", "heuristic", "mixed"} and len(results["mixed"]) >= 5
    logged = {r["opponents"] for r in csv.DictReader((run / "eval.csv").open())}
    assert {"league:random", "league:heuristic", "league:mixed"} <= logged
    league = QuickLeague({"random": 1.0, "heuristic": 1.0}, 2.0, track=("mixed",))
    record(league, "mixed", 0, 50)  # lost every mixed game: no entry drawn more for it
    assert set(league.priorities()) == {"random", "heuristic"}
    assert league.priorities()["random"] == league.priorities()["heuristic"]
    with pytest.raises(ValueError, match="mixed-tables"):
        train(tiny(mixed_tables=1.5))


def test_stop_win_rate_ends_the_run_at_the_first_evaluation_that_reaches_it(in_tmp, capsys):
    train(tiny(stop_win_rate=0.01, total_steps=10 * 16 * 8))  # a random policy wins some
    run = in_tmp / "runs" / "t"
    ckpt = torch.load(run / "checkpoint.pt", weights_only=True)
    assert ckpt["update"] < 10 and (run / "policy.pt").is_file()
    assert "--stop-win-rate 0.01 reached" in capsys.readouterr().out
    with pytest.raises(ValueError, match="--stop-win-rate"):
        train(tiny(run_name="u", stop_win_rate=1.5))
