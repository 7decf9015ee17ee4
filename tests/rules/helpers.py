"""Hand-built NOIR positions for the rulebook scenario tests, and driving them by action name.

    s = blank(4)                                  # 4 players, empty tables, every card in the deck
    slot = business(s, 1, 3, gangsters=[2], covers_hideout=True)
    hideout(s, 1, 1, 2); money(s, 1, 8); give(s, 0, C.POLICE)
    begin(s, active=0, phase="attack")            # checks invariants, recomputes the mask
    act(s, "target:+1:hideout", "from:g4@slot0", "confirm_attack")

`blank` starts from `core.init` and empties it: all 83 cards back in the draw pile, 3 coins
each, the rest in the bank. Every card a helper puts somewhere is taken out of the draw pile
(from its bottom, so `deck_top` keeps control of what is drawn next), so the card count stays
exact; `begin` and `act` assert `check_invariants(s) == []`.

Dice: `force_dice(s, 3)` sets the game's xorshift state so that its next d6 rolls are the
given faces (the core rolls with `rng.roll_d6`: advance xorshift64, then `% 6 + 1`).
"""

from __future__ import annotations

import numpy as np

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.rules import total_money
from noir_env.core.validate import check_invariants
from noir_env.engine.rng import seed_to_state
from noir_env.spaces import action_id, legal_action_names

GANGSTER = {1: C.G1, 2: C.G2, 3: C.G3, 4: C.G4}
BUSINESS = {1: C.B1, 2: C.B2, 3: C.B3, 4: C.B4}  # by income
INCOME = {"moonshine": 1, "bootlegger": 2, "speakeasy": 3, "casino": 4}
PHASES = {p.name: int(p) for p in C.Phase}
STEP_OF_PHASE = {
    C.PH_MOVE: C.ST_MOVE,
    C.PH_MOVE_TO: C.ST_MOVE,
    C.PH_ATTACK: C.ST_ATTACK,
    C.PH_ATTACKERS: C.ST_ATTACK,
    C.PH_DEPLOY: C.ST_DEPLOY,
    C.PH_DEPLOY_TO: C.ST_DEPLOY,
    C.PH_MOVE_HIDEOUT: C.ST_MOVE_HIDEOUT,
    C.PH_DISCARD: C.ST_DISCARD,
    C.PH_DRAW: C.ST_DRAW,
}


# --- building a position -----------------------------------------------------------------
def blank(n: int = 4, rules: str | core.Rules = "noirburg", seed: int = 0) -> core.State:
    """A game of n players with nothing dealt: every card in the draw pile (a fixed order),
    3 coins each (R1.2), empty tables, no countdown, seat 0 the first player."""
    s = core.init(1, n, rules, seeds=seed)
    order = np.repeat(np.arange(C.NUM_CARD_TYPES), C.DECK_COUNTS)
    np.random.default_rng(seed).shuffle(order)
    s.deck[0, :] = order
    s.deck_n[0] = C.DECK_SIZE
    for name in (
        "hand",
        "discard",
        "removed",
        "biz",
        "biz_g",
        "ho_g",
        "hidden",
        "trophies",
        "kills",
        "attacked",
        "lock",
        "atk_g",
        "known",
        "winners",
        "log",
    ):
        s[name][0] = 0
    s.money[0] = 0
    s.money[0, :n] = 3
    s.bank[0] = total_money(n) - 3 * n
    s.alive[0] = 0
    s.alive[0, :n] = 1
    s.ho_top[0] = -1
    s.first_player[0] = 0
    s.atk_player[0] = -1
    s.atk_slot[0] = 0
    for name in (
        "win_kind",
        "win_owner",
        "win_left",
        "win_ret",
        "rq_n",
        "rq_kind",
        "rq_player",
        "rq_tp",
        "rq_ts",
        "rq_standing",
        "rq_dice",
        "rt_kind",
        "rt_ret",
        "sel_a",
        "sel_b",
        "count",
        "cd_on",
        "cd_tokens",
        "cd_turn",
        "win_reason",
        "log_n",
        "steps",
    ):
        s[name][0] = 0
    s.cd_holder[0] = -1
    return s


