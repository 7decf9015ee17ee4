"""Positions loaded with `state_from_dict` (noir_env/core/serialize.py): an impossible
position is a ValueError naming the key (out-of-range selections, actors, attack targets,
rule values, fields and log entries, anything a kernel would index out of bounds with);
a loaded position takes its forced decisions as `step` would, all or nothing.
The fuzz of the same loader: test_fuzz_positions.py."""

from __future__ import annotations

import numpy as np
import pytest

import noir_env.core as core
from noir_env.core import constants as C
from noir_env.core.serialize import state_from_dict, state_to_dict
from tests.core.test_core_api import random_batch


# --- hand-written positions that once crashed the process or loaded as impossible games ---
def test_out_of_range_selection_is_a_value_error():
    d = {"num_players": 3, "phase": "move_gangsters_to", "selection": [-20, 28]}
    for _ in range(3):  # once killed the interpreter
        with pytest.raises(ValueError, match="selection"):
            state_from_dict({**d, "players": [{}, {}, {}]})


def test_an_actor_outside_the_game_is_a_value_error():
    with pytest.raises(ValueError, match="actor=7"):
        state_from_dict({"num_players": 3, "phase": "discard", "actor": 7, "players": [{}] * 3})


def test_an_attack_on_seat_100_is_a_value_error():
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


# --- loaded positions settle like step; the remaining field checks --------------------------
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
    state = random_batch(3, 40, seed=4)
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
    batch = random_batch(2, 10, seed=1)
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
