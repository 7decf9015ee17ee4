# mypy: disable-error-code="misc"
# (the variants are lambdas binding their loop values as defaults, whose types mypy does
# not infer)
"""Hostile variants of a record read from outside, derived from a real one: every node of a
JSON-like tree (dicts, lists, strings, numbers) replaced by a value of the wrong type, of the
wrong shape or out of range, removed, duplicated, nested very deeply or made huge, and
unknown keys added. Nothing here knows a game: the integer bounds tried come from the
record dtypes of the game's state (`int_edges`), the rest from the tree itself.

A variant is built when it is tried (`Variant.build`), so a list of thousands of them, some
of megabytes, costs nothing until then.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Path = tuple[Any, ...]  # dict keys and list indices from the root to a node
DEEP = 100_000  # nesting of a deep variant: far past Python's recursion limit
HUGE = 1_000_000  # entries of a huge list, characters of a huge string
MISSING = object()  # a `Variant.value` that removes the node


@dataclass(frozen=True)
class Variant:
    """One hostile variant of a tree: what the node at `path` becomes (`label` says what)."""

    path: Path
    label: str
    make: Callable[[], Any]  # the node's new value, or MISSING

    def build(self, tree: Any) -> Any:
        """`tree` with this variant applied (containers along the path copied, the rest
        shared: the original is never changed)."""
        return replaced(tree, self.path, self.make())

    def where(self) -> str:
        """The node's path as a reader's message would name it ("players[1].money")."""
        return path_text(self.path)


def path_text(path: Path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<root>"


def replaced(tree: Any, path: Path, value: Any) -> Any:
    """`tree` with the node at `path` replaced by `value` (MISSING: removed)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        out: Any = dict(tree)
    else:
        out = list(tree)
    if rest:
        out[head] = replaced(tree[head], rest, value)
    elif value is MISSING:
        del out[head]
    else:
        out[head] = value
    return out


