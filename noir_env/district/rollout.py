"""Compiled random play of District Noir: whole games of uniformly random legal actions
without leaving numba, for the benchmark (bench/district.py) and the invariant tests. The
agent's sampler is NOIR's (`noir_env.core.rollout.random_legal_action`), generic over masks."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ..core.rollout import random_legal_action
from . import constants as C
from .api import step_one
from .state import State, kernel_view
from .validate import MESSAGES, first_violation


@njit(cache=True)
def _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, bad):
    for _ in range(max_steps):
        if s[i].phase == C.PH_GAME_OVER:
            return
        step_one(s, i, random_legal_action(s[i].mask, agent_rng, i), rewards, done, illegal)
        steps[i] += 1
        if check:
            code = first_violation(s, i)
            if code != 0:
                bad[i] = code
                return


@njit(cache=True, parallel=True)
def _play_parallel(s, agent_rng, max_steps, check, rewards, done, illegal, steps, bad):
    for i in prange(s.shape[0]):
        _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, bad)


@njit(cache=True)
def _play_serial(s, agent_rng, max_steps, check, rewards, done, illegal, steps, bad):
    for i in range(s.shape[0]):
        _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, bad)


@dataclass
class PlayoutResult:
    """What `random_playout` did to each game."""

    steps: np.ndarray  # int64 [N]: agent steps taken
    done: np.ndarray  # bool [N]: the game ended
    rewards: np.ndarray  # float32 [N, 2]: final rewards of finished games
    violation: np.ndarray  # int8 [N]: first broken invariant (validate.py code), 0 if none

    def problems(self) -> list[str]:
        """'game i: <what is broken>' for each game that broke an invariant."""
        return [f"game {i}: {MESSAGES[int(c)]}" for i, c in enumerate(self.violation) if c]


def random_playout(
    state: State,
    seed: int = 0,
    max_steps: int = 1_000,
    check: bool = False,
    parallel: bool = True,
) -> PlayoutResult:
    """Play every game of `state` (in place) with uniformly random legal actions until it
    ends or `max_steps` agent steps; with check=True test the invariants after each step."""
    n = state.shape[0]
    agent_rng = (np.arange(n, dtype=np.uint64) + np.uint64(seed)) * np.uint64(2654435761)
    agent_rng |= np.uint64(1)  # xorshift needs a non-zero state
    rewards = np.zeros((n, C.NUM_PLAYERS), np.float32)
    done = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    steps = np.zeros(n, np.int64)
    bad = np.zeros(n, np.int8)
    kernel = _play_parallel if parallel and n > 1 else _play_serial
    kernel(kernel_view(state), agent_rng, max_steps, check, rewards, done, illegal, steps, bad)
    done |= state.phase == C.PH_GAME_OVER
    return PlayoutResult(steps, done, rewards, bad)
