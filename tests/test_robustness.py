"""Robustness (issue 7): every bad argument gets a clear error naming it and changes nothing;
a step is all or nothing over the batch; env copies (deepcopy, pickle) keep their game; the
saved history replays a truncated game as truncated."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import noir_env.core as core
from noir_env import noir_v2
from noir_env.core import constants as C
from noir_env.core.rules import Rules
from noir_env.core.serialize import state_from_dict, state_to_dict
from noir_env.core.validate import check_invariants

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


def played(num_games: int = 3, steps: int = 40, seed: int = 0):
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
        state = played(num_games, steps=30, seed=seed)
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


# --- the AEC env: copies, pickles, bad calls ---------------------------------------------------
def play_env(e, rng, steps: int) -> list:
    """Random legal play for `steps` agent steps (dead steps included); returns what each
    step saw, to compare two envs."""
    seen = []
    for _ in range(steps):
        if not e.agents:
            break
        obs, reward, term, trunc, info = e.last()
        seen.append((e.agent_selection, obs["observation"].tobytes(), reward, term, trunc))
        if term or trunc:
            e.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(legal.size)]))
    return seen


def clones(e):
    return {
        "deepcopy": copy.deepcopy(e),
        "pickle": pickle.loads(pickle.dumps(e)),
    }


@pytest.mark.parametrize("make", [noir_v2.raw_env, noir_v2.env])
def test_deepcopy_and_pickle_continue_the_same_game(make):
    e = make(num_players=4, max_steps=100_000)
    e.reset(seed=7)
    play_env(e, np.random.default_rng(0), 60)
    copies = clones(e)
    rest = play_env(e, np.random.default_rng(1), 100_000)
    assert not e.agents  # played to the end
    for name, c in copies.items():
        assert play_env(c, np.random.default_rng(1), 100_000) == rest, name
        assert c.unwrapped.game_log == e.unwrapped.game_log, name
        assert c.unwrapped.history == e.unwrapped.history, name
        assert c.unwrapped.state.tobytes() == e.unwrapped.state.tobytes(), name


def test_a_copy_is_independent_of_its_original():
    e = noir_v2.raw_env(num_players=3)
    e.reset(seed=1)
    c = copy.deepcopy(e)
    before = e.state.tobytes()
    play_env(c, np.random.default_rng(0), 30)
    assert e.state.tobytes() == before
    assert len(e.history["actions"]) == 0 < len(c.history["actions"])


def test_a_pickled_env_before_reset_still_needs_reset():
    e = pickle.loads(pickle.dumps(noir_v2.raw_env(num_players=5)))
    with pytest.raises(RuntimeError, match="call reset"):
        e.observe("player_0")
    e.reset(seed=3)
    assert e.agent_selection == "player_0" or e.agent_selection in e.agents


@pytest.mark.parametrize("action", [True, False, np.True_, np.bool_(False)])
def test_a_bool_is_not_an_action(action):
    e = noir_v2.raw_env()
    e.reset(seed=0)
    before = e.state.tobytes()
    with pytest.raises(ValueError, match="an action is an integer id"):
        e.step(action)
    assert e.state.tobytes() == before


def test_raw_env_before_reset_names_the_missing_reset():
    e = noir_v2.raw_env()
    with pytest.raises(AttributeError, match="call it first"):
        _ = e.agent_selection
    assert not hasattr(e, "agent_selection")
    for call in (
        lambda: e.observe("player_0"),
        lambda: e.step(0),
        lambda: e.last(),
        e.board_text,
        lambda: e.game_log,
        e.refresh,
        e.action_mask,
    ):
        with pytest.raises(RuntimeError, match="call reset"):
            call()


def test_last_and_step_after_the_game_name_the_problem():
    e = noir_v2.raw_env(num_players=3)
    e.reset(seed=2)
    play_env(e, np.random.default_rng(0), 100_000)
    assert not e.agents
    with pytest.raises(RuntimeError, match="after the game"):
        e.last()
    with pytest.raises(RuntimeError, match="after the game"):
        e.step(0)


@pytest.mark.parametrize(
    "seed, error", [(2**63, ValueError), (-1, ValueError), (1.5, TypeError), ("3", TypeError)]
)
def test_reset_rejects_bad_seeds(seed, error):
    e = noir_v2.raw_env()
    with pytest.raises(error, match="seed"):
        e.reset(seed=seed)


def test_reset_accepts_the_largest_seed_and_numpy_ints():
    e = noir_v2.raw_env()
    e.reset(seed=2**63 - 1)
    e.reset(seed=np.uint64(5))
    assert e.history["seed"] == 5


def test_a_replayed_truncated_game_shows_the_truncation(tmp_path):
    e = noir_v2.raw_env(num_players=4, max_steps=25)
    e.reset(seed=11)
    play_env(e, np.random.default_rng(0), 1000)
    assert e.history["max_steps"] == 25 and len(e.history["actions"]) == 25
    path = tmp_path / "game.json"
    e.save_history(path)
    frames = list(noir_v2.replay(noir_v2.load_history(path)))
    assert len(frames) == 26
    assert frames[-1].log[-1] == "The game is truncated after 25 decisions (max_steps)."
    assert not any("truncated" in line for f in frames[:-1] for line in f.log)


# --- hand-written positions (issue 7's reproductions) ------------------------------------------
def test_issue_repro_1_out_of_range_selection_is_a_value_error():
    d = {"num_players": 3, "phase": "move_gangsters_to", "selection": [-20, 28]}
    for _ in range(3):  # once killed the interpreter
        with pytest.raises(ValueError, match="selection"):
            state_from_dict({**d, "players": [{}, {}, {}]})


def test_issue_repro_2_an_actor_outside_the_game_is_a_value_error():
    with pytest.raises(ValueError, match="actor=7"):
        state_from_dict({"num_players": 3, "phase": "discard", "actor": 7, "players": [{}] * 3})


def test_issue_repro_3_an_attack_on_seat_100_is_a_value_error():
    d = {
        "num_players": 3,
        "phase": "reaction_window",
        "active": 0,
        "actor": 1,
        "window": {"kind": "attack", "owner": 0, "passes_left": 1},
        "attack": {"target": 100, "at": 8, "attackers": [4]},
        "players": [{}, {}, {}],
    }
    with pytest.raises(ValueError, match="attack.target=100"):
        state_from_dict(d)


@pytest.mark.parametrize(
    "patch, key",
    [
        ({"phase": "reaction_window"}, "window"),
        ({"actor": 300}, "actor=300"),
        ({"countdown": {"started": True, "holder": 9, "tokens": 2}}, "countdown.holder"),
        ({"players": [{"trophies": 1}, {}, {}]}, "trophies"),
        ({"result": {"winners": [1], "reason": ""}}, "result.winners"),
        ({"players": [{"alive": False}, {"alive": False}, {}]}, "alive"),
    ],
)
def test_impossible_positions_name_the_key(patch, key):
    d = {"num_players": 3, "phase": "deploy", "players": [{}, {}, {}], **patch}
    with pytest.raises(ValueError, match=key):
        state_from_dict(d)


# --- loaded positions settle like step; remaining field checks (issue 7, part B) ------------
def three(**top) -> dict:
    """A 3-player position dict: empty seats, `top` keys over the defaults."""
    return {"num_players": 3, "players": [{}, {}, {}], **top}


def test_a_loaded_position_takes_its_forced_decisions():
    # the Discard step with no discard left (count 4 = discard_limit) and no reaction in
    # hand: `end` is the only legal action; the core takes it, as step would (R2.5)
    d = three(phase="discard", count=4)
    d["players"][0] = {"hand": {"gangster_1": 1}}
    s = state_from_dict(d)
    assert s.phase[0] == C.PH_DRAW and core.legal_action_mask(s)[0].sum() >= 2
    # with ask_all it is presented: the player holds a card, so the skip is not public
    s = state_from_dict({**d, "ask_all": True})
    assert s.phase[0] == C.PH_DISCARD
    assert np.flatnonzero(core.legal_action_mask(s)[0]).tolist() == [C.A_END]


def test_a_settled_position_loads_unchanged():
    state = played(3, 40, seed=4)
    for i in range(3):
        d = state_to_dict(state, i)
        assert state_from_dict(d).tobytes() == core.take(state, i).tobytes()


def test_a_position_with_no_legal_decision_is_a_value_error():
    # a Turncoat aimed at seat 1's hidden gangsters, who has none: nothing to take
    d = three(
        phase="turncoat_power",
        reaction={"kind": "turncoat", "return_phase": "deploy"},
        selection=[1, C.TGT_HIDDEN],
        discard={"turncoat": 1},
    )
    with pytest.raises(ValueError, match="no legal action"):
        state_from_dict(d)


def test_settle_forced_is_all_or_nothing():
    batch = played(2, 10, seed=1)
    # game 1 (a hand edit): a Turncoat aimed at hidden gangsters its target does not have
    target = (int(batch.actor[1]) + 1) % 4
    batch.phase[1], batch.rt_kind[1] = C.PH_TURNCOAT_POWER, C.PLAY_TURNCOAT
    batch.sel_a[1], batch.sel_b[1] = target, C.TGT_HIDDEN
    batch.hidden[1, target] = 0
    batch.mask[0] = 0  # game 0's cache, which settling game 0 first would restore
    before = batch.copy()
    with pytest.raises(ValueError, match="game 1: .*no legal action; the state is unchanged"):
        core.settle_forced(batch)
    assert batch.tobytes() == before.tobytes()


@pytest.mark.parametrize(
    "rules, message",
    [
        ({"trophy_points": -1}, "trophy_points=-1 must be in 0..1000"),
        ({"cd_tokens": 0}, "countdown_tokens=0 must be in 1..100"),
        ({"money_thr_4": 0}, r"money_win_threshold\[1\] \(4 players\)=0"),
        ({"money_win": 2}, "rules.money_win=2: must be 0 or 1"),
        ({"poker_boxed": 3}, "rules.poker_boxed=3"),
        ({"step_windows": 128}, "rules.step_windows=128"),
        ({"step_windows": -4}, "rules.step_windows=-4"),
        ({"mulligan_max": 2.0}, "rules.mulligan_max=2.0: must be an int"),
        ({"discard_limit": 2**40}, "discard_limit=1099511627776 must be in 0..99"),
        ({"nonsense": 1}, "rules: unknown keys"),
        ([1, 2], "rules=.*must be a dict"),
    ],
)
def test_rule_values_are_checked_by_rules(rules, message):
    with pytest.raises(ValueError, match=message):
        state_from_dict(three(rules=rules))


def test_rule_values_of_every_preset_load():
    from noir_env.core.rules import PRESETS, rules_from_row, rules_row

    for rules in PRESETS.values():
        s = state_from_dict(three(rules=rules_from_row(rules_row(rules))))
        assert s.rules[0].tolist() == rules_row(rules).tolist()


@pytest.mark.parametrize(
    "patch, key",
    [
        ({"turn_no": 2**40}, "turn_no=1099511627776"),
        ({"steps": 2**31}, "steps=2147483648"),
        ({"count": 300}, "count=300"),
        ({"rng": -1}, "rng"),
        ({"rng": "0xzz"}, "rng='0xzz'"),
        ({"rng": 2**64}, "rng"),
        ({"discard": {"police": 300}}, "discard.police=300"),
        ({"players": [{"money": 2**70}, {}, {}]}, r"players\[0\].money=1180591620717411303424"),
        ({"players": [{"money": 1.5}, {}, {}]}, r"players\[0\].money=1.5: must be an int"),
        ({"players": [{"trophies": -1}, {}, {}]}, r"players\[0\].trophies=-1"),
        ({"players": [{"hidden": [1] * 20}, {}, {}]}, "more power-1 gangsters than the deck"),
        ({"players": [{"hidden": [1] * 200}, {}, {}]}, "a list of at most 83"),
        ({"players": [{"hidden": [3.0]}, {}, {}]}, r"hidden\[0\] \(a gangster's power\)=3.0"),
        ({"players": [{}, {}, {"alive": False, "known": {"police": 1}}]}, "a player out"),
        ({"selection": [0, 2**9]}, r"selection\[1\]=512"),
        ({"selection": "ab"}, "selection"),
        ({"attacked": [[-1, 3]]}, r"attacked\[0\]\[0\]=-1"),
        ({"move_locked": [["hideout", 0, 1]]}, r"move_locked\[0\]\[1\]=0"),
        ({"move_locked": [[3, 2, 200]]}, r"move_locked\[0\]\[2\]=200"),
        ({"move_locked": [[3, 2, 1], [3, 2, 1]]}, "twice"),
        ({"countdown": {"started": True, "holder": 0, "tokens": 0}}, "countdown.tokens=0"),
        ({"result": {"winners": [-1], "reason": ""}}, r"result.winners\[0\]=-1"),
        ({"ask_all": "yes"}, "ask_all='yes'"),
        ({"queue": [{"kind": "police_kidnap", "player": 9, "target": 0}]}, "player=9"),
        ({"extra": 1}, "unknown keys"),
        ({"players": [{"cash": 1}, {}, {}]}, r"players\[0\]: unknown keys \['cash'\]"),
        ({"removed": {"police": 1}}, "only Poker Nights leave the game"),
        ({"players": [{"hideout": {"covered_by": "hideout"}}, {}, {}]}, "covered_by"),
    ],
)
def test_out_of_range_fields_name_the_key_and_value(patch, key):
    with pytest.raises(ValueError, match=key):
        state_from_dict(three(**patch))


def events(*rows) -> list:
    """A log's 128 rows: `rows` first, zeros after."""
    return [list(r) + [0] * (C.LOG_FIELDS - len(r)) for r in rows] + [[0] * C.LOG_FIELDS] * (
        C.LOG_LEN - len(rows)
    )


