"""The baselines researchers measure against: the heuristic (agents/heuristic/v2/agent.py) and the
scripted styles (agents/styles/agent.py). Always legal in every phase, preset and player count;
loadable by name; each style keeps to its rules; the heuristic beats the first one
(heuristic-v1) on fixed seeds; deterministic; the cross-play script writes its files."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents import HeuristicAgent, RandomAgent, load, names
from agents.heuristic.v2.agent import STYLES, Style
from agents.styles.agent import STYLE_NAMES, StyleAgent
from noir_env import core
from noir_env.core import constants as C
from tests.agent_checks import PRESETS, expected_phases, phases_seen
from train.match import play
from train.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
BASELINES = ["heuristic", *(f"style-{s}" for s in STYLE_NAMES)]


@pytest.mark.parametrize("preset", PRESETS)
def test_always_legal_in_every_phase(preset, one_thread):
    """Asked at every decision of random games, 3-6 players, both presentation modes."""
    seen = phases_seen(preset, [load(name, seed=3) for name in BASELINES], 10, 200)
    assert seen >= expected_phases(preset), sorted(expected_phases(preset) - seen)


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_at_their_own_tables(preset, one_thread):
    """The baselines and the first heuristic at one table, every count: the arena rejects
    any illegal action, and every game ends."""
    agents = [load(name, seed=k) for k, name in enumerate([*BASELINES, "heuristic-v1"])]
    for n in (3, 4, 5, 6):
        lineup = [(n + 2 * k) % len(agents) for k in range(n)]
        assert play(agents, lineup, 28, rules=preset, seed=11 * n).finished.all()


def test_names_and_options():
    assert set(BASELINES) | {"heuristic-v1"} <= set(names())
    assert isinstance(load("heuristic"), HeuristicAgent)
    for style in STYLE_NAMES:
        agent = load(f"style-{style}", seed=1)
        assert isinstance(agent, StyleAgent) and agent.name == f"style-{style}"
    assert load("heuristic", noise=0.0).style.noise == 0.0
    assert HeuristicAgent(Style(elim_cost=50.0)).style.elim_cost == 50.0
    assert set(STYLES) == {"balanced"}
    with pytest.raises(ValueError, match="unknown style"):
        StyleAgent("pacifist")
    with pytest.raises(ValueError, match="takes no options"):
        load("style-turtle", depth=2)
    with pytest.raises(ValueError, match="unknown heuristic style"):
        load("heuristic", style="timid")


def events_by_seat(agent_names, games, seed, preset="noirburg"):
    """Play `games` games with seat q played by agent_names[q] (ask_all=False) and count,
    per seat, the attacks it declared, the attacks on a Hideout among them, and the
    gangsters it deployed by power."""
    n = len(agent_names)
    agents = [load(name, seed=q) for q, name in enumerate(agent_names)]
    state = core.init(games, n, preset, seeds=seed)
    seen = np.zeros(games, np.int64)
    attacks, hideout, deployed = np.zeros(n), np.zeros(n), np.zeros((n, 4))
    for _ in range(20_000):
        actor = core.current_player(state)
        if (actor < 0).all():
            break
        obs, mask = core.observe(state), core.legal_action_mask(state)
        actions = np.zeros(games, np.int64)
        for q, agent in enumerate(agents):
            rows = np.flatnonzero(actor == q)
            if rows.size:
                actions[rows] = agent.act(obs[rows], mask[rows])
        core.step(state, actions)
        for g in np.flatnonzero(state["log_n"] > seen):
            for k in range(seen[g], state["log_n"][g]):
                code, p, *args = state["log"][g, k % C.LOG_LEN].tolist()
                if code == C.EV_DECLARE:
                    attacks[p] += 1
                    hideout[p] += args[1] == C.TGT_HIDEOUT
                elif code == C.EV_DEPLOY and args[0] <= C.G4:
                    deployed[p, args[0]] += 1
            seen[g] = state["log_n"][g]
    return attacks, hideout, deployed


def test_styles_keep_to_their_rules(one_thread):
    """The turtle never attacks; the racer deploys no gangster above power 1; the rusher
    goes for Hideouts and buys more gangsters than the racer and the hoarder."""
    lineup = ["style-turtle", "style-racer", "style-rusher", "style-hoarder", "style-bully"]
    attacks, hideout, deployed = events_by_seat(lineup, 40, seed=5)
    turtle, racer, rusher, hoarder, bully = range(5)
    assert attacks[turtle] == 0
    assert deployed[racer, 1:].sum() == 0
    assert hideout[rusher] > 0 and attacks[rusher] > attacks[hoarder]
    assert deployed[rusher].sum() > max(deployed[racer].sum(), deployed[hoarder].sum())
    assert attacks[bully] > 0


def lone_win_rate(lone, field, games, seed):
    """The lone agent's win rate against three copies of `field` at 4 players."""
    result = run_tournament([lone, field, field, field], num_players=4, games=games, seed=seed,
                            ratings=False)  # fmt: skip
    return result.summary[0]["win_rate"]


def test_heuristic_beats_the_first_one(one_thread):
    """Fixed seeds, 400 games each way (about 40% and 15% measured over thousands)."""
    assert lone_win_rate("heuristic", "heuristic-v1", 400, seed=7) >= 0.31
    assert lone_win_rate("heuristic-v1", "heuristic", 400, seed=8) <= 0.20


def test_heuristic_and_styles_beat_random(one_thread):
    h, r = load("heuristic", seed=0), RandomAgent(1)
    assert play([h, r], [0, 1, 1, 1], 200, seed=10_000).win_share[:, 0].mean() >= 0.90
    assert lone_win_rate("style-rusher", "random", 200, seed=3) >= 0.6


def test_deterministic_and_independent_of_the_batch(one_thread):
    state = core.init(200, 5, "noirbrough", seeds=5)
    driver = RandomAgent(0)
    for _ in range(40):
        core.step(state, driver.act(None, core.legal_action_mask(state)))
    obs, mask = core.observe(state), core.legal_action_mask(state).copy()
    order = np.random.default_rng(1).permutation(200)
    for name in ("heuristic", "style-hoarder"):
        first = load(name, seed=9).act(obs, mask)
        np.testing.assert_array_equal(load(name, seed=9).act(obs, mask), first)
        np.testing.assert_array_equal(load(name, seed=9).act(obs[order], mask[order]),
                                      first[order])  # fmt: skip
        singles = [load(name, seed=9).act(obs[k], mask[k]) for k in range(8)]
        np.testing.assert_array_equal(singles, first[:8])


def test_crossplay_script_writes_its_files(tmp_path):
    out = tmp_path / "cp"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "strength.py"), "--agents", "style-turtle",
         "random", "--players", "3", "--games", "12", "--chunk", "6", "--out", str(out),
         "--search", "ismcts:budget=4,horizon=2", "--search-games", "3"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    rows = list(csv.DictReader((out / "crossplay.csv").open()))
    search = "ismcts:budget=4,horizon=2"  # a row of its own, never a field
    assert [(r["agent"], r["field"]) for r in rows] == [
        ("style-turtle", "random"), ("random", "style-turtle"),
        (search, "style-turtle"), (search, "random")]  # fmt: skip
    assert all(int(r["games"]) >= 12 for r in rows[:2])
    assert all(int(r["games"]) == 3 for r in rows[2:])
    assert float(rows[0]["ci_low"]) <= float(rows[0]["win_rate"]) <= float(rows[0]["ci_high"])
    assert (out / "crossplay.png").stat().st_size > 0
    assert "| **style-turtle** |" in done.stdout and "| 3 (33%) |" in done.stdout
