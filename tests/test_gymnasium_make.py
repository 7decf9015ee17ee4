"""`gymnasium.make` on the registered ids: the bare id and the "module:id" form both work in a
fresh interpreter that never imported noir_env, and the env it returns has `action_masks()`
(Gymnasium adds no wrapper that would hide it), which sb3-contrib's MaskablePPO finds;
`gymnasium.make_vec` still builds the batched VectorEnv.

Gymnasium 1.x has no entry-point plugins (they were removed in 1.0): the bare id works through
`noir_env-gymnasium.pth`, which the install puts in site-packages (setup.py) and which
registers the ids when gymnasium is imported, without importing noir_env (_noir_env_gym.py).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import noir_env

FRESH = """
import sys

import gymnasium

assert "noir_env" not in sys.modules
env = gymnasium.make("{prefix}{env_id}", opponents="random")
obs, info = env.reset(seed=0)
mask = env.action_masks()
assert mask.dtype == bool and mask.any() and (mask == info["action_mask"].astype(bool)).all()
obs, reward, terminated, truncated, info = env.step(int(mask.argmax()))
assert "noir_env" in sys.modules
"""


def _fresh_python(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,  # not the checkout: the installed package is imported, as a user's is
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("prefix", ["", "noir_env:"], ids=["bare", "module-prefix"])
@pytest.mark.parametrize("env_id", [noir_env.ENV_ID, noir_env.DISTRICT_ENV_ID])
def test_make_in_a_fresh_interpreter(env_id, prefix, tmp_path):
    proc = _fresh_python(FRESH.format(env_id=env_id, prefix=prefix), tmp_path)
    assert proc.returncode == 0, (
        proc.stderr[-3000:] + "\n(a bare id needs noir_env-gymnasium.pth: pip install -e .)"
    )


def test_the_hook_registers_without_importing_noir_env_and_keeps_gymnasium_whole(tmp_path):
    code = """
import sys
import _noir_env_gym
import gymnasium
assert "noir_env" not in sys.modules and "numba" not in sys.modules, "the hook imported them"
for env_id in ("noir_env/Noir-v1", "noir_env/Noir-v0", "noir_env/DistrictNoir-v0"):
    assert env_id in gymnasium.registry, env_id
assert type(gymnasium.__spec__.loader).__name__ == "SourceFileLoader"  # not the hook's proxy
assert not any(type(f).__name__ == "_RegisterAfterGymnasium" for f in sys.meta_path)
_noir_env_gym.install()  # gymnasium imported already: registers at once, adds no finder
assert not any(type(f).__name__ == "_RegisterAfterGymnasium" for f in sys.meta_path)
"""
    proc = _fresh_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_a_failing_registration_never_breaks_import_gymnasium(tmp_path):
    code = """
import _noir_env_gym
def boom():
    raise RuntimeError("registration failed")
_noir_env_gym.register_envs = boom
import gymnasium
assert "noir_env/Noir-v1" not in gymnasium.registry  # the hook ran and failed quietly
env = gymnasium.make("CartPole-v1")  # gymnasium itself works
"""
    proc = _fresh_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_a_wheel_ships_the_hook(tmp_path):
    """Wheels (pip install noir_env) carry the .pth too, not only editable installs."""
    root = Path(__file__).resolve().parents[1]
    src = tmp_path / "src"  # a copy: setuptools builds in the source tree (build/, egg-info)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("noir_env", "agents", "train"):
        shutil.copytree(root / name, src / name, ignore=skip)
    for name in ("pyproject.toml", "setup.py", "_noir_env_gym.py", "README.md", "LICENSE"):
        shutil.copy2(root / name, src / name)
    cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
           "-w", str(tmp_path), str(src)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = tmp_path.glob("noir_env-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert {"noir_env-gymnasium.pth", "_noir_env_gym.py"} <= names
        line = zf.read("noir_env-gymnasium.pth").decode()
    assert line.startswith("import _noir_env_gym;")  # site.py runs only lines that import


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
    envs = gymnasium.make_vec(env_id, num_envs=3, opponents="random", seed=0)
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
