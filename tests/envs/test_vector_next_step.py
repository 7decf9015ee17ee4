"""`make_vector_env(..., autoreset_mode=NEXT_STEP)` (what RLlib's env runners expect): the
same games as the default SAME_STEP mode, each ended episode's last observation returned by
its last step and the new game by the next one, whose action is ignored."""

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from noir_env.spaces import NUM_ACTIONS
from noir_env.vector import make_vector_env

N = 6


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)  # the first legal action (0 on an all-zero mask)


def _streams(mode: AutoresetMode, steps: int, game: str) -> list[list[tuple]]:
    """Per slot: (observation, reward, done) as a learner sees them, resets as (obs, 0, False)."""
    env = make_vector_env(N, seed=7, opponents="random", autoreset_mode=mode, game=game)
    obs, infos = env.reset(seed=7)
    out = [[(obs[i].copy(), 0.0, False)] for i in range(N)]
    mask = infos["action_mask"]
    for _ in range(steps):
        obs, rew, term, trunc, infos = env.step(_first_legal(mask))
        mask = infos["action_mask"]
        for i in range(N):
            done = bool(term[i] or trunc[i])
            if mode is AutoresetMode.SAME_STEP and done:
                out[i].append((infos["final_obs"][i], float(rew[i]), True))
                out[i].append((obs[i].copy(), 0.0, False))
            else:
                out[i].append((obs[i].copy(), float(rew[i]), done))
        if mode is AutoresetMode.NEXT_STEP:
            assert "final_obs" not in infos
            assert not mask[term | trunc].any()  # no decision at a last observation
    env.close()
    return out


@pytest.mark.parametrize("game", ["noir", "district_noir"])
def test_next_step_plays_the_same_games(game):
    same = _streams(AutoresetMode.SAME_STEP, 150, game)
    nxt = _streams(AutoresetMode.NEXT_STEP, 300, game)
    ended = 0
    for a, b in zip(same, nxt, strict=True):
        k = min(len(a), len(b))
        assert k > 100
        for (oa, ra, da), (ob, rb, db) in zip(a[:k], b[:k], strict=True):
            np.testing.assert_array_equal(oa, ob)
            assert (ra, da) == (rb, db)
        ended += sum(d for _, _, d in a[:k])
    assert ended >= N  # every slot saw episodes end and new games dealt


def test_next_step_checks_actions_of_live_slots_only():
    env = make_vector_env(4, seed=1, autoreset_mode="NextStep")
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    _, infos = env.reset(seed=1)
    illegal = np.where(infos["action_mask"].astype(bool), -1, np.arange(NUM_ACTIONS)).max(axis=1)
    with pytest.raises(ValueError, match="illegal|not legal|cannot"):
        env.step(illegal)
    with pytest.raises(ValueError, match="autoreset_mode must be"):
        make_vector_env(2, autoreset_mode="Disabled")
