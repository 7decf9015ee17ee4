"""`borrowed`: an array view that numba does not reference-count, for the kernels' hot paths.

An array that comes from Python carries a NRT meminfo, and numba increments and decrements
its count (atomic `lock inc/dec`) every time the array is passed to a compiled function that
is not inlined. The rules core passes the state array `s` through dozens of such calls per
decision: measured with perf, those atomics took about 40% of a serial random playout's time.
A view whose meminfo is null skips them (numba's NRT_incref/NRT_decref return at once on
null). Measured: a serial playout 20-27% faster, the parallel playout loop unchanged, the
vector env at N=4096 (parallel, many calls per learner step) 15-20% faster.

The caller keeps the original array alive for as long as the view is used: take the view at
the top of a kernel's per-game function, use it there and in what that calls, never store or
return it.
"""

from collections.abc import Callable
from typing import Any, cast

import numba
from numba.core import types
from numba.extending import intrinsic


def _identity(arr):
    return arr


@intrinsic
def _borrowed(typingctx, arr):
    """The same array (same data, shape, strides and type) with a null meminfo."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = context.get_constant_null(types.MemInfoPointer(arr.dtype))
        return view._getvalue()

    return sig, codegen


# without the JIT (NUMBA_DISABLE_JIT=1) there is no reference count to skip. The cast: numba's
# stubs give an intrinsic the parameters of its typing function (typingctx, arr), where a
# kernel calls it with the array alone; the ignore: numba.config sets its options from the
# environment at import, which the checker cannot see
borrowed = (
    _identity
    if numba.config.DISABLE_JIT  # type: ignore[attr-defined]
    else cast("Callable[[Any], Any]", _borrowed)
)
