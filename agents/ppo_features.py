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

from noir_env.core.constants import MAX_PLAYERS, NUM_SLOTS
from noir_env.core.observe import SLOT_FEATURES
from noir_env.core.rules import RULE_FIELDS
from noir_env.spaces import OBS_SIZE, OBS_SLICES

FEATURE_SETS = {"score-v1": 16}  # name: how many values it appends

_POWERS = np.arange(1, 5, dtype=np.float32)
_RULES = OBS_SLICES["rules"].start
_TROPHY_POINTS = _RULES + RULE_FIELDS.index("trophy_points")
_MONEY_WIN = _RULES + RULE_FIELDS.index("money_win")
_THRESHOLDS = slice(_RULES + RULE_FIELDS.index("money_thr_3"),
                    _RULES + RULE_FIELDS.index("money_thr_3") + 4)  # fmt: skip
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


# one gather per field for all six seats: a policy opponent calls this for a few rows at a
# time, thousands of times per update, so the fixed cost per call is what counts
_BIZ = _seat_columns("businesses").reshape(MAX_PLAYERS, NUM_SLOTS, len(SLOT_FEATURES))
_BIZ_INCOME, _BIZ_POWERS = _BIZ[..., _INCOME], _BIZ[..., _BIZ_GANGSTERS : _BIZ_GANGSTERS + 4]
_HIDEOUT, _HIDDEN = _seat_columns("hideout_gangsters"), _seat_columns("hidden")
_MONEY, _TROPHIES = _seat_columns("money")[:, 0], _seat_columns("trophies")[:, 0]
_ALIVE = _seat_columns("alive")[:, 0]
_NUM_PLAYERS = np.arange(OBS_SLICES["num_players"].start, OBS_SLICES["num_players"].stop)


def seat_scores(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scores, alive), float32 [B, 6]: each seat's R6.4 score as the observation shows it
    (0 where the seat is absent or eliminated) and whether it is alive."""
    income = obs[:, _BIZ_INCOME]  # [B, 6, slots]
    on_biz = obs[:, _BIZ_POWERS] @ _POWERS
    table = (income + np.where(income > 0, on_biz, 0.0)).sum(axis=2)
    table += obs[:, _HIDEOUT] @ _POWERS + obs[:, _HIDDEN] @ _POWERS
    alive = obs[:, _ALIVE]
    trophies = obs[:, _TROPHIES] * obs[:, _TROPHY_POINTS, None]
    return ((trophies + table + obs[:, _MONEY]) * alive).astype(np.float32), alive


def score_features(obs: np.ndarray) -> np.ndarray:
    """float32 [B, 16]: the "score-v1" values of observations obs [B, OBS_SIZE] (module
    docstring)."""
    scores, alive = seat_scores(obs)
    others = np.where(alive[:, 1:] > 0, scores[:, 1:], -np.inf)
    best_other = others.max(axis=1)
    lead = np.where(np.isfinite(best_other), scores[:, 0] - best_other, 0.0)
    players = obs[:, _NUM_PLAYERS]  # one-hot of 3..6 players
    threshold = (obs[:, _THRESHOLDS] * players).sum(axis=1) * obs[:, _MONEY_WIN]
    short = np.maximum(threshold[:, None] - obs[:, _MONEY], 0.0) * alive
    least_short_other = np.where(alive[:, 1:] > 0, short[:, 1:], np.inf).min(axis=1)
    ahead = ((others > scores[:, :1]) & (alive[:, 1:] > 0)).sum(axis=1)
    out = np.concatenate([
        scores,
        np.maximum(lead, 0.0)[:, None], np.maximum(-lead, 0.0)[:, None],
        short,
        np.where(np.isfinite(least_short_other), least_short_other, 0.0)[:, None],
        ahead[:, None],
    ], axis=1)  # fmt: skip
    return out.astype(np.float32)