def take_from_deck(s, card: int) -> None:
    """Remove one card of this type from the draw pile (the lowest one)."""
    n = int(s.deck_n[0])
    where = np.flatnonzero(s.deck[0, :n] == card)
    assert where.size, f"no {C.CARD_NAMES[card]} left in the draw pile"
    k = int(where[0])
    s.deck[0, k : n - 1] = s.deck[0, k + 1 : n].copy()
    s.deck[0, n - 1] = 0
    s.deck_n[0] = n - 1


def deck_top(s, *cards: int) -> None:
    """Put these cards on top of the draw pile; cards[0] is drawn first."""
    for card in reversed(cards):  # the last one goes in first, deepest
        take_from_deck(s, card)
    n = int(s.deck_n[0])
    for k, card in enumerate(reversed(cards)):
        s.deck[0, n + k] = card
    s.deck_n[0] = n + len(cards)


def give(s, seat: int, *cards: int) -> None:
    """Cards from the draw pile into a hand."""
    for card in cards:
        take_from_deck(s, card)
        s.hand[0, seat, card] += 1


def to_discard(s, *cards: int) -> None:
    """Cards from the draw pile onto the discard pile."""
    for card in cards:
        take_from_deck(s, card)
        s.discard[0, card] += 1


def empty_deck_into_discard(s) -> None:
    """Move the whole draw pile onto the discard pile (for R4.9)."""
    for card in s.deck[0, : s.deck_n[0]].tolist():
        s.discard[0, card] += 1
    s.deck_n[0] = 0


def business(s, seat: int, income: int, gangsters=(), covers_hideout: bool = False) -> int:
    """Deploy a business (and gangsters of the given powers on it); returns its slot."""
    slot = int(np.flatnonzero(s.biz[0, seat] == 0)[0])
    take_from_deck(s, BUSINESS[income])
    s.biz[0, seat, slot] = income
    for pw in gangsters:
        take_from_deck(s, GANGSTER[pw])
        s.biz_g[0, seat, slot, pw - 1] += 1
    if covers_hideout:
        s.ho_top[0, seat] = slot
    return slot


def hideout(s, seat: int, *powers: int) -> None:
    """Gangsters of these powers onto seat's Hideout."""
    for pw in powers:
        take_from_deck(s, GANGSTER[pw])
        s.ho_g[0, seat, pw - 1] += 1


def hidden(s, seat: int, *powers: int) -> None:
    """HIDDEN gangsters of these powers for seat."""
    for pw in powers:
        take_from_deck(s, GANGSTER[pw])
        s.hidden[0, seat, pw - 1] += 1


def money(s, seat: int, amount: int) -> None:
    """Set a seat's coins; the difference comes from / goes to the bank."""
    s.bank[0] -= amount - int(s.money[0, seat])
    s.money[0, seat] = amount
    assert s.bank[0] >= 0, "not enough money in the bank for this position"


def step_index(s, step: int) -> int:
    order = C.STEP_ORDER_PREP_FIRST if s.rules[0, 0] else C.STEP_ORDER_NOIRBURG
    return int(np.flatnonzero(order == step)[0])


def begin(s, active: int, phase: str, turn_no: int | None = None, actor: int | None = None):
    """Make it `active`'s turn, in the step of `phase` (a C.Phase name); turn_no defaults to
    the second round. Checks the position and recomputes the legal actions."""
    ph = PHASES[phase]
    n = int(s.num_players[0])
    s.phase[0] = ph
    s.active[0] = active
    s.actor[0] = active if actor is None else actor
    s.turn_no[0] = n + active if turn_no is None else turn_no
    s.step_idx[0] = step_index(s, STEP_OF_PHASE[ph]) if ph in STEP_OF_PHASE else 0
    s.count[0] = 0
    s.lock[0] = 0
    s.attacked[0] = 0
    assert check_invariants(s) == [], check_invariants(s)
    core.refresh(s)
    return s


