"""Deprecated: `noir_env.noir_v0` is an alias of `noir_env.noir_v1`.

The game changed in rules v2 (reactions resolve strictly in play order, among others; see
the version history in `noir_v1`'s docstring), so the environment's version went up as
PettingZoo's do. This alias plays the current rules; import `noir_v1` instead.
"""

import warnings

from .noir_v1 import *  # noqa: F403
from .noir_v1 import __all__  # noqa: F401

warnings.warn(
    "noir_env.noir_v0 is deprecated: it is an alias of noir_env.noir_v1 (rules v2); "
    "import noir_v1 instead",
    DeprecationWarning,
    stacklevel=2,
)
