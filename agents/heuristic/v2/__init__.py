"""The table-aware heuristic (`"heuristic"`): `agent.py`, and its policy kernels (`policy.py`,
`attack.py`, `economy.py`, `reactions.py`), built on the first one's."""
