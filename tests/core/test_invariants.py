"""Invariants over many random games (R1.1 cards, R1.2 money, R4.5 capacities): conserved,
never negative, respected after every single step; and every game ends on its own."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noir_env import core, spaces
from noir_env.core import random_playout, validate

PRESETS = ["noirburg", "noirbrough", "original"]
MAX_STEPS = 10_000  # the AEC env's default truncation; random games never come close


@pytest.mark.parametrize("rules", PRESETS)
def test_3400_random_games_per_preset_keep_invariants_and_end(rules):
    """3 x 3,400 >= 10,000 games, 3-6 players, checked after every agent step."""
    n = 3400
    s = core.init(n, np.arange(n) % 4 + 3, rules, seeds=10_000)
    res = random_playout(s, seed=5, max_steps=MAX_STEPS, check=True)
    assert res.problems() == []
    assert res.done.all(), "every game ends"
    assert res.steps.max() < MAX_STEPS // 5, "far from truncation"
    assert validate.check_invariants(s) == []
    winners = s.winners[:, :6].sum(axis=1)
    assert (winners >= 1).all()


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(3, 6),
    rules=st.sampled_from(PRESETS),
    policy_seed=st.integers(0, 1000),
)
def test_invariants_hold_through_the_python_api(seed, players, rules, policy_seed):
    s = core.init(2, players, rules, seeds=seed)
    rng = np.random.default_rng(policy_seed)
    for _ in range(2000):
        mask = core.legal_action_mask(s)
        if not mask.any():
            break
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        core.step(s, acts)
        assert validate.check_invariants(s) == []
    assert (s.phase == 13).all(), "the game ended"


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda g: g.money.__setitem__(0, g.money[0] + 1), "money is not conserved"),
        (lambda g: g.hand.__setitem__((1, 0), g.hand[1, 0] + 1), "cards are not conserved"),
        (lambda g: g.hand.__setitem__((1, 0), -1), "negative"),
        (
            lambda g: (g.biz.__setitem__((0, 0), 1), g.biz_g.__setitem__((0, 0, 1), 1)),
            "cards are not conserved",
        ),
    ],
)
def test_the_checker_catches_broken_states(corrupt, message):
    s = core.init(1, 4, seeds=3)
    corrupt(s[0])
    problems = validate.check_invariants(s)
    assert problems and message in problems[0]


def test_capacity_and_hideout_checks():
    s = core.init(1, 4, seeds=3)
    g = s[0]
    # move a Speakeasy and a power-4 gangster from the draw pile onto seat 0's table
    for card in (6, 3):
        k = int(np.flatnonzero(g.deck[: g.deck_n] == card)[0])
        g.deck[k : g.deck_n - 1] = g.deck[k + 1 : g.deck_n].copy()
        g.deck_n -= 1
        g.deck[g.deck_n] = 0
    g.biz[0, 0] = 3
    g.biz_g[0, 0, 3] = 1
    assert "more gangster power than its income" in validate.check_invariants(s)[0]
    g.biz_g[0, 0, 3] = 0
    g.ho_g[0, 3] = 1
    assert "Hideout holds more than 3" in validate.check_invariants(s)[0]
    g.ho_g[0, 3] = 0
    g.hand[0, 3] += 1
    g.ho_top[0] = 4
    assert "covered by a slot" in validate.check_invariants(s)[0]
    g.ho_top[0] = 0
    assert validate.check_invariants(s) == []


@pytest.mark.parametrize("rules", [*PRESETS, core.Rules(trophy_points=1000)])
def test_observations_stay_in_the_declared_space(rules):
    """Every seat's observation at every step of random games lies in observation_space()
    (counts below 256; turn, step and rule values unbounded above)."""
    space = spaces.observation_space()
    n = 8
    s = core.init(n, np.arange(n) % 4 + 3, rules, seeds=77)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        mask = core.legal_action_mask(s)
        if not mask.any():
            break
        for seat in range(3):  # every game has seats 0-2
            obs = core.observe(s, seat)
            bad = [
                (g, np.flatnonzero((obs[g] < space.low) | (obs[g] > space.high))) for g in range(n)
            ]
            assert all(b.size == 0 for _, b in bad), f"outside the space: {bad}"
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        core.step(s, acts)
    assert (s.phase == 13).all()
