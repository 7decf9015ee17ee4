"""Rewards per seat in games with eliminations (noir_v1's rules, zero-sum per game), for
every game: one without eliminations gets its outcome at the end and nothing before."""

from __future__ import annotations

import numpy as np


def seat_rewards(
    num_players: np.ndarray,
    alive_before: np.ndarray,
    alive_after: np.ndarray,
    outcome: np.ndarray,
    over: np.ndarray,
    truncated: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """(rewards float32 [N, P], seat_done bool [N, P]) of one step: -1/(n-1) to a seat
    eliminated while the game goes on; at the end, to every seat still in, the outcome (the
    core's, 0 on truncation) plus an equal share of what the seats eliminated earlier were
    paid above their outcome."""
    seats = np.arange(alive_after.shape[1])
    n = num_players.astype(np.float64)[:, None]
    present = seats[None, :] < n
    lose = -1.0 / np.maximum(n - 1, 1)
    ended = (over | truncated)[:, None]
    newly_out = alive_before & ~alive_after & present & ~over[:, None]
    out_before = np.where(over[:, None], ~alive_before, ~alive_after) & present
    live = present & ~out_before
    result = np.where(over[:, None], outcome, 0.0)
    share = ((result - lose) * out_before).sum(1, keepdims=True)
    share /= np.maximum(live.sum(1, keepdims=True), 1)
    final = ended & live
    rewards = np.where(final, result + share, np.where(newly_out, lose, 0.0))
    return rewards.astype(np.float32), newly_out | final


def episode_rewards(
    num_players: np.ndarray,
    seats: np.ndarray,
    alive: np.ndarray,
    out_at: np.ndarray,
    steps: np.ndarray,
    outcome: np.ndarray,
    over: np.ndarray,
    truncated: np.ndarray,
) -> np.ndarray:
    """float32 [E]: the reward of seat seats[e] when its episode ends in game e: the end of
    the game (`seat_rewards`, with those alive before its last decision), or -1/(n-1) where
    the seat was eliminated while the game goes on. out_at: the decision count at which
    each seat left (-1: still in); steps: the decisions taken."""
    alive_before = alive | (out_at == steps[:, None])  # out on the game's last decision
    rewards, _ = seat_rewards(num_players, alive_before, alive, outcome, over, truncated)
    mine = rewards[np.arange(seats.size), seats]
    out = ~over & ~truncated
    return np.where(out, -1.0 / np.maximum(num_players - 1.0, 1.0), mine).astype(np.float32)
