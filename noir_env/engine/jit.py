"""The project's compile decorator: `kernel`, numba's `njit(cache=True)` compiling each kernel
for one type per argument.

numba compiles a function once per distinct tuple of argument types, and callers pass many
for the same argument: an int8 field of the state, an int64 loop index, an int32 counter, a
literal 0, a literal True. Each distinct tuple is a compile of its own, as costly as the
first, of code that does the same thing. A kernel widens the scalar types it is called with
before it compiles: every signed integer, every unsigned one narrower than 64 bits and every
integer literal becomes int64, a boolean literal a boolean (uint64, the random generators'
state, stays). The caller converts its arguments to those types (a conversion numba makes
exactly, and only where a narrower value is widened), so one compiled version serves every
call site, from compiled code (`get_call_template`) and from Python (`typeof_pyval`).

Compiled code calls a kernel's *callee twin* (`KernelDispatcher.compiled_callee`): the same
function compiled without the two wrappers numba builds so that Python (and C) can call it,
which compiled callers never use and which cost a good part of each compile, and kept as
LLVM IR for its callers to link in (`compiling.py`). Python calls go to the kernel itself,
with its wrappers; a twin cannot be called from Python. A kernel that both call is compiled
once for each; the twin is cached under a name of its own.

    @kernel
    def f(s, i): ...

    @kernel(inline="always")      # numba's options: inline, parallel
    def g(s, i): ...
"""

from __future__ import annotations

import types as types_module
from collections.abc import Callable
from typing import Any

from numba.core import config, types
from numba.core.registry import CPUDispatcher

from .._numba_cache import configure as _configure_numba_cache
from . import compiling

_configure_numba_cache()  # before the first kernel is created


def widened(t: Any) -> Any:
    """The type a kernel is compiled for when called with an argument of type `t`."""
    if isinstance(t, types.BooleanLiteral):
        return types.boolean
    if isinstance(t, types.IntegerLiteral):
        t = t.literal_type
    if isinstance(t, types.Integer):
        integer: Any = t  # numba's hints do not declare these attributes
        if integer.signed or integer.bitwidth < 64:
            return types.int64
    return t


class _WideningDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, compiling for the widened argument types."""

    def get_call_template(self, args, kws):
        _, folded = self._compiler.fold_argument_types(args, kws)  # type: ignore[attr-defined]
        return super().get_call_template(tuple(widened(a) for a in folded), {})

    def typeof_pyval(self, val):
        return widened(super().typeof_pyval(val))

    def compile(self, sig):
        with compiling.kernel_compile():
            return super().compile(sig)


class KernelDispatcher(_WideningDispatcher):
    """A kernel: called from Python with its wrappers; compiled code sees its callee twin."""

    _twin: Any = None  # the callee twin, made on first use

    @property
    def compiled_callee(self) -> _WideningDispatcher:
        """The dispatcher compiled code calls: this function without the Python wrappers."""
        if self._twin is None:
            f = self.py_func
            twin = types_module.FunctionType(f.__code__, f.__globals__, f.__name__,
                                             f.__defaults__, f.__closure__)  # fmt: skip
            twin.__qualname__ = f"{f.__qualname__}.callee"  # its own cache files
            twin.__module__, twin.__doc__ = f.__module__, f.__doc__
            options = dict(self.targetoptions, no_cpython_wrapper=True, no_cfunc_wrapper=True)
            self._twin = _WideningDispatcher(
                py_func=twin,
                locals={},
                targetoptions=options,
                pipeline_class=compiling.TWIN_PIPELINE,
            )
            self._twin.enable_caching()
        return self._twin

    @property
    def _numba_type_(self):
        return types.Dispatcher(self.compiled_callee)


def kernel(fn: Callable | None = None, **options: Any) -> Any:
    """Compile `fn` in nopython mode, cached on disk, once per widened signature. `options`
    are numba's (`inline="always"`, `parallel=True`)."""

    def wrap(f: Callable) -> Any:
        if config.DISABLE_JIT:  # type: ignore[attr-defined]
            return f
        disp = KernelDispatcher(py_func=f, locals={}, targetoptions={"nopython": True, **options})
        disp.enable_caching()
        return disp

    return wrap if fn is None else wrap(fn)
