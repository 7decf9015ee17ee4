"""How kernels compile (noir_env/engine/compiling.py): callee twins kept as LLVM IR for their
callers, from a fresh compile and from the cache; call types resolved once and the same as
numba resolves them; numba's default compile with NOIR_NUMBA_PLAIN=1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba.core import types

from noir_env.engine import compiling
from noir_env.engine.jit import KernelDispatcher, kernel

ROOT = Path(__file__).resolve().parents[2]


@kernel
def _checked_half(x):
    if x < 0:
        raise ValueError("a negative count")
    return x // 2


@kernel
def _halves(xs, out):
    for i in range(xs.shape[0]):
        out[i] = _checked_half(xs[i]) + 1


@kernel
def _quarters(xs, out):
    for i in range(xs.shape[0]):
        out[i] = _checked_half(_checked_half(xs[i]))


def _defined(module) -> set[str]:
    return {fn.name for fn in module.functions if not fn.is_declaration}


def test_a_twin_is_ir_for_its_callers_and_no_machine_code():
    out = np.zeros(3, np.int64)
    _halves(np.array([4, 9, 0], np.int64), out)
    assert out.tolist() == [3, 5, 1]
    twin = _checked_half.compiled_callee
    twin.get_call_template((types.int64,), {})  # compiled here or loaded from the cache
    cres = twin.overloads[(types.int64,)]
    if not compiling.ENABLED:
        pytest.skip("numba's default compile (NOIR_NUMBA_PLAIN=1 or internals missing)")
    # what callers link in defines the function; what was made machine code does not
    assert cres.fndesc.llvm_func_name in _defined(cres.library._get_module_for_linking())
    assert not _defined(cres.library._final_module)


def test_an_error_raised_in_a_twin_reaches_python():
    with pytest.raises(ValueError, match="a negative count"):
        _halves(np.array([2, -1], np.int64), np.zeros(2, np.int64))


_CHILD = """
import json, sys
import numpy as np
from tests.engine import test_compiling as t
first, second = np.zeros(2, np.int64), np.zeros(2, np.int64)
t._halves(np.array([6, 11]), first)
if sys.argv[1] == "again":  # a new caller of the twin that the first run cached
    t._quarters(np.array([8, 13]), second)
try:
    t._halves(np.array([-3]), np.zeros(1, np.int64))
    raised = ""
except ValueError as e:
    raised = str(e)
print(json.dumps({"first": first.tolist(), "second": second.tolist(), "raised": raised,
                  "hits": sum(t._checked_half.compiled_callee.stats.cache_hits.values()),
                  "misses": sum(t._halves.stats.cache_misses.values())}))
"""


def _run_child(cache: Path, mode: str, plain: bool = False) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    env.pop("NOIR_NUMBA_PLAIN", None)
    if plain:
        env["NOIR_NUMBA_PLAIN"] = "1"
    done = subprocess.run([sys.executable, "-c", _CHILD, mode], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_twins_from_the_cache_link_into_new_callers(tmp_path):
    fresh = _run_child(tmp_path, "once")
    assert fresh == {"first": [4, 6], "second": [0, 0], "raised": "a negative count",
                     "hits": 0, "misses": 1}  # fmt: skip
    cached = _run_child(tmp_path, "again")  # _halves loaded; _quarters compiled, linking the
    assert cached["first"] == [4, 6] and cached["second"] == [2, 3]  # cached twin
    assert cached["raised"] == "a negative count"
    assert cached["misses"] == 0 and cached["hits"] >= 1


def test_numba_default_compile_with_the_switch(tmp_path):
    plain = _run_child(tmp_path, "again", plain=True)
    assert plain["first"] == [4, 6] and plain["second"] == [2, 3]
    assert plain["raised"] == "a negative count"
    env = dict(os.environ, NOIR_NUMBA_PLAIN="1", PYTHONPATH=str(ROOT))
    code = (
        "from numba.core.types import functions as f; from noir_env.engine import compiling"
        " as c; print(c.ENABLED, f.Function.get_call_type is c._numba_get_call_type)"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert done.stdout.split() == ["False", "True"]


def _doubled_sum(xs):
    total = 0
    for i in range(xs.shape[0]):
        total += xs[i] * 2 + _checked_half(xs[i])
    return total


def _uncached_kernel():
    """A kernel compiled in this process whatever the cache holds (no caching)."""
    return KernelDispatcher(py_func=_doubled_sum, locals={}, targetoptions={"nopython": True})


def test_call_types_are_resolved_once_and_as_numba_resolves_them(monkeypatch):
    if not compiling.ENABLED:
        pytest.skip("numba's default compile (NOIR_NUMBA_PLAIN=1 or internals missing)")
    asked = []
    numba_own = compiling._numba_get_call_type

    def counted(*args):
        asked.append(args)
        return numba_own(*args)

    monkeypatch.setattr(compiling, "_numba_get_call_type", counted)
    xs = np.array([3, 4], np.int64)
    assert _uncached_kernel()(xs) == 14 + 1 + 2
    assert compiling._resolved
    asked.clear()
    assert _uncached_kernel()(xs) == 17  # the same calls typed again: all from the table
    assert asked == []
    for (fnty, context, args, kws), sig in list(compiling._resolved.items())[:300]:
        assert numba_own(fnty, context, args, dict(kws)) == sig
    # outside a kernel's compile numba resolves every call itself
    fnty, context, args, kws = next(iter(compiling._resolved))
    asked.clear()
    fnty.get_call_type(context, args, dict(kws))
    assert asked and asked[0] == (fnty, context, args, dict(kws))
