"""The rule-based agents, by version: `v1` (the first heuristic, `"heuristic-v1"`, with its
styles), `v2` (the table-aware heuristic, `"heuristic"`), built on one view of the table
(`view.py`: per-seat summaries read from the observation's named layout), one base
(`rule_agent.py`) and District Noir's heuristic (`district.py`)."""

from agents.heuristic.district import DistrictHeuristicAgent
from agents.heuristic.v1.agent import HeuristicV1Agent
from agents.heuristic.v2.agent import HeuristicAgent

__all__ = ["DistrictHeuristicAgent", "HeuristicAgent", "HeuristicV1Agent"]
