"""The first heuristic (`"heuristic-v1"` and its styles): `agent.py`, and its policy kernels
(`policy.py`, `attack.py`, `reactions.py`)."""