@pytest.mark.parametrize(
    "log, key",
    [
        ({"n": -1, "events": events()}, "log.n=-1"),
        ({"n": 1, "events": events()[:5]}, "must be 128 rows"),
        ({"n": 1, "events": [[0] * 3] * C.LOG_LEN}, "must be 8 ints"),
        ({"n": 1, "events": events((99,))}, "not an event code"),
        ({"n": 1, "events": events((0,), (1, 2))}, "unwritten"),
        ({"n": 1, "events": events((0, 2**16))}, r"log.events\[0\]\[1\]=65536"),
        ({"n": 1, "events": events((C.EV_DISCARD, 50, 99))}, "cannot be rendered"),
    ],
)
def test_the_log_is_checked(log, key):
    with pytest.raises(ValueError, match=key):
        state_from_dict(three(log=log))


def window_with(queue: list, discard: dict) -> dict:
    """Seat 1 to act in an end-of-turn window; seat 2 has a Casino with a gangster."""
    return three(
        phase="reaction_window",
        actor=1,
        step="end",
        window={"kind": "end_of_turn", "owner": 0, "passes_left": 2},
        queue=queue,
        discard=discard,
        players=[{}, {}, {"businesses": [{"slot": 0, "income": 4, "gangsters": [1]}]}],
    )


