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
"threat-v1" (40 values): the 16 of "score-v1", then what the attacks of the next turns can do
(R3.2-R3.8; the observer's own Hideout is what the policy most often loses):
  - 16..21: each living seat's Hideout defense V (3 + Hideout gangsters + the covering
            business and its gangsters);
  - 22..27: each living seat's attack power next turn (gangsters on its businesses and HIDDEN,
            and on its Hideout where the rules let them attack);
  - 28..33: each living seat's power for a certain elimination through its Hideout (a breach
            owes A - V + d6 + the covering income, so A >= V + money - that income, R3.6, R3.8);
  - 34, 35: the strongest other seat's attack power minus the observer's Hideout defense, as
            (margin, 0) or (0, -margin);
  - 36, 37: the same against the observer's power for a certain elimination;
  - 38:     how many other living seats could breach the observer's Hideout next turn;
  - 39:     how many other living seats' Hideouts the observer could breach.
Values >= 0 because the policy's first layer reads only the columns that are nonzero
somewhere in a batch (`agents.ppo.net.nonzero_columns`). The seat figures are the
heuristic's own reading of the observation (`agents.heuristic.view.summarize`), so the score
arithmetic has one home outside the core.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic.view import (
    I_ALIVE,
    I_DEF,
    I_MONEY,
    I_SCORE,
    I_THREAT,
    SEAT_INFO,
    money_threshold,
    summarize,
    sure_elimination_power,
)
from noir_env.core.constants import MAX_PLAYERS
from noir_env.spaces import OBS_SIZE

FEATURE_SETS = {"score-v1": 16, "threat-v1": 40}  # name: how many values it appends


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
    return np.concatenate([obs, feature_values(name, obs)], axis=1)


def seat_summaries(obs: np.ndarray) -> np.ndarray:
    """float64 [B, 6, SEAT_INFO]: each observation row's seat summaries as the heuristic reads
    them (`agents.heuristic.view.summarize`: score by R6.4, money, alive, ...; zeros for an
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
    """float32 [B, 16]: the "score-v1" values of observations obs [B, OBS_SIZE]."""
    return feature_values("score-v1", obs)


def feature_values(name: str, obs: np.ndarray) -> np.ndarray:
    """float32 [B, feature_size(name)]: the values of feature set `name` (module docstring)
    for observations obs [B, OBS_SIZE]. Compiled: a policy opponent calls this for a few rows
    at a time, thousands of times per update, so the fixed cost per call is what counts."""
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    out = np.zeros((len(obs), feature_size(name)), np.float32)
    _fill(obs, np.zeros((MAX_PLAYERS, SEAT_INFO)), out, name == "threat-v1")
    return out


@njit(cache=True)
def _summarize_rows(obs, info):
    for b in range(obs.shape[0]):
        summarize(obs[b], info[b])


@njit(cache=True)
def _fill(obs, info, out, threat):
    """Each row's feature values (`info`: scratch space for one row's seat summaries)."""
    for b in range(obs.shape[0]):
        summarize(obs[b], info)
        _score_v1(obs[b], info, out[b])
        if threat:
            _threat_v1(info, out[b])


@njit(cache=True)
def _score_v1(o, info, out):
    """The score-v1 values: scores, lead, money short of the money win, seats ahead."""
    threshold = money_threshold(o)
    money_win = threshold < 1e8  # money_threshold's "switched off" is 1e9
    best_other, least_short, ahead, any_other = 0.0, 0.0, 0, False
    for r in range(info.shape[0]):
        out[r] = info[r, I_SCORE]
        if info[r, I_ALIVE] == 0:
            continue
        short = max(threshold - info[r, I_MONEY], 0.0) if money_win else 0.0
        out[8 + r] = short
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
        out[6] = max(lead, 0.0)
        out[7] = max(-lead, 0.0)
        out[14] = least_short
    out[15] = ahead


@njit(cache=True)
def _threat_v1(info, out):
    """The values threat-v1 adds after score-v1's 16: defenses, attack powers, the power for
    a certain elimination, and how the observer's Hideout compares with the others' power."""
    strongest, can_breach_me, i_can_breach = 0.0, 0, 0
    for r in range(info.shape[0]):
        if info[r, I_ALIVE] == 0:
            continue
        out[16 + r] = info[r, I_DEF]
        out[22 + r] = info[r, I_THREAT]
        out[28 + r] = sure_elimination_power(info, r)
        if r == 0:
            continue
        strongest = max(strongest, info[r, I_THREAT])
        if info[r, I_THREAT] >= info[0, I_DEF]:
            can_breach_me += 1
        if info[0, I_THREAT] >= info[r, I_DEF]:
            i_can_breach += 1
    margin = strongest - out[16]
    out[34] = max(margin, 0.0)
    out[35] = max(-margin, 0.0)
    margin = strongest - out[28]
    out[36] = max(margin, 0.0)
    out[37] = max(-margin, 0.0)
    out[38] = can_breach_me
    out[39] = i_can_breach
