"""Shimmy's OpenSpiel -> PettingZoo wrapper with what it gets wrong for any OpenSpiel game set
right (docs/openspiel.md, "Through Shimmy").

    import noir_env.openspiel
    from noir_env.openspiel.shimmy_env import OpenSpielEnv

    env = OpenSpielEnv(game_name="noir", config={"players": 3})
    env.reset(seed=1)  # the seed draws the deal at the game's chance nodes

`shimmy.OpenSpielCompatibilityV0` (2.0.1), on which this builds, does three things that
hand a researcher wrong data for every parametrized or multi-seat game, OpenSpiel's own
included (kuhn_poker, leduc_poker): it reloads a game given as `env=` by its short name
alone on every reset (`load_game("noir")`: the default 4 seats under a 3-seat env); it
adds a finished game's rewards again on every step of an agent already done, so the
rewards read from `last()` count each seat's return once per seat removed before it; and
`EzPickle` keeps no `config`, so a pickled env loses its parameters. Its deals, spaces,
masks and observations are kept as they are.
"""

from __future__ import annotations

from typing import Any

from gymnasium.utils import EzPickle
from shimmy import OpenSpielCompatibilityV0


class OpenSpielEnv(OpenSpielCompatibilityV0):
    """`OpenSpielCompatibilityV0` (same arguments) whose games keep their parameters on
    every reset and in a pickle, and whose rewards are each seat's return once (an agent
    already done steps with None, as PettingZoo's own envs do)."""

    config: dict[str, Any] | None  # the game's parameters (Shimmy's attribute)

    def __init__(self, env: Any = None, game_name: str | None = None,
                 render_mode: str | None = None, config: dict | None = None) -> None:  # fmt: skip
        super().__init__(env, game_name, render_mode, config)
        if self.config is None:  # the game's own parameters, defaults included
            self.config = dict(self._env.get_parameters())
        EzPickle.__init__(self, env, game_name, render_mode, config)

    def step(self, action: Any) -> None:
        """One action of `agent_selection`; None for an agent already done (removed, its
        rewards not added again to the others)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        super().step(action)
