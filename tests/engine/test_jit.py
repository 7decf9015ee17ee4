"""The kernel decorator (noir_env/engine/jit.py): one compiled version per kernel, whatever
scalar types its callers pass, and the same results as numba's own njit."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types

from noir_env.engine.jit import kernel, widened


@kernel
def _scaled(x, k, flag):
    return x * k if flag else x - k


@kernel
def _calls_with_mixed_types(a8, a32, out):
    out[0] = _scaled(a8, 2, True)  # int8, literal int, literal bool
    out[1] = _scaled(a32, np.int16(3), False)  # int32, int16, literal bool
    out[2] = _scaled(7, a8, a8 > 0)  # literal int, int8, bool


@kernel
def _state_word(rng):
    return rng ^ (rng >> np.uint64(3))


def test_one_compile_for_every_integer_and_literal_mix():
    out = np.zeros(3, np.int64)
    _calls_with_mixed_types(np.int8(5), np.int32(-4), out)
    assert out.tolist() == [10, -7, 35]
    # what compiled callers typed above asks of the twin they call (the caller itself may
    # have come from the cache, so ask again here): one compiled version for all of it
    callee = _scaled.compiled_callee
    for args in [
        (types.int8, types.IntegerLiteral(2), types.BooleanLiteral(True)),
        (types.int32, types.int16, types.BooleanLiteral(False)),
        (types.IntegerLiteral(7), types.int8, types.boolean),
    ]:
        callee.get_call_template(args, {})
    assert callee.signatures == [(types.int64, types.int64, types.boolean)]


def test_compiled_code_calls_the_twin_without_python_wrappers():
    assert _scaled.compiled_callee is _scaled.compiled_callee
    assert _scaled.compiled_callee.targetoptions["no_cpython_wrapper"]
    assert not _scaled.targetoptions.get("no_cpython_wrapper", False)
    assert _scaled.compiled_callee.py_func.__qualname__ != _scaled.py_func.__qualname__


def test_python_callers_share_the_compiled_version():
    assert _scaled(np.int8(3), np.uint16(4), True) == 12
    assert _scaled(3, 4, False) == -1
    assert _scaled(np.int32(3), 4, np.bool_(False)) == -1
    assert _scaled.signatures == [(types.int64, types.int64, types.boolean)]


def test_uint64_and_non_scalar_types_are_kept():
    assert widened(types.uint64) == types.uint64
    assert widened(types.float32) == types.float32
    arr = types.Array(types.int8, 1, "C")
    assert widened(arr) is arr
    assert widened(types.IntegerLiteral(-1)) == types.int64
    assert widened(types.BooleanLiteral(True)) == types.boolean
    assert widened(types.uint32) == types.int64
    x = np.uint64(2**63 + 12345)
    assert _state_word(x) == njit(_state_word.py_func)(x)
    assert _state_word.signatures == [(types.uint64,)]


@pytest.mark.parametrize("value", [np.int8(-128), np.int16(32767), np.int32(-(2**31))])
def test_widening_keeps_values_exact(value):
    assert _scaled(value, 1, False) == int(value) - 1
