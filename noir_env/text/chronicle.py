"""What happened in a game since a seat's last decision, as sentences.

A chronicle is told of each decision a seat takes (`record(state, i, seat, action)`, with
the game as it was before the action) and, at the seat's next decision, writes what
happened in between (`since(state, i, seat)`). It needs no other step of the game, so it
works where only the seat's own decisions are seen: a search agent's hook in a tournament
gets a copy of the game at each of its decisions and nothing else, and one agent plays
many games at once in it. So a chronicle recognises a game from the game itself, never
from a handle the caller keeps:

- NOIR writes its events to a ring buffer in the state (`noir_env.core.log`). At a
  decision the chronicle keeps an anchor: the seat, the count of events written and the
  last events themselves. At the next decision it looks back through the ring for the
  newest anchor of the seat, and writes the events after it. Two games share an anchor
  only if the seat decided after the same last events in both, and then the events after
  it are where the seat last decided in either.
- District Noir keeps no log; a game is short and each decision has at most 14 moves. At a
  decision the chronicle plays the seat's action on a copy, then every line of play of the
  other seat (and the forced moves the core takes) up to the seat's next decision, and
  keeps the sentences of each line under the exact game it leads to. The next decision
  looks its game up there: the same game is the same key, whichever lane it is in.

Only public facts are written: an event of the log, a card put in the line or taken.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ..core import constants as C
from ..core.log import sentences_since
from ..district import constants as DC
from ..district.mask import fill_mask
from ..district.state import kernel_view
from ..district.turn import apply_action
from ..game import Game

MAX_KEPT = 50_000  # anchors (or District positions) kept per chronicle, least recent dropped
ANCHOR_EVENTS = 16  # events an anchor holds: enough to tell games apart
MAX_LINES = 4096  # District: lines of play followed from one decision (2-3 moves: ~200)


class _Kept(OrderedDict):
    """A dict that forgets its least recently used entries beyond MAX_KEPT."""

    def put(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > MAX_KEPT:
            self.popitem(last=False)


class NoirChronicle:
    """NOIR's chronicle: the log's sentences since the seat's last decision."""

    def __init__(self, names: list[str]):
        self.names = names
        self._anchors = _Kept()

    @staticmethod
    def _anchor(g, seat: int, n: int) -> tuple | None:
        """The key of the moment n (events written) in game g for seat: None once the
        ring no longer holds the events before n."""
        total = int(g["log_n"])
        first = max(0, n - ANCHOR_EVENTS)
        if total - first > C.LOG_LEN:
            return None
        rows = [g["log"][k % C.LOG_LEN].tobytes() for k in range(first, n)]
        return (seat, n, b"".join(rows))

    def record(self, state, i: int, seat: int, action: int) -> None:
        """The seat decides in game i (before `action` is played)."""
        g = state[i]
        key = self._anchor(g, seat, int(g["log_n"]))
        if key is not None:  # with the table, to name what the events after it destroy
            attackers = g["atk_g"].copy() if g["atk_player"] >= 0 else None
            self._anchors.put(key, (g["biz"].copy(), g["ho_top"].copy(), attackers))

    def since(self, state, i: int, seat: int) -> tuple[list[str], bool]:
        """(sentences since the seat's last recorded decision in game i, whether that
        decision was found); not found: every event the ring still holds."""
        g = state[i]
        total = int(g["log_n"])
        for n in range(total, max(-1, total - C.LOG_LEN - 1), -1):
            key = self._anchor(g, seat, n)
            if key is None:
                break
            table = self._anchors.get(key)
            if table is not None:
                return sentences_since(state, i, n, self.names, table), True
        return sentences_since(state, i, total - C.LOG_LEN, self.names), False


class DistrictChronicle:
    """District Noir's chronicle: the moves since the seat's last decision."""

    def __init__(self, names: list[str]):
        self.names = names
        self._lines = _Kept()

    @staticmethod
    def _key(g, seat: int) -> tuple:
        # the whole game but `steps` (the core counts decisions; a line followed here does
        # not) and `mask` (derived)
        fields = [g[f].tobytes() for f in g.dtype.names if f not in ("steps", "mask")]
        return (seat, b"".join(fields))

    def _move(self, s, a: int) -> str:
        """Play action a for s's actor (the kernel of the core's step) and say it."""
        g = s[0]
        who = self.names[int(g["actor"])]
        round_no = int(g["round_no"])
        if a == DC.A_TAKE:
            n = int(g["line_n"])
            cards = [DC.CARD_NAMES[t] for t in g["line"][max(0, n - DC.TAKE_SIZE) : n]]
            text = f"{who} takes {len(cards)} cards: {', '.join(cards)}"
        else:
            text = f"{who} puts {DC.CARD_NAMES[a - DC.A_PLAY]} at the end of the line"
        apply_action(s, 0, a)
        if int(s[0]["phase"]) == DC.PH_GAME_OVER:
            winner = int(s[0]["winner"])
            why = DC.WIN_REASONS[int(s[0]["win_reason"])]
            end = "a draw" if winner < 0 else f"{self.names[winner]} wins"
            text += f". Game over: {end} ({why})"
        elif int(s[0]["round_no"]) != round_no:
            starter = self.names[int(s[0]["actor"])]
            text += (
                f". Round {int(s[0]['round_no']) + 1} begins: five new cards each, {starter} starts"
            )
        return text

    def _settle(self, s, lines: list[str]) -> None:
        """The forced moves the core takes (a single legal action, DN5.1), said."""
        while True:
            count, last = fill_mask(s, 0)
            if count != 1:
                return
            lines.append(self._move(s, int(last)))

    def record(self, state, i: int, seat: int, action: int) -> None:
        """The seat decides in game i: keep what every line of the other seat's play up to
        the seat's next decision would say."""
        s = kernel_view(state[i : i + 1].copy())  # what the kernels take, on a copy
        first = [self._move(s, action)]
        self._settle(s, first)
        frontier = [(s, first)]
        followed = 0
        while frontier and followed < MAX_LINES:
            s, lines = frontier.pop()
            actor = int(s[0]["actor"])
            if actor == seat or actor < 0:
                if actor == seat:
                    self._lines.put(self._key(s[0], seat), lines)
                continue
            for a in np.flatnonzero(s[0]["mask"]):
                nxt = s.copy()
                said = [*lines, self._move(nxt, int(a))]
                self._settle(nxt, said)
                frontier.append((nxt, said))
                followed += 1

    def since(self, state, i: int, seat: int) -> tuple[list[str], bool]:
        """(the moves since the seat's last recorded decision in game i, whether that
        decision was found)."""
        lines = self._lines.get(self._key(state[i], seat))
        return (list(lines), True) if lines is not None else ([], False)


def chronicle_for(game: Game, names: list[str]) -> NoirChronicle | DistrictChronicle | None:
    """The chronicle of `game` (None for a game without one: its prompts say nothing of
    what happened)."""
    kinds: dict[str, type[NoirChronicle | DistrictChronicle]] = {
        "noir": NoirChronicle,
        "district_noir": DistrictChronicle,
    }
    kind = kinds.get(game.name)
    return kind(names) if kind is not None else None