def nodes(tree: Any, most_per_list: int = 3) -> Iterator[tuple[Path, Any]]:
    """Every node of `tree` with its path, root first; of a long list only its first,
    middle and last entries (the others are read by the same code)."""
    todo: list[tuple[Path, Any]] = [((), tree)]
    while todo:
        path, node = todo.pop()
        yield path, node
        if isinstance(node, dict):
            todo.extend(((*path, k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list) and node:
            picks = sorted({0, len(node) // 2, len(node) - 1})[:most_per_list]
            todo.extend(((*path, k), node[k]) for k in reversed(picks))


def int_edges(dtype: np.dtype) -> list[int]:
    """The integers just inside and just outside every integer type of a record dtype's
    fields, and beyond any of them: where a value stops fitting the state."""
    kinds = set()
    for name in dtype.names or ():
        base = dtype[name].base
        if base.kind in "iu":
            kinds.add(base)
    edges = {2**63, 2**64, -(2**63) - 1, 10**30}
    for k in kinds:
        info = np.iinfo(k)
        edges.update({int(info.min) - 1, int(info.max), int(info.max) + 1})
    return sorted(edges)


def deep_list() -> list:
    """A list nested `DEEP` levels."""
    out: list = []
    for _ in range(DEEP):
        out = [out]
    return out


def deep_dict(key: str) -> dict:
    """A dict nested `DEEP` levels under `key`."""
    out: dict = {}
    for _ in range(DEEP):
        out = {key: out}
    return out


def code_payload(marker: str) -> str:
    """A string that writes `marker` if some reader evaluates or formats it as code."""
    return f"__import__('pathlib').Path({marker!r}).touch()"


def _wrong_types(marker: str) -> list[tuple[str, Callable[[], Any]]]:
    return [
        ("null", lambda: None),
        ("true", lambda: True),
        ("false", lambda: False),
        ("float 1.5", lambda: 1.5),
        ("NaN", lambda: math.nan),
        ("inf", lambda: math.inf),
        ("-inf", lambda: -math.inf),
        ("string 'x'", lambda: "x"),
        ("empty string", lambda: ""),
        ("empty list", lambda: []),
        ("empty dict", lambda: {}),
        ("code string", lambda: code_payload(marker)),
        ("deep list", deep_list),
        ("deep dict", lambda: deep_dict("a")),
    ]


def variants(tree: Any, edges: list[int], marker: str) -> list[Variant]:
    """The hostile variants of `tree` (module docstring); `edges`: the integers to try for
    every integer (`int_edges`), `marker`: the file a code payload would write."""
    out = []
    for path, node in nodes(tree):

        def add(label: str, make: Callable[[], Any], path: Path = path) -> None:
            out.append(Variant(path, label, make))

        for label, make in _wrong_types(marker):
            if not _same(node, label):
                add(label, make)
        if path:
            add("missing", lambda: MISSING)
        if isinstance(node, bool):
            add("0 for a bool", lambda: 0)
            add("2 for a bool", lambda: 2)
        elif isinstance(node, int):
            for v in (node - 1, node + 1, -node - 1, *edges):
                add(f"int {v}", lambda v=v: v)
            add("int as float", lambda n=node: float(n))
            add("int as string", lambda n=node: str(n))
        elif isinstance(node, float):
            add("float as string", lambda n=node: str(n))
            add("1e308", lambda: 1e308)
        elif isinstance(node, str):
            add("changed string", lambda n=node: n + "_x")
            add("string with NUL", lambda n=node: n + "\x00")
            add("huge string", lambda: "A" * HUGE)
            add("string as list", lambda n=node: [n])
        elif isinstance(node, list):
            _list_variants(node, add)
        elif isinstance(node, dict):
            add("unknown key", lambda n=node: {**n, "zz_unknown": 1})
            add("non-string key", lambda n=node: {**n, 1: 1})
            add("dict as list", lambda n=node: list(n.values()))
    return out


def _list_variants(node: list, add: Callable[..., None]) -> None:
    if node:
        add("last entry dropped", lambda n=node: n[:-1])
        add("last entry twice", lambda n=node: [*n, n[-1]])
        add("reversed", lambda n=node: n[::-1])
        add("huge list", lambda n=node: [n[0]] * HUGE)
    else:
        add("one null entry", lambda: [None])
        add("huge list of zeros", lambda: [0] * HUGE)
    add("list as dict", lambda n=node: {str(k): v for k, v in enumerate(n)})


_PLAIN: dict[str, Any] = {
    "null": None, "true": True, "false": False, "float 1.5": 1.5, "string 'x'": "x",
    "empty string": "", "empty list": [], "empty dict": {},
}  # fmt: skip


def _same(node: Any, label: str) -> bool:
    """Whether a wrong-type value would equal the node (no variant then)."""
    if label not in _PLAIN:
        return False
    value = _PLAIN[label]
    return type(value) is type(node) and value == node


def text_variants(text: str, marker_payload: str) -> list[tuple[str, Callable[[], Any]]]:
    """Byte-level hostile variants of a serialized record: truncated, garbled, huge, deeply
    nested, not text, and a code payload in the place of the record."""
    cuts = sorted({0, 1, len(text) // 3, len(text) // 2, len(text) - 1})
    out: list[tuple[str, Callable[[], Any]]] = [
        (f"truncated to {c} chars", lambda c=c: text[:c]) for c in cuts
    ]
    rng = np.random.default_rng(len(text))
    for _ in range(4):
        at = int(rng.integers(len(text)))
        out.append((f"byte {at} garbled", lambda at=at: text[:at] + "\x07}" + text[at + 1 :]))
    out += [
        ("twice", lambda: text + text),
        ("huge", lambda: text + " " * (HUGE * 16)),
        ("deep [", lambda: "[" * DEEP + "]" * DEEP),
        ("deep {", lambda: '{"a":' * DEEP + "1" + "}" * DEEP),
        ("NaN literal", lambda: text.replace("0", "NaN", 1)),
        ("bytes", lambda: text.encode()),
        ("None", lambda: None),
        ("int", lambda: 7),
        ("code payload", lambda: marker_payload),
        ("empty", lambda: ""),
        ("NUL bytes", lambda: "\x00" * 64),
        ("not UTF-8 surrogate", lambda: text + "\udcff"),
    ]
    return out
