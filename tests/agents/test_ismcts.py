"""The IS-MCTS agent (agents/search/ismcts.py) and its games on the arena (train/search_games.py):
legal, deterministic choices from the acting seat's information only, forced decisions
without search, clear errors, and play clearly above par against random players. The arena,
tournament and AEC seating of search agents: tests/train/test_tournament.py,
tests/envs/test_aec.py."""

import numpy as np
import pytest

import agents
from agents.search.ismcts import ISMCTSAgent
from noir_env import core
from noir_env.core import random_playout
from train.search_games import play_search_games

FAST = {"budget": 12, "horizon": 4}


def midgame_positions(ask_all: bool = False) -> core.State:
    """16 games of 3-6 players after 20..140 random decisions, every one still going."""
    s = core.init(16, np.arange(16) % 4 + 3, "noirburg", seeds=40, ask_all=ask_all)
    for k in range(16):
        part = core.take(s, k)
        random_playout(part, seed=k, max_steps=20 + 8 * k, parallel=False)
        s[k] = part[0]
    assert (core.current_player(s) >= 0).all()
    return s


def test_choices_are_legal_deterministic_and_batched():
    s = midgame_positions()
    games = np.arange(16)
    a = ISMCTSAgent(seed=3, **FAST).act_on_state(s, games)
    assert core.legal_action_mask(s)[games, a].all()
    np.testing.assert_array_equal(ISMCTSAgent(seed=3, **FAST).act_on_state(s, games), a)
    one_by_one = ISMCTSAgent(seed=3, **FAST)
    np.testing.assert_array_equal([one_by_one.act_on_state(s, [g])[0] for g in games], a)
    core.step(s, a)  # the state was not changed by the search: the actions still apply


def test_the_choice_depends_only_on_what_the_acting_seat_knows():
    """Re-dealing what the actor cannot see (other hands, draw pile, dice) leaves every
    choice unchanged; changing the actor's own hand changes some."""
    s = midgame_positions()
    actor = core.current_player(s)
    games = np.arange(16)
    base = ISMCTSAgent(seed=5, **FAST).act_on_state(s, games)
    for world_seed in (1, 2):
        world = core.sample_hidden(s, actor, seeds=world_seed)
        assert (world.hand != s.hand).any() and (world.deck != s.deck).any()
        np.testing.assert_array_equal(ISMCTSAgent(seed=5, **FAST).act_on_state(world, games), base)
    # the actor's own information does matter: re-deal from the next seat's view instead
    others = core.sample_hidden(s, (actor + 1) % s.num_players, seeds=3)
    changed = ISMCTSAgent(seed=5, **FAST).act_on_state(core.refresh(others), games) != base
    assert changed.any()


def test_forced_decisions_are_not_searched():
    s = midgame_positions(ask_all=True)
    mask = core.legal_action_mask(s)
    forced = np.flatnonzero(mask.sum(axis=1) == 1)
    assert forced.size > 0, "ask_all presents decisions with one legal action"
    agent = ISMCTSAgent(seed=0, **FAST)
    a = agent.act_on_state(s, forced)
    np.testing.assert_array_equal(a, mask[forced].argmax(axis=1))
    assert agent.stats.decisions == forced.size and agent.stats.searched == 0


def test_bad_options_and_games_are_named():
    with pytest.raises(ValueError, match="budget"):
        agents.load("ismcts", budget=0)
    with pytest.raises(ValueError, match="rollout"):
        agents.load("ismcts", rollout="greedy")
    with pytest.raises(ValueError, match="horizon"):
        agents.load("ismcts", horizon=-1)
    with pytest.raises(ValueError, match="unknown ismcts options"):
        agents.load("ismcts", budgett=5)
    with pytest.raises(ValueError, match="style"):
        agents.load("ismcts", style="sneaky")
    with pytest.raises(ValueError, match="halving works at the root alone"):
        agents.load("ismcts", depth=3, halving=True)
    agents.load("ismcts", depth=3)  # a tree below the root: an even spread
    s = core.init(2, 3, seeds=0)
    agent = agents.load("ismcts", **FAST)
    with pytest.raises(ValueError, match="games must index"):
        agent.act_on_state(s, [2])
    random_playout(s, parallel=False)
    assert agent.act_on_state(s, [0]).tolist() == [-1]  # a finished game: agents.finished
    with pytest.raises(ValueError, match="act_on_state"):
        play_search_games(object(), "random", games=1)


