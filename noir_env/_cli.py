"""argparse with one-line errors for the project's command lines: `prog: error: message` on
stderr and exit code 2, no usage dump and no traceback for a user's mistake."""

from __future__ import annotations

import argparse
from typing import NoReturn


class OneLineErrorParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit with code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")
