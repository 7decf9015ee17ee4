"""Run the `state_from_dict` fuzz (tests/core/test_fuzz_positions.py) with every kernel compiled
with NUMBA_BOUNDSCHECK=1, where an out-of-bounds index raises IndexError instead of reading
or writing other memory: no loaded position may make a kernel index out of bounds.

    python bench/fuzz_boundscheck.py [--examples 60] [--cache-dir runs/numba-boundscheck]

The fuzz runs in a subprocess (the flag must be set before numba compiles anything) with
its own NUMBA_CACHE_DIR, so the bounds-checked kernels never mix with the normal cache; the
first run compiles them all (minutes on 2 cores), later runs reuse that cache. Prints the
time taken and exits non-zero if any test fails or an IndexError shows up.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import time

from train.cli import first_paragraph

ROOT = pathlib.Path(__file__).resolve().parent.parent
FUZZ_FILE = "tests/core/test_fuzz_positions.py"


def default_cache_dir() -> pathlib.Path:
    """noir_env/__pycache__/boundscheck-numba: beside the normal cache, never mixed with it.
    Stamped per module like the normal cache, so an edited kernel recompiles only what
    depends on it; the folder is the package's cache, not a leftover in the checkout."""
    return ROOT / "noir_env" / "__pycache__" / "boundscheck-numba"


def run(examples: int, cache_dir: pathlib.Path) -> tuple[int, str, float]:
    """(exit status, output, seconds) of the fuzz under NUMBA_BOUNDSCHECK=1."""
    env = {
        **os.environ,
        "NUMBA_BOUNDSCHECK": "1",
        "NUMBA_CACHE_DIR": str(cache_dir),
        "NOIR_FUZZ_EXAMPLES": str(examples),
    }
    cmd = [sys.executable, "-m", "pytest", FUZZ_FILE, "-q", "-p", "no:cacheprovider", "-x"]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=first_paragraph(__doc__))
    parser.add_argument("--examples", type=int, default=60, help="examples per fuzz test")
    parser.add_argument(
        "--cache-dir",
        type=pathlib.Path,
        default=None,
        help="NUMBA_CACHE_DIR of the bounds-checked kernels "
        "(default: noir_env/__pycache__/boundscheck-numba)",
    )
    args = parser.parse_args()
    code, out, seconds = run(args.examples, args.cache_dir or default_cache_dir())
    print(out[-4000:])
    oob = "IndexError" in out
    print(
        f"NUMBA_BOUNDSCHECK=1 fuzz: {args.examples} examples per test, {seconds:.0f} s, "
        f"exit {code}, out-of-bounds access: {'YES' if oob else 'none'}"
    )
    return 1 if code or oob else 0


if __name__ == "__main__":
    sys.exit(main())
