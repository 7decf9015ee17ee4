"""`make demo` (python -m train.demo) at tiny sizes: every stage runs, twice in a row."""

from train import demo


def test_demo_runs_twice_at_small_sizes(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["--games", "16", "--train-steps", "16384", "--eval-games", "48"]
    for _ in range(2):  # a second demo starts its run folder afresh
        demo.main(argv)
    out = capsys.readouterr().out
    assert out.count("Tournament") == 2 and "heuristic" in out
    assert (tmp_path / "runs" / "demo" / "policy.pt").is_file()


def test_compile_progress_prints_while_the_work_lasts(capsys):
    """A line every `every` seconds while the block runs (a first compile never looks hung),
    none once it has ended; the count covers the project's kernels."""
    import time

    from noir_env import core

    core.init(2)  # compiles (or loads) the core's init kernel
    counts = demo.compiled_kernels()
    assert counts["noir_env.engine.shell"] > 0  # the batched shell, compiled for NOIR by now
    with demo.CompileProgress(every=0.05):
        time.sleep(0.3)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 3 and all("kernels compiled" in line for line in lines)
    time.sleep(0.15)
    assert capsys.readouterr().out == ""  # the ticker stopped with the block
