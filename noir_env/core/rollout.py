"""Compiled random play: whole games of uniformly random legal actions without leaving
numba. For benchmarks (bench/core.py) and the invariant tests over many games; the agents'
own random policy (agents/random_agent.py) goes through the public API instead."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from . import constants as C
from .api import step_one
from .mask import count_legal, nth_legal
from .refcount import borrowed
from .state import State, kernel_view
from .validate import MESSAGES, first_violation


@njit(cache=True)
def _xorshift(x):
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    return x


@njit(cache=True)
def random_legal_action(mask_row, agent_rng, i):
    """A uniformly chosen legal action; `agent_rng[i]` is the agent's own generator (kept
    apart from the game's, so the game stays a function of its seed and actions)."""
    agent_rng[i] = _xorshift(agent_rng[i])
    return nth_legal(mask_row, np.int64(agent_rng[i] % np.uint64(count_legal(mask_row))))


@njit(cache=True)
def _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    s, agent_rng, rewards, done, illegal = (borrowed(s), borrowed(agent_rng), borrowed(rewards),
                                            borrowed(done), borrowed(illegal))  # fmt: skip
    for _ in range(max_steps):
        if s[i].phase == C.PH_GAME_OVER:
            return
        if count_legal(s[i].mask) == 1:  # presented although forced (ask_all, R2.5)
            forced[i] += 1
        step_one(s, i, random_legal_action(s[i].mask, agent_rng, i), rewards, done, illegal)
        steps[i] += 1
        if check:
            code, _ = first_violation(s, i)
            if code != 0:
                bad[i] = code
                return


@njit(cache=True, parallel=True)
def _play_parallel(s, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    for i in prange(s.shape[0]):
        _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad)


@njit(cache=True)
def _play_serial(s, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    for i in range(s.shape[0]):
        _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad)


@dataclass
class PlayoutResult:
    """What `random_playout` did to each game."""

    steps: np.ndarray  # int64 [N]: agent steps taken
    forced: np.ndarray  # int64 [N]: of those, decisions presented with one legal action
    done: np.ndarray  # bool [N]: the game ended
    rewards: np.ndarray  # float32 [N, 6]: final rewards of finished games
    violation: np.ndarray  # int8 [N]: first broken invariant (validate.py code), 0 if none

    def problems(self) -> list[str]:
        return [f"game {i}: {MESSAGES[int(c)]}" for i, c in enumerate(self.violation) if c]


def random_playout(
    state: State,
    seed: int = 0,
    max_steps: int = 100_000,
    check: bool = False,
    parallel: bool = True,
) -> PlayoutResult:
    """Play every game of `state` (in place) with uniformly random legal actions until it
    ends or `max_steps` agent steps; with check=True test the invariants after each step."""
    n = state.shape[0]
    agent_rng = (np.arange(n, dtype=np.uint64) + np.uint64(seed)) * np.uint64(2654435761)
    agent_rng |= np.uint64(1)  # xorshift needs a non-zero state
    rewards = np.zeros((n, C.MAX_PLAYERS), np.float32)
    done = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    steps = np.zeros(n, np.int64)
    forced = np.zeros(n, np.int64)
    bad = np.zeros(n, np.int8)
    kernel = _play_parallel if parallel and n > 1 else _play_serial
    kernel(
        kernel_view(state), agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad
    )
    done |= state.phase == C.PH_GAME_OVER
    return PlayoutResult(steps, forced, done, rewards, bad)