def position(n: int = 4, rules: str | core.Rules = "noirburg", seed: int = 0):
    """Alias of `blank` that reads better at the top of a scenario."""
    return blank(n, rules, seed)


# --- driving it ---------------------------------------------------------------------------
def legal(s) -> list[str]:
    """Names of the legal actions of the player to act."""
    return legal_action_names(s.mask[0])


def can(s, name: str) -> bool:
    return bool(s.mask[0, action_id(name)])


def act(s, *names: str):
    """Take the named actions in order, each asserted legal; returns the last step's
    (rewards[6], done). Invariants are checked after every step."""
    rewards, done = None, None
    for name in names:
        assert can(s, name), (
            f"{name!r} is illegal in phase {C.Phase(int(s.phase[0])).name} for seat "
            f"{int(s.actor[0])}; legal: {legal(s)}"
        )
        r, d, illegal = core.step(s, np.array([action_id(name)]))
        assert not illegal[0]
        problems = check_invariants(s)
        assert problems == [], f"after {name!r}: {problems}"
        rewards, done = r[0], bool(d[0])
    return rewards, done


def attack(s, target: str, *attackers: str):
    """Declare an attack: `target` (e.g. "+1:hideout"), add each attacker (e.g. "g4@slot0"),
    confirm. Where a choice is the only legal action the core takes it by itself (R2.5): a
    lone gangster is added unasked, the attack with every gangster is confirmed unasked, a
    window in which no one can react closes at once. So an attacker that is no longer
    offered is checked afterwards, against the declaration in the log."""
    out = act(s, f"target:{target}")
    taken = [0, 0, 0, 0]  # attackers of each power accounted for so far
    for a in attackers:
        pw = int(a[1]) - 1
        forced = s.phase[0] == C.PH_ATTACKERS and s.atk_g[0, pw] > taken[pw]
        if s.phase[0] == C.PH_ATTACKERS and not forced:
            out = act(s, f"from:{a}")
        taken[pw] += 1
    if s.phase[0] == C.PH_ATTACKERS:
        out = act(s, "confirm_attack")
    declared = events(s, C.EV_DECLARE)[-1]
    want = [0, 0, 0, 0]
    for a in attackers:
        want[int(a[1]) - 1] += 1
    got = [declared[3], declared[4], declared[5] % 16, declared[5] // 16]
    assert got == want, f"declared attackers {got}, wanted {want}"
    return out


def pass_all(s, limit: int = 50) -> None:
    """Everyone asked in the open reaction window passes until it closes."""
    for _ in range(limit):
        if s.phase[0] != C.PH_WINDOW:
            return
        act(s, "pass")
    raise AssertionError("the window did not close")


# --- chance -------------------------------------------------------------------------------
_M64 = (1 << 64) - 1


def _xorshift(x: int) -> int:
    x ^= (x << 13) & _M64
    x ^= x >> 7
    x ^= (x << 17) & _M64
    return x


def dice_from(state: int, k: int) -> list[int]:
    """The next k d6 rolls of an xorshift64 state (as noir_env.engine.rng.roll_d6 makes them)."""
    out = []
    for _ in range(k):
        state = _xorshift(state)
        out.append(state % 6 + 1)
    return out


def force_dice(s, *faces: int) -> None:
    """Set game 0's generator so that its next d6 rolls are `faces`."""
    want = list(faces)
    for k in range(1_000_000):
        st = int(seed_to_state(k))
        if dice_from(st, len(want)) == want:
            s.rng[0] = np.uint64(st)
            return
    raise AssertionError(f"no seed below 10**6 rolls {want}")


# --- the log ------------------------------------------------------------------------------
def events(s, code: int) -> list[list[int]]:
    """Arguments of the logged events with this code (EV_*), oldest first."""
    n = int(s.log_n[0])
    rows = [s.log[0, k % C.LOG_LEN] for k in range(max(0, n - C.LOG_LEN), n)]
    return [[int(v) for v in row[1:]] for row in rows if row[0] == code]
