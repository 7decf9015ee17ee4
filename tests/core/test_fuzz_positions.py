"""Fuzz of `state_from_dict`: no position can crash the process or touch another
game. Inputs are mutations of real positions (`state_to_dict` of random mid-game states,
every preset, 3-6 players, both presentation modes: keys changed, deleted, retyped, numbers
out of range, values grafted from other positions) and positions generated from scratch.
Every input either raises ValueError, or loads a position that passes `check_invariants`,
round-trips exactly, renders its log and plays 100 random steps through `core.step` with a
legal action always available, invariants kept and observations finite and >= 0.

NOIR_FUZZ_EXAMPLES scales the number of examples (bench/fuzz_boundscheck.py runs this file
under NUMBA_BOUNDSCHECK=1, where an out-of-bounds access in a kernel raises IndexError).
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import os
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.log import game_log
from noir_env.core.rules import RULE_FIELDS
from noir_env.core.serialize import PHASES, STEPS, state_from_dict, state_to_dict
from noir_env.core.validate import check_invariants
from noir_env.threads import PARALLEL_MIN

PRESETS = ["noirburg", "noirbrough", "original"]
EXAMPLES = int(os.environ.get("NOIR_FUZZ_EXAMPLES", "250"))
PLAY_STEPS = 100
BOUNDSCHECK_EXAMPLES = 60  # per fuzz test, in the subprocess
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# --- real positions ---------------------------------------------------------------------------
def random_action(state, i: int, rng) -> int:
    """A uniformly random legal action of game i (0 once it is over)."""
    legal = np.flatnonzero(core.legal_action_mask(state)[i])
    return int(legal[rng.integers(legal.size)]) if legal.size else 0


@functools.cache
def real_positions() -> tuple[dict, ...]:
    """Dicts of random games of every preset and player count, both presentation modes,
    taken at several depths (from the first decision to finished games)."""
    out = []
    snapshots = {0, 3, 12, 30, 60, 110, 180, 300}
    for k, rules in enumerate(PRESETS):
        for n in range(3, 7):
            s = core.init(3, n, rules, seeds=100 * k + 10 * n, ask_all=bool(n % 2))
            rng = np.random.default_rng(k * 10 + n)
            for t in range(max(snapshots) + 1):
                if t in snapshots:
                    out += [state_to_dict(s, i) for i in range(3)]
                acts = [random_action(s, i, rng) for i in range(3)]
                core.step(s, np.array(acts))
    return tuple(out)


# --- mutations ----------------------------------------------------------------------------------
ODD_VALUES = [
    None, True, False, -1, 0, 1, 2, 3, 4, 5, 6, 7, 13, 27, 28, 29, 30, 31, 83, 100, 127, 128,
    255, 256, -129, 2**15, 2**31, 2**63, 2**64, -(2**63) - 1, 1.5, 3.0, float("nan"), "",
    "3", "x", "hideout", "0x0", "0x10", "police", "driveby", "reaction_window", "attack",
    "end", "game_over", [], {}, [1], [0, 0], [-20, 28], [4, 4, 4, 4], {"police": 1},
    {"kind": "attack"}, {"n": 1}, [[0, "hideout"]], [{"kind": "driveby"}],
]  # fmt: skip
odd_values = st.one_of(st.sampled_from(ODD_VALUES), st.integers(-300, 300), st.integers())


def paths(x, prefix=()) -> list[tuple]:
    """Every path (a tuple of keys / indices) into a nested dict / list, the root excluded."""
    out = []
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in items:
        out.append((*prefix, k))
        out += paths(v, (*prefix, k))
    return out


def get(x, path):
    for k in path:
        x = x[k]
    return x


MUTATIONS = ["odd", "odd", "nudge", "nudge", "delete", "add", "graft", "graft_same", "graft_same"]


@st.composite
def mutated_positions(draw) -> dict:
    """A real position with 1-3 mutations: a value set to an odd one, nudged, deleted,
    duplicated, or grafted from another real position (from any place in it, or from the
    same place: a plausible value that may not fit this position)."""
    pool = real_positions()
    d = copy.deepcopy(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(d)))
        parent, key = get(d, path[:-1]), path[-1]
        op = draw(st.sampled_from(MUTATIONS))
        value = parent[key]
        other = draw(st.sampled_from(pool))
        if op == "odd":
            parent[key] = draw(odd_values)
        elif op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = value + draw(st.sampled_from([-2, -1, 1, 2, 6]))
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(value, list):
            value.append(copy.deepcopy(value[0]) if value else draw(odd_values))
        elif op == "add" and isinstance(value, dict):
            value[draw(st.sampled_from([*value, "attack", "window", "extra"]))] = draw(odd_values)
        elif op == "graft_same" and path in paths(other):
            parent[key] = copy.deepcopy(get(other, path))
        else:  # graft: the value at a random path of another real position
            parent[key] = copy.deepcopy(get(other, draw(st.sampled_from(paths(other)))))
    return d


# --- positions from scratch ---------------------------------------------------------------------
small = st.integers(-1, 8)
powers = st.lists(st.integers(0, 5), max_size=4)
seats = st.integers(-1, 6)
places = st.one_of(st.integers(-1, 30), st.just("hideout"))


def player(n: int):
    return st.fixed_dictionaries(
        {},
        optional={
            "alive": st.booleans() | st.just(True),
            "money": st.integers(-1, 25),
            "hand": st.dictionaries(st.sampled_from(C.CARD_NAMES), st.integers(-1, 4), max_size=4),
            "hideout": st.fixed_dictionaries(
                {}, optional={"gangsters": powers, "covered_by": st.none() | places}
            ),
            "businesses": st.lists(
                st.fixed_dictionaries(
                    {"income": st.integers(0, 5)},
                    optional={"slot": places, "gangsters": powers},
                ),
                max_size=3,
            ),
            "hidden": powers,
            "known": st.dictionaries(st.sampled_from(C.CARD_NAMES), st.integers(0, 2), max_size=2),
            "trophies": st.integers(0, 2),
            "kills": st.integers(0, 2),
        },
    )


@st.composite
def generated_positions(draw) -> dict:
    """A hand-written position: any phase, seats, window, attack, queue and countdown."""
    n = draw(st.integers(3, 6))
    rule_values = st.dictionaries(st.sampled_from(RULE_FIELDS), st.integers(-1, 6), max_size=3)
    optional = {
        "rules": st.sampled_from([*PRESETS, None]) | rule_values,
        "phase": st.sampled_from(PHASES),
        "active": seats,
        "actor": seats,
        "first_player": seats,
        "turn_no": st.integers(-1, 12),
        "step": st.none() | st.sampled_from(STEPS),
        "count": small,
        "selection": st.lists(st.integers(-1, 31), min_size=2, max_size=2),
        "attack": st.none()
        | st.fixed_dictionaries({"target": seats}, optional={"at": places, "attackers": powers}),
        "window": st.none()
        | st.fixed_dictionaries(
            {"kind": st.sampled_from(C.WINDOW_NAMES)},
            optional={
                "owner": seats,
                "passes_left": small,
                "return_phase": st.sampled_from(PHASES),
            },
        ),
        "queue": st.lists(
            st.fixed_dictionaries(
                {
                    "kind": st.sampled_from(C.QUEUE_NAMES),
                    "player": seats,
                    "target": seats,
                    "at": places,
                }
            ),
            max_size=3,
        ),
        "reaction": st.fixed_dictionaries(
            {"kind": st.sampled_from(C.PLAY_NAMES), "return_phase": st.sampled_from(PHASES)}
        ),
        "countdown": st.fixed_dictionaries(
            {"started": st.booleans()},
            optional={"holder": seats, "tokens": small, "turn": small},
        ),
        "attacked": st.lists(st.tuples(seats, places).map(list), max_size=2),
        "move_locked": st.lists(
            st.tuples(places, st.integers(0, 5), st.integers(0, 3)).map(list), max_size=2
        ),
        "ask_all": st.booleans(),
        "discard": st.dictionaries(st.sampled_from(C.CARD_NAMES), st.integers(0, 3), max_size=3),
    }
    d = draw(st.fixed_dictionaries({}, optional=optional))
    d["num_players"] = n
    d["players"] = [draw(player(n)) for _ in range(n)]
    if draw(st.booleans()):  # often give the phase what it needs, to load more of them
        d.update(draw(what_the_phase_needs(d.get("phase", "deploy"), n)))
    return d


def what_the_phase_needs(phase: str, n: int):
    """Keys that make a generated position of `phase` more plausible: the actor is the
    active player; a window or an attack where the phase needs one."""
    seat = st.integers(0, n - 1)
    needs = {
        "active": st.just(0),
        "actor": st.just(0),
        "step": st.just(None) | st.sampled_from(STEPS),
    }
    opponent = st.integers(1, n - 1)
    attack = st.fixed_dictionaries(
        {"target": opponent, "at": st.just("hideout"), "attackers": powers}
    )
    if phase in ("attackers", "continue_attack"):
        needs["attack"] = attack
    if phase in ("reaction_window", "reaction_target", "turncoat_power"):
        kind = st.sampled_from(C.WINDOW_NAMES[1:])
        needs["window"] = st.fixed_dictionaries({"kind": kind, "owner": st.just(0)})
        needs["actor"] = seat
        needs["attack"] = st.none() | attack
        needs["reaction"] = st.fixed_dictionaries(
            {"kind": st.sampled_from(C.PLAY_NAMES), "return_phase": st.just("reaction_window")}
        )
    if phase == "mulligan":
        needs["turn_no"] = st.just(0)
    return st.fixed_dictionaries(needs)


# --- the property ---------------------------------------------------------------------------------
def loads_and_plays(d: dict, seed: int, record=event) -> bool:
    """False if `d` is refused with a ValueError; True if it loads and plays cleanly.
    Anything else (another exception, a broken invariant, no legal action) fails."""
    try:
        s = state_from_dict(d)
    except ValueError:
        record("refused (ValueError)")
        return False
    record(f"loaded: {PHASES[s.phase[0]]}")
    assert check_invariants(s) == []
    again = state_from_dict(state_to_dict(s))
    assert again.tobytes() == s.tobytes(), "the round trip is exact"
    game_log(s)
    rng = np.random.default_rng(seed)
    for _ in range(PLAY_STEPS):
        if s.phase[0] == C.PH_GAME_OVER:
            break
        assert core.legal_action_mask(s)[0].any(), "a game in play has a legal action"
        core.step(s, np.array([random_action(s, 0, rng)]))
        assert check_invariants(s) == []
        for seat in range(int(s.num_players[0])):
            obs = core.observe(s, seat)
            assert np.isfinite(obs).all() and (obs >= 0).all()
    game_log(s)
    return True


@FUZZ
@given(d=mutated_positions(), seed=st.integers(0, 2**32))
def test_mutated_real_positions_load_cleanly_or_raise_value_error(d, seed):
    loads_and_plays(d, seed)


@FUZZ
@given(d=generated_positions(), seed=st.integers(0, 2**32))
def test_generated_positions_load_cleanly_or_raise_value_error(d, seed):
    loads_and_plays(d, seed)


def test_real_positions_all_load_unchanged():
    """The fuzz's seeds are themselves valid: every real position loads exactly as it was
    (a settled position stays as it is) and plays on."""
    for k, d in enumerate(real_positions()):
        assert state_to_dict(state_from_dict(d)) == d, k
        if k % 6 == 0:  # a sample plays on (the fuzz plays the mutated ones)
            assert loads_and_plays(copy.deepcopy(d), k, record=lambda _: None)


# --- neighbours untouched -------------------------------------------------------------------------
def clean_games(num: int, seed: int):
    players = np.arange(num) % 4 + 3
    return core.init(num, players, PRESETS[seed % 3], seeds=seed, ask_all=bool(seed % 2))


def pick_legal(state, u: np.ndarray) -> np.ndarray:
    """Per game, the legal action at fraction u[i] of its legal actions (0 if none): a
    game's choice depends on its own state and u[i] only, wherever it sits in a batch."""
    mask = core.legal_action_mask(state)
    k = (u * mask.sum(axis=1)).astype(np.int64)
    return np.argmax(np.cumsum(mask, axis=1) > k[:, None], axis=1)


