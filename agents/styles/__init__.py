"""The scripted styles (`"style-rusher"`, `"style-turtle"`, `"style-hoarder"`,
`"style-racer"`, `"style-bully"`): `agent.py`, one module per style, and what they share
(`common.py`)."""
