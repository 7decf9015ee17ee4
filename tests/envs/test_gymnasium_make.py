"""`gymnasium.make` on the registered ids: Gymnasium's module-qualified form
`"noir_env:noir_env/Noir-v2"` works in a fresh interpreter that never imported noir_env (it
imports the package, which registers the ids), an editable install from the plain
pyproject.toml does it with no import hook, and the env it returns has `action_masks()`
(Gymnasium adds no wrapper that would hide it), which sb3-contrib's MaskablePPO finds;
`gymnasium.make_vec` still builds the batched VectorEnv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import noir_env

ROOT = Path(__file__).resolve().parents[2]

FRESH = """
import sys

import gymnasium

assert "noir_env" not in sys.modules
env = gymnasium.make("noir_env:{env_id}", opponents="random")
obs, info = env.reset(seed=0)
mask = env.action_masks()
assert mask.dtype == bool and mask.any() and (mask == info["action_mask"].astype(bool)).all()
obs, reward, terminated, truncated, info = env.step(int(mask.argmax()))
assert "noir_env" in sys.modules
"""


def _fresh_python(
    code: str, cwd, python: str = sys.executable, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [python, "-c", code],
        cwd=cwd,  # not the checkout: the installed package is imported, as a user's is
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("env_id", [noir_env.ENV_ID, noir_env.DISTRICT_ENV_ID])
def test_module_qualified_make_in_a_fresh_interpreter(env_id, tmp_path):
    proc = _fresh_python(FRESH.format(env_id=env_id), tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_importing_noir_env_registers_the_ids_and_compiles_nothing(tmp_path):
    code = """
import sys
import gymnasium
import noir_env
for env_id in ("noir_env/Noir-v2", "noir_env/DistrictNoir-v0"):
    assert env_id in gymnasium.registry, env_id
assert "numba" not in sys.modules, "import noir_env loaded numba"
"""
    proc = _fresh_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_editable_install_from_the_plain_pyproject(tmp_path):
    """`pip install -e .` into a clean venv: the pyproject alone (no setup.py) installs the
    package, nothing registers the ids before noir_env is imported, and the documented
    `noir_env:` form finds them."""
    src = tmp_path / "src"  # a copy: setuptools writes its egg-info into the source tree
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("noir_env", "agents", "train"):
        shutil.copytree(ROOT / name, src / name, ignore=skip)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # no checkout on the path
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    # the test environment's packages (pip, setuptools, numpy, gymnasium) on the clean venv's
    # path; a path line does not run that folder's .pth files, so no install of noir_env there
    # (nor any import hook) is seen
    Path(site, "test-environment.pth").write_text(sysconfig.get_path("purelib") + "\n")
    cmd = [python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
           "--disable-pip-version-check", "-e", str(src)]  # fmt: skip
    proc = subprocess.run(cmd, env=clean, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    code = f"""
import sys
import gymnasium
assert "noir_env/Noir-v2" not in gymnasium.registry, "something registered the ids early"
assert "noir_env" not in sys.modules
env = gymnasium.make("noir_env:noir_env/Noir-v2", opponents="random")
import noir_env
assert noir_env.__file__ == {str(src / "noir_env" / "__init__.py")!r}, noir_env.__file__
assert type(env).__name__ == "NoirEnv"
"""
    proc = _fresh_python(code, tmp_path, python, clean)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("env_id", [noir_env.ENV_ID, noir_env.DISTRICT_ENV_ID])
def test_action_masks_on_the_env_gymnasium_make_returns(env_id):
    env = gymnasium.make(env_id, opponents="random")
    with pytest.raises(ValueError, match="reset"):  # the env checks the call order itself
        env.action_masks()
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    obs, info = env.reset(seed=1)
    for _ in range(20):
        mask = env.action_masks()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[-1]))
        if terminated or truncated:
            obs, info = env.reset()
    # a wrapper of the user's on top hides the method; Gymnasium's lookup still finds it
    outer = gymnasium.wrappers.RecordEpisodeStatistics(env)
    np.testing.assert_array_equal(outer.get_wrapper_attr("action_masks")(), env.action_masks())
    assert type(gymnasium.make(env.spec)) is type(env)  # the spec remakes the same env
    env.close()


@pytest.mark.parametrize("env_id", [noir_env.ENV_ID, noir_env.DISTRICT_ENV_ID])
def test_make_vec_builds_the_batched_vector_env(env_id):
    envs = gymnasium.make_vec(f"noir_env:{env_id}", num_envs=3, opponents="random", seed=0)
    obs, infos = envs.reset()
    assert type(envs).__name__.endswith("VectorEnv") and obs.shape[0] == 3
    assert infos["action_mask"].shape[0] == 3
    envs.close()


def test_maskable_ppo_trains_on_the_env_gymnasium_make_returns():
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    torch.set_num_threads(1)  # a tiny network: more threads only contend
    env = gymnasium.make(noir_env.ENV_ID, opponents="random")
    assert is_masking_supported(env)
    env.reset(seed=2)
    np.testing.assert_array_equal(get_action_masks(env), env.action_masks())
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)  # every action it takes is checked legal by the env
    assert model.num_timesteps >= 128
