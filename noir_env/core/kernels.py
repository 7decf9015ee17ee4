"""NOIR's kernels for the engine (`noir_env.engine.binding.GameKernels`): the rules kernels
of the other modules, and the few the engine asks of a game besides them: which decisions
nobody is asked for (R2.5), the outcome (R6.5), seats in the game (R6.1), invariants."""

from __future__ import annotations

from noir_env.engine.jit import kernel

from ..engine.binding import GameKernels
from . import constants as C
from .belief import resample_game
from .board import hand_size
from .countdown import score
from .mask import fill_mask
from .observe import write_observation
from .reactions import holds_reaction
from .rules import rules_of
from .turn import apply_action, init_game
from .validate import first_violation


@kernel(inline="always")
def passes_unasked(s, i, x):
    """R2.5: x passes in a window without being asked: x holds no reaction card, or, when
    every decision must be presented (`ask_all`), x's hand is empty (public)."""
    if s[i].ask_all:
        return hand_size(s, i, x) == 0
    return not holds_reaction(s, i, x)


@kernel
def unasked_action(s, i):
    """The pass of a player asked in a window who passes without being asked (R2.5), or
    -1."""
    if s[i].phase == C.PH_WINDOW and passes_unasked(s, i, s[i].actor):
        return C.A_PASS
    return -1


@kernel(inline="always")
def publicly_forced(s, i):
    """R2.5 with `ask_all`: a decision with one legal action is taken by the core only if
    everyone can see that it is forced: a choice inside a move already made public (where
    a picked or deployed gangster goes, attackers, the target of a played reaction) or a
    decision of a player with an empty hand (all else that decides it is on the table)."""
    ph = s[i].phase
    if ph == C.PH_MOVE_TO or ph == C.PH_DEPLOY_TO or ph == C.PH_ATTACKERS:
        return True
    if ph == C.PH_REACT_TARGET or ph == C.PH_TURNCOAT_POWER:
        return True
    return hand_size(s, i, s[i].actor) == 0


@kernel
def presents_forced(s, i):
    """Whether a decision with one legal action is presented: with `ask_all`, unless it
    is forced in public (R2.5)."""
    return s[i].ask_all != 0 and not publicly_forced(s, i)


@kernel
def write_outcome(s, i, out):
    """Zero-sum rewards: winners share +1, losers share -1 (R6.5)."""
    n = s[i].num_players
    k = 0
    for q in range(n):
        k += s[i].winners[q]
    for q in range(n):
        if k == n:
            out[q] = 0.0
        elif s[i].winners[q]:
            out[q] = 1.0 / k
        else:
            out[q] = -1.0 / (n - k)


@kernel
def seat_alive(s, i, q):
    """Whether seat q is still in game i (R6.1: eliminated players leave)."""
    return s[i].alive[q] != 0


@kernel
def violation_code(s, i):
    """The code of game i's first broken invariant (validate.py; 0 if none)."""
    code, _ = first_violation(s, i)
    return code


@kernel
def scores_batch(s, out):
    """out[i, q]: seat q's score by R6.4 in game i."""
    for i in range(s.shape[0]):
        r = rules_of(s, i)
        for q in range(s[i].num_players):
            out[i, q] = score(s, r, i, q)


KERNELS = GameKernels(
    init_game=init_game,
    apply_action=apply_action,
    fill_mask=fill_mask,
    write_outcome=write_outcome,
    write_observation=write_observation,
    context=rules_of,
    auto_action=unasked_action,
    presents_forced=presents_forced,
    seat_alive=seat_alive,
    resample=resample_game,
    first_violation=violation_code,
)
