"""How one hostile probe ended, and the counts of a suite's probes per reader.

A probe gives a reader one hostile input and classifies what happened:

- `CLEAR`: the reader raised its documented error type with a message that says what is
  wrong (not a Python internal's words, not thousands of characters), and left its input as
  it was;
- `ACCEPTED`: the input was in fact legal, and what the reader returned then works (the
  probe's check plays it);
- `CRASH`: anything else: another exception, an unclear message, a changed input, a result
  that does not work, a reader that hangs, or (probes run in a child process) the process
  dying;
- `CODE_RUN`: the input's payload ran: the marker file it writes exists afterwards.
"""

from __future__ import annotations

import os
import pickle
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CLEAR, ACCEPTED, CRASH, CODE_RUN = "clear error", "accepted", "crash", "code run"
OUTCOMES = (CLEAR, ACCEPTED, CRASH, CODE_RUN)
MAX_MESSAGE = 2_000  # a longer message echoes its input instead of naming the problem
SLOW_S = 10.0  # a reader taking longer on one input is not bounded by its input's size
# words of Python's own errors: a message holding them reports a reader's bug, not the input
INTERNAL_WORDS = (
    "object is not subscriptable", "unhashable type", "invalid literal for int()",
    "could not convert", "setting an array element", "has no attribute",
    "object is not iterable", "not supported between instances", "list index out of range",
    "Python int too large", "out of bounds for", "cannot convert float",
    "must be real number", "object cannot be interpreted", "maximum recursion depth",
    "'NoneType' object", "argument must be",
)  # fmt: skip


@dataclass(frozen=True)
class Probe:
    """One hostile input for one reader: `run` gives it to the reader and classifies what
    happened (`make` builds the input, `read` reads it, `check` plays an accepted result,
    `errors` are the reader's documented error types)."""

    reader: str
    label: str
    make: Callable[[], Any]
    read: Callable[[Any], Any]
    check: Callable[[Any], None]
    errors: tuple[type[BaseException], ...] = (ValueError,)

    def run(self, marker: str) -> Result:
        """The probe's result (`marker`: the file a payload would write)."""
        return probe(self.reader, self.label, self.make, self.read, self.check, self.errors,
                     marker)  # fmt: skip


@dataclass(frozen=True)
class Result:
    """What one probe found."""

    reader: str
    label: str
    outcome: str
    detail: str = ""


@dataclass
class Tally:
    """Probe results per reader; `findings` keeps the crashes and code runs."""

    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    findings: list[Result] = field(default_factory=list)

    def add(self, result: Result) -> None:
        row = self.counts.setdefault(result.reader, dict.fromkeys(OUTCOMES, 0))
        row[result.outcome] += 1
        if result.outcome in (CRASH, CODE_RUN):
            self.findings.append(result)

    def merge(self, other: Tally) -> None:
        for reader, row in other.counts.items():
            mine = self.counts.setdefault(reader, dict.fromkeys(OUTCOMES, 0))
            for k, v in row.items():
                mine[k] += v
        self.findings += other.findings

    def tried(self, reader: str) -> int:
        return sum(self.counts.get(reader, {}).values())

    def table(self) -> str:
        """The counts as a text table: reader x tried / clear error / accepted / crash /
        code run."""
        head = f"{'reader':<28}{'tried':>8}" + "".join(f"{o:>13}" for o in OUTCOMES)
        lines = [head, "-" * len(head)]
        for reader, row in self.counts.items():
            cells = "".join(f"{row[o]:>13}" for o in OUTCOMES)
            lines.append(f"{reader:<28}{self.tried(reader):>8}{cells}")
        return "\n".join(lines)

    def assert_clean(self) -> None:
        """AssertionError listing the findings (crashes, code runs), if any."""
        if self.findings:
            shown = "\n".join(f"  {r.reader} / {r.label}: {r.outcome}: {r.detail}"
                              for r in self.findings[:20])  # fmt: skip
            raise AssertionError(f"{len(self.findings)} hostile inputs were not refused "
                                 f"cleanly:\n{shown}")  # fmt: skip


def unclear(message: str) -> str:
    """Why an error message does not say what is wrong ("" if it does)."""
    if not message.strip():
        return "an empty message"
    if len(message) > MAX_MESSAGE:
        return f"a message of {len(message):,} characters"
    for words in INTERNAL_WORDS:
        if words in message:
            return f"Python's own words ({words!r})"
    return ""


def fingerprint(value: Any) -> bytes | None:
    """Bytes that change if `value` is changed (None if it cannot be taken)."""
    try:
        return pickle.dumps(value)
    except (RecursionError, pickle.PicklingError, TypeError, AttributeError):
        return None


def probe(reader: str, label: str, make: Callable[[], Any], read: Callable[[Any], Any],
          check: Callable[[Any], None], errors: tuple[type[BaseException], ...],
          marker: str) -> Result:  # fmt: skip
    """Build the input (`make`), give it to `read`, and classify what happened (module
    docstring); `check` plays an accepted result (raising if it does not work), `errors`
    are the reader's documented error types, `marker` the file a payload would write."""
    data = make()
    before = fingerprint(data)
    start = time.perf_counter()
    try:
        result = read(data)
    except errors as err:
        outcome, detail = CLEAR, str(err).split("\n")[0][:200]
        why = unclear(str(err))
        if why:
            outcome, detail = CRASH, f"{type(err).__name__} with {why}: {str(err)[:200]!r}"
    except RecursionError:
        outcome, detail = CRASH, "RecursionError"
    except Exception as err:  # noqa: BLE001 - any other error is what the probe looks for
        outcome, detail = CRASH, _where(err)
    else:
        outcome, detail = ACCEPTED, ""
        try:
            check(result)
        except Exception as err:  # noqa: BLE001
            outcome, detail = CRASH, f"accepted, but then fails: {_where(err)}"
    took = time.perf_counter() - start
    if outcome != CRASH and took > SLOW_S:
        outcome, detail = CRASH, f"took {took:.1f} s"
    if outcome == CLEAR and before is not None and fingerprint(data) != before:
        outcome, detail = CRASH, "the reader changed its input"
    if os.path.exists(marker):
        os.unlink(marker)
        outcome, detail = CODE_RUN, "the payload wrote its marker file"
    return Result(reader, label, outcome, detail)


def _where(err: BaseException) -> str:
    """The error and the innermost frame of this project that raised it."""
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if any(p in f.filename for p in ("noir_env", "agents", "train", "tests"))
              and "hostile" not in f.filename]  # fmt: skip
    at = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{type(err).__name__}: {str(err)[:160]}{at}"
