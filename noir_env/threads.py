"""One threading choice for the whole project: how many threads numba's parallel loops
(the batched agents' `prange` kernels) and torch use in this process.

The default is 1, or the environment variable NOIR_THREADS. Measured on a 2-core machine:
with a training run, a compile and tests beside it, two threads ran train.ppo at 2,100-2,600
learner decisions/s and one thread at 10,400-10,600 (MaskablePPO 580 vs 1,500); idle, two
numba threads gave 230k decisions/s of the vector env against 160k for one. A busy machine
is the common case here (training, compiling and testing share two cores), so one thread is
the default; `set_threads(2)` or NOIR_THREADS=2 on an idle machine. Importing the packages
changes no thread count: the command lines apply the choice (train.ppo and train.sb3_ppo
from their --threads flag, the others the default), and so do the benchmarks and the tests.
"""

from __future__ import annotations

import os
import sys

_ENV = "NOIR_THREADS"


def default_threads() -> int:
    """NOIR_THREADS if set (a positive int), else 1; ValueError naming it if malformed."""
    raw = os.environ.get(_ENV, "1")
    try:
        n = int(raw)
    except ValueError:
        raise ValueError(f"{_ENV} must be a positive integer, got {raw!r}") from None
    if n < 1:
        raise ValueError(f"{_ENV} must be a positive integer, got {raw!r}")
    return n


def set_threads(n: int | None = None) -> int:
    """Use `n` threads (None: `default_threads()`) in numba's parallel loops (at most the
    NUMBA_NUM_THREADS numba started with) and, if torch is imported, in torch. Returns n."""
    if n is None:
        n = default_threads()
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"threads must be a positive int, got {n!r}")
    import numba

    # numba.config sets its options from the environment at import: the checker cannot see them
    numba.set_num_threads(min(n, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    if "torch" in sys.modules:  # never import torch just to configure it
        sys.modules["torch"].set_num_threads(n)
    return n


PARALLEL_MIN = 64  # below this many rows a serial loop beats numba's thread launch


def use_parallel(rows: int) -> bool:
    """Whether a batched kernel of `rows` rows runs its threaded (`prange`) twin: at least
    `PARALLEL_MIN` rows and more than one thread in use. With one thread the serial twin does
    the same work at the same speed, and the threaded one is never compiled."""
    import numba

    return rows >= PARALLEL_MIN and numba.get_num_threads() > 1
