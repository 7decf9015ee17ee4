"""Everything is declared in pyproject.toml; this file only adds `noir_env-gymnasium.pth` to
the installed files, in wheels and editable installs alike: a one-line hook that registers
noir_env's ids when Gymnasium is imported, so a bare `gymnasium.make("noir_env/Noir-v1")`
works without importing noir_env first (Gymnasium 1.x has no plugin entry points; see
_noir_env_gym.py). setuptools has no declarative way to put a .pth at the top of
site-packages."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.editable_wheel import editable_wheel

PTH_NAME = "noir_env-gymnasium.pth"
# site.py runs .pth lines that start with "import"; the hook swallows its own errors
PTH_LINE = "import _noir_env_gym; _noir_env_gym.install()\n"


class BuildPyWithHook(build_py):
    """Wheels: the .pth beside the packages, at the top of site-packages."""

    def run(self) -> None:
        super().run()
        Path(self.build_lib, PTH_NAME).write_text(PTH_LINE)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), str(Path(self.build_lib, PTH_NAME))]


class _StrategyWithHook:
    """An editable-install strategy that also writes the .pth into the editable wheel."""

    def __init__(self, strategy) -> None:
        self.strategy = strategy

    def __call__(self, wheel, files, mapping) -> None:
        self.strategy(wheel, files, mapping)
        wheel.writestr(PTH_NAME, PTH_LINE.encode())

    def __enter__(self):
        self.strategy.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.strategy.__exit__(*exc)


class EditableWheelWithHook(editable_wheel):
    """Editable installs (pip install -e): setuptools writes only its own .pth there, so the
    hook's is added to the strategy that fills the editable wheel (tests/test_gymnasium_bare_id.py
    checks the installed venv)."""

    def _select_strategy(self, *args, **kwargs):
        return _StrategyWithHook(super()._select_strategy(*args, **kwargs))


setup(cmdclass={"build_py": BuildPyWithHook, "editable_wheel": EditableWheelWithHook})