def test_search_beats_random_players():
    agent = agents.load("ismcts", seed=0, **FAST)
    result = play_search_games(agent, "random", num_players=4, games=8, seed=0)
    rate, low, _ = result.win_rate()
    assert result.games == 8 and result.seat.tolist() == [0, 1, 2, 3] * 2
    assert rate >= 0.5, result.summary()  # par is 25%
    assert result.decisions == agent.stats.decisions > 0


def test_paired_choice_keeps_the_heuristic_unless_an_action_is_clearly_better():
    from agents.search.ismcts import paired_choice

    n = 100
    rng = np.random.default_rng(0)
    base = rng.random(n)  # action 0's values over n common worlds
    for gain, noise, expect in ((0.05, 0.01, 1), (0.002, 0.1, 0), (-0.05, 0.01, 0)):
        other = base + gain + noise * rng.standard_normal(n)
        paired = np.array(
            [
                [base.sum(), 0.0, 0.0],
                [other.sum(), (other - base).sum(), ((other - base) ** 2).sum()],
            ]
        )
        assert paired_choice(paired, n, z=2.0) == expect
    # z = 0: the best mean, however small the gain
    paired = np.array([[10.0, 0.0, 0.0], [10.5, 0.5, 30.0]])
    assert paired_choice(paired, n, z=0.0) == 1 and paired_choice(paired, n, z=2.0) == 0
    # one world: no estimate of the noise, the heuristic's choice stands unless z = 0
    one = np.array([[0.2, 0.0, 0.0], [0.9, 0.7, 0.49]])
    assert paired_choice(one, 1, z=1.0) == 0 and paired_choice(one, 1, z=0.0) == 1
    assert paired_choice(2 * one, 2, z=1.0) == 1  # two equal gains: no spread, a clear win


def test_halving_spends_the_budget_and_keeps_the_heuristics_choice_to_the_end():
    """Sequential halving: about `budget` rollouts a decision (each round at least one world
    per candidate), the heuristic's choice in every round, and the last candidate compared
    on more common worlds than an even spread gives."""
    from agents.search.ismcts import paired_choice

    s = midgame_positions()
    legal = core.legal_action_mask(s).sum(axis=1)
    wide = [g for g in range(16) if legal[g] >= 6][:3]
    assert wide, "no position with six legal actions"
    for g in wide:
        agent = ISMCTSAgent(seed=1, budget=120, horizon=2, halving=True)
        seen = []
        inner = agent._iterate

        def spy(root, seat, actions, totals, counts, rows, iters, rng, clock, _inner=inner,
                _seen=seen):  # fmt: skip
            _seen.append((list(rows), iters))
            return _inner(root, seat, actions, totals, counts, rows, iters, rng, clock)

        agent._iterate = spy
        agent.act_on_state(s, [g])
        assert len(seen) == int(np.ceil(np.log2(legal[g])))  # one call per round
        assert all(rows[0] == 0 for rows, _ in seen)  # the heuristic's choice stays
        assert [len(r) for r, _ in seen] == sorted((len(r) for r, _ in seen), reverse=True)
        assert len(seen[-1][0]) <= 2 < len(seen[0][0])
        assert agent.stats.rollouts <= 120 + legal[g]
        worlds = sum(iters for _, iters in seen)  # the heuristic's choice played them all
        assert worlds > 120 // legal[g]  # more than an even spread of the same budget
    # rows compared on different numbers of worlds: each on its own count
    paired = np.array([[5.0, 0.0, 0.0], [9.0, 1.0, 0.2], [3.0, 0.5, 0.1]])
    assert paired_choice(paired, np.array([10, 10, 4]), z=1.0) == 1
    assert paired_choice(paired, np.array([10, 10, 4]), z=50.0) == 0


def test_a_time_budget_stops_the_search():
    s = midgame_positions()
    agent = ISMCTSAgent(seed=0, budget=10**6, time_ms=5.0, horizon=2)
    a = agent.act_on_state(s, [0, 1])
    assert core.legal_action_mask(s)[[0, 1], a].all()
    assert agent.stats.seconds < 2.0 and 0 < agent.stats.iterations < 10**5


def test_a_batched_agent_takes_the_measured_seat_as_the_reference():
    """play_search_games seats a batched agent where the search agent sits (the reference
    row), through the arena's act(obs, mask), and times it the same way."""
    result = play_search_games(agents.load("heuristic"), "random", 3, games=6)
    rate, low, high = result.win_rate()
    assert result.games == 6 and low <= rate <= high and rate >= 0.5, result.summary()
    assert result.decisions > 0 and result.cpu_ms_per_decision > 0 and result.truncated == 0


