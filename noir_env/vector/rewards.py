"""Rewards per seat in games with eliminations (noir_v2's rules, zero-sum per game), for
every game: one without eliminations gets its outcome at the end and nothing before. One
compiled kernel holds the rule; the self-play API, the AEC env of every game and the
single-seat engine read it."""

from __future__ import annotations

import numpy as np

from noir_env.engine.jit import kernel


@kernel
def _row_rewards(n, alive_before, alive_after, outcome, over, truncated, rewards, seat_done):
    """The rule for one game's row of seats (module docstring, `seat_rewards`)."""
    lose = -1.0 / max(n - 1, 1)
    share, live = 0.0, 0
    for q in range(n):
        if (not alive_before[q]) if over else (not alive_after[q]):
            share += (outcome[q] if over else 0.0) - lose
        else:
            live += 1
    share /= max(live, 1)
    for q in range(n):
        out_before = (not alive_before[q]) if over else (not alive_after[q])
        if (over or truncated) and not out_before:
            rewards[q] = (outcome[q] if over else 0.0) + share
            seat_done[q] = True
        elif alive_before[q] and not alive_after[q] and not over:
            rewards[q] = lose
            seat_done[q] = True


@kernel
def _seat_rewards(num_players, alive_before, alive_after, outcome, over, truncated, rewards,
                  seat_done):  # fmt: skip
    for i in range(num_players.shape[0]):
        _row_rewards(num_players[i], alive_before[i], alive_after[i], outcome[i], over[i],
                     truncated[i], rewards[i], seat_done[i])  # fmt: skip


@kernel
def _episode_rewards(num_players, seats, alive, out_at, steps, outcome, over, truncated, out):
    rewards = np.zeros(alive.shape[1], np.float32)
    seat_done = np.zeros(alive.shape[1], np.bool_)
    before = np.zeros(alive.shape[1], np.bool_)
    for e in range(seats.shape[0]):
        n = num_players[e]
        if not over[e] and not truncated[e]:  # the seat was eliminated, the game goes on
            out[e] = -1.0 / max(n - 1, 1)
            continue
        for q in range(alive.shape[1]):  # out on the game's last decision: in before it
            before[q] = alive[e, q] or out_at[e, q] == steps[e]
            rewards[q] = 0.0
        _row_rewards(n, before, alive[e], outcome[e], over[e], truncated[e], rewards, seat_done)
        out[e] = rewards[seats[e]]


def seat_rewards(
    num_players: np.ndarray,
    alive_before: np.ndarray,
    alive_after: np.ndarray,
    outcome: np.ndarray,
    over: np.ndarray,
    truncated: np.ndarray,
    dtype: type = np.float32,
) -> tuple[np.ndarray, np.ndarray]:
    """(rewards [N, P] of `dtype`, seat_done bool [N, P]) of one step: -1/(n-1) to a seat
    eliminated while the game goes on; at the end, to every seat still in, the outcome (the
    core's, 0 on truncation) plus an equal share of what the seats eliminated earlier were
    paid above their outcome. float64 keeps an episode's sum at zero to the last digit (the
    AEC env's Python floats)."""
    rewards: np.ndarray = np.zeros(alive_after.shape, dtype)
    seat_done = np.zeros(alive_after.shape, np.bool_)
    _seat_rewards(np.asarray(num_players, np.int64), np.asarray(alive_before, np.bool_),
                  np.asarray(alive_after, np.bool_), np.asarray(outcome, np.float64),
                  np.asarray(over, np.bool_), np.asarray(truncated, np.bool_), rewards,
                  seat_done)  # fmt: skip
    return rewards, seat_done


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
    out = np.zeros(seats.size, np.float32)
    _episode_rewards(np.asarray(num_players, np.int64), np.asarray(seats, np.int64),
                     np.asarray(alive, np.bool_), np.asarray(out_at, np.int64),
                     np.asarray(steps, np.int64), np.asarray(outcome, np.float64),
                     np.asarray(over, np.bool_), np.asarray(truncated, np.bool_), out)  # fmt: skip
    return out
