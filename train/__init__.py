"""Training and evaluation entry points: the top of the data flow (core, env, agents, train)."""