@pytest.mark.parametrize(
    "d, message",
    [
        # enter_step would read the step order at index 8 after the last step
        (three(phase="deploy", step="end"), "phase deploy needs step deploy"),
        # a kidnap resolves on biz_g[seat, slot]: slot 28 is past the field
        (
            window_with(
                [{"kind": "police_kidnap", "player": 1, "target": 2, "at": "hideout"}],
                {"police": 1},
            ),
            r"queue\[0\].target=\(2, 28\): must be a business of an opponent",
        ),
        # queued reactions come from cards on the discard pile: the queue cannot overflow
        (
            window_with([{"kind": "police_kidnap", "player": 1, "target": 2, "at": 0}], {}),
            "1 police played, 0 discarded",
        ),
    ],
)
def test_positions_a_kernel_would_index_out_of_bounds_with_are_refused(d, message):
    with pytest.raises(ValueError, match=message):
        state_from_dict(d)
    ok = window_with([{"kind": "police_kidnap", "player": 1, "target": 2, "at": 0}], {"police": 1})
    assert state_from_dict(ok).rq_n[0] in (0, 1)  # loads (the window may close by itself)


def test_a_hand_over_six_needs_an_elimination():
    seven = {"gangster_1": 4, "police": 3}
    with pytest.raises(ValueError, match=r"players\[0\].hand=7: more than 6 cards"):
        state_from_dict(three(players=[{"hand": seven}, {}, {}]))
    # R3.8 / D24: the player who eliminated seat 2 may hold more
    d = three(players=[{"hand": seven, "kills": 1, "trophies": 1}, {}, {"alive": False}])
    assert state_from_dict(d).hand[0, 0].sum() == 7
