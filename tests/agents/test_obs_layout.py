"""The observation layout is the contract between the env and the agents: the compiled rule
agents read their offsets from the named layout (agents/obs_layout.py, over
noir_env.spaces.OBS_SLICES), never from the core's observation writer."""

import ast
from pathlib import Path

import numpy as np

from agents import obs_layout as L
from noir_env import core
from noir_env.spaces import OBS_SLICES

AGENTS = Path(L.__file__).resolve().parent
# the search agent plays through the game state (a state agent, agents/search), so it may use
# the core's own observation writer for the positions it samples
STATE_AGENTS = {AGENTS / "search"}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_observation_agents_never_import_the_core_observation_writer():
    offenders = [
        str(path.relative_to(AGENTS))
        for path in AGENTS.rglob("*.py")
        if not any(home in path.parents for home in STATE_AGENTS)
        and "noir_env.core.observe" in _imports(path)
    ]
    assert offenders == []


def test_offsets_read_the_named_parts_of_a_real_observation():
    state = core.init(1, 5, seeds=2)
    obs = core.observe(state)[0]
    assert obs[L.O_NP : L.O_NP + 4].argmax() == 5 - 3  # the one-hot of 3..6 players
    np.testing.assert_array_equal(obs[L.O_HAND : L.O_HAND + 1], obs[OBS_SLICES["hand"]][:1])
    for rel in range(5):
        base = L.GLOBAL_SIZE + rel * L.SEAT_SIZE
        assert obs[base + L.S_PRESENT] == 1.0
        assert obs[base + L.S_MONEY] == obs[OBS_SLICES[f"seat{rel}.money"]][0]
    assert obs[L.GLOBAL_SIZE + 5 * L.SEAT_SIZE + L.S_PRESENT] == 0.0  # no sixth seat