def test_search_games_are_a_function_of_the_seeds():
    def run():
        agent = agents.load("ismcts", seed=2, **FAST)
        return play_search_games(agent, "heuristic", 3, games=3, seed=5), agent.stats

    (a, stats_a), (b, stats_b) = run(), run()
    np.testing.assert_array_equal(a.share, b.share)
    assert a.decisions == b.decisions == stats_a.decisions > 0
    assert (stats_a.rollouts, stats_a.overrides) == (stats_b.rollouts, stats_b.overrides)
    assert len(stats_a.search_cpu) == stats_a.searched
    assert 0 < stats_a.search_cpu_ms_quantile(0.5) <= stats_a.search_cpu_ms_quantile(0.95)


def test_the_default_choice_and_the_rollouts_are_todays_heuristic():
    """The root's default (the action the paired test must beat) and the model of every
    other seat are the `heuristic` agent's kernel with its weights: on mid-game positions the
    default is the agent's own choice wherever it is not a near-tie (the agent's tie-break
    noise differs), and far from the first heuristic's."""
    from agents.heuristic.v2.agent import STYLES
    from agents.search.tree import rollout_choice
    from noir_env.core.state import kernel_view

    s = core.init(96, 4, "noirburg", seeds=70)
    for k in range(96):
        part = core.take(s, k)
        random_playout(part, seed=100 + k, max_steps=10 + 3 * k, parallel=False)
        s[k] = part[0]
    mask, actor = core.legal_action_mask(s), core.current_player(s)
    live = np.flatnonzero((actor >= 0) & (mask.sum(axis=1) >= 2))
    obs = np.concatenate([core.observe(core.take(s, g), actor[g]) for g in live])
    weights = STYLES["balanced"].weights()  # the weights the search is given by default
    default = np.array([rollout_choice(kernel_view(core.take(s, g)), weights, 0.5)
                        for g in live])  # fmt: skip
    agree = {name: np.mean(agents.load(name, seed=0).act(obs, mask[live]) == default)
             for name in ("heuristic", "heuristic-v1")}  # fmt: skip
    assert len(live) >= 60
    assert agree["heuristic"] >= 0.9, agree
    assert agree["heuristic-v1"] < agree["heuristic"] - 0.1, agree


class _Fixed:
    """A batched agent that plays the highest legal action id (whatever the heuristic does)."""

    game = "noir"

    def act(self, obs, mask):
        return np.array([np.flatnonzero(row)[-1] for row in np.atleast_2d(mask)])


def test_a_default_agent_is_what_the_search_must_beat():
    """With `default` an agent, the root's first action is that agent's choice, and with an
    infinite bar (z) the search plays it; analyse reports every legal action's value."""
    s = midgame_positions()
    mask = core.legal_action_mask(s)
    live = np.flatnonzero(mask.sum(axis=1) >= 2)
    fixed = _Fixed()
    highest = fixed.act(None, mask[live])
    stubborn = ISMCTSAgent(seed=1, default=fixed, z=1e9, **FAST)
    np.testing.assert_array_equal(stubborn.act_on_state(s, live), highest)
    searcher = ISMCTSAgent(seed=1, default=fixed, **FAST)
    for g, first in zip(live, highest, strict=True):
        result = searcher.analyse(s, int(g))
        assert result.actions[0] == first
        assert sorted(result.actions) == np.flatnonzero(mask[g]).tolist()
        assert result.choice in result.actions
        assert ((result.value >= 0) & (result.value <= 1)).all() and (result.worlds > 0).all()
    assert searcher.stats.searched == len(live)
    # by name: the shipped policy (its choices, searched), and errors for what cannot be one
    by_name = agents.load("ismcts", seed=1, default="heuristic-v1", **FAST)
    assert core.legal_action_mask(s)[live, by_name.act_on_state(s, live)].all()
    with pytest.raises(ValueError, match="batched agent"):
        ISMCTSAgent(default=ISMCTSAgent(**FAST))
    with pytest.raises(ValueError, match="NOIR agent"):
        ISMCTSAgent(default="district-heuristic")
    forced = np.flatnonzero(core.legal_action_mask(midgame_positions(True)).sum(1) == 1)
    if forced.size:
        with pytest.raises(ValueError, match="one legal action"):
            searcher.analyse(midgame_positions(True), int(forced[0]))
