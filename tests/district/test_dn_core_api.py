"""The batched API of District Noir: determinism whatever N (and without the JIT), input
errors, the action table, the game-info declaration, the JSON form, and hidden information
(re-dealing what a seat cannot see changes nothing it sees)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from noir_env import district
from noir_env.core import state as noir_state
from noir_env.district import constants as C
from noir_env.district.spaces import GAME_INFO, OBS_SLICES, action_id, action_name


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


# --- determinism -------------------------------------------------------------------------------
def test_a_game_is_the_same_alone_and_inside_a_batch_of_256():
    big = district.init(256, seeds=np.arange(256) + 900)
    one = district.init(1, seeds=[900 + 101])
    np.testing.assert_array_equal(big[101], one[0])
    rng = np.random.default_rng(3)
    while one.phase[0] != C.PH_GAME_OVER:
        acts = random_actions(district.legal_action_mask(big), rng)
        district.step(big, acts)
        district.step(one, acts[101:102])
        np.testing.assert_array_equal(big[101], one[0])


SCRIPT = textwrap.dedent(
    """
    import hashlib, numpy as np
    from noir_env import district
    s = district.init(70, seeds=31)
    h = hashlib.sha256()
    for k in range(48):
        m = district.legal_action_mask(s)
        acts = np.array([np.flatnonzero(r)[(5 * k + i) % max(r.sum(), 1)] if r.any() else 0
                         for i, r in enumerate(m)])
        district.step(s, acts)
        h.update(s.view(np.ndarray).tobytes())
        h.update(district.observe(s).tobytes())
    print(h.hexdigest())
    """
)


def test_compiled_and_plain_python_kernels_agree():
    def run(disable_jit: bool) -> str:
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1" if disable_jit else "0"}
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
        )
        return out.stdout.strip()

    assert run(False) == run(True)


# --- errors ------------------------------------------------------------------------------------
def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="num_games must be >= 1"):
        district.init(0)
    with pytest.raises(ValueError, match="seeds must be an int or 3 ints"):
        district.init(3, seeds=[1, 2])
    s = district.init(2, seeds=0)
    with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
        district.step(s, np.array([0]))
    with pytest.raises(ValueError, match="actions must be integer action ids"):
        district.step(s, np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="seats: game 0 has 2 players"):
        district.observe(s, 2)
    with pytest.raises(ValueError, match="not a District Noir state"):
        district.step(noir_state.allocate(1), np.array([0]))  # a NOIR state
    with pytest.raises(ValueError, match="not a District Noir state"):
        district.state_to_dict(np.zeros(3))


def test_strict_step_names_the_illegal_action_and_changes_nothing():
    s = district.init(4, seeds=11)
    mask = district.legal_action_mask(s)
    acts = np.array([np.flatnonzero(m)[0] for m in mask])
    bad = int(np.flatnonzero(~mask[2])[0])
    acts[2] = bad
    before = s.copy()
    msg = rf"illegal action '{action_name(bad)}' \(id {bad}\) in game 2: phase play, player"
    with pytest.raises(ValueError, match=msg):
        district.step(s, acts)
    np.testing.assert_array_equal(s, before)
    _, done, illegal = district.step(s, acts, strict=False)
    assert illegal.tolist() == [False, False, True, False] and not done.any()
    np.testing.assert_array_equal(s[2], before[2])
    assert (s.steps == [1, 1, 0, 1]).all()
    with pytest.raises(ValueError, match=r"illegal action '<id 99>'"):
        district.step(s, np.array([99, 0, 0, 0]))


def test_mask_is_read_only_and_every_decision_has_two_choices():
    s = district.init(64, seeds=5)
    mask = district.legal_action_mask(s)
    with pytest.raises(ValueError):
        mask[0, 0] = True
    rng = np.random.default_rng(0)
    while (s.phase == C.PH_PLAY).any():
        live = s.phase == C.PH_PLAY
        assert (district.legal_action_mask(s)[live].sum(1) >= 2).all()  # DN5.1
        assert (district.current_player(s)[live] == s.actor[live]).all()
        district.step(s, random_actions(district.legal_action_mask(s), rng))
    assert (district.current_player(s) == -1).all()


def test_action_table_and_game_info():
    assert [f"play:{c}" for c in C.CARD_NAMES] + ["take"] == district.ACTION_NAMES
    assert action_id("take") == 13 and action_id("play:city_hall") == 12
    assert all(action_id(action_name(a)) == a for a in range(district.NUM_ACTIONS))
    with pytest.raises(ValueError, match="unknown action name 'pass'"):
        action_id("pass")
    with pytest.raises(ValueError, match="outside 0..13"):
        action_name(14)
    assert GAME_INFO.short_name == "district_noir" and GAME_INFO.num_actions == 14
    assert GAME_INFO.min_players == GAME_INFO.max_players == 2
    assert GAME_INFO.max_game_length == 48 and GAME_INFO.observation_size == district.OBS_SIZE


# --- JSON form ---------------------------------------------------------------------------------
def test_json_round_trip_is_exact_through_whole_games():
    s = district.init(6, seeds=40)
    rng = np.random.default_rng(1)
    checked = 0
    while True:
        for i in range(6):
            text = json.dumps(district.state_to_dict(s, i))
            back = district.state_from_dict(json.loads(text))
            np.testing.assert_array_equal(back[0], s[i])
            checked += 1
        if not (s.phase == C.PH_PLAY).any():
            break
        district.step(s, random_actions(district.legal_action_mask(s), rng))
    assert checked > 200


def put(**fields):
    """An edit of the dict form: set top-level keys."""
    return lambda d: d.update(fields)


def seat0(**fields):
    """An edit of the dict form: set keys of players[0]."""
    return lambda d: d["players"][0].update(fields)


@pytest.mark.parametrize(
    "edit, message",
    [
        (put(format="noir-state/1"), "unknown state format"),
        (put(players=[{}]), "players must be a list of 2"),
        (put(phase="deploy"), "phase: 'deploy' is not one of"),
        (put(round=4), "round=4: must be in 0..3"),
        (put(line=["joker"]), r"line\[0\]: 'joker' is not one of"),
        (put(line=["port", "port"]), "more port"),
        (seat0(hand={"gang_5": 9}), r"players\[0\].hand.gang_5=9: must be in 0..5"),
        (seat0(taken=1), "taken=1: must be true or false"),
        (seat0(actions=3), "the turn is inconsistent"),
        (put(start_player=2), "start_player=2: must be in 0..1"),
        (put(rng=0), r"rng \(xorshift64 state, non-zero\)=0: must be in 1.."),
        (put(rng="zz"), "rng='zz': must be a hex string"),
        (put(deck=[], removed=None), "round 0 needs 30, the position has 0"),
        (put(deck=[]), "cards are not conserved"),
        (put(actor=-1), "the turn is inconsistent"),
        (put(result={"winner": 3}), r"result.winner \(null, 0 or 1\)=3: must be in 0..1"),
        (put(result={"winner": 0, "reason": "points"}), "the result is inconsistent"),
    ],
)
def test_bad_positions_are_rejected_naming_the_problem(edit, message):
    d = district.state_to_dict(district.init(1, seeds=9))
    edit(d)
    with pytest.raises(ValueError, match=message):
        district.state_from_dict(d)


def test_hand_written_positions_fill_the_pile_and_the_box_by_themselves():
    d = {
        "players": [{"hand": {"gang_8": 5}}, {"hand": {"gang_7": 5}}],
        "line": ["port", "city_hall"],
    }
    s = district.state_from_dict(d)
    assert s.deck_n[0] == 30 and s.removed[0].sum() == 3
    np.testing.assert_array_equal(district.state_from_dict(d), s)  # one dict, one position
    two = district.state_from_dict({**d, "removed": {"police_hq": 1, "gang_5": 2}})
    assert two.removed[0, C.POLICE_HQ] == 1 and two.deck_n[0] == 30


# --- hidden information --------------------------------------------------------------------------
def redeal_unseen(state: district.State, seat: int, rng: np.random.Generator) -> None:
    """Shuffle the cards `seat` cannot see (the other hand, the draw pile and the box)."""
    g = state[0]
    other = 1 - seat
    pool = np.concatenate(
        [
            np.repeat(np.arange(13), g.hand[other]),
            g.deck[: g.deck_n],
            np.repeat(np.arange(13), g.removed),
        ]
    )
    pool = rng.permutation(pool)
    size = int(g.hand[other].sum())
    g.hand[other] = np.bincount(pool[:size], minlength=13)
    g.removed = np.bincount(pool[size : size + C.BOXED], minlength=13)
    g.deck[: g.deck_n] = pool[size + C.BOXED :]


def test_redealing_the_unseen_cards_changes_nothing_a_seat_sees():
    """DN5.3: the other hand, the draw pile's order and the box stay hidden."""
    rng = np.random.default_rng(8)
    s = district.init(40, seeds=77)
    checked = 0
    while (s.phase == C.PH_PLAY).any():
        for i in np.flatnonzero(s.phase == C.PH_PLAY)[:8]:
            one = district.take(s, i)
            for seat in (0, 1):
                obs, mask = district.observe(one, seat), district.legal_action_mask(one).copy()
                after = district.clone(one)
                redeal_unseen(after, seat, rng)
                district.refresh(after)
                np.testing.assert_array_equal(district.observe(after, seat), obs)
                if one.actor[0] == seat:
                    np.testing.assert_array_equal(district.legal_action_mask(after), mask)
                checked += 1
        district.step(s, random_actions(district.legal_action_mask(s), rng))
    assert checked > 500


