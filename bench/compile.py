"""What the first use costs: the numba compile of each common path, from an empty cache.

Each path runs in a fresh subprocess with a temporary, empty NUMBA_CACHE_DIR, so nothing is
loaded from an earlier run: first as a user runs it (its wall and CPU time: the figures of
the first use), then again with a timer on every compile, which adds to the time. Per kernel
that second run prints the compile time (its own, without the
kernels it calls, which are timed on their own lines; and inclusive) and its number of
specializations (numba compiles a kernel once per distinct argument types; a kernel that
compiled code calls is compiled as its twin `<name>.callee`, without the wrappers Python
calls go through: `noir_env/engine/jit.py`); then the totals of the path and the machine's
load average before and after.

Paths:
  aec      a NOIR AEC game (noir_v2.env): reset and random play to the end
  district a District Noir AEC game: reset and random play to the end
  vector   the vector env with heuristic opponents (a serial and a parallel batch size)
  ppo      train.ppo's first update (tiny arguments, an imitation update)
  demo     everything `make demo` (train.demo) compiles before its first stage

    python bench/compile.py [--paths aec,district,vector,ppo,demo] [--top 25]
    python bench/compile.py --paths aec --cache DIR    # time against a filled cache DIR
    python bench/compile.py --paths aec --compare-plain  # and with numba's default compile

`--compare-plain` also runs each path, as a user runs it, with NOIR_NUMBA_PLAIN=1: numba's
own compile, without the project's changes to it (`noir_env/engine/compiling.py`), for a
before/after pair taken in the same run.

The load average matters: on a shared machine a compile takes twice as long or more, so
compare figures taken at a similar load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = ("aec", "district", "vector", "ppo", "demo")


# --- the paths (run in the child) -----------------------------------------------------------
def _random_aec_game(env) -> None:
    """Reset `env` and play it to the end with uniform legal actions (PettingZoo's loop)."""
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        action = None
        if not (termination or truncation):
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    env.close()


def path_aec() -> None:
    """A NOIR AEC game, reset and random play to the end (PettingZoo's loop)."""
    from noir_env import noir_v2

    _random_aec_game(noir_v2.env(num_players=4))


def path_district() -> None:
    """A District Noir AEC game, reset and random play to the end."""
    from noir_env import district_noir_v0

    _random_aec_game(district_noir_v0.env())


def path_vector() -> None:
    """The vector env with heuristic opponents, a few steps of a random learner."""
    from agents import load
    from noir_env.vector import make_vector_env

    learner = load("random", seed=0)
    for n in (2, 128):  # the serial and the parallel batch loops
        envs = make_vector_env(n, num_players=4, seed=0, opponents="heuristic")
        obs, infos = envs.reset()
        for _ in range(8):
            obs, *_, infos = envs.step(learner.act(obs, infos["action_mask"]))
        envs.close()


def path_ppo() -> None:
    """train.ppo's first update: a tiny run imitating the heuristic, then PPO."""
    from train.ppo import Args, train

    with tempfile.TemporaryDirectory() as runs:
        os.chdir(runs)
        args = Args(run_name="compile", total_steps=2 * 16 * 8, num_envs=16, num_steps=8,
                    league="random:0.5,heuristic:0.5", imitate="heuristic",
                    imitation_updates=1, eval_games=0, threads=1)  # fmt: skip
        train(args)


def path_demo() -> None:
    """train.demo's warm-up: every kernel its stages call."""
    from train.demo import warm_up

    warm_up(4)


RUNNERS = {"aec": path_aec, "district": path_district, "vector": path_vector,
           "ppo": path_ppo, "demo": path_demo}  # fmt: skip


# --- timing numba's compiles (in the child) -------------------------------------------------
class CompileTimer:
    """Records each numba compile (numba's `numba:compile` events): the kernel, its
    inclusive time and its own (less the compiles nested in it)."""

    def __init__(self) -> None:
        from numba.core import event

        self.records: list[dict] = []
        self._stack: list[list] = []  # per compile in progress: [start, nested, llvm]
        self._llvm_start, self._llvm_depth = 0.0, 0
        timer = self

        class LLVMListener(event.Listener):  # LLVM's share: optimizing and machine code
            def on_start(self, ev):
                timer._llvm_depth += 1
                if timer._llvm_depth == 1:
                    timer._llvm_start = time.perf_counter()

            def on_end(self, ev):
                timer._llvm_depth -= 1
                if timer._stack and timer._llvm_depth == 0:
                    timer._stack[-1][2] += time.perf_counter() - timer._llvm_start

        class Listener(event.Listener):
            def on_start(self, ev):
                timer._stack.append([time.perf_counter(), 0.0, 0.0])

            def on_end(self, ev):
                t0, nested, llvm = timer._stack.pop()
                total = time.perf_counter() - t0
                if timer._stack:
                    timer._stack[-1][1] += total
                disp = ev.data["dispatcher"]
                name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
                timer.records.append({"kernel": name, "total": total, "own": total - nested,
                                      "llvm": llvm, "depth": len(timer._stack)})  # fmt: skip
                if not timer._stack:
                    print(f"    {time.perf_counter() - T0:6.1f} s  compiled {name} "
                          f"({total:.1f} s)", file=sys.stderr, flush=True)  # fmt: skip

        event.register("numba:compile", Listener())
        event.register("numba:llvm_lock", LLVMListener())


T0 = time.perf_counter()


def plain_child(path: str, out: Path) -> None:
    """The path as a user runs it, with no compile timer: its wall and CPU time."""
    from noir_env.threads import set_threads

    set_threads(1)
    t0, cpu0 = time.perf_counter(), time.process_time()
    RUNNERS[path]()
    out.write_text(
        json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - cpu0})
    )


