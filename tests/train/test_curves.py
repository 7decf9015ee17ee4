"""train.curves: stages of one policy drawn end to end."""

from __future__ import annotations

import csv

from train import curves

HEADER = ["update", "global_step", "elapsed_s", "opponents", "players", "games", "win_rate",
          "ci95"]  # fmt: skip


def write_run(folder, rows):
    folder.mkdir(parents=True)
    with (folder / "eval.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        w.writerows(rows)
    return folder


def test_stages_continue_where_the_previous_one_ends(tmp_path, capsys):
    base = write_run(tmp_path / "base", [
        [10, 1000, 60.0, "heuristic", 3, 100, 0.4, 0.1],
        [20, 2000, 120.0, "heuristic", 3, 100, 0.5, 0.1],
        [20, 2000, 120.0, "league:self", 0, 50, 1.0, 0.2],
    ])  # fmt: skip
    tune = write_run(tmp_path / "tune", [[5, 500, 30.0, "heuristic", 3, 100, 0.6, 0.1]])
    rows, starts = curves.chain([curves.read_eval(base), curves.read_eval(tune)])
    assert starts == [2000 / 1e6]
    last = rows[-1]
    assert (last["update"], last["global_step"], last["elapsed_s"], last["stage"]) == (
        5, 2500, 150.0, 2)  # fmt: skip
    assert [r["global_step"] for r in rows[:3]] == [1000, 2000, 2000]  # the first stage as is
    curves.main([str(base), str(tune), "--out", str(tmp_path / "c.png"), "--table"])
    out = capsys.readouterr().out
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert "| stage | update |" in out and "| 2 | 5 | 2,500 | 2 | heuristic x2 |" in out
    one, _ = curves.chain([curves.read_eval(base)])
    assert "stage" not in curves.table(one).splitlines()[0]


def test_a_stage_at_another_player_count_is_its_own_line(tmp_path):
    """Rates at 3 and 4 players are not one curve: a 4-player stage after 3-player ones
    starts a line of its own, labelled with its player count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    three = write_run(tmp_path / "three", [[10, 1000, 60.0, "heuristic", 3, 100, 0.6, 0.1]])
    four = write_run(
        tmp_path / "four",
        [
            [10, 1000, 60.0, "heuristic", 4, 100, 0.4, 0.1],
            [20, 2000, 99.0, "heuristic", 4, 100, 0.5, 0.1],
        ],
    )
    rows, _ = curves.chain([curves.read_eval(three), curves.read_eval(four)])
    fig, ax = plt.subplots()
    curves._lines(ax, rows)
    lines = {line.get_label(): list(line.get_xdata()) for line in ax.get_lines()}
    plt.close(fig)
    assert lines == {
        "vs heuristic (3 players)": [0.001],
        "vs heuristic (4 players)": [0.002, 0.003],
    }
