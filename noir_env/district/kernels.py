"""District Noir's kernels for the engine (`noir_env.engine.binding.GameKernels`): its rules
kernels, which read no per-game context, seen through the engine's signatures, and the
outcome (DN5.2). Every forced decision is the engine's (DN5.1); nobody is eliminated."""

from __future__ import annotations

from noir_env.engine.jit import kernel

from ..engine.binding import GameKernels
from . import constants as C
from .belief import resample_game
from .mask import fill_mask
from .observe import write_observation
from .score import points
from .turn import apply_action, init_game
from .validate import first_violation


@kernel
def deal(s, ctx, i, num_players):
    """DN2: deal game i (always two players)."""
    init_game(s, i)


@kernel
def play(s, ctx, i, a):
    """Play the legal action a in game i (DN3)."""
    apply_action(s, i, a)


@kernel
def legal_actions(s, ctx, i):
    """The actor's legal actions into s[i].mask (DN3.2-DN3.4): (count, the one or -1)."""
    return fill_mask(s, i)


@kernel
def write_outcome(s, i, out):
    """Zero-sum rewards: +1 to the winner, -1 to the loser, 0 each in a draw (DN5.2)."""
    w = s[i].winner
    for q in range(C.NUM_PLAYERS):
        out[q] = 0.0 if w < 0 else (1.0 if q == w else -1.0)


@kernel
def scores_batch(s, out):
    """out[i, q]: seat q's points by DN4.2-DN4.5 in game i."""
    for i in range(s.shape[0]):
        for q in range(C.NUM_PLAYERS):
            out[i, q] = points(s, i, q)


KERNELS = GameKernels(
    init_game=deal,
    apply_action=play,
    fill_mask=legal_actions,
    write_outcome=write_outcome,
    write_observation=write_observation,
    resample=resample_game,
    first_violation=first_violation,
)
