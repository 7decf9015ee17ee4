"""Search: the IS-MCTS agent (`ismcts.py`) and its compiled tree search (`tree.py`)."""
