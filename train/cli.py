"""The command lines of `train`: argparse with one-line errors (`prog: error: message` on
stderr, exit code 2: no usage dump and no traceback for a user's mistake)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn, TypeVar

T = TypeVar("T")
USER_ERRORS = (ValueError, TypeError, OSError)  # a bad value or a bad file the user gave


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit with code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def run(self, work: Callable[[], T]) -> T:
        """work(), its user errors (`USER_ERRORS`) reported as one-line parser errors."""
        try:
            return work()
        except USER_ERRORS as e:
            self.error(str(e).splitlines()[0] if str(e) else type(e).__name__)
