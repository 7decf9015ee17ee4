"""The legal actions of the player who must act (DN3.2-DN3.4).

`fill_mask` writes game i's mask row and returns how many actions are legal and, when only
one is, which: the engine then takes that forced decision by itself (DN5.1).
"""

from noir_env.engine.jit import kernel

from ..engine.sampling import count_and_last
from . import constants as C


@kernel
def fill_mask(s, i):
    """Write the legal actions of game i's actor into s[i].mask; return (count, the action
    itself when exactly one is legal, else -1)."""
    m = s[i].mask
    m[:] = 0
    if s[i].phase == C.PH_GAME_OVER:
        return 0, -1
    p = s[i].actor
    for t in range(C.NUM_CARD_TYPES):
        if s[i].hand[p, t] > 0:  # DN3.2; an empty hand leaves only the take (DN3.4)
            m[C.A_PLAY + t] = 1
    if s[i].taken[p] == 0 and s[i].line_n > 0:  # DN3.3: once a round, not on an empty line
        m[C.A_TAKE] = 1
    return count_and_last(m)
