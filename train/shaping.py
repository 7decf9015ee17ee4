"""Score shaping for `train.ppo` (`--score-shaping C`): a potential-based reward on the
learner's lead in score, added to the game's zero-sum reward at every learner decision.

Most 4-6 player NOIR games end on the countdown's score count (R6.3, R6.4), where the
game's only reward, +1 or -1/(n-1) at the end, tells a decision nothing about the points it
gained or gave away. Shaping rewards each decision for what it did to the lead that decides
such an ending:

    F = gamma * Phi(s') - Phi(s),   Phi(s) = C * (own score - best score of another living seat)

with Phi = 0 once the learner's episode is over (the game ended, or the learner was
eliminated or truncated). A potential-based term leaves the best policy of the discounted
game unchanged (Ng, Harada and Russell 1999): the lead is a hint on where the reward comes
from, not a second objective. Scores are the game's own (`Game.scores`, R6.4 in NOIR), so
the shaping works for every game of the protocol. Episode returns logged by `train.ppo`
stay the game's unshaped ones.
"""

from __future__ import annotations

import numpy as np

from noir_env.game import Game


class ScoreShaping:
    """The shaping term of one run's vector env: `reset` after the env's reset, then
    `shape(reward, done)` after every step (with the env's autoreset, the potential of a
    slot whose episode ended is that of its next game)."""

    def __init__(self, game: Game, coef: float, gamma: float):
        self.game, self.coef, self.gamma = game, float(coef), float(gamma)
        self.last = np.zeros(0, np.float32)

    def potential(self, games) -> np.ndarray:
        """float32 [N]: Phi of each slot of a `SingleSeatGames` now (its learner seat's lead)."""
        state = games.state
        scores = self.game.scores(state).astype(np.float32)
        alive = self.game.alive(state)
        rows = np.arange(scores.shape[0])
        own = scores[rows, games.learner]
        others = np.where(alive, scores, -np.inf)
        others[rows, games.learner] = -np.inf
        best = others.max(axis=1)
        lead = np.where(np.isfinite(best), own - best, 0.0)
        return (self.coef * lead).astype(np.float32)

    def reset(self, games) -> None:
        if games.next_step:  # an ended slot would hold its last game until the next step
            raise ValueError("score shaping needs the env's same-step autoreset")
        self.last = self.potential(games)

    def shape(self, games, reward: np.ndarray, done: np.ndarray) -> np.ndarray:
        """The step's rewards plus gamma * Phi(s') - Phi(s), Phi(s') = 0 where `done`."""
        now = self.potential(games)
        shaped = reward + self.gamma * np.where(done, 0.0, now) - self.last
        self.last = now
        return shaped.astype(np.float32)
