"""The Gymnasium ids of noir_env, registered without importing noir_env.

Gymnasium 0.26-0.29 loaded third-party ids from a `gymnasium.envs` entry-point group; 1.x
dropped that, so a bare `gymnasium.make("noir_env/Noir-v1")` would fail with
`NamespaceNotFound` unless `noir_env` had been imported. The installed package therefore
ships `noir_env-gymnasium.pth` (written by setup.py, for wheels and editable installs alike),
whose one line calls `install()` at interpreter start. `install()` only puts a tiny finder on
`sys.meta_path`; when `gymnasium` is first imported, the finder lets it load as usual, then
registers the ids below. The ids carry entry-point strings, so nothing of noir_env (numba,
the kernels) is imported until `gymnasium.make` builds an env. `noir_env/__init__.py`
registers through the same function, for installs without the .pth (e.g. running from a
source tree on `PYTHONPATH`).

This module must stay importable with nothing but the standard library: it runs at the start
of every interpreter of the environment it is installed in, and any error there is swallowed
(a broken hook must never break Python).
"""

from __future__ import annotations

import contextlib
import importlib.abc
import sys

ENV_ID = "noir_env/Noir-v1"
DEPRECATED_ENV_IDS = ("noir_env/Noir-v0",)  # the game of rules v1; the same entry point now
DISTRICT_ENV_ID = "noir_env/DistrictNoir-v0"


def register_envs() -> None:
    """Register noir_env's ids with Gymnasium (ids already registered are left as they are)."""
    from gymnasium.envs.registration import register, registry

    # gymnasium.make returns the env itself: Gymnasium 1.x wrappers (its OrderEnforcing and
    # PassiveEnvChecker) hide every method they do not define, and the env's action_masks()
    # must stay reachable; the env enforces the call order itself (ValueError before reset).
    # An extra outer wrapper would do it too, but gymnasium.make_vec refuses a spec with
    # additional wrappers, and make_vec(ENV_ID) must build the batched VectorEnv.
    bare = {"order_enforce": False, "disable_env_checker": True}
    for env_id in (ENV_ID, *DEPRECATED_ENV_IDS):
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="noir_env.vector.single:NoirEnv",
                # gymnasium.make_vec(ENV_ID, num_envs=N) builds the batched VectorEnv directly
                vector_entry_point="noir_env.vector.gym_vector:NoirVectorEnv",
                **bare,
            )
    if DISTRICT_ENV_ID not in registry:
        register(
            id=DISTRICT_ENV_ID,
            entry_point="noir_env.vector.single:DistrictEnv",
            vector_entry_point="noir_env.vector.gym_vector:DistrictVectorEnv",
            **bare,
        )


class _RegisterAfterGymnasium(importlib.abc.MetaPathFinder):
    """Waits for `import gymnasium`, lets the real loader run, then registers the ids."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "gymnasium":
            return None
        _remove_finder()  # once is enough, and the real finders must not see us again
        spec = None
        for finder in sys.meta_path:  # the finders after us, as the import system would
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                break
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister(importlib.abc.Loader):
    """The real loader of gymnasium, then `register_envs()`; the module keeps its loader."""

    def __init__(self, loader) -> None:
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        module.__spec__.loader = module.__loader__ = self.loader  # importlib.resources etc.
        self.loader.exec_module(module)
        with contextlib.suppress(Exception):  # never break `import gymnasium`; noir_env
            register_envs()  # registers on its own import too


def _remove_finder() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _RegisterAfterGymnasium)]


def install() -> None:
    """Called by `noir_env-gymnasium.pth` at interpreter start: register now if gymnasium is
    already imported, else once it is."""
    try:
        if "gymnasium" in sys.modules:
            register_envs()
        elif not any(isinstance(f, _RegisterAfterGymnasium) for f in sys.meta_path):
            sys.meta_path.insert(0, _RegisterAfterGymnasium())
    except Exception:  # a hook that fails must leave the interpreter as it was
        _remove_finder()
