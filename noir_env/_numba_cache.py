"""numba's on-disk cache, invalidated per module: by its own source and what it imports.

Numba stamps a cached function with a hash of its own file only, so an edited callee in
another module could silently run stale code. `ProjectCacheLocator` stamps each function of
the project instead with a hash of its module's source and of every project module that
module imports, directly or not (resolved from the import statements). Editing one kernel
therefore recompiles that module and the modules that depend on it (seconds for a leaf such
as `agents/random_agent.py`), not every kernel of the project.

The cache lives in `noir_env/__pycache__/numba/` (or `$XDG_CACHE_HOME/noir_env/numba/` where
the package is read-only); a `NUMBA_CACHE_DIR` set by the user is used instead.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import pathlib
import shutil

from numba.core import caching

_ROOT = pathlib.Path(__file__).resolve().parent  # noir_env/
_PROJECT = _ROOT.parent
_PACKAGES = ("noir_env", "agents")  # top-level packages whose modules hold kernels
# modules whose kernels compile in the kernels of whichever game they are given (the engine's
# shell and lockstep loops): stamped with every module that binds a game's kernels, and
# what those import, tests included
_GAME_GENERIC = ("noir_env/engine/lockstep.py", "noir_env/engine/shell.py")
_GAME_HOMES = ("noir_env", "tests")  # games live in the package (and its tests), never in agents


def _module_file(dotted: str) -> pathlib.Path | None:
    """The source file of a project module or package, or None if it is not one of ours."""
    if dotted.split(".")[0] not in _PACKAGES:
        return None
    path = _PROJECT.joinpath(*dotted.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def _dotted_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(_PROJECT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _direct_imports(path: pathlib.Path) -> tuple[pathlib.Path, ...]:
    """Project modules that the file at `path` imports (anywhere in it)."""
    name = _dotted_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[pathlib.Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import name`: the submodule pkg.name where there is one, else pkg
            targets = [
                f"{base}.{a.name}" if _module_file(f"{base}.{a.name}") else base for a in node.names
            ]
        else:
            continue
        found.update(f for t in targets if (f := _module_file(t)) is not None)
    found.discard(path)
    return tuple(sorted(found))


def _binds_kernels(path: pathlib.Path) -> bool:
    """Whether the module lends a game's kernels to the engine (`GameKernels(...)`): with
    what it imports, the modules a game-generic kernel compiles in."""
    return b"GameKernels(" in path.read_bytes()


@functools.cache
def module_stamp(path: pathlib.Path) -> str:
    """A hash of the module at `path` and of every project module it imports, transitively
    (of every module a game may live in, for the game-generic modules)."""
    seen: set[pathlib.Path] = set()
    todo = [path]
    if str(path.relative_to(_PROJECT)) in _GAME_GENERIC:
        todo += [
            p for home in _GAME_HOMES for p in (_PROJECT / home).rglob("*.py") if _binds_kernels(p)
        ]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(_direct_imports(current))
    digest = hashlib.sha256()
    for p in sorted(seen):
        digest.update(str(p.relative_to(_PROJECT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_base() -> pathlib.Path:
    """The folder that holds the project's compiled kernels."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return pathlib.Path(os.environ["NUMBA_CACHE_DIR"])
    base = _ROOT / "__pycache__"
    try:
        base.mkdir(parents=True, exist_ok=True)
        writable = os.access(base, os.W_OK)
    except OSError:
        writable = False
    if not writable:  # e.g. installed read-only into site-packages
        xdg = os.environ.get("XDG_CACHE_HOME", str(pathlib.Path.home() / ".cache"))
        base = pathlib.Path(xdg) / "noir_env"
    return base / "numba"


class ProjectCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Caches the project's kernels under `cache_base()`, stamped by `module_stamp`."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        subpath = pathlib.Path(py_file).resolve().parent.relative_to(_PROJECT)
        self._cache_path = str(cache_base() / subpath)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return module_stamp(pathlib.Path(self._py_file).resolve())

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            pathlib.Path(py_file).resolve().relative_to(_PROJECT)
        except ValueError:
            return None
        if pathlib.Path(py_file).resolve().parts[len(_PROJECT.parts)] not in _PACKAGES:
            return None
        return super().from_function(py_func, py_file)


def configure() -> None:
    """Put `ProjectCacheLocator` first in numba's locators (idempotent); call it before any
    kernel module is imported. Removes the caches of the former whole-project scheme."""
    # renamed in numba 0.61; the ignore: the installed numba's stubs know the new name only
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # type: ignore[attr-defined]
    locators = impl._locator_classes
    if ProjectCacheLocator not in locators:
        locators.insert(0, ProjectCacheLocator)
        for old in (_ROOT / "__pycache__").glob("numba-*"):  # former scheme: numba-<digest>
            shutil.rmtree(old, ignore_errors=True)