def test_observation_shows_own_hand_the_line_in_order_and_only_the_other_hands_size():
    s = district.init(1, seeds=12)
    g = s[0]
    for seat in (0, 1):
        o = district.observe(s, seat)[0]
        np.testing.assert_array_equal(o[OBS_SLICES["hand"]], g.hand[seat])
        assert o[OBS_SLICES["seat1.hand_size"]][0] == g.hand[1 - seat].sum()
        newest = o[OBS_SLICES["line"]].reshape(C.LINE_CAP, 13)
        assert newest[0].argmax() == g.line[1] and newest[1].argmax() == g.line[0]
        assert newest[2:].sum() == 0
        seen = g.hand[seat] + np.bincount(g.line[:2], minlength=13)
        np.testing.assert_array_equal(o[OBS_SLICES["unseen"]], C.CARD_COUNTS - seen)
        assert o[OBS_SLICES["to_act"]].tolist() == ([1, 0] if g.actor == seat else [0, 1])


def test_observation_space_bounds_hold():
    from noir_env.district.spaces import observation_space

    space = observation_space()
    s = district.init(200, seeds=3)
    rng = np.random.default_rng(2)
    while (s.phase == C.PH_PLAY).any():
        for seat in (0, 1):
            o = district.observe(s, seat)
            assert (o >= space.low).all() and (o <= space.high).all()
        district.step(s, random_actions(district.legal_action_mask(s), rng))
