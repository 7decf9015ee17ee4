"""The engine: everything a batched game needs that is not its rules, written once and
knowing no game (it imports none). A game supplies compiled kernels and a declaration
(`protocol.Game`); the engine gives it the batched API (`batch.py` over the compiled shell,
`shell.py`), the lockstep loops of the envs (`lockstep.py`), argument checks (`args.py`),
shared kernels (`rng.py`, `sampling.py`, `refcount.py`), the state's record layout
(`records.py`), naming helpers (`layout.py`) and the registry (`registry.py`).

Modules are imported one by one (`from noir_env.engine.protocol import Game`): importing
this package compiles and loads nothing.
"""
