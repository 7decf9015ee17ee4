"""The public API of the rules core: shapes, errors, action names, cloning, JSON form."""

import json
import pickle

import numpy as np
import pytest

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.serialize import state_from_dict, state_to_dict
from noir_env.core.state import FIELDS
from noir_env.spaces import ACTION_NAMES, NUM_ACTIONS, OBS_SIZE, action_id, action_name


def played(n_games=8, steps=60, seed=0, players=4, rules="noirburg"):
    """A batch after some random steps."""
    s = core.init(n_games, players, rules, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = core.legal_action_mask(s)
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        core.step(s, acts)
    return s


def assert_same(a, b):
    for name, *_ in FIELDS:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


@pytest.mark.parametrize("bad", [2, 7, 0, -1])
def test_player_count_outside_3_to_6_is_rejected(bad):
    with pytest.raises(ValueError, match="num_players must be in 3..6"):
        core.init(1, bad)


def test_unknown_preset_and_bad_seeds_are_rejected():
    with pytest.raises(ValueError, match="unknown rules preset 'noirville'"):
        core.init(1, 4, "noirville")
    with pytest.raises(ValueError, match="seeds must be"):
        core.init(3, 4, seeds=np.arange(2))
    with pytest.raises(ValueError, match="Rules.step_order"):
        core.Rules(step_order="sideways")


def test_shapes_and_dtypes_of_one_step():
    s = core.init(5, np.array([3, 4, 5, 6, 4]), seeds=1)
    mask = core.legal_action_mask(s)
    assert mask.shape == (5, NUM_ACTIONS) and mask.dtype == np.bool_
    assert mask.any(axis=1).all(), "every live game offers a choice"
    assert (mask.sum(axis=1) >= 2).all(), "R2.5: single-choice decisions are taken by the core"
    obs = core.observe(s)
    assert obs.shape == (5, OBS_SIZE) and obs.dtype == np.float32
    acts = np.array([np.flatnonzero(m)[0] for m in mask])
    rewards, done, illegal = core.step(s, acts)
    assert rewards.shape == (5, C.MAX_PLAYERS) and rewards.dtype == np.float32
    assert done.dtype == np.bool_ and illegal.dtype == np.bool_ and not illegal.any()


def test_illegal_action_names_action_phase_and_legal_actions_and_changes_nothing():
    s = played(4, 30, seed=3)
    before = core.clone(s)
    mask = core.legal_action_mask(s)
    bad = int(np.flatnonzero(~mask[2])[0])
    acts = np.array([np.flatnonzero(m)[0] for m in mask])
    acts[2] = bad
    with pytest.raises(ValueError) as err:
        core.step(s, acts)
    msg = str(err.value)
    assert repr(ACTION_NAMES[bad]) in msg and "game 2" in msg
    assert C.Phase(int(s.phase[2])).name in msg
    assert all(ACTION_NAMES[a] in msg for a in np.flatnonzero(mask[2]))
    assert_same(s, before)


def test_out_of_range_action_and_non_strict_mode():
    s = core.init(2, 4, seeds=0)
    before = core.clone(s)
    with pytest.raises(ValueError, match="<id 9999>"):
        core.step(s, np.array([9999, 0]))
    assert_same(s, before)
    ok = int(np.flatnonzero(core.legal_action_mask(s)[1])[0])
    _, _, illegal = core.step(s, np.array([9999, ok]), strict=False)
    assert illegal.tolist() == [True, False]
    np.testing.assert_array_equal(s[0], before[0])  # the illegal game is untouched


def test_malformed_state_is_rejected():
    with pytest.raises(ValueError, match="not a NOIR state"):
        core.step(np.zeros(3), np.zeros(3, int))
    with pytest.raises(ValueError, match="actions must have shape"):
        core.step(core.init(2), np.zeros(3, int))


def test_action_names_are_stable_unique_and_round_trip():
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS
    for a in range(NUM_ACTIONS):
        assert action_id(action_name(a)) == a
    # a few ids researchers may have stored: these must never move
    assert action_name(0) == "pass" and action_name(1) == "end"
    assert action_name(2) == "confirm_attack"
    assert action_id("discard:police") == C.A_DISCARD + C.POLICE
    assert action_id("target:+1:hideout") == C.A_TARGET + C.TGT_HIDEOUT
    with pytest.raises(ValueError, match="unknown action name"):
        action_id("attack:everyone")
    with pytest.raises(ValueError, match="outside"):
        action_name(NUM_ACTIONS)


def test_observation_has_one_size_for_3_to_6_players():
    sizes = {core.observe(core.init(1, n)).shape for n in range(3, 7)}
    assert sizes == {(1, OBS_SIZE)}


def test_finished_games_ignore_actions_and_report_done():
    s = core.init(3, 3, "noirbrough", seeds=4)
    from noir_env.core import random_playout

    res = random_playout(s, seed=1)
    assert res.done.all()
    before = core.clone(s)
    rewards, done, _ = core.step(s, np.zeros(3, np.int64))
    assert done.all() and not rewards.any()
    assert_same(s, before)
    assert (core.current_player(s) == -1).all()


def test_rewards_are_zero_sum_and_split_among_winners():
    from noir_env.core import random_playout

    s = core.init(300, np.arange(300) % 4 + 3, seeds=9)
    res = random_playout(s, seed=2)
    assert res.done.all()
    np.testing.assert_allclose(res.rewards.sum(axis=1), 0, atol=1e-6)
    for i in range(300):
        n = s.num_players[i]
        k = s.winners[i, :n].sum()
        assert k >= 1
        if k < n:
            np.testing.assert_allclose(res.rewards[i, :n][s.winners[i, :n] == 1], 1 / k)


def test_clone_is_independent_and_states_pickle():
    s = played(3, 20)
    c = core.clone(s)
    core.step(c, np.array([np.flatnonzero(m)[0] for m in core.legal_action_mask(c)]))
    assert not all(np.array_equal(s[f], c[f]) for f, *_ in FIELDS)
    assert_same(pickle.loads(pickle.dumps(s)), s)


def test_take_and_concat_rebuild_the_batch():
    s = played(4, 25)
    assert_same(core.concat([core.take(s, slice(0, 2)), core.take(s, [2, 3])]), s)


@pytest.mark.parametrize("rules", ["noirburg", "noirbrough", "original"])
def test_json_round_trip_is_exact_including_rng(rules):
    s = played(6, 80, seed=11, players=5, rules=rules)
    for i in range(6):
        loaded = state_from_dict(json.loads(json.dumps(state_to_dict(s, i))))
        assert_same(loaded, core.take(s, i))
    # and the loaded game goes on exactly like the original
    a = core.take(s, 0)
    b = state_from_dict(state_to_dict(s, 0))
    for _ in range(40):
        m = core.legal_action_mask(a)
        if not m.any():
            break
        act = np.array([np.flatnonzero(m[0])[-1]])
        core.step(a, act)
        core.step(b, act)
    assert_same(a, b)


def test_hand_written_position_loads_with_defaults():
    d = {
        "num_players": 3,
        "phase": "attack",
        "active": 0,
        "players": [
            {
                "money": 5,
                "hideout": {"gangsters": [3], "covered_by": 0},
                "businesses": [{"slot": 0, "income": 3, "gangsters": [1, 2]}],
            },
            {"money": 4, "businesses": [{"income": 4, "gangsters": [4]}]},
            {"money": 3},
        ],
    }
    s = state_from_dict(d)
    assert s.bank[0] == 50 - 12 and s.deck_n[0] == 83 - 6  # 2 businesses, 4 gangsters
    names = [ACTION_NAMES[a] for a in np.flatnonzero(core.legal_action_mask(s)[0])]
    assert names == ["end", "target:+1:slot0", "target:+1:hideout", "target:+2:hideout"]


@pytest.mark.parametrize(
    "patch, message",
    [
        ({"num_players": 7}, "num_players must be 3..6"),
        ({"phase": "siesta"}, "phase: 'siesta' is not one of"),
        ({"bank": 5}, "money is not conserved"),
        ({"players": [{"money": 90}, {}, {}]}, r"players\[0\].money=90: must be in 0..50"),
        (
            {"players": [{"businesses": [{"income": 1, "gangsters": [2]}]}, {}, {}]},
            "more gangster power than its income",
        ),
        ({"players": [{"hand": {"ace": 1}}, {}, {}]}, "unknown card 'ace'"),
        ({"players": [{"hideout": {"covered_by": 5}}, {}, {}]}, "covered by a slot"),
    ],
)
def test_malformed_positions_name_the_problem(patch, message):
    d = {"num_players": 3, "players": [{"money": 3}, {"money": 3}, {"money": 3}]}
    d.update(patch)
    with pytest.raises(ValueError, match=message):
        state_from_dict(d)


def test_borrowed_view_shares_the_data_and_leaves_the_reference_count_alone():
    """core.refcount.borrowed: the kernels' view without reference counting reads and writes
    the array itself, and the array's own count is the same after many calls."""
    import sys

    from numba import njit

    from noir_env.engine.refcount import borrowed

    @njit
    def double_through_view(x):
        v = borrowed(x)
        for k in range(v.shape[0]):
            v[k] *= 2
        return v.sum()

    x = np.arange(5, dtype=np.int64)
    refs = sys.getrefcount(x)
    assert double_through_view(x) == 20
    assert x.tolist() == [0, 2, 4, 6, 8]
    for _ in range(100):
        double_through_view(x)
    assert sys.getrefcount(x) == refs
