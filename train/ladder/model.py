"""The rating model of the ladder: who wins a table, as a Luce choice (the first stage of
Plackett-Luce), fitted by maximum likelihood, on an Elo-like scale.

Each player k has a strength theta_k; the winner of a table is player i with probability
exp(theta_i) / sum_j exp(theta_j) over the players seated. Between equal players that is par,
1/n, at any table size; between two players a gap of 400 points is a factor of 10 in the odds
that one rather than the other wins (when one of them does), as in Elo (rating = 400 log10(e)
theta + offset). A shared win counts each winner as chosen from the whole table (Breslow's
rule for ties); a game without a winner (truncated) says nothing. Only the winner counts:
the game's objective is to win, and the order of the others (by score, or by elimination)
rewards surviving, which a cautious style does well without winning.

The fit maximizes the log likelihood by Newton's method over the free strengths (the others
held fixed: the anchor of the ladder, or every rung when one agent is rated against them),
with a weak Gaussian prior (standard deviation `PRIOR_SD` ratings around the anchor) that
only matters where the data cannot place a player at all (an agent that finished ahead of
every opponent in every game has no finite maximum).

The 95% intervals come from the cluster-robust (sandwich) covariance, clusters being the
deals: the games of one deal are played with the seats rotated over the same cards, so they
are not independent; the sandwich estimate H^-1 (sum over deals of g g^T) H^-1 carries that
dependence, where the plain inverse Fisher information would assume independent games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)  # rating points per unit of theta
PRIOR_SD = 2000.0  # ratings: the weak prior's standard deviation around the anchor
Z95 = 1.959963984540054


@dataclass
class Games:
    """Played games for the model: per game its players (indices into a list of names; -1
    for no seat), which of them won, and the deal it was played on."""

    players: np.ndarray  # int64 [G, S]
    won: np.ndarray  # bool [G, S]: the winners (none in a game without one)
    deals: np.ndarray  # int64 [G]: games of one deal share a number (the clusters)

    def __post_init__(self) -> None:
        self.deals = np.asarray(self.deals, np.int64)
        self.players = np.asarray(self.players, np.int64).reshape(len(self.deals), -1)
        self.won = np.asarray(self.won, np.bool_).reshape(self.players.shape)

    def subset(self, rows: np.ndarray) -> Games:
        """The games selected by a boolean mask or indices."""
        return Games(self.players[rows], self.won[rows], self.deals[rows])


@dataclass
class Fit:
    """Fitted strengths: `theta` for every player (the fixed ones as given), the covariance
    of the free ones (`free` lists them, in that order) and Newton's iterations."""

    theta: np.ndarray
    free: np.ndarray
    cov: np.ndarray
    iterations: int

    def std(self) -> np.ndarray:
        """Standard error of theta per player (0 for the fixed ones)."""
        out = np.zeros_like(self.theta)
        out[self.free] = np.sqrt(np.maximum(np.diag(self.cov), 0.0))
        return out


def _table_probs(theta: np.ndarray, games: Games) -> np.ndarray:
    """[G, S]: each seat's chance of winning its table under `theta` (0 for no seat)."""
    present = games.players >= 0
    t = np.where(present, theta[np.maximum(games.players, 0)], -np.inf)
    top = t.max(1, keepdims=True)
    w = np.exp(t - top)
    return w / w.sum(1, keepdims=True)


def log_likelihood(theta: np.ndarray, games: Games) -> float:
    """The log likelihood of the games' winners under `theta` (a shared win: each winner
    chosen from the whole table)."""
    p = _table_probs(np.asarray(theta, np.float64), games)
    return float(np.log(np.where(games.won, p, 1.0)).sum())


def _gradients(theta: np.ndarray, games: Games, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(per-game gradient [G, K], Hessian [K, K]) of the log likelihood over all K players."""
    p = _table_probs(theta, games)
    m = games.won.sum(1).astype(np.float64)  # winners of each game (0: no term)
    g_count, seats = games.players.shape
    onehot = np.zeros((g_count, seats, k))
    present = games.players >= 0
    g_idx, s_idx = np.nonzero(present)
    onehot[g_idx, s_idx, games.players[g_idx, s_idx]] = 1.0
    p_player = np.einsum("gs,gsk->gk", p, onehot)
    won = np.einsum("gs,gsk->gk", games.won.astype(np.float64), onehot)
    grad = won - m[:, None] * p_player
    weighted = m[:, None] * p_player
    hess = -(np.diag(weighted.sum(0)) - np.einsum("gk,gl->kl", weighted, p_player))
    return grad, hess


def fit(
    games: Games,
    num_players: int,
    fixed: dict[int, float],
    prior_center: float = 0.0,
    max_iter: int = 100,
    tol: float = 1e-10,
) -> Fit:
    """Maximum likelihood strengths of the players not in `fixed` (index -> theta held at that
    value), with the weak prior (module docstring) centred on `prior_center`; the covariance
    of the free strengths is the cluster-robust one over the games' deals. Raises ValueError
    when nothing is free or a free player played no game."""
    k = int(num_players)
    free = np.array([i for i in range(k) if i not in fixed], np.int64)
    if free.size == 0:
        raise ValueError("every player is fixed: nothing to fit")
    played = np.bincount(games.players[games.players >= 0], minlength=k)
    idle = [int(i) for i in free if played[i] == 0]
    if idle:
        raise ValueError(f"players {idle} played no game: their rating cannot be fitted")
    precision = (ELO / PRIOR_SD) ** 2
    theta = np.full(k, float(prior_center))
    for i, value in fixed.items():
        theta[i] = float(value)
    iterations = 0
    while iterations < max_iter:
        iterations += 1
        grad, hess = _gradients(theta, games, k)
        g = grad.sum(0)[free] - precision * (theta[free] - prior_center)
        h = hess[np.ix_(free, free)] - precision * np.eye(free.size)
        step = np.linalg.solve(h, -g)
        step = np.clip(step, -2.0, 2.0)  # far from the optimum a full step can overshoot
        theta[free] += step
        if np.max(np.abs(step)) < tol:
            break
    grad, hess = _gradients(theta, games, k)
    h = hess[np.ix_(free, free)] - precision * np.eye(free.size)
    h_inv = np.linalg.inv(-h)
    _, deal_index = np.unique(games.deals, return_inverse=True)
    cluster = np.zeros((int(deal_index.max(initial=-1)) + 1, free.size))
    np.add.at(cluster, deal_index, grad[:, free])
    meat = cluster.T @ cluster
    return Fit(theta=theta, free=free, cov=h_inv @ meat @ h_inv, iterations=iterations)


def to_rating(theta: np.ndarray | float, anchor_theta: float, anchor_rating: float) -> np.ndarray:
    """Ratings on the ladder's scale: the anchor's theta maps to its rating."""
    return anchor_rating + ELO * (np.asarray(theta, np.float64) - anchor_theta)


def to_theta(rating: np.ndarray | float, anchor_theta: float, anchor_rating: float) -> np.ndarray:
    """The inverse of `to_rating`."""
    return anchor_theta + (np.asarray(rating, np.float64) - anchor_rating) / ELO
