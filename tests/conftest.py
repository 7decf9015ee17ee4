"""Fixtures shared by the test modules."""

import numba
import pytest


@pytest.fixture
def one_thread():
    """Small batches on a shared 2-core machine run faster without numba's thread team."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)
