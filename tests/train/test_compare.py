"""train.compare: two evaluations that differ in one entrant, paired game by game."""

from __future__ import annotations

import pytest

from train.compare import compare, main, sign_test
from train.tournament import run_tournament, save


def evaluation(tmp_path, name: str, lone: str, label: str, seed: int = 3, games: int = 24) -> str:
    """A 3-player evaluation of `lone` (as `label`) against two heuristics, saved."""
    entrants = {label: lone, "heuristic": "heuristic", "heuristic#2": "heuristic"}
    result = run_tournament(entrants, num_players=3, games=games, seed=seed, ratings=False)
    out = tmp_path / name
    save(result, out, plot=False)
    return str(out)


def test_the_same_agent_under_two_labels_gives_no_discordant_game(tmp_path):
    a = evaluation(tmp_path, "a", "heuristic", "mine")
    b = evaluation(tmp_path, "b", "heuristic", "yours")
    row = compare([a], [b]).splitlines()[-1]
    assert "A = mine, B = yours" in compare([a], [b])
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "3" and cells[1] == "24" and cells[2] == cells[3]
    assert cells[4:6] == ["0", "0"] and cells[7] == "1.000"


def test_wins_and_discordant_pairs_add_up(tmp_path):
    a = evaluation(tmp_path, "a", "random", "random")
    b = evaluation(tmp_path, "b", "heuristic", "h")
    cells = [c.strip() for c in compare([a], [b]).splitlines()[-1].strip("|").split("|")]
    games, a_rate, b_rate, a_only, b_only = int(cells[1]), cells[2], cells[3], *map(int, cells[4:6])
    a_wins, b_wins = (
        round(float(a_rate[:-1]) * games / 100),
        round(float(b_rate[:-1]) * games / 100),
    )
    assert b_wins - a_wins == b_only - a_only
    assert b_only > a_only  # the heuristic beats random play in the same seat


def test_folders_of_several_seeds_pool(tmp_path):
    a = [evaluation(tmp_path, "a1", "random", "random", seed=1),
         evaluation(tmp_path, "a2", "random", "random", seed=2)]  # fmt: skip
    b = [evaluation(tmp_path, "b1", "heuristic", "h", seed=1),
         evaluation(tmp_path, "b2", "heuristic", "h", seed=2)]  # fmt: skip
    assert "| 3 | 48 |" in compare(a, b)


def test_sign_test():
    assert sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    assert sign_test(9, 1) == sign_test(1, 9) == pytest.approx(2 * 11 / 1024)


def test_other_deals_or_entrants_are_refused_in_one_line(tmp_path, capsys):
    a = evaluation(tmp_path, "a", "random", "random", seed=3)
    other_seed = evaluation(tmp_path, "b", "heuristic", "h", seed=4)
    with pytest.raises(ValueError, match="game 0 is not the same deal"):
        compare([a], [other_seed])
    longer = evaluation(tmp_path, "d", "heuristic", "h", seed=3, games=48)  # other seatings
    with pytest.raises(ValueError, match="24 games against 48: not the same schedule"):
        compare([a], [longer])
    two_differ = evaluation(tmp_path, "c", "random", "x", seed=3)
    with pytest.raises(SystemExit) as code:
        main(["--a", a, "--b", two_differ, "--labels", "random", "nobody"])
    assert code.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--labels: 'nobody' is not seated in B's games" in err
    with pytest.raises(SystemExit):
        main(["--a", a, "--b", str(tmp_path / "missing")])
    assert "no games.csv" in capsys.readouterr().err
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "games.csv").write_text("game,players\n0,3\n")
    with pytest.raises(SystemExit):
        main(["--a", a, "--b", str(tmp_path / "e")])
    assert (
        "columns ['deal_seed', 'ranks', 'seats', 'winners'] are missing" in capsys.readouterr().err
    )