@settings(
    max_examples=max(EXAMPLES // 12, 10),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    d=mutated_positions(),
    seed=st.integers(0, 2**16),
    num_clean=st.sampled_from([2, PARALLEL_MIN]),  # small, and large (threaded)
    at=st.integers(0, PARALLEL_MIN),
)
def test_a_fuzzed_game_never_changes_the_games_batched_with_it(d, seed, num_clean, at):
    try:
        fuzzed = state_from_dict(d)
    except ValueError:
        assume(False)
    at = min(at, num_clean)
    clean = clean_games(num_clean, seed)
    alone = clean.copy()
    batch = core.concat([core.take(clean, slice(0, at)), fuzzed, core.take(clean, slice(at, None))])
    others = np.arange(num_clean + 1) != at
    rng = np.random.default_rng(seed)
    for _ in range(100):
        acts = pick_legal(batch, rng.random(num_clean + 1))
        core.step(batch, acts)
        core.step(alone, acts[others])
        assert batch[others].tobytes() == alone.tobytes()


# --- the same fuzz with bounds-checked kernels ----------------------------------------------------
def load_bench_script():
    path = pathlib.Path(__file__).resolve().parents[2] / "bench" / "fuzz_boundscheck.py"
    spec = importlib.util.spec_from_file_location("fuzz_boundscheck", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.boundscheck
def test_no_kernel_indexes_out_of_bounds_on_fuzzed_positions():
    """This file's fuzz in a subprocess with NUMBA_BOUNDSCHECK=1 (bench/fuzz_boundscheck.py),
    where a kernel's out-of-bounds index raises IndexError instead of touching memory."""
    if os.environ.get("NUMBA_BOUNDSCHECK") == "1":
        pytest.skip("this is the bounds-checked run itself")
    script = load_bench_script()
    code, out, _ = script.run(BOUNDSCHECK_EXAMPLES, script.default_cache_dir())
    assert "IndexError" not in out, out[-3000:]
    assert code == 0, out[-3000:]