def child(path: str, out: Path) -> None:
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    t_import = time.perf_counter()
    from numba.core.dispatcher import Dispatcher

    timer = CompileTimer()
    from noir_env.threads import set_threads

    set_threads(1)
    t0, cpu0 = time.perf_counter(), time.process_time()
    RUNNERS[path]()
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    specs: dict[str, int] = {}
    sigs: dict[str, list[str]] = {}  # of the kernels compiled more than once
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in ("noir_env", "agents", "train"):
            continue
        for v in list(vars(module).values()):
            if not isinstance(v, Dispatcher) or v.py_func.__module__ != name:
                continue
            for d in (v, getattr(v, "_twin", None)):  # a kernel and its callee twin
                if d is not None and d.signatures:
                    specs[f"{name}.{d.py_func.__qualname__}"] = len(d.signatures)
                    if len(d.signatures) > 1:
                        sigs[f"{name}.{d.py_func.__qualname__}"] = [str(x) for x in d.signatures]
    res = {"path": path, "wall": wall, "cpu": cpu, "startup": t0 - t_import,
           "records": timer.records, "specs": specs, "sigs": sigs}  # fmt: skip
    out.write_text(json.dumps(res))


# --- the parent -------------------------------------------------------------------------------
def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_child(mode: str, path: str, cache: str | None,
              numba_plain: bool = False) -> tuple[dict, float]:  # fmt: skip
    """Run the path in a fresh process (`--child`: timed kernel by kernel; `--plain`: as a
    user runs it), against `cache` or an empty one; its figures and the process's time.
    `numba_plain`: with numba's default compile (NOIR_NUMBA_PLAIN=1)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            NOIR_NUMBA_PLAIN="1" if numba_plain else "0",
            NUMBA_CACHE_DIR=cache or str(Path(tmp) / "cache"),
            NUMBA_NUM_THREADS="1",
            OMP_NUM_THREADS="1",
            MKL_NUM_THREADS="1",
            PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        )
        out = Path(tmp) / "out.json"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, mode, path, str(out)], env=env, check=True,
                       cwd=ROOT)  # fmt: skip
        return json.loads(out.read_text()), time.perf_counter() - t0


def run_path(path: str, cache: str | None, top: int, compare_plain: bool) -> dict:
    before = load()
    numba_plain = None
    if compare_plain:
        print(f"{path}: with numba's default compile (load {before}), as a user runs it...",
              flush=True)  # fmt: skip
        numba_plain, _ = run_child("--plain", path, cache, numba_plain=True)
        print(f"  {path} with numba's default compile: {numba_plain['wall']:.1f} s "
              f"(CPU {numba_plain['cpu']:.1f} s)", flush=True)  # fmt: skip
    print(f"{path}: compiling from {'the cache ' + cache if cache else 'an empty cache'} "
          f"(load {before}), first as a user runs it...", flush=True)  # fmt: skip
    plain, plain_process = run_child("--plain", path, cache)
    print(f"  {path} as a user runs it: {plain['wall']:.1f} s (CPU {plain['cpu']:.1f} s, process "
          f"{plain_process:.1f} s); now kernel by kernel (the timer adds to the time)...",
          flush=True)  # fmt: skip
    res, process = run_child("--child", path, cache)
    res["plain"], res["plain_process"], res["numba_plain"] = plain, plain_process, numba_plain
    res["process"], res["load_before"], res["load_after"] = process, before, load()
    report(res, top)
    return res


def report(res: dict, top: int) -> None:
    per: dict[str, dict] = {}
    for r in res["records"]:
        k = per.setdefault(r["kernel"], {"own": 0.0, "total": 0.0, "llvm": 0.0, "compiles": 0})
        k["own"] += r["own"]
        k["total"] += r["total"]
        k["llvm"] += r.get("llvm", 0.0)
        k["compiles"] += 1
    compile_s = sum(r["total"] for r in res["records"] if r["depth"] == 0)
    llvm_s = sum(r.get("llvm", 0.0) for r in res["records"])
    print(
        f"  {'own s':>7} {'llvm s':>7} {'incl s':>7} {'specs':>5}  kernel (top {top} by own time)"
    )
    for name, k in sorted(per.items(), key=lambda kv: -kv[1]["own"])[:top]:
        specs = res["specs"].get(name, k["compiles"])
        print(f"  {k['own']:7.1f} {k['llvm']:7.1f} {k['total']:7.1f} {specs:5d}  {name}")
    n_specs = sum(res["specs"].values())
    print(f"  {res['path']}: {len(per)} kernels compiled ({len(res['records'])} compiles, "
          f"{n_specs} specializations in use), compile {compile_s:.1f} s (LLVM {llvm_s:.1f} s) "
          f"of {res['wall']:.1f} s, CPU {res.get('cpu', 0):.1f} s "
          f"(process {res['process']:.1f} s, imports {res['startup']:.1f} s); "
          f"load {res['load_before']} -> {res['load_after']}", flush=True)  # fmt: skip


def _plain_cell(r: dict) -> str:
    """numba's default compile of the path, and how much longer than the project's it took."""
    plain = r.get("numba_plain")
    if not plain:
        return "-"
    return f"{plain['wall']:.1f} ({plain['wall'] / r['plain']['wall']:.2f}x)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paths", default=",".join(PATHS), help="comma list: " + ", ".join(PATHS))
    parser.add_argument("--top", type=int, default=25, help="kernels listed per path")
    parser.add_argument("--cache", default=None, help="a filled cache dir to time against")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    parser.add_argument("--compare-plain", action="store_true",
                        help="also time each path with numba's default compile")  # fmt: skip
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--plain", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return
    if args.plain:
        plain_child(args.plain[0], Path(args.plain[1]))
        return
    paths = args.paths.split(",")
    bad = [p for p in paths if p not in RUNNERS]
    if bad:
        parser.error(f"unknown path {bad[0]!r}; choose from {', '.join(PATHS)}")
    results = [run_path(p, args.cache, args.top, args.compare_plain) for p in paths]
    print("\n| path | wall s | CPU s | process s | kernels | compiles | timed: compile s, CPU s "
          "| numba's default: wall s (ratio) | load before -> after |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---|---|---|")
    for r in results:
        kernels = len({x["kernel"] for x in r["records"]})
        compile_s = sum(x["total"] for x in r["records"] if x["depth"] == 0)
        print(f"| {r['path']} | {r['plain']['wall']:.1f} | {r['plain']['cpu']:.1f} | "
              f"{r['plain_process']:.1f} | {kernels} | {len(r['records'])} | "
              f"{compile_s:.1f}, {r.get('cpu', 0):.1f} | {_plain_cell(r)} | "
              f"{r['load_before']} -> {r['load_after']} |")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
