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
somewhere in a batch (`agents.ppo_net.nonzero_columns`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noir_env.core.constants import MAX_PLAYERS, NUM_SLOTS
from noir_env.core.observe import SLOT_FEATURES
from noir_env.core.rules import RULE_FIELDS
from noir_env.spaces import OBS_SIZE, OBS_SLICES

FEATURE_SETS = {"score-v1": 16}  # name: how many values it appends

_RULES = OBS_SLICES["rules"].start
_TROPHY_POINTS = _RULES + RULE_FIELDS.index("trophy_points")
_MONEY_WIN = _RULES + RULE_FIELDS.index("money_win")
_INCOME, _BIZ_GANGSTERS = SLOT_FEATURES.index("income"), SLOT_FEATURES.index("gangsters_1")


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


def _seat_columns(field: str) -> np.ndarray:
    """int64 [6, size]: the observation's columns of `field` in each seat's block."""
    parts = [OBS_SLICES[f"seat{r}.{field}"] for r in range(MAX_PLAYERS)]
    return np.stack([np.arange(part.start, part.stop) for part in parts])


_BIZ = _seat_columns("businesses").reshape(MAX_PLAYERS, NUM_SLOTS, len(SLOT_FEATURES))
_BIZ_INCOME = np.ascontiguousarray(_BIZ[..., _INCOME])
_BIZ_GANGSTERS_1 = np.ascontiguousarray(_BIZ[..., _BIZ_GANGSTERS])  # powers 1-4 follow it
_HIDEOUT, _HIDDEN = _seat_columns("hideout_gangsters"), _seat_columns("hidden")
_MONEY, _TROPHIES = _seat_columns("money")[:, 0], _seat_columns("trophies")[:, 0]
_ALIVE = _seat_columns("alive")[:, 0]
_NUM_PLAYERS = OBS_SLICES["num_players"].start
_THRESHOLD_3 = _RULES + RULE_FIELDS.index("money_thr_3")


def seat_scores(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scores, alive), float32 [B, 6]: each seat's R6.4 score as the observation shows it
    (0 where the seat is absent or eliminated) and whether it is alive."""
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    scores = np.zeros((len(obs), MAX_PLAYERS), np.float32)
    _seat_scores(obs, scores, _BIZ_INCOME, _BIZ_GANGSTERS_1, _HIDEOUT, _HIDDEN, _MONEY,
                 _TROPHIES, _ALIVE, _TROPHY_POINTS)  # fmt: skip
    return scores, obs[:, _ALIVE]


def score_features(obs: np.ndarray) -> np.ndarray:
    """float32 [B, 16]: the "score-v1" values of observations obs [B, OBS_SIZE] (module
    docstring). Compiled: a policy opponent calls this for a few rows at a time, thousands of
    times per update, so the fixed cost per call is what counts."""
    scores, alive = seat_scores(obs)
    out = np.zeros((len(obs), FEATURE_SETS["score-v1"]), np.float32)
    _race(np.ascontiguousarray(obs, dtype=np.float32), scores, alive, out, _MONEY,
          _NUM_PLAYERS, _THRESHOLD_3, _MONEY_WIN)  # fmt: skip
    return out


@njit(cache=True)
def _seat_scores(obs, scores, income, gangsters_1, hideout, hidden, money, trophies, alive,
                 trophy_points):  # fmt: skip
    for b in range(obs.shape[0]):
        for r in range(scores.shape[1]):
            if obs[b, alive[r]] == 0:
                continue
            v = obs[b, trophies[r]] * obs[b, trophy_points] + obs[b, money[r]]
            for p in range(4):
                v += (p + 1) * (obs[b, hideout[r, p]] + obs[b, hidden[r, p]])
            for t in range(income.shape[1]):
                inc = obs[b, income[r, t]]
                if inc > 0:
                    v += inc
                    for p in range(4):
                        v += (p + 1) * obs[b, gangsters_1[r, t] + p]
            scores[b, r] = v


@njit(cache=True)
def _race(obs, scores, alive, out, money, num_players, threshold_3, money_win):
    """The values after the scores: lead, money short of the money win, seats ahead."""
    seats = scores.shape[1]
    for b in range(obs.shape[0]):
        threshold = 0.0
        if obs[b, money_win] > 0:
            for k in range(4):
                threshold += obs[b, num_players + k] * obs[b, threshold_3 + k]
        best_other, least_short, ahead, any_other = 0.0, 0.0, 0, False
        for r in range(seats):
            out[b, r] = scores[b, r]
            if alive[b, r] == 0:
                continue
            short = max(threshold - obs[b, money[r]], 0.0)
            out[b, 8 + r] = short
            if r == 0:
                continue
            if not any_other or scores[b, r] > best_other:
                best_other = scores[b, r]
            if not any_other or short < least_short:
                least_short = short
            any_other = True
            if scores[b, r] > scores[b, 0]:
                ahead += 1
        if any_other:
            lead = scores[b, 0] - best_other
            out[b, 6] = max(lead, 0.0)
            out[b, 7] = max(-lead, 0.0)
            out[b, 14] = least_short
        out[b, 15] = ahead
