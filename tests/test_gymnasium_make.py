"""`gymnasium.make` on the registered ids: the "module:id" form works in a fresh interpreter
that never imported noir_env, and the env it returns has `action_masks()` (Gymnasium adds no
wrapper that would hide it), which sb3-contrib's MaskablePPO finds; `gymnasium.make_vec` still
builds the batched VectorEnv.

Gymnasium 1.x has no entry-point plugins (they were removed in 1.0), so a bare
`gymnasium.make("noir_env/Noir-v1")` needs `import noir_env` first; "noir_env:noir_env/..."
is Gymnasium's own way to name the module that registers an id.
"""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import noir_env

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


@pytest.mark.parametrize("env_id", [noir_env.ENV_ID, noir_env.DISTRICT_ENV_ID])
def test_make_with_the_module_prefix_in_a_fresh_interpreter(env_id, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", FRESH.format(env_id=env_id)],
        cwd=tmp_path,  # not the checkout: the installed package is imported, as a user's is
        capture_output=True,
        text=True,
        timeout=600,
    )
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
