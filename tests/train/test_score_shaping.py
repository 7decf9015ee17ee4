"""train.ppo --score-shaping (train/shaping.py): the potential is the learner's lead in score,
the shaping term is potential-based (over an episode it sums to -Phi(start) with gamma 1),
and the flag is checked and wired into a run."""

import numpy as np
import pytest

from noir_env.game import get_game
from noir_env.vector import make_vector_env
from train.ppo import Args, check_args, train
from train.shaping import ScoreShaping


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


@pytest.mark.parametrize("game_name, players", [("noir", [3, 4, 5, 6]), ("district_noir", None)])
def test_the_shaping_sums_to_minus_the_start_potential_over_each_episode(game_name, players):
    game = get_game(game_name)
    envs = make_vector_env(16, num_players=players, opponents="random", seed=7, game=game_name)
    _, info = envs.reset(seed=7)
    shaping = ScoreShaping(game, 0.1, gamma=1.0)
    shaping.reset(envs.games)
    start, total = shaping.last.copy(), np.zeros(16)
    rng = np.random.default_rng(1)
    checked, largest = 0, 0.0
    for _ in range(3000):
        _, reward, term, trunc, info = envs.step(random_actions(info["action_mask"], rng))
        done = term | trunc
        term_now = shaping.shape(envs.games, reward, done) - reward
        total += term_now
        largest = max(largest, float(np.abs(term_now).max()))
        # the potential is the learner's lead over the best other living seat, per point
        scores, alive = game.scores(envs.games.state), game.alive(envs.games.state)
        for e in range(16):
            me = envs.games.learner[e]
            others = [scores[e, q] for q in range(scores.shape[1]) if alive[e, q] and q != me]
            lead = scores[e, me] - max(others) if others else 0
            assert shaping.last[e] == pytest.approx(0.1 * lead)
        for e in np.flatnonzero(done):
            assert total[e] == pytest.approx(-start[e], abs=1e-4)
            checked += 1
        start[done], total[done] = shaping.last[done], 0.0
        if checked >= 40:
            break
    assert checked >= 40
    assert largest >= 0.1  # the terms that cancelled were not all zero


def test_next_step_autoreset_is_refused():
    envs = make_vector_env(2, num_players=4, seed=1, autoreset_mode="NextStep")
    envs.reset(seed=1)
    with pytest.raises(ValueError, match="same-step autoreset"):
        ScoreShaping(get_game("noir"), 0.02, 0.995).reset(envs.games)


def test_the_flag_is_checked_and_a_run_trains_with_it(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="score-shaping"):
        check_args(Args(score_shaping=-0.1))
    monkeypatch.chdir(tmp_path)
    args = Args(total_steps=16 * 8, num_envs=16, num_steps=8, num_minibatches=2,
                update_epochs=1, league="random:1", eval_games=0, progress=False,
                run_name="shaped", score_shaping=0.05, players="4")  # fmt: skip
    assert train(args).exists()
