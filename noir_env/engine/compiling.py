"""How numba compiles the project's kernels, changed in two places for a shorter compile:
callee twins kept as LLVM IR only, and each call type resolved once per process.

**Callee twins are IR, not machine code.** numba links the LLVM IR of every function a kernel
calls into the kernel's own module, optimizes that module and emits it as machine code. A
callee compiled on its own is optimized at module level and emitted as well, although its
callers use only its IR, which they optimize again with their own. A callee twin
(`jit.KernelDispatcher.compiled_callee`, never called from Python) is therefore compiled by
`TwinCompiler` into a `LinkOnlyLibrary`: its functions get numba's per-function
optimizations; the module optimization (where LLVM inlines across functions) and the machine
code are the work of the kernel Python calls, once for everything it links in. Its cache entry
holds the IR for linking, and as object code only its environment pointers, which numba fills
in when it loads the entry.

**Call types resolved once.** numba types a call by trying the function's typing templates in
turn (about ten for an operator), remembering nothing between functions: the same
`operator.getitem(record array, int64)` is resolved again in every kernel, and in every round
of a kernel's type propagation. While a kernel compiles, `Function.get_call_type` (the
templates of numba's built-in and `@overload` functions; a kernel's own dispatcher type is not
a `Function`) answers a call resolved before from a table keyed by the function type, the
typing context and the argument types, on which its answer depends.

Both use numba internals (its code library, compiler and typing classes, as of numba 0.68).
`ENABLED` is False where one of them is missing, or with `NOIR_NUMBA_PLAIN=1` in the
environment: kernels then compile the way numba does by default, to the same results, more
slowly (`bench/compile.py --compare-plain` times both).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import llvmlite.binding as ll
from numba.core import compiler as numba_compiler
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler_lock import require_global_compiler_lock
from numba.core.types import functions

_ENV_PREFIX = "_ZN08NumbaEnv"  # numba's mangled names of the environment pointers
_USED = {
    JITCodeLibrary: ("_raise_if_finalized", "_finalize_dynamic_globals",
                     "_verify_declare_only_symbols", "_finalize_final_module",
                     "_get_module_for_linking", "enable_object_caching"),
    numba_compiler.Compiler: ("compile_extra",),
    functions.Function: ("get_call_type",),
}  # fmt: skip

ENABLED = os.environ.get("NOIR_NUMBA_PLAIN", "") != "1" and all(
    hasattr(cls, name) for cls, names in _USED.items() for name in names
)


class LinkOnlyLibrary(JITCodeLibrary):
    """A callee twin's code: LLVM IR that its callers link in, never machine code itself."""

    def finalize(self) -> None:
        require_global_compiler_lock()
        self._raise_if_finalized()
        linkable = self._final_module
        for library in dict.fromkeys(self._linking_libraries):  # once each, in order
            self._reload_init.update(library._reload_init)
            linkable.link_in(library._get_module_for_linking(), preserve=True)
        linkable.verify()
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        for fn in linkable.functions:  # what `_get_module_for_linking` does to a library
            if not fn.is_declaration and fn.linkage == ll.Linkage.external:
                fn.linkage = ll.Linkage.linkonce_odr
        self._shared_module = linkable
        # numba writes each function's environment pointer into the running code when it
        # loads it: those globals alone become this library's machine code
        envs = [str(gv) for gv in linkable.global_variables if gv.name.startswith(_ENV_PREFIX)]
        pointers = ll.parse_assembly("\n".join(envs))
        pointers.name, pointers.triple = linkable.name, linkable.triple
        pointers.data_layout = linkable.data_layout
        self._final_module = pointers
        self._finalize_final_module()


class TwinCompiler(numba_compiler.Compiler):
    """numba's compiler, writing into a `LinkOnlyLibrary`: the pipeline of callee twins."""

    def compile_extra(self, func: Any) -> Any:
        if self.state.library is None:
            library = LinkOnlyLibrary(self.state.targetctx.codegen(), func.__qualname__)
            library.enable_object_caching()
            self.state.library = library
        return super().compile_extra(func)


_resolved: dict[tuple, Any] = {}  # (function type, typing context, args, kws) -> signature
_compiling = 0  # kernels being compiled (nested: a kernel's callees compile inside it)
_numba_get_call_type = functions.Function.get_call_type


def _get_call_type_once(self: Any, context: Any, args: Any, kws: Any) -> Any:
    if not _compiling:
        return _numba_get_call_type(self, context, args, kws)
    key = (self, context, tuple(args), tuple(kws.items()))
    found = _resolved.get(key)
    if found is None:
        found = _resolved[key] = _numba_get_call_type(self, context, args, kws)
    return found


@contextmanager
def kernel_compile() -> Iterator[None]:
    """The scope of a kernel's compile: call types resolved once (`ENABLED` only)."""
    global _compiling
    _compiling += 1
    try:
        yield
    finally:
        _compiling -= 1


TWIN_PIPELINE = TwinCompiler if ENABLED else numba_compiler.Compiler  # what twins compile with
if ENABLED:
    functions.Function.get_call_type = _get_call_type_once  # type: ignore[method-assign]
