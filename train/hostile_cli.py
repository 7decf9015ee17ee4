# mypy: disable-error-code="misc"
# (the variants are lambdas binding their loop values as defaults, whose types mypy does
# not infer)
"""The hostile probes of the train.* command lines: every flag of every CLI with values it
must refuse (wrong types, NaN and inf, huge numbers, values outside the choices, empty,
control characters, code payloads, a missing value, a value given to a switch). The flags
are read from each CLI's own parser (captured when its `main` parses), so a new flag is
probed without listing it. A refusal must be what a user's mistake gets: exit status 2 and
one line on stderr, no traceback. A value the CLI accepts is counted as accepted: the CLI
starts its work, which is stopped after `WORK_S` seconds (run the probes in a scratch
folder: the work writes there).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import signal
from collections.abc import Callable, Sequence
from typing import Any

from noir_env.hostile.outcomes import Probe
from noir_env.hostile.values import code_payload

CLIS = ("compare", "curves", "dataset", "demo", "evaluate", "export_policy", "play", "ppo",
        "replay", "rllib_ppo", "sb3_ppo", "soup", "rllib.export")  # fmt: skip
WORK_S = 3  # an accepted value's work runs this long before it is stopped


class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser):
        self.parser = parser


class _Stopped(Exception):
    """The work an accepted value started, stopped after `WORK_S` seconds."""


def cli_parser(module: Any) -> argparse.ArgumentParser:
    """The first parser `module.main` parses its command line with (nothing runs)."""
    original = argparse.ArgumentParser.parse_known_args

    def capture(self, *args, **kwargs):
        raise _Captured(self)

    argparse.ArgumentParser.parse_known_args = capture  # type: ignore[method-assign]
    try:
        module.main([])
    except _Captured as got:
        return got.parser
    finally:
        argparse.ArgumentParser.parse_known_args = original  # type: ignore[method-assign]
    raise ValueError(f"{module.__name__}.main parsed no command line")


def bad_values(action: argparse.Action, marker: str) -> list[str]:
    """Values the option of `action` must refuse, by its type and choices."""
    common = ["\x00", "\x1b[2J", code_payload(marker), f"$(touch {marker})"]
    if action.choices is not None:
        return ["nope", "", *common]
    if action.type is int:
        return ["x", "2.5", "", "1e999", "0x10", "9" * 30, "-" + "9" * 30, *common]
    if action.type is float:
        return ["x", "nan", "inf", "-inf", "1e999", "", *common]
    return ["", "-", "x" * 5000, *common]


def cli_probes(marker: str, clis: Sequence[str] = CLIS) -> list[Probe]:
    """Every hostile command line of the train.* CLIs `clis` (module docstring)."""
    out = []
    for name in clis:
        try:
            module = importlib.import_module(f"train.{name}")
            parser = cli_parser(module)
        except ImportError:  # an optional dependency missing (rllib): no CLI to probe
            continue
        required = [a for a in parser._actions if not a.option_strings and a.required
                    and a.nargs not in ("?", "*")]  # fmt: skip
        # a stand-in for each positional argument, so that the flag is what is wrong
        base = ["runs/none" for _ in required]
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction) or not action.option_strings:
                continue
            flag = action.option_strings[-1]
            if action.nargs == 0:
                argvs = [[f"{flag}=x"]]
            else:
                argvs = [[flag, v] for v in bad_values(action, marker)] + [[flag]]
            for argv in argvs:
                shown = " ".join(a if len(a) < 40 else a[:12] + "..." for a in argv)
                out.append(Probe(f"CLI train.{name}", shown, lambda a=base + argv: a,
                                 _runner(module.main), lambda r: None, (_Refused,)))  # fmt: skip
    return out


class _Refused(Exception):
    """The CLI refused its command line as a user's mistake should be refused."""


def _runner(main: Callable[[list[str]], Any]) -> Callable[[list[str]], Any]:
    def run(argv: list[str]) -> Any:
        err = io.StringIO()

        def stop(*_: Any) -> None:
            raise _Stopped

        previous = signal.signal(signal.SIGALRM, stop)
        signal.alarm(WORK_S)
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(argv)
        except SystemExit as exit_:
            code = exit_.code
        except _Stopped:
            return "work started"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        if code in (0, None):
            return "exit 0"
        text = err.getvalue()
        lines = text.strip("\n").split("\n")
        if code == 2 and len(lines) == 1 and "error: " in text:
            raise _Refused(lines[0])
        raise RuntimeError(f"exit {code} with {len(lines)} lines on stderr: {text[-300:]!r}")

    return run
