"""A whole game from a fixed seed, reproduced by hand: the shuffle re-derived from the seed
with plain Python integers (xorshift64 + Fisher-Yates, DN2), the game then played by a
fixed policy on the core and on a small list-based reference written from the rules
(DN3, DN4, DN5.1), compared after every action; the deal and the final position are
written out below."""

from __future__ import annotations

import numpy as np

from noir_env import district
from noir_env.district import constants as C
from noir_env.engine.rng import seed_to_state

from .helpers import act, cards, legal, line

SEED = 2024
MASK64 = (1 << 64) - 1
N = C.CARD_NAMES


class Reference:
    """District Noir from the rule text, with lists: no arrays, no kernels."""

    def __init__(self, seed: int):
        self.x = int(seed_to_state(seed))
        deck = [t for t in range(13) for _ in range(int(C.CARD_COUNTS[t]))]
        for k in range(len(deck) - 1, 0, -1):  # Fisher-Yates, as core.rng.shuffle_prefix
            j = self.next() % (k + 1)
            deck[k], deck[j] = deck[j], deck[k]
        self.deck = deck  # the top is the end of the list
        self.removed = sorted(self.deck.pop() for _ in range(3))  # DN2.1
        self.hands = [[self.deck.pop() for _ in range(5)] for _ in range(2)]  # DN2.2, A7
        self.line = [self.deck.pop(), self.deck.pop()]  # DN2.3
        self.start = self.next() % 2  # DN2.4
        self.actor = self.start
        self.acts, self.taken = [0, 0], [False, False]
        self.colls: list[list[int]] = [[], []]
        self.winner: int | None = None
        self.over = False

    def next(self) -> int:
        x = self.x
        x ^= (x << 13) & MASK64
        x ^= x >> 7
        x ^= (x << 17) & MASK64
        self.x = x
        return x

    def legal(self) -> list[str]:
        p = self.actor
        out = [f"play:{N[t]}" for t in sorted(set(self.hands[p]))]
        if not self.taken[p] and self.line:  # DN3.3
            out.append("take")
        return out

    def apply(self, action: str) -> None:
        p = self.actor
        if action == "take":  # DN3.3: the last five, newest end
            self.colls[p] += self.line[-5:]
            del self.line[-5:]
            self.taken[p] = True
        else:  # DN3.2
            t = N.index(action.split(":")[1])
            self.hands[p].remove(t)
            self.line.append(t)
        self.acts[p] += 1
        if action == "take" and all(b in self.colls[p] for b in C.BUILDINGS):
            self.winner, self.over = p, True  # DN4.1
        elif self.acts == [6, 6]:  # DN3.5
            self.end_round()
        else:
            self.actor = 1 - p
        while not self.over and len(self.legal()) == 1:  # DN5.1
            self.apply(self.legal()[0])

    def end_round(self) -> None:
        if not self.deck:  # DN3.6
            self.over = True
            a, b = self.points(0), self.points(1)
            if a != b:
                self.winner = 0 if a > b else 1
                return
            for g in (3, 2, 1, 0):  # DN4.6: 8s, 7s, 6s, 5s
                ca, cb = self.colls[0].count(g), self.colls[1].count(g)
                if ca != cb:
                    self.winner = 0 if ca > cb else 1
                    return
            return  # DN4.7: a draw
        self.hands = [[self.deck.pop() for _ in range(5)] for _ in range(2)]
        self.start = 1 - self.start
        self.actor = self.start
        self.acts, self.taken = [0, 0], [False, False]

    def points(self, p: int) -> int:
        mine, theirs = self.colls[p], self.colls[1 - p]
        total = sum(
            int(C.GANG_VALUE[g]) for g in range(4) if mine.count(g) > theirs.count(g)
        )  # DN4.2
        total += 5 * min(mine.count(g) for g in range(4))  # DN4.3
        return total + sum(int(C.CARD_POINTS[t]) for t in mine)  # DN4.4, DN4.5


