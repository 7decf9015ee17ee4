"""Running hostile probes in child processes, so that a probe that kills the process (a
record that makes a compiled kernel write out of bounds) is counted as a crash, not fatal to
the suite: the child announces each probe before it runs it and reports its result after; if
it dies or hangs in between, that probe is a crash and a new child goes on with the next.

    python -m noir_env.hostile.isolate '{"factory": "noir_env.hostile.games:probes_of",
        "kwargs": {"game": "noir", "seed": 0}, "imports": [], "marker": "...",
        "indices": [...], "fresh_after_accepted": false}'

The child rebuilds the same probe list (`factory(**kwargs, marker=marker)`, after importing
`imports`, e.g. the module that registers a game), so only indices cross the process
boundary. `fresh_after_accepted`: a child ends after a probe whose input was accepted (a
command line whose work was started and stopped can leave the process half-initialised), and
the next child goes on.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from .outcomes import ACCEPTED, CRASH, Result

START_S = 600.0  # the child's imports and compiles before its first probe (a cold cache)
PROBE_S = 120.0  # one probe, its check included, in a child that is running


def run_isolated(factory: str, kwargs: dict[str, Any], marker: str, indices: Sequence[int],
                 imports: Sequence[str] = (), fresh_after_accepted: bool = False,
                 progress: Callable[[int], None] | None = None) -> list[Result]:  # fmt: skip
    """The results of the probes `indices` of the list `factory` ("module:function") makes
    of `kwargs` and `marker`, run in child processes (module docstring); `progress(done)` is
    called as they come."""
    todo = list(indices)
    out: list[Result] = []
    while todo:
        spec = {"factory": factory, "kwargs": kwargs, "imports": list(imports), "marker": marker,
                "indices": todo, "fresh_after_accepted": fresh_after_accepted}  # fmt: skip
        argv = [sys.executable, "-m", "noir_env.hostile.isolate", json.dumps(spec)]
        done = run_child(argv, len(todo), out, progress)
        todo = todo[done:]
    return out


def run_child(argv: list[str], count: int, out: list[Result],
              progress: Callable[[int], None] | None = None) -> int:  # fmt: skip
    """Run one child (`argv`) that announces ("B reader<TAB>label") and reports ("R
    <result JSON>") up to `count` probes, appending the results to `out`; returns how many
    probes it got through, the one it died or hung on counted as a crash (a child that ends
    between two probes has got through those it reported)."""
    # the child finds what this process imports (a game module on a path added at run time)
    paths = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    env = {**os.environ, "PYTHONPATH": paths}
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)  # fmt: skip
    assert child.stdout is not None
    begun, finished, deadline = None, 0, time.monotonic() + START_S
    try:
        while True:
            ready, _, _ = select.select([child.stdout], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                why = "hung" if begun is not None else "did not start"
                break
            line = child.stdout.readline()
            if not line:
                why = f"the process died (exit status {child.wait()})"
                break
            kind, _, rest = line.partition(" ")
            if kind == "B":
                begun, deadline = rest.strip(), time.monotonic() + PROBE_S
            elif kind == "R":
                out.append(Result(**json.loads(rest)))
                begun, finished = None, finished + 1
                if progress:
                    progress(len(out))
                if finished == count:
                    return finished
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
    if begun is None:
        if finished:
            return finished
        raise RuntimeError(f"the hostile probes' child process {why} before any probe")
    reader, _, label = begun.partition("\t")
    out.append(Result(reader, label, CRASH, why))
    if progress:
        progress(len(out))
    return finished + 1


def _child(spec: dict) -> None:
    for module in spec["imports"]:
        importlib.import_module(module)
    module, _, function = spec["factory"].partition(":")
    make = getattr(importlib.import_module(module), function)
    listed = make(**spec["kwargs"], marker=spec["marker"])
    for k in spec["indices"]:
        p = listed[k]
        print(f"B {p.reader}\t{p.label}", flush=True)
        r = p.run(spec["marker"])
        print("R " + json.dumps(r.__dict__), flush=True)
        if r.outcome == ACCEPTED and spec["fresh_after_accepted"]:
            break
    os._exit(0)  # nothing left to tear down; skips numba's and torch's exit hooks


if __name__ == "__main__":
    _child(json.loads(sys.argv[1]))
