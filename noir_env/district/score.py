"""End of the game: the building win (DN4.1), the final count (DN4.2-DN4.5) and the
tie-break (DN4.6, DN4.7). Every function reads only the two collections."""

from noir_env.engine.jit import kernel

from . import constants as C


@kernel
def holds_all_buildings(s, i, p):
    """DN4.1: seat p has taken the port, the police HQ and the city hall."""
    c = s[i].coll
    return c[p, C.PORT] > 0 and c[p, C.POLICE_HQ] > 0 and c[p, C.CITY_HALL] > 0


@kernel
def points(s, i, p):
    """Seat p's score by DN4.2-DN4.5 on the current collections."""
    c = s[i].coll
    q = 1 - p
    total = 0
    sets = 127
    for g in range(C.NUM_GANGS):
        if c[p, g] > c[q, g]:  # DN4.2: a tie scores for nobody
            total += int(C.GANG_VALUE[g])  # int: int8 sums would wrap without the JIT
        sets = min(sets, int(c[p, g]))
    total += C.SET_BONUS * sets  # DN4.3
    for t in range(C.NUM_CARD_TYPES):
        total += int(c[p, t]) * int(C.CARD_POINTS[t])  # DN4.4 (buildings are worth 0, DN4.5)
    return total


@kernel(inline="always")
def final_result(s, i):
    """(winner, reason) of the final count: more points, then more 8s, 7s, 6s, 5s (DN4.6);
    (-1, WIN_DRAW) if everything ties (DN4.7)."""
    a = points(s, i, 0)
    b = points(s, i, 1)
    if a != b:
        return (0 if a > b else 1), C.WIN_POINTS
    c = s[i].coll
    for g in range(C.GANG_8, C.GANG_5 - 1, -1):
        if c[0, g] != c[1, g]:
            return (0 if c[0, g] > c[1, g] else 1), C.WIN_TIEBREAK
    return -1, C.WIN_DRAW