def policy(names: list[str], line_size: int) -> str:
    """Take a line of five or more; else play the lowest card id; else take."""
    if "take" in names and line_size >= 5:
        return "take"
    plays = [a for a in names if a.startswith("play:")]
    return plays[0] if plays else "take"


def counts(ids: list[int]) -> dict[str, int]:
    return cards(np.bincount(ids, minlength=13))


def test_the_deal_follows_from_the_seed():
    ref = Reference(SEED)
    s = district.init(1, seeds=SEED)
    assert cards(s.hand[0, 0]) == {"gang_7": 3, "alliance_3": 1, "betrayal_3": 1}
    assert cards(s.hand[0, 1]) == {
        "gang_5": 1, "gang_6": 1, "gang_7": 1, "gang_8": 1, "betrayal_1": 1
    }  # fmt: skip
    assert line(s) == ["police_hq", "alliance_2"] and s.start_player[0] == 0
    assert cards(s.removed[0]) == {"gang_8": 1, "alliance_2": 1, "betrayal_2": 1}
    assert counts(ref.removed) == cards(s.removed[0])
    assert counts(ref.hands[0]) == cards(s.hand[0, 0]) and counts(ref.hands[1]) == cards(
        s.hand[0, 1]
    )
    assert [N[t] for t in ref.line] == line(s) and ref.start == s.start_player[0]
    assert [N[t] for t in ref.deck] == [N[t] for t in s.deck[0, : s.deck_n[0]]]


def test_a_whole_game_matches_the_reference_and_the_hand_worked_result():
    ref = Reference(SEED)
    s = district.init(1, seeds=SEED)
    decisions = 0
    while not ref.over:
        assert legal(s) == ref.legal()
        a = policy(ref.legal(), len(ref.line))
        act(s, a)
        ref.apply(a)
        decisions += 1
        assert line(s) == [N[t] for t in ref.line]
        for p in range(2):
            assert cards(s.coll[0, p]) == counts(ref.colls[p])
            assert cards(s.hand[0, p]) == counts(ref.hands[p])
        assert s.actor[0] == (-1 if ref.over else ref.actor)
    assert s.phase[0] == C.PH_GAME_OVER
    assert s.winner[0] == (-1 if ref.winner is None else ref.winner)
    assert district.scores(s)[0].tolist() == [ref.points(0), ref.points(1)]
    assert s.steps[0] == decisions == 40  # 48 actions, 8 of them forced (DN5.1)
    # worked by hand from the collections below:
    #   gangs 5/6/7/8: 3-2, 4-2, 2-5, 3-4 -> player 0 +5 +6, player 1 +7 +8 (DN4.2)
    #   sets: min(3, 4, 2, 3) = 2 and min(2, 2, 5, 4) = 2 -> +10 each (DN4.3)
    #   player 0: +2 +3 +4 -1 -1 -2 -3 = +2; player 1: +2 +2 -2 -2 -3 = -3 (DN4.4)
    #   23 against 22: player 0 wins on points (DN4.6)
    assert cards(s.coll[0, 0]) == {
        "gang_5": 3, "gang_6": 4, "gang_7": 2, "gang_8": 3, "alliance_2": 1, "alliance_3": 1,
        "alliance_4": 1, "betrayal_1": 2, "betrayal_2": 1, "betrayal_3": 1, "port": 1,
    }  # fmt: skip
    assert cards(s.coll[0, 1]) == {
        "gang_5": 2, "gang_6": 2, "gang_7": 5, "gang_8": 4, "alliance_2": 2, "betrayal_2": 2,
        "betrayal_3": 1, "police_hq": 1, "city_hall": 1,
    }  # fmt: skip
    assert line(s) == ["betrayal_1", "alliance_3"]
    assert district.scores(s)[0].tolist() == [23, 22]
    assert s.winner[0] == 0 and s.win_reason[0] == C.WIN_POINTS
    assert s.takes[0].tolist() == [4, 4]
