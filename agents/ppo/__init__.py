"""PPO agents: the network (`net.py`), policy files (`file.py`, read through the bounded
torch reader `torch_file.py`), the agent (`agent.py`) and the table of one network per player
count (`by_players.py`). torch is imported only when one of these modules is."""
