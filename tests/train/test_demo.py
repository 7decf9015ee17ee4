"""`make demo` (python -m train.demo) at tiny sizes: every stage runs, twice in a row."""

from train import demo


def test_demo_runs_twice_at_small_sizes(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["--games", "16", "--train-steps", "16384", "--eval-games", "48"]
    for _ in range(2):  # a second demo starts its run folder afresh
        demo.main(argv)
    out = capsys.readouterr().out
    assert out.count("Tournament") == 2 and "heuristic" in out
    assert "a random game of noir:" in out  # a game is shown as soon as the core is compiled
    assert (tmp_path / "runs" / "demo" / "policy.pt").is_file()
