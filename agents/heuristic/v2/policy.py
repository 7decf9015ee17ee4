"""The heuristic's decisions, one numba kernel call per observation row
(agents/heuristic/v2/agent.py documents the strategy).

`decide` scores every legal action and takes the best, like the first heuristic's
(`heuristic.v1.policy`), whose choices it keeps where the table-aware ones below add nothing:
the mulligan, Move Hideout, Discard, the reaction cards and their targets. `act_rows` runs
it over a batch in parallel.
"""

from __future__ import annotations

from numba import prange

from agents.heuristic.v1.attack import W_NOISE
from agents.heuristic.v1.policy import (
    _best,
    _idle,
    continue_attack,
    discard,
    move_hideout,
    mulligan,
    promote_plays,
    read_table,
    tie_break,
)
from agents.heuristic.v1.reactions import turncoat_power
from agents.heuristic.v2 import attack, economy, reactions
from noir_env.core import constants as C
from noir_env.engine.jit import kernel
from noir_env.engine.refcount import borrowed


@kernel
def decide(o, mask, w, u):
    """The heuristic's action for one observation row and its legal-action mask; u in
    [0, 1) seeds the tie-break noise."""
    o, mask, w = borrowed(o), borrowed(mask), borrowed(w)
    sc, only, info, avail, ph = read_table(o, mask)
    if only >= 0:
        return only
    if ph == C.PH_MULLIGAN:
        mulligan(o, info, mask, sc)
    elif ph == C.PH_MOVE:
        economy.move_gangsters(o, info, mask, sc, w)
    elif ph == C.PH_MOVE_TO or ph == C.PH_DEPLOY_TO:
        economy.place(o, info, mask, sc, w)
    elif ph == C.PH_ATTACK:
        attack.attack_targets(o, info, mask, sc, w, avail)
    elif ph == C.PH_ATTACKERS:
        attack.add_attackers(o, info, mask, sc, avail)
    elif ph == C.PH_DEPLOY:
        economy.deploy(o, info, mask, sc, w)
    elif ph == C.PH_MOVE_HIDEOUT:
        move_hideout(o, info, mask, sc)
    elif ph == C.PH_DISCARD:
        discard(o, info, mask, sc)
    elif ph == C.PH_DRAW:
        economy.draw(o, info, mask, sc, w)
    elif ph == C.PH_REACT_TARGET:
        reactions.reaction_target(o, info, mask, sc, w, avail)
    elif ph == C.PH_TURNCOAT_POWER:
        turncoat_power(o, info, mask, sc, w)
    elif ph == C.PH_CONTINUE:
        continue_attack(o, info, mask, sc)
    if ph == C.PH_WINDOW:
        reactions.reactions(o, info, mask, sc, w, avail, True)
    elif _idle(ph):
        reactions.reactions(o, info, mask, sc, w, avail, False)
        promote_plays(mask, sc)
    return _best(sc, w[W_NOISE], u)


@kernel(parallel=True)
def act_rows(obs, mask, w, salt, out):
    """out[i] = the heuristic's action for obs[i], mask[i], in parallel over rows."""
    for i in prange(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


@kernel
def act_rows_serial(obs, mask, w, salt, out):
    for i in range(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))
