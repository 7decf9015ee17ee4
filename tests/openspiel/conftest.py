"""The OpenSpiel tests need the `openspiel` extra. Outside `make test` each module skips, with
the reason, where pyspiel is missing; `make test` installs the extra and sets
NOIR_REQUIRE_OPENSPIEL=1, so there a missing pyspiel fails instead of skipping."""

import importlib.util
import os

import pytest

MISSING = "pyspiel is not installed: pip install -e '.[openspiel]'"

if importlib.util.find_spec("pyspiel") is None and os.environ.get("NOIR_REQUIRE_OPENSPIEL") == "1":
    raise RuntimeError(f"NOIR_REQUIRE_OPENSPIEL=1 but {MISSING}")


@pytest.fixture(autouse=True)
def _single_thread(one_thread):
    """Batches of one game: numba's thread team only costs time here."""
    yield
