"""Mixed tables in the single-seat engine: with `mixed_tables=p` a share p of games draws an
opponent for each seat from the mix (a table of different agents), reported as "mixed"."""

from __future__ import annotations

import numpy as np
import pytest

from noir_env import noir_v2
from noir_env.vector import make_vector_env
from noir_env.vector.engine import SingleSeatGames


class Lowest:
    """Always the legal action with the lowest index."""

    name = "lowest"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.argmax(mask, axis=1)


class Highest:
    """Always the legal action with the highest index."""

    name = "highest"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


def opponent_choices(history: dict, seats: dict[int, str]) -> tuple[int, int]:
    """Replay `history` in noir_v2 (the core's forced decisions taken as in the fast mode)
    and count the opponents' real choices that are / are not their seat's agent's."""
    e = noir_v2.raw_env(num_players=history["num_players"], rules=history["rules"],
                        max_steps=10**9)  # fmt: skip
    e.reset(seed=history["seed"])
    actions, k, agree, differ = history["actions"], 0, 0, 0
    while e.agents and k < len(actions):
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        mask = e.action_mask(agent)
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            e.step(int(legal[0]))
            continue
        action, k = actions[k], k + 1
        seat = int(agent.split("_")[1])
        if seat in seats:
            expected = legal[0] if seats[seat] == "lowest" else legal[-1]
            agree, differ = agree + (action == expected), differ + (action != expected)
        e.step(action)
    return agree, differ


def test_each_seat_plays_its_own_drawn_opponent():
    games = SingleSeatGames(12, num_players=4, opponents={Lowest(): 0.5, Highest(): 0.5},
                            learner_seat=0, seed=0, record=True, mixed_tables=1.0)  # fmt: skip
    obs, mask = games.reset(seed=0)
    names = games.opponent_names
    tables = [{s: names[games.seat_opponent[g, s]] for s in (1, 2, 3)} for g in range(12)]
    assert games.mixed_table.all()
    assert sum(len(set(t.values())) == 2 for t in tables) >= 6  # most tables do mix
    learner = Lowest()
    first: dict[int, dict] = {}
    for _ in range(5000):
        out = games.step(learner.act(obs, mask.view(np.bool_)))
        obs, mask = out.obs, out.mask
        if out.ended is not None:
            assert set(out.ended.opponent.tolist()) == {"mixed"}
            for j, g in enumerate(out.ended.games.tolist()):
                first.setdefault(g, out.ended.history[j])
        if len(first) == 12:
            break
    assert len(first) == 12
    agree = differ = 0
    for g, history in first.items():
        a, d = opponent_choices(history, tables[g])
        agree, differ = agree + a, differ + d
    assert differ == 0 and agree > 100


def test_share_seeds_and_the_default():
    plain = SingleSeatGames(400, num_players=(3, 4, 5, 6), opponents={"random": 0.5,
                            Lowest(): 0.5}, seed=7)  # fmt: skip
    plain.reset(seed=7)
    assert not plain.mixed_table.any()  # the default: one opponent for every seat
    assert (plain.seat_opponent == plain.opponent[:, None]).all()
    mixed = SingleSeatGames(400, num_players=(3, 4, 5, 6), opponents={"random": 0.5,
                            Lowest(): 0.5}, seed=7, mixed_tables=0.3)  # fmt: skip
    mixed.reset(seed=7)
    assert 0.22 < mixed.mixed_table.mean() < 0.38
    np.testing.assert_array_equal(mixed.opponent, plain.opponent)  # the per-game draw kept
    np.testing.assert_array_equal(mixed.learner, plain.learner)
    few = SingleSeatGames(16, num_players=(3, 4, 5, 6), opponents={"random": 0.5,
                          Lowest(): 0.5}, seed=7, mixed_tables=0.3)  # fmt: skip
    few.reset(seed=7)  # a game's seats are a function of its seed, whatever the batch
    np.testing.assert_array_equal(few.seat_opponent, mixed.seat_opponent[:16])
    np.testing.assert_array_equal(few.mixed_table, mixed.mixed_table[:16])


@pytest.mark.parametrize("share", [-0.1, 1.5, float("nan"), "half", True, None])
def test_bad_share_is_named_and_changes_nothing(share):
    env = make_vector_env(4, opponents="random", seed=0)
    env.reset()
    if share is None:  # None means "unchanged" in set_opponents, not in the constructor
        env.set_opponents({"random": 1.0}, mixed_tables=None)
        assert env.games.mixed_tables == 0.0
        return
    with pytest.raises(ValueError, match="mixed_tables"):
        env.set_opponents({Lowest(): 1.0}, mixed_tables=share)
    assert env.games.opponent_names == ["random"] and env.games.mixed_tables == 0.0
    with pytest.raises(ValueError, match="mixed_tables"):
        make_vector_env(4, mixed_tables=share)
