"""OpenSpiel's information-set MCTS bot, ready for `evaluate_bots` and repeatable.

OpenSpiel's Python `ISMCTSBot` has no `restart_at`, which `evaluate_bots` calls on every
bot first (pyspiel's base raises "RestartAt(state) not implemented"), and by default
re-deals the hidden cards with an unseeded sampler. The subclass here adds both; the
search is OpenSpiel's, unchanged.
"""

from __future__ import annotations

from typing import Any

from open_spiel.python.algorithms import ismcts


class ISMCTSBot(ismcts.ISMCTSBot):
    """`open_spiel.python.algorithms.ismcts.ISMCTSBot` (same arguments) that
    `evaluate_bots` can restart and whose worlds (`resample_from_infostate`) are drawn from
    its `random_state`, so a bot seeded the same plays the same."""

    def __init__(self, game: Any, evaluator: Any, uct_c: float, max_simulations: int,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(game, evaluator, uct_c, max_simulations, **kwargs)
        self.set_resampler(lambda s, p: s.resample_from_infostate(p, self.random_number))

    def restart_at(self, state: Any) -> None:
        """Nothing to restart: the bot searches afresh from every state it is asked about."""
        self.reset()
