"""Derived inputs a PPO policy may read besides NOIR's observation (`PolicyNet(features=...)`).

The observation lists what each seat has (money, trophies, each business's income and
gangsters, the Hideout's and the HIDDEN gangsters), not where that leaves the race: who leads
on score (R6.4), by how much, and how far each seat is from the money win (R6.2). A network
can compute sums of its inputs, but the comparisons (the best other seat, the lead's sign) it
must learn from the game's sparse outcome alone. A feature set is a fixed function of the
observation, appended to it before the network: it reads only what the observation shows,
so it hides and reveals nothing more.

"score-v1" (16 values, each >= 0, seat-relative like the observation: seat 0 is the observer):
  - 0..5:   each living seat's score by R6.4 (trophies x trophy points + printed value of its
            cards on the table + money); 0 for an absent or eliminated seat;
  - 6, 7:   the observer's lead over the best other living seat, as (lead, 0) or (0, -lead);
  - 8..13:  each living seat's money short of the money win (R6.2; 0 when that rule is off);
  - 14:     the least of those among the other living seats;
  - 15:     how many other living seats have a higher score than the observer.
Values >= 0 because the policy's first layer reads only the columns that are nonzero
somewhere in a batch (`agents.ppo_net.nonzero_columns`). The seat figures are the
heuristic's own reading of the observation (`agents._heuristic_view.summarize`), so the score
arithmetic has one home outside the core.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noir_env.core.constants import MAX_PLAYERS
from noir_env.spaces import OBS_SIZE

from ._heuristic_view import I_ALIVE, I_MONEY, I_SCORE, SEAT_INFO, money_threshold, summarize

FEATURE_SETS = {"score-v1": 16}  # name: how many values it appends


def feature_size(name: str) -> int:
    """How many values the feature set `name` appends ('' appends none); ValueError naming
    the sets for an unknown one."""
    if not name:
        return 0
    if name not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {name!r}; feature sets: {sorted(FEATURE_SETS)}")
    return FEATURE_SETS[name]


def with_features(name: str, obs: np.ndarray) -> np.ndarray:
    """float32 [B, OBS_SIZE + feature_size(name)]: NOIR observations obs [B, OBS_SIZE] with
    the feature set's values appended (obs itself, unchanged, when `name` is '')."""
    if not name:
        return obs
    feature_size(name)  # the name's check
    if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
        raise ValueError(f"feature set {name!r} reads NOIR observations (N, {OBS_SIZE}), "
                         f"got {obs.shape}")  # fmt: skip
    return np.concatenate([obs, score_features(obs)], axis=1)


def seat_summaries(obs: np.ndarray) -> np.ndarray:
    """float64 [B, 6, SEAT_INFO]: each observation row's seat summaries as the heuristic reads
    them (`agents._heuristic_view.summarize`: score by R6.4, money, alive, ...; zeros for an
    absent or eliminated seat)."""
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    info = np.zeros((len(obs), MAX_PLAYERS, SEAT_INFO))
    _summarize_rows(obs, info)
    return info


def seat_scores(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scores, alive), float32 [B, 6]: each seat's R6.4 score as the observation shows it
    (0 where the seat is absent or eliminated) and whether it is alive."""
    info = seat_summaries(obs)
    return info[..., I_SCORE].astype(np.float32), info[..., I_ALIVE].astype(np.float32)


def score_features(obs: np.ndarray) -> np.ndarray:
    """float32 [B, 16]: the "score-v1" values of observations obs [B, OBS_SIZE] (module
    docstring). Compiled: a policy opponent calls this for a few rows at a time, thousands of
    times per update, so the fixed cost per call is what counts."""
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    out = np.zeros((len(obs), FEATURE_SETS["score-v1"]), np.float32)
    _score_v1(obs, np.zeros((MAX_PLAYERS, SEAT_INFO)), out)
    return out


@njit(cache=True)
def _summarize_rows(obs, info):
    for b in range(obs.shape[0]):
        summarize(obs[b], info[b])


@njit(cache=True)
def _score_v1(obs, info, out):
    """The score-v1 values of each row: scores, lead, money short of the money win, seats
    ahead (`info` is scratch space for one row's seat summaries)."""
    seats = info.shape[0]
    for b in range(obs.shape[0]):
        summarize(obs[b], info)
        threshold = money_threshold(obs[b])
        money_win = threshold < 1e8  # money_threshold's "switched off" is 1e9
        best_other, least_short, ahead, any_other = 0.0, 0.0, 0, False
        for r in range(seats):
            out[b, r] = info[r, I_SCORE]
            if info[r, I_ALIVE] == 0:
                continue
            short = max(threshold - info[r, I_MONEY], 0.0) if money_win else 0.0
            out[b, 8 + r] = short
            if r == 0:
                continue
            if not any_other or info[r, I_SCORE] > best_other:
                best_other = info[r, I_SCORE]
            if not any_other or short < least_short:
                least_short = short
            any_other = True
            if info[r, I_SCORE] > info[0, I_SCORE]:
                ahead += 1
        if any_other:
            lead = info[0, I_SCORE] - best_other
            out[b, 6] = max(lead, 0.0)
            out[b, 7] = max(-lead, 0.0)
            out[b, 14] = least_short
        out[b, 15] = ahead
