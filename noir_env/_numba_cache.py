"""Point numba's on-disk cache at a folder keyed by a hash of the kernel sources.

Numba invalidates a cached function only when its own file changes, not when a kernel it
calls in another module does, so an edited callee could silently run stale code. Keying
the cache folder on the content of every kernel module makes that impossible. A
NUMBA_CACHE_DIR set by the user is respected.
"""

import hashlib
import os
import pathlib
import shutil

import numba

_ROOT = pathlib.Path(__file__).parent
_SOURCES = [
    p
    for folder in (_ROOT / "core", _ROOT / "district", _ROOT / "vector", _ROOT.parent / "agents")
    for p in sorted(folder.glob("*.py"))
    if "@njit" in p.read_text() or "@intrinsic" in p.read_text()
]


def _writable(folder: pathlib.Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return os.access(folder, os.W_OK)
    except OSError:
        return False


def source_digest() -> str:
    """A short hash of every kernel module's source: it names the cache folder."""
    return hashlib.sha1(b"".join(p.read_bytes() for p in _SOURCES)).hexdigest()[:12]


def configure() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    digest = source_digest()
    base = _ROOT / "__pycache__"
    if not _writable(base):  # e.g. installed read-only into site-packages
        xdg = os.environ.get("XDG_CACHE_HOME", str(pathlib.Path.home() / ".cache"))
        base = pathlib.Path(xdg) / "noir_env"
    target = base / f"numba-{digest}"
    for old in base.glob("numba-*"):
        if old != target:
            shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
    numba.config.reload_config()
