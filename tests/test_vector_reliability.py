"""The single-seat vector env survives its callers' and its opponents' mistakes (issue 20):
a step in which an opponent policy fails leaves every game as it was (defect 3), so that a
retry plays the learner's seat and no other (defect 4), and a rejected `reset` changes
nothing (defect 5). Both games."""

from __future__ import annotations

import numpy as np
import pytest

from noir_env.vector import make_vector_env

GAMES = ("noir", "district_noir")
MISBEHAVIOURS = ("raise", "too_many", "illegal", "floats")


def first_legal(mask: np.ndarray) -> np.ndarray:
    """The lowest legal action of each row."""
    return mask.astype(bool).argmax(axis=1)


class FailingOpponent:
    """Plays its first legal actions for `good_calls` calls, then misbehaves as `how` says
    until `how` is set to None."""

    def __init__(self, how: str | None, good_calls: int = 3):
        self.how, self.calls, self.good_calls = how, 0, good_calls

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.calls += 1
        if self.how is None or self.calls <= self.good_calls:
            return first_legal(mask)
        if self.how == "raise":
            raise RuntimeError("the opponent crashed")
        if self.how == "too_many":
            return np.zeros(len(mask) + 1, np.int64)
        if self.how == "illegal":
            return (~mask.astype(bool)).argmax(axis=1)
        return np.zeros(len(mask), np.float32)  # floats


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("how", MISBEHAVIOURS)
@pytest.mark.parametrize("game", GAMES)
def test_a_failing_opponent_leaves_every_game_as_it_was(game, how, copy):
    opponent = FailingOpponent(how)
    envs = make_vector_env(8, opponents={opponent: 0.5, "random": 0.5}, seed=3, game=game,
                           copy=copy)  # fmt: skip
    obs, info = envs.reset()
    for _ in range(100):
        state, seen = envs.games.state.copy(), (obs.copy(), info["action_mask"].copy())
        actions = first_legal(info["action_mask"])
        try:
            obs, _, _, _, info = envs.step(actions)
        except (RuntimeError, ValueError) as e:
            assert "left as it was" in e.__notes__[0]
            break
    else:
        pytest.fail("the opponent never failed")
    assert (envs.games.state == state).all()  # every game, every field
    assert np.array_equal(obs, seen[0]) and np.array_equal(info["action_mask"], seen[1])
    assert envs.games.at_learner().all()
    # defect 4: the retry with the same (the learner's) mask plays the learner's seat
    assert (envs.games.state.actor == envs.games.learner).all()
    opponent.how = None
    obs, _, _, _, info = envs.step(actions)
    assert envs.games.at_learner().all() and info["action_mask"].any(axis=1).all()


@pytest.mark.parametrize("game", GAMES)
def test_only_the_learners_seat_is_played(game):
    """The legality check asks who is to act: a game waiting for another seat (as a failed
    step once left them) refuses the learner's actions, its stale mask's included."""
    envs = make_vector_env(4, opponents=FailingOpponent(None), seed=5, game=game)
    _, info = envs.reset()
    actor = envs.games.state.actor.copy()
    envs.games.state.actor[2] = (actor[2] + 1) % envs.game.num_players(envs.games.state)[2]
    with pytest.raises(ValueError, match="game 2 a seat other than the learner's"):
        envs.step(first_legal(info["action_mask"]))
    envs.games.state.actor[2] = actor[2]
    envs.step(first_legal(info["action_mask"]))


@pytest.mark.parametrize("game", GAMES)
def test_a_rejected_reset_changes_nothing(game):
    envs = make_vector_env(4, seed=1, game=game)
    obs, info = envs.reset()
    state, names = envs.games.state.copy(), envs.games.opponent_names
    bad_resets = [
        ({"seed": 1.5}, TypeError), ({"seed": "3"}, TypeError), ({"seed": True}, TypeError),
        ({"seed": np.float64(2)}, TypeError), ({"seed": -1}, ValueError),
        ({"options": {"opponents": "heuristic", "nope": 1}}, ValueError),
        ({"seed": 1.5, "options": {"opponents": "heuristic"}}, TypeError),
        ({"options": {"opponents": "no-such-agent"}}, ValueError),
    ]  # fmt: skip
    for kwargs, error in bad_resets:
        with pytest.raises(error):
            envs.reset(**kwargs)
        assert (envs.games.state == state).all(), kwargs
        assert envs.games.opponent_names == names, kwargs
    # numpy integers are seeds, as in Gymnasium
    obs7, _ = envs.reset(seed=np.int64(7))
    assert np.array_equal(obs7, envs.reset(seed=7)[0])


@pytest.mark.parametrize("game", GAMES)
def test_an_opponent_failing_while_dealing_leaves_the_reset_undone(game):
    envs = make_vector_env(4, seed=1, game=game)
    _, info = envs.reset()
    state, names = envs.games.state.copy(), envs.games.opponent_names
    with pytest.raises(RuntimeError, match="crashed"):
        envs.reset(seed=2, options={"opponents": FailingOpponent("raise", good_calls=0)})
    assert (envs.games.state == state).all() and envs.games.opponent_names == names
    envs.step(first_legal(info["action_mask"]))
