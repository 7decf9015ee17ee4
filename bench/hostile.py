"""The hostile-input suite's full count: every probe of every reader of outside data, each
classified (noir_env.hostile.outcomes), as a table of reader x tried / clear error /
accepted / crash / code run, then every crash and code run found, and the accepted CLI
values (a CLI should refuse a bad value: each is worth a look).

    NUMBA_NUM_THREADS=1 python bench/hostile.py                 # everything
    python bench/hostile.py --games noir --no-files --no-cli    # one game's readers
    python bench/hostile.py --sample 100                        # a quick look

The games' probes run in child processes (a probe that kills its process is a crash, not
the end of the run); the file and CLI probes run in a scratch folder. A progress line
comes at least every 10 seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from noir_env.game import get_game  # noqa: E402
from noir_env.hostile import ACCEPTED, Result, Tally, check_hostile_inputs  # noqa: E402
from noir_env.hostile.isolate import run_isolated  # noqa: E402

GAMES = ("noir", "district_noir", "race")


class Progress:
    """Prints `done / total` at most every few seconds, at least every 10 s while called."""

    def __init__(self, what: str):
        self.what, self.last, self.start = what, 0.0, time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last >= 5 or done == total:
            self.last = now
            print(f"  {self.what}: {done}/{total} probes, {now - self.start:.0f} s", flush=True)


def isolated(what: str, factory: str, kwargs: dict, marker: str, count: int,
             sample: int | None, fresh: bool = False) -> list[Result]:  # fmt: skip
    """The results of `count` probes (a sample of them) of `factory`, in child processes."""
    indices = list(range(count))
    if sample is not None and sample < count:
        indices = sorted(np.random.default_rng(0).choice(count, sample, replace=False).tolist())
    progress = Progress(what)
    return run_isolated(factory, kwargs, marker, indices, fresh_after_accepted=fresh,
                        progress=lambda done: progress(done, len(indices)))  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    p.add_argument("--sample", type=int, default=None, help="probes per group (default: all)")
    p.add_argument("--no-files", action="store_true", help="skip the file readers")
    p.add_argument("--no-cli", action="store_true", help="skip the CLI flags")
    args = p.parse_args()
    if "race" in args.games:
        import tests.race.game  # noqa: F401 - registers the toy game "race"
    total, start, accepted_cli = Tally(), time.monotonic(), []
    for name in filter(None, args.games.split(",")):
        print(f"{name}: hostile probes of its readers", flush=True)
        total.merge(check_hostile_inputs(get_game(name), sample=args.sample,
                                         progress=Progress(name)))  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:
        marker = os.path.join(folder, "payload-ran")
        os.chdir(folder)  # the CLIs' work and the crafted files land here
        if not args.no_files:
            from train.hostile_files import file_probes

            count = len(file_probes(Path(folder), marker))
            for r in isolated("files", "train.hostile_files:file_probes", {"folder": folder},
                              marker, count, args.sample):  # fmt: skip
                total.add(r)
        if not args.no_cli:
            from train.hostile_cli import CLIS, cli_probes

            for cli in CLIS:
                count = len(cli_probes(marker, [cli]))
                kwargs = {"clis": [cli]}
                for r in isolated(f"train.{cli}", "train.hostile_cli:cli_probes", kwargs, marker,
                                  count, args.sample, fresh=True):  # fmt: skip
                    total.add(r)
                    if r.outcome == ACCEPTED:
                        accepted_cli.append(r)
    print(f"\n{total.table()}\n")
    print(f"{sum(total.tried(r) for r in total.counts)} probes in "
          f"{time.monotonic() - start:.0f} s")  # fmt: skip
    for r in total.findings:
        print(f"FOUND {r.reader} / {r.label}: {r.outcome}: {r.detail}")
    if not total.findings:
        print("no crash, no code run")
    for r in accepted_cli:
        print(f"ACCEPTED {r.reader} {r.label}")


if __name__ == "__main__":
    main()
