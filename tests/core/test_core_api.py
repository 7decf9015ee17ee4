"""The public API of the rules core: shapes, errors, action names, cloning, JSON form.
Every bad argument of `init`, `observe` and `step` is a clear error naming it and changes
nothing; a step is all or nothing over the batch."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.rules import Rules
from noir_env.core.serialize import state_from_dict, state_to_dict
from noir_env.core.state import FIELDS
from noir_env.core.validate import check_invariants
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


INT64_MAX = 2**63 - 1


def random_actions(state, rng) -> np.ndarray:
    """A uniformly random legal action per game (0 for finished games)."""
    mask = core.legal_action_mask(state)
    out = np.zeros(state.shape[0], np.int64)
    for i in range(state.shape[0]):
        legal = np.flatnonzero(mask[i])
        if legal.size:
            out[i] = legal[rng.integers(legal.size)]
    return out


def random_batch(num_games: int = 3, steps: int = 40, seed: int = 0):
    """A batch of 4-player games after `steps` random legal steps."""
    state = core.init(num_games, 4, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        core.step(state, random_actions(state, rng), strict=False)
    return state


# --- core.init arguments -------------------------------------------------------------------
@pytest.mark.parametrize("bad", [260, -253, 2, 7, [4, 260]])
def test_init_num_players_out_of_range_is_a_value_error(bad):
    with pytest.raises(ValueError, match="num_players must be in 3..6"):
        core.init(2, bad)


@pytest.mark.parametrize("bad", [4.9, "4", None, True, np.float64(4.0), np.array([4.0, 4.0])])
def test_init_num_players_of_the_wrong_type_is_a_type_error(bad):
    with pytest.raises(TypeError, match="num_players"):
        core.init(2, bad)


def test_init_num_players_per_game_needs_one_per_game():
    with pytest.raises(ValueError, match="num_players must be an int or 2 ints"):
        core.init(2, [3, 4, 5])
    assert core.init(2, np.array([3, 6], np.uint8)).num_players.tolist() == [3, 6]


@pytest.mark.parametrize("bad", [2.0, "3", True, None])
def test_init_num_games_of_the_wrong_type_is_a_type_error(bad):
    with pytest.raises(TypeError, match="num_games"):
        core.init(bad)


@pytest.mark.parametrize("bad", [0, -1])
def test_init_num_games_below_one_is_a_value_error(bad):
    with pytest.raises(ValueError, match="num_games must be >= 1"):
        core.init(bad)


@pytest.mark.parametrize("bad", [1.5, "7", [1.5, 2.0], True, np.array([1.0, 2.0])])
def test_init_seeds_of_the_wrong_type_are_a_type_error(bad):
    with pytest.raises(TypeError, match="seeds"):
        core.init(2, seeds=bad)


@pytest.mark.parametrize(
    "bad",
    [2**63, -(2**63) - 1, [0, 2**64], np.array([0, 2**63], np.uint64), INT64_MAX],
)
def test_init_seeds_outside_int64_are_a_value_error(bad):
    # INT64_MAX itself is a seed, but game 1 of the batch would get INT64_MAX + 1
    with pytest.raises(ValueError, match="seeds must be in"):
        core.init(2, seeds=bad)


def test_init_accepts_every_int64_seed_and_numpy_ints():
    a = core.init(2, seeds=[-(2**63), INT64_MAX])
    b = core.init(1, seeds=np.int64(INT64_MAX))
    assert a.rng[1] == b.rng[0]
    assert core.init(1, seeds=-5).rng[0] == core.init(2, seeds=-6).rng[1]


@pytest.mark.parametrize("bad", [5, ["noirburg"], Rules])
def test_init_rules_of_the_wrong_type_is_a_type_error(bad):
    with pytest.raises(TypeError, match="rules must be a preset name or a Rules"):
        core.init(1, rules=bad)


# --- Rules fields ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "field, value, error, message",
    [
        ("trophy_points", -1, ValueError, "trophy_points=-1 must be in 0..1000"),
        ("countdown_tokens", 0, ValueError, "countdown_tokens=0 must be in 1..100"),
        ("discard_limit", -2, ValueError, "discard_limit"),
        ("discard_limit", 40_000, ValueError, "discard_limit"),
        ("mulligan_max", 7, ValueError, "mulligan_max"),
        ("money_win_threshold", (0, 35, 40, 45), ValueError, r"threshold\[0\] \(3 players\)"),
        ("money_win_threshold", (30, 35, 40, -1), ValueError, "6 players"),
        ("money_win_threshold", (30, 35, 40, 81), ValueError, "must be in 1..80"),
        ("money_win_threshold", (30, 35, 40), ValueError, "needs 4 values"),
        ("money_win_threshold", 30, ValueError, "needs 4 values"),
        ("money_win_threshold", (30, 35.5, 40, 45), TypeError, "must be an int"),
        ("trophy_points", 2.5, TypeError, "Rules.trophy_points must be an int"),
        ("trophy_points", True, TypeError, "Rules.trophy_points must be an int"),
        ("money_win", 1, TypeError, "Rules.money_win must be a bool"),
        ("war_win", "yes", TypeError, "Rules.war_win must be a bool"),
        ("step_order", 3, ValueError, "Rules.step_order"),
        ("name", "", TypeError, "Rules.name"),
    ],
)
def test_rules_fields_outside_their_range_are_rejected(field, value, error, message):
    with pytest.raises(error, match=message):
        Rules(**{field: value})


def test_rules_normalise_numpy_values_and_lists():
    r = Rules(trophy_points=np.int16(12), money_win=np.bool_(False), money_win_threshold=[30] * 4)
    assert r.trophy_points == 12 and type(r.trophy_points) is int
    assert r.money_win is False
    assert r.money_win_threshold == (30, 30, 30, 30)
    hash(r)  # still usable as a key


# --- observe / step / queries -----------------------------------------------------------------
@pytest.mark.parametrize("bad", [1.7, "1", True, np.array([0.0, 1.0])])
def test_observe_seats_of_the_wrong_type_is_a_type_error(bad):
    state = core.init(2, 4)
    with pytest.raises(TypeError, match="seats"):
        core.observe(state, seats=bad)


@pytest.mark.parametrize("bad", [4, -1, [0, 4], 2**70])
def test_observe_seats_out_of_range_is_a_value_error(bad):
    state = core.init(2, 4)
    with pytest.raises(ValueError, match="seats"):
        core.observe(state, seats=bad)


def test_observe_seats_must_be_one_or_one_per_game():
    state = core.init(2, [3, 5])
    with pytest.raises(ValueError, match="seats must be an int or 2 ints"):
        core.observe(state, seats=[0, 1, 2])
    with pytest.raises(ValueError, match="game 0 has 3 players"):
        core.observe(state, seats=[3, 4])
    assert core.observe(state, seats=[2, 4]).shape == (2, core.observe(state).shape[1])


@pytest.mark.parametrize(
    "call",
    [core.legal_action_mask, core.current_player, core.scores, core.observe, core.refresh],
)
@pytest.mark.parametrize("bad", [None, [1, 2], np.zeros(3), np.zeros((2, 2))])
def test_queries_on_a_non_state_name_the_problem(call, bad):
    with pytest.raises(ValueError, match="not a NOIR state"):
        call(bad)


def test_step_on_a_non_state_names_the_problem():
    with pytest.raises(ValueError, match="not a NOIR state"):
        core.step(np.zeros(2), np.zeros(2, np.int64))
    state = core.init(2)
    with pytest.raises(ValueError, match="not a NOIR state"):
        core.step(state.reshape(1, 2), np.zeros(2, np.int64))


def test_step_refuses_a_read_only_state():
    state = core.init(2)
    before = state.copy()
    state.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        core.step(state, random_actions(state, np.random.default_rng(0)))
    assert state.tobytes() == before.tobytes()


@pytest.mark.parametrize(
    "bad", [np.ones(2, np.bool_), [True, False], np.zeros(2), ["0", "1"], [None, None]]
)
def test_step_refuses_non_integer_actions(bad):
    state = core.init(2)
    before = state.copy()
    with pytest.raises(ValueError, match="actions must be integer action ids"):
        core.step(state, bad)
    assert state.tobytes() == before.tobytes()


def test_step_on_a_strided_view_writes_through():
    state = core.init(4, seeds=3)
    ref = state[::2].copy()
    view = state[::2]
    acts = random_actions(ref, np.random.default_rng(1))
    r1 = core.step(ref, acts)
    r2 = core.step(view, acts)
    assert state[::2].tobytes() == ref.tobytes()
    for a, b in zip(r1, r2, strict=True):
        np.testing.assert_array_equal(a, b)


# --- all-or-nothing steps --------------------------------------------------------------------
def break_after_step(state, i: int):
    """Make game i fail in its next step: every other player is marked out of the game
    while it is not over, so the next decision has nobody to make it."""
    n = int(state.num_players[i])
    for q in range(n):
        if q != int(state.actor[i]):
            state.alive[i, q] = 0


def find_failure(num_games: int = 8):
    """(batch, actions, failing game) where the failing game's step raises inside the core
    while the others step normally. Built from random play plus one hand edit of one game."""
    rng = np.random.default_rng(5)
    for seed in range(50):
        state = random_batch(num_games, steps=30, seed=seed)
        if (state.phase == C.PH_GAME_OVER).any():
            continue
        acts = random_actions(state, rng)
        for i in range(num_games):
            trial = core.take(state, i)
            break_after_step(trial, 0)
            try:
                core.step(trial, acts[i : i + 1])
            except RuntimeError:
                broken = state.copy()
                break_after_step(broken, i)
                return broken, acts, i
    pytest.skip("no hand edit found that makes the core fail")


@pytest.mark.parametrize("num_games", [8, 80])  # the serial and the parallel kernel
def test_a_failure_in_one_game_leaves_the_whole_batch_unchanged(num_games):
    state, acts, bad = find_failure(num_games)
    before = state.copy()
    with pytest.raises(RuntimeError, match=f"game {bad}: the rules core failed") as err:
        core.step(state, acts)
    assert "no game of the batch was changed" in str(err.value)
    assert state.tobytes() == before.tobytes()
    # without the broken game, the same actions step the others normally
    ok = np.arange(num_games) != bad
    rest = core.take(before, ok)
    core.step(rest, acts[ok])
    assert not check_invariants(rest)
