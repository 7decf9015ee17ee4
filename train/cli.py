"""The command lines of `train`: argparse with one-line errors (`prog: error: message` on
stderr, exit code 2: no usage dump and no traceback for a user's mistake)."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from noir_env._shown import shown

T = TypeVar("T")
USER_ERRORS = (ValueError, TypeError, OSError)  # a bad value or a bad file the user gave


def first_paragraph(doc: str | None) -> str:
    """The first paragraph of a module docstring as one line: a CLI's --help description
    (its first line alone can stop mid-sentence)."""
    return " ".join((doc or "").strip().split("\n\n")[0].split())


MAX_ERROR = 300  # characters of an error message: a value given is shown cut, not whole


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit with code 2."""

    def error(self, message: str) -> NoReturn:
        line = " ".join(message.split("\n"))
        if len(line) > MAX_ERROR:  # e.g. the OS's error naming a path of thousands of bytes
            line = line[: MAX_ERROR - 3] + "..."
        self.exit(2, f"{self.prog}: error: {line}\n")

    def run(self, work: Callable[[], T]) -> T:
        """work(), its user errors (`USER_ERRORS`) reported as one-line parser errors."""
        try:
            return work()
        except USER_ERRORS as e:
            self.error(str(e).splitlines()[0] if str(e) else type(e).__name__)


def dataclass_parser(cls: type, prog: str, description: str, defaults: bool = True) -> Parser:
    """A Parser with one --flag per field of the dataclass `cls` (--no-flag for booleans;
    fields typed int, float, str or bool), each field's docstring as its help. defaults=False:
    flags not given are left out (to tell what the user gave)."""
    parser = Parser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=None if defaults else argparse.SUPPRESS,
    )
    docs = field_docs(cls)
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{docs.get(f.name, '')} (default: {f.default})".strip()
        # argparse %-formats help strings: a literal % in a docstring would garble --help
        help_text = help_text.replace("%", "%%")
        default = f.default if defaults else argparse.SUPPRESS
        if _type_name(f) == "bool":
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=default, help=help_text
            )
        else:
            kind = {"int": int, "float": float, "str": str}[_type_name(f)]
            parser.add_argument(flag, type=kind, default=default, help=help_text)
    return parser


def field_values(cls: type, saved: dict[str, Any], where: str) -> dict[str, Any]:
    """The entries of `saved` (settings read from a file at `where`) that are fields of the
    dataclass `cls` (fields typed int, float, str or bool); ValueError naming `where` and the
    key for a value of another kind (a bool is no int, a string no number)."""
    kinds = {f.name: _type_name(f) for f in dataclasses.fields(cls)}
    values = {k: v for k, v in saved.items() if k in kinds}
    for key, value in values.items():
        kind = kinds[key]
        if kind == "bool" or isinstance(value, bool):
            ok = kind == "bool" and isinstance(value, bool)
        else:
            ok = isinstance(value, {"int": int, "float": int | float, "str": str}[kind])
        if not ok:
            article = "an" if kind == "int" else "a"
            raise ValueError(f"{where}: {shown(key)} must be {article} {kind}, "
                             f"got {shown(value)}")  # fmt: skip
    return values


def _type_name(f: dataclasses.Field) -> str:
    """The type of field `f` as written ("int", "float", "str" or "bool"): a string where
    its class's annotations are (`from __future__ import annotations`), else the type."""
    return f.type if isinstance(f.type, str) else f.type.__name__


def field_docs(cls: type) -> dict[str, str]:
    """The string under each field of the dataclass `cls` (attribute docstrings)."""
    definition = ast.parse(inspect.getsource(cls)).body[0]
    if not isinstance(definition, ast.ClassDef):
        raise TypeError(f"{cls!r} is not a class")
    body = definition.body
    return {
        field.target.id: doc.value.value
        for field, doc in zip(body, body[1:], strict=False)
        if isinstance(field, ast.AnnAssign)
        and isinstance(field.target, ast.Name)
        and isinstance(doc, ast.Expr)
        and isinstance(doc.value, ast.Constant)
        and isinstance(doc.value.value, str)
    }


class FlagCheck:
    """Checks of a settings dataclass whose fields are flags: each failure a ValueError
    "--flag: rule, got value" (a field `num_envs` is the flag --num-envs)."""

    def __init__(self, args: Any):
        self.args = args

    def need(self, ok: bool, flag: str, rule: str) -> None:
        """ValueError naming --flag and its value unless `ok`."""
        if not ok:
            value = getattr(self.args, flag.replace("-", "_"))
            raise ValueError(f"--{flag}: {rule}, got {shown(value)}")

    def run_name(self) -> None:
        """--run-name is a folder name inside runs/."""
        name = self.args.run_name
        run = Path(name)
        self.need(bool(name) and not run.is_absolute() and ".." not in run.parts
                  and bool(run.parts) and name.strip() == name,
                  "run-name", "a folder name inside runs/")  # fmt: skip

    def at_least(self, minimum: int, fields: Iterable[str]) -> None:
        """Each field >= minimum."""
        for field in fields:
            self.need(getattr(self.args, field) >= minimum, field.replace("_", "-"),
                      f"must be >= {minimum}")  # fmt: skip

    def numbers(self, ranges: Iterable[tuple[str, float, float, bool]]) -> None:
        """Each (field, low, high, low included) a finite number in (low, high] or
        [low, high]."""
        for field, low, high, closed_low in ranges:
            v = getattr(self.args, field)
            ok = math.isfinite(v) and (low <= v if closed_low else low < v) and v <= high
            self.need(ok, field.replace("_", "-"),
                      f"a number in {'[' if closed_low else '('}{low}, {high}]")  # fmt: skip
