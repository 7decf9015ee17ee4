"""A batched heuristic for District Noir that reads the observation only.

It scores a position as (my points - the opponent's points) by the final count (DN4.2-DN4.4)
on the two public collections, plus a building race term, and then:
  - takes when the last five cards of the line are worth more to it than its best play by
    a margin that shrinks with each card played (later windows hold more choice), counting
    part of what the take denies an opponent who has not taken yet;
  - plays the card whose resulting window (the card and the four newest line cards) is
    worth least to an opponent about to take: betrayal cards are dumped into such windows
    and gang cards that would hand the opponent a majority are kept back;
  - races for the buildings: a window with a building it could still complete is worth a
    lot, one that completes the opponent's three is worth minus everything.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numba import prange

from agents.finished import act_on_live_rows
from agents.games import check_observation
from noir_env.district import constants as C
from noir_env.district.observe import (
    GLOBAL_SIZE,
    O_HAND,
    O_LINE,
    O_LINE_N,
    S_COLL,
    S_HAND_N,
    S_TAKEN,
    SEAT_SIZE,
)
from noir_env.engine.jit import kernel
from noir_env.threads import use_parallel

K = C.NUM_CARD_TYPES
WIN_VALUE = 100.0  # all three buildings: the game
BUILDING_RACE = np.array([0.0, 2.0, 8.0])  # 0, 1, 2 buildings held, the opponent none
P_OPP_TAKES = 0.7  # chance that an opponent who may still take takes the next window
P_OWN_LATER = 0.3  # chance that a window I leave open comes back to me
TAKE_MARGIN = 1.0  # a take must beat the best play by this many points ...
WAIT_PER_CARD = 3.0  # ... plus this many per card still in hand (later windows are better)
DENIAL_WEIGHT = 0.5  # share of what a take denies the opponent that counts for taking


@kernel
def _points(me, opp, left):
    """DN4.2-DN4.4 for collection `me` against `opp`, buildings scoring nothing. A gang
    counts +-value/2 for each side, scaled by the lead and by how many of its cards are
    still to be collected (`left`), so that points(me) - points(opp) moves by the full
    value once the majority is settled."""
    total = 0.0
    sets = 99.0
    for g in range(C.NUM_GANGS):
        lead = (me[g] - opp[g]) / (1.0 + left[g] / 4.0)
        total += C.GANG_VALUE[g] * min(max(lead, -1.0), 1.0) / 2.0
        sets = min(sets, me[g])
    total += C.SET_BONUS * sets
    for t in range(K):
        total += me[t] * C.CARD_POINTS[t]
    return total


@kernel
def _buildings(c):
    n = 0
    for t in C.BUILDINGS:
        if c[t] > 0:
            n += 1
    return n


@kernel
def value(me, opp, left):
    """How good the collections are for `me`: point difference plus the building race."""
    bm, bo = _buildings(me), _buildings(opp)
    if bm == 3:
        return WIN_VALUE
    if bo == 3:
        return -WIN_VALUE
    v = _points(me, opp, left) - _points(opp, me, left)
    if bo == 0:
        v += BUILDING_RACE[bm]
    if bm == 0:
        v -= BUILDING_RACE[bo]
    return v


@kernel
def _window(o, first, n, extra):
    """Counts per card type of line positions first..first+n-1 (newest = 0), plus card
    type `extra` (-1: none)."""
    w = np.zeros(K)
    line_n = int(o[O_LINE_N])
    for k in range(first, min(first + n, line_n)):
        for t in range(K):
            if o[O_LINE + k * K + t] > 0:
                w[t] += 1.0
    if extra >= 0:
        w[extra] += 1.0
    return w


@kernel
def _choose(o, m):
    me = o[GLOBAL_SIZE + S_COLL : GLOBAL_SIZE + S_COLL + K].astype(np.float64)
    b = GLOBAL_SIZE + SEAT_SIZE
    opp = o[b + S_COLL : b + S_COLL + K].astype(np.float64)
    left = np.zeros(C.NUM_GANGS)  # gang cards not in a collection yet
    for g in range(C.NUM_GANGS):
        left[g] = C.CARD_COUNTS[g] - me[g] - opp[g]
    opp_may_take = o[b + S_TAKEN] == 0
    i_took = o[GLOBAL_SIZE + S_TAKEN] > 0
    p_opp = 0.0
    if opp_may_take:
        p_opp = 1.0 if (o[b + S_HAND_N] == 0 or i_took) else P_OPP_TAKES
    p_me = 0.0
    if not i_took:
        p_me = 1.0 if not opp_may_take else P_OWN_LATER
    base = value(me, opp, left)
    best, best_score = -1, -1e9
    for c in range(K):
        if not m[C.A_PLAY + c]:
            continue
        w = _window(o, 0, C.TAKE_SIZE - 1, c)
        opp_loss = base - value(me, opp + w, left)  # what the opponent's take would cost me
        my_gain = value(me + w, opp, left) - base
        score = p_me * max(my_gain, 0.0) - p_opp * max(opp_loss, 0.0)
        score -= 0.01 * o[O_HAND + c] * (c < C.NUM_GANGS)  # tie-break: keep gangs held twice
        if score > best_score:
            best, best_score = C.A_PLAY + c, score
    if m[C.A_TAKE]:
        w = _window(o, 0, C.TAKE_SIZE, -1)
        gain = value(me + w, opp, left) - base
        denied = p_opp * max(base - value(me, opp + w, left), 0.0)
        wait = TAKE_MARGIN + WAIT_PER_CARD * o[GLOBAL_SIZE + S_HAND_N]
        if best < 0 or gain + DENIAL_WEIGHT * denied > max(best_score, 0.0) + wait:
            best = C.A_TAKE
    return best


@kernel(parallel=True)
def _act_parallel(obs, mask, out):
    for i in prange(obs.shape[0]):
        out[i] = _choose(obs[i], mask[i])


@kernel
def _act_serial(obs, mask, out):
    for i in range(obs.shape[0]):
        out[i] = _choose(obs[i], mask[i])


class DistrictHeuristicAgent:
    """Majority-aware District Noir heuristic. `act(obs, mask)` takes batched arrays
    [N, OBS_SIZE] and [N, 14] (or one row each) and returns legal action ids (-1 for a
    finished game's row, `agents.finished`); NOIR observations are refused (`agents.games`)."""

    name = "district-heuristic"
    game = "district_noir"  # agents.games: the game whose observations it reads

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray | int:
        obs = np.asarray(obs, np.float32)
        mask = np.asarray(mask)
        if obs.ndim == 1:
            return int(cast(np.ndarray, self.act(obs[None], mask[None]))[0])  # a batch: an array
        check_observation(self.name, self.game, obs)
        if mask.shape != (obs.shape[0], C.NUM_ACTIONS):
            raise ValueError(f"expected mask [N, {C.NUM_ACTIONS}], got {mask.shape}")
        return act_on_live_rows(self._act_rows, obs, mask)

    def _act_rows(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """One legal action per row of `mask`, each of which has one."""
        out = np.empty(obs.shape[0], np.int64)
        kernel = _act_parallel if use_parallel(obs.shape[0]) else _act_serial
        kernel(np.ascontiguousarray(obs), mask.astype(np.bool_, copy=False), out)
        return out
