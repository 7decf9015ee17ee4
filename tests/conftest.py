"""Fixtures shared by the test modules."""

import importlib.util

import numba
import pytest

from noir_env.threads import set_threads

# tests/rllib needs Ray RLlib, which pins an older gymnasium: it runs in its own venv
# (.venv-rllib, `make test` runs both); in a venv without ray it is not collected
if importlib.util.find_spec("ray") is None:
    collect_ignore = ["rllib"]


def pytest_configure(config: pytest.Config) -> None:
    # the suite runs with the project's thread choice, as the command lines do
    set_threads()


@pytest.fixture
def one_thread():
    """Small batches on a shared 2-core machine run faster without numba's thread team."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)
