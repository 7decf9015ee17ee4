"""The OpenSpiel tests need the `openspiel` extra (OpenSpiel and Shimmy). Outside `make test`
each module skips, with the reason, where pyspiel or shimmy is missing; `make test` installs
the extra and sets NOIR_REQUIRE_OPENSPIEL=1, so there a missing one fails instead of
skipping."""

import importlib.util
import os

import pytest

if os.environ.get("NOIR_REQUIRE_OPENSPIEL") == "1":
    for module in ("pyspiel", "shimmy"):
        if importlib.util.find_spec(module) is None:
            raise RuntimeError(f"NOIR_REQUIRE_OPENSPIEL=1 but {module} is not installed: "
                               "pip install -e '.[openspiel]'")  # fmt: skip


@pytest.fixture(autouse=True)
def _single_thread(one_thread):
    """Batches of one game: numba's thread team only costs time here."""
    yield
