"""The hostile-input suite of the game protocol, shipped with the package beside the API test
(`noir_env.testing.check_game`), so a new game gets it:

    from noir_env.hostile import check_hostile_inputs
    tally = check_hostile_inputs(get_game("my_game"), sample=200)
    print(tally.table())
    tally.assert_clean()        # AssertionError listing every crash and code run

It plays a real position of the game and derives hostile variants of everything the game
reads from outside (`games.py`): its state dict (every field given a wrong type, a wrong
shape, an out-of-range value (the integer edges of the state's record dtypes), NaN, inf,
bools, strings, huge and deeply nested values, removed, with unknown keys), its OpenSpiel
state string (the same, and truncated, garbled, huge, nested, a pickle payload), its AEC
history and text replies to its prompt, where the game has them. Each probe is classified
(`outcomes.py`): a clear error, accepted (and then played, to check it was legal), a crash
or code run. Probes run in child processes (`isolate.py`), so a record that kills the
process in a compiled kernel is counted, not fatal. `bench/hostile.py` runs every probe of
every game and the readers above the games (policy files, tables, checkpoints, CLI flags).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import numpy as np

from ..engine.protocol import Game
from .games import probes
from .isolate import run_isolated
from .outcomes import ACCEPTED, CLEAR, CODE_RUN, CRASH, OUTCOMES, Probe, Result, Tally

__all__ = ["ACCEPTED", "CLEAR", "CODE_RUN", "CRASH", "OUTCOMES", "Probe", "Result", "Tally",
           "check_hostile_inputs", "game_probe_count"]  # fmt: skip


def game_probe_count(game: Game, seed: int = 0) -> int:
    """How many probes the suite has for `game` (its full count)."""
    return len(probes(game, seed, os.devnull))


def check_hostile_inputs(game: Game, sample: int | None = None, seed: int = 0,
                         isolate: bool = True,
                         progress: Callable[[int, int], None] | None = None) -> Tally:  # fmt: skip
    """Run the hostile probes of `game` (module docstring) and count their outcomes per
    reader. sample: that many probes drawn at random (by `seed`) from the full list (None:
    all); isolate: in child processes (False: in this one, for a game whose module the
    child cannot import; a crash of a compiled kernel then ends this process);
    progress(done, total) is called as probes finish. Call `assert_clean()` on the result
    to fail on a crash or a code run."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:
        marker = os.path.join(folder, "payload-ran")
        listed = probes(game, seed, marker)
        indices = list(range(len(listed)))
        if sample is not None and sample < len(listed):
            rng = np.random.default_rng(seed)
            indices = sorted(rng.choice(len(listed), sample, replace=False).tolist())
        total = len(indices)
        report = (lambda done: progress(done, total)) if progress else None
        if isolate:
            results = run_isolated("noir_env.hostile.games:probes_of",
                                   {"game": game.name, "seed": seed}, marker, indices,
                                   imports=[type(game).__module__], progress=report)  # fmt: skip
        else:
            results = []
            for k in indices:
                results.append(listed[k].run(marker))
                if report:
                    report(len(results))
    tally = Tally()
    for r in results:
        tally.add(r)
    return tally
