"""The threaded (`prange`) kernels of the shell play as the serial ones. They run only with
more than one thread (`noir_env.threads.use_parallel`), so they are chosen by hand here."""

import numpy as np

from noir_env import core
from noir_env.engine import batch
from noir_env.threads import PARALLEL_MIN, use_parallel


def test_threads_are_used_for_large_batches_only_with_several_threads(monkeypatch):
    import numba

    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    assert not use_parallel(10_000)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    assert use_parallel(PARALLEL_MIN) and not use_parallel(PARALLEL_MIN - 1)


def play(threaded: bool, monkeypatch) -> tuple[bytes, list[np.ndarray]]:
    """Deal, three steps, a random playout: every batched kernel of the shell."""
    monkeypatch.setattr(batch, "use_parallel", lambda n: threaded)
    state = core.init(8, np.arange(8) % 4 + 3, seeds=np.arange(8))
    outs = []
    for _ in range(3):
        outs += core.step(state, np.argmax(core.legal_action_mask(state), axis=1))
    res = core.random_playout(state, seed=3, max_steps=50, check=True)
    return state.tobytes(), outs + [res.steps, res.forced, res.rewards, res.violation]


def test_the_threaded_deal_step_and_playout_equal_the_serial_ones(monkeypatch):
    serial, threaded = play(False, monkeypatch), play(True, monkeypatch)
    assert serial[0] == threaded[0]
    assert all((a == b).all() for a, b in zip(serial[1], threaded[1], strict=True))
