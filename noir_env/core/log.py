"""The game log in words: one plain sentence per event of the core's ring buffer.

Kernels append events to `state.log[i]` (a ring of LOG_LEN rows: code + 7 small ints, the
argument order of each code is where `log_event` is called: board.py, combat.py,
reactions.py, turn.py, countdown.py). `GameLog` reads the events a game wrote since its last
read and turns each into a sentence:

    log = GameLog()                    # names default to player_0 .. player_5
    log.sync(state, i)                 # start reading from now on
    core.step(state, actions)
    for line in log.read(state, i):
        print(line)   # "player_2 attacks player_0's Speakeasy with 3+2: 2 defenders die, ..."

`read` = `collect` (copy the new events and the table they refer to: cheap, call it after
every step) + `render` (write the sentences of everything collected: call it when they are
wanted). Only public information is written: a draw says how many cards, never which.
Businesses are named by the table: a slot's business is looked up in the table after the
events, or, if the events destroyed it, in the table as it was before them.
"""

from __future__ import annotations

import numpy as np

from . import constants as C

_PLACE_SLOTS = C.NUM_SLOTS


def default_names(n: int = C.MAX_PLAYERS) -> list[str]:
    return [f"player_{q}" for q in range(n)]


def gangsters_text(counts) -> str:
    """Per-power gangster counts as their powers, strongest first: [1, 1, 0, 0] -> "2+1"."""
    powers = [str(pw + 1) for pw in range(3, -1, -1) for _ in range(int(counts[pw]))]
    return "+".join(powers) if powers else "no gangster"


def _plural(k: int, word: str, plural: str | None = None) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {plural or word + 's'}"


def _coins(k: int) -> str:
    return _plural(k, "coin")


def _cost(k: int) -> str:
    return "for free" if k == 0 else f"for {_coins(k)}"


def _card(t: int) -> str:
    """Card type t in words ('a Police', 'a 3-gangster', 'a Speakeasy')."""
    if t <= C.G4:
        return f"a {t - C.G1 + 1}-gangster"
    if t <= C.B4:
        name = C.BUSINESS_NAMES[t - C.B1]
        return f"a {name}"
    return {
        C.POKER: "a Poker Night",
        C.POLICE: "a Police",
        C.BRIBE: "a Bribe",
        C.DRIVEBY: "a Drive-by",
        C.TURNCOAT: "a Turncoat",
    }[t]


class GameLog:
    """Turns the new events of one game into sentences (see the module docstring).

    The reader keeps the read position (`seen`, a count of events ever written), the table
    as it was at the last read (to name businesses the new events destroyed), and the last
    declared attack (to write "3+2" for the attackers when the combat resolves).
    """

    def __init__(self, names: list[str] | None = None):
        self.names = list(names) if names is not None else default_names()
        self.seen = 0  # events of the game collected so far (a count of events ever written)
        self.lost = 0
        self.eliminated: list[tuple[int, int]] = []  # (seat out, by seat) collected, unread
        self.game_over = False
        self._state = None  # the state and game being read, and views of their fields
        self._i = -1
        # views of the game's fields, set by _attach before any read
        self._log_n: np.ndarray
        self._log_view: np.ndarray
        self._biz_view: np.ndarray
        self._top_view: np.ndarray
        self._biz_before = np.zeros((C.MAX_PLAYERS, C.NUM_SLOTS), np.int8)
        self._top_before = np.full(C.MAX_PLAYERS, -1, np.int8)
        # collected, not yet rendered: (rows, events lost, table before, table after)
        self._pending: list[tuple] = []
        self._batch: tuple = ()  # the batch being rendered
        self._rows: dict[int, list[int]] = {}  # table rows (incomes) of that batch, by seat
        self._attackers: list[int] | None = None  # per-power counts of the declared attack

    # --- reading ------------------------------------------------------------------------
    def _attach(self, state, i: int) -> None:
        if self._state is not state or self._i != i:
            self._state, self._i = state, i
            self._log_n = state["log_n"][i : i + 1]
            self._log_view = state["log"][i]
            self._biz_view = state["biz"][i]
            self._top_view = state["ho_top"][i]

    def sync(self, state, i: int = 0) -> None:
        """Skip every event written so far; take the table as it is now as the reference."""
        self._attach(state, i)
        self.seen = int(self._log_n[0])
        self._pending.clear()
        self._biz_before = self._biz_view.copy()
        self._top_before = self._top_view.copy()

    def pending(self) -> bool:
        """True if collected events wait to be rendered."""
        return bool(self._pending)

    def collect(self, state, i: int = 0) -> int:
        """Copy the events game i wrote since the last collect (and the table as it is
        after them); note eliminations and the game's end. Returns how many were new."""
        self._attach(state, i)
        n = int(self._log_n[0])
        first = self.seen
        if n == first:
            return 0
        lost = 0
        if n - first > C.LOG_LEN:
            lost = n - first - C.LOG_LEN
            self.lost += lost
            first = n - C.LOG_LEN
        log = self._log_view
        if first // C.LOG_LEN == (n - 1) // C.LOG_LEN:
            rows = log[first % C.LOG_LEN : (n - 1) % C.LOG_LEN + 1].tolist()
        else:
            rows = [log[k % C.LOG_LEN].tolist() for k in range(first, n)]
        for row in rows:
            if row[0] == C.EV_ELIMINATED:
                self.eliminated.append((row[1], row[2]))
            elif row[0] == C.EV_GAME_OVER:
                self.game_over = True
        biz, top = self._biz_view.copy(), self._top_view.copy()
        self._pending.append((rows, lost, self._biz_before, self._top_before, biz, top))
        self._biz_before, self._top_before = biz, top
        self.seen = n
        return n - first

    def render(self) -> list[str]:
        """Sentences of the events collected and not yet rendered, in order."""
        out: list[str] = []
        for batch in self._pending:
            rows, lost, *_ = batch
            if lost:
                out.append(f"({lost} earlier events were lost: the log keeps the last {C.LOG_LEN})")
            self._batch = batch
            self._rows = {}
            for row in rows:
                out.append(self.sentence(row))
        self._pending.clear()
        return out

    def read(self, state, i: int = 0) -> list[str]:
        """Sentences of the events game i wrote since the last read (collect + render)."""
        self.collect(state, i)
        return self.render()

    # --- names --------------------------------------------------------------------------
    def _p(self, q: int) -> str:
        return self.names[q] if 0 <= q < len(self.names) else f"seat {q}"

    def _row(self, q: int) -> list[int]:
        """q's business incomes by slot after the events, or before them where a slot is
        empty after them (a business the events destroyed)."""
        row = self._rows.get(q)
        if row is None:
            before, after = self._batch[2][q].tolist(), self._batch[4][q].tolist()
            row = self._rows[q] = [a or b for a, b in zip(after, before, strict=True)]
        return row

    def _income(self, q: int, t: int) -> int:
        return self._row(q)[t]

    def _business(self, q: int, t: int) -> str:
        """Name of q's business in slot t ('Speakeasy'; with the slot if q has two alike)."""
        row = self._row(q)
        inc = row[t]
        if inc <= 0:
            return f"business in slot {t}"
        name = C.BUSINESS_NAMES[inc - 1]
        return f"{name} (slot {t})" if row.count(inc) > 1 else name

    def _top(self, q: int) -> int:
        before = int(self._batch[3][q])
        return before if before >= 0 else int(self._batch[5][q])

    def _hideout(self, q: int) -> str:
        top = self._top(q)
        if top >= 0 and self._income(q, top) > 0:
            return f"Hideout (under the {self._business(q, top)})"
        return "Hideout"

    def _target(self, q: int, t: int) -> str:
        """A target of q's table: a slot, the Hideout, the hidden gangsters, the attack."""
        if t < _PLACE_SLOTS:
            return f"{self._p(q)}'s {self._business(q, t)}"
        if t == C.TGT_HIDEOUT:
            return f"{self._p(q)}'s {self._hideout(q)}"
        if t == C.TGT_HIDDEN:
            return f"{self._p(q)}'s hidden gangsters"
        return f"{self._p(q)}'s attackers"

    def _own_place(self, p: int, place: int, dest: bool) -> str:
        if place < _PLACE_SLOTS:
            return f"the {self._business(p, place)}"
        if place == C.PLACE_HIDEOUT:
            return "the Hideout"
        return "aside (hidden)" if dest else "hiding"

    # --- sentences ----------------------------------------------------------------------
    def sentence(self, row: list[int]) -> str:
        """One event row (code + 7 ints) in words."""
        code = row[0]
        fn = _SENTENCES.get(code)
        if fn is None:
            return f"(unknown event {code}: {row[1:]})"
        return fn(self, *row[1:])

    def _turn(self, p, turn_no, *_):
        return f"-- Turn {turn_no + 1}: {self._p(p)} --"

    def _tribute(self, p, paid, income, *_):
        s = f"{self._p(p)} collects {_coins(paid)} of tribute"
        if paid < income:
            s += f" (owed {income}, the bank ran short)"
        return s

    def _mulligan(self, x, count, *_):
        if count == 0:
            return f"{self._p(x)} keeps the hand"
        those = "the one" if count == 1 else "those"
        return f"{self._p(x)} draws {_plural(count, 'card')} to replace {those} set aside"

    def _move(self, p, power, src, dst, *_):
        frm = self._own_place(p, src, dest=False)
        if src == dst and src < C.PLACE_HIDDEN:
            return f"{self._p(p)} leaves a {power}-gangster on {frm}"
        if dst == C.PLACE_ASIDE:
            return f"{self._p(p)} takes a {power}-gangster from {frm} and hides it"
        return (
            f"{self._p(p)} moves a {power}-gangster from {frm} to {self._own_place(p, dst, True)}"
        )

    def _move_discard(self, p, left, *_):
        return f"{self._p(p)} discards {_plural(left, 'hidden gangster')} that fit nowhere"

    def _away_discard(self, p, power, *_):
        return f"{self._p(p)} discards a hidden {power}-gangster instead of bringing it back"

    def _declare(self, p, q, t, g1, g2, g34, *_):
        counts = [g1, g2, g34 % 16, g34 // 16]
        self._attackers = counts
        power = g1 + 2 * g2 + 3 * (g34 % 16) + 4 * (g34 // 16)
        return (
            f"{self._p(p)} declares an attack on {self._target(q, t)} with "
            f"{gangsters_text(counts)} (power {power})"
        )

    def _attack_text(self, attack: int) -> str:
        counts = self._attackers
        if counts is None:
            return f"power {attack}"
        power = counts[0] + 2 * counts[1] + 3 * counts[2] + 4 * counts[3]
        return gangsters_text(counts) if power == attack else f"power {attack}"

    def _combat(self, p, q, t, attack, defense, casualties, result, *_):
        killed, lost = casualties % 16, casualties // 16
        destroyed, stolen = result % 2, result // 2
        where = self._target(q, t)
        parts = [
            "no defender dies"
            if killed == 0
            else f"{_plural(killed, 'defender')} " + ("dies" if killed == 1 else "die"),
        ]
        if lost:
            parts.append(f"{_plural(lost, 'attacker')} " + ("dies" if lost == 1 else "die"))
        if t < _PLACE_SLOTS:
            inc = self._income(q, t)
            name = C.BUSINESS_NAMES[inc - 1] if inc > 0 else "business"
        else:
            top = self._top(q)
            inc = self._income(q, top) if top >= 0 else 0
            name = C.BUSINESS_NAMES[inc - 1] if inc > 0 else ""
        if destroyed:
            on_top = "" if t < _PLACE_SLOTS else " on top"
            parts.append(f"the {name}{on_top} is destroyed")
            parts.append(f"{_coins(stolen)} stolen" if stolen else "nothing to steal")
        elif t < _PLACE_SLOTS:
            parts.append(f"the {name} stands")
        else:
            parts.append("the Hideout holds")
        text = (
            f"{self._p(p)} attacks {where} with {self._attack_text(attack)} "
            f"against defense {defense}: " + ", ".join(parts)
        )
        self._attackers = None
        return text

    def _breach(self, p, q, attack, defense, die, owed_paid, *_):
        owed, paid = owed_paid // 100, owed_paid % 100
        inc = owed - (attack - defense) - die
        top = self._top(q)
        s = (
            f"{self._p(p)} breaks into {self._p(q)}'s Hideout with "
            f"{self._attack_text(attack)} against defense {defense}: the Hideout is destroyed"
        )
        if inc > 0 and top >= 0:
            s += f" with the {self._business(q, top)} on it"
        s += f"; {self._p(q)} owes {_coins(owed)} ({attack - defense} over the defense"
        s += f" + a roll of {die}" + (f" + income {inc})" if inc > 0 else ")")
        s += " and pays" if paid >= owed else f" but can pay only {paid}"
        self._attackers = None
        return s

    def _eliminated(self, q, p, taken, *_):
        return (
            f"{self._p(q)} is eliminated by {self._p(p)}, who takes "
            f"{_plural(taken, 'card')} into hand and the Hideout as a trophy"
        )

    def _deploy(self, p, t, where, covers, *_):
        if t >= C.B1:
            inc = t - C.B1 + 1
            s = f"{self._p(p)} opens {_card(t)} (slot {where}) {_cost(inc - 1)}"
            return s + ", covering the Hideout" if covers else s
        power = t - C.G1 + 1
        return (
            f"{self._p(p)} deploys a {power}-gangster to {self._own_place(p, where, True)} "
            f"{_cost(power - 1)}"
        )

    def _hideout_move(self, p, top, *_):
        if top < 0:
            return f"{self._p(p)} moves the Hideout into the open"
        return f"{self._p(p)} hides the Hideout under the {self._business(p, top)}"

    def _discard(self, x, t, mulligan, *_):
        if mulligan:
            return f"{self._p(x)} sets aside {_card(t)} (mulligan)"
        return f"{self._p(x)} discards {_card(t)}"

    def _draw(self, p, n, cost, *_):
        return f"{self._p(p)} draws {_plural(n, 'card')} {_cost(cost)}"

    def _play(self, x, kind, q, t, power, *_):
        who = self._p(x)
        if kind == C.PLAY_POKER:
            return f"{who} hosts a Poker Night"
        if kind == C.PLAY_TURNCOAT:  # in a window: it waits for the close (R5.3)
            frm = self._turncoat_source(q, t)
            return f"{who} plays a Turncoat on a {power}-gangster of {frm}"
        if kind == C.PLAY_POLICE_CANCEL:
            return f"{who} calls the Police to stop the attack on {self._target(q, t)}"
        if kind == C.PLAY_POLICE:
            return f"{who} calls the Police on {self._target(q, t)}"
        if kind == C.PLAY_DRIVEBY:
            return f"{who} orders a Drive-by on {self._target(q, t)}"
        return f"{who} plays {C.PLAY_NAMES[kind]}"

    def _bribe(self, x, live, k, police_player, *_):
        police = f"{self._p(police_player)}'s Police (card {k + 1} of the window)"
        if live:
            return f"{self._p(x)} plays a Bribe on the Bribe: {police} stands again"
        return f"{self._p(x)} plays a Bribe: {police} is called off"

    def _police(self, x, q, t, moved, *_):
        s = f"{self._p(x)}'s Police raids {self._target(q, t)}: "
        if moved == 0:
            return s + "nobody is there"
        return (
            s + f"{_plural(moved, 'gangster')} go" + ("es" if moved == 1 else "") + " into hiding"
        )

    def _driveby(self, q, t, damage, dead, destroyed, inc, *_):
        name = C.BUSINESS_NAMES[inc - 1] if 1 <= inc <= 4 else self._business(q, t)
        s = f"Drive-by on {self._p(q)}'s {name}: {damage} damage, "
        s += (
            "no gangster dies"
            if dead == 0
            else (f"{_plural(dead, 'gangster')} " + ("dies" if dead == 1 else "die"))
        )
        s += f", the {name} is destroyed" if destroyed else f", the {name} stands"
        return s

    def _turncoat_source(self, q, t):
        if t < _PLACE_SLOTS:
            return f"{self._p(q)}'s {self._business(q, t)}"
        if t == C.TGT_HIDDEN:
            return f"{self._p(q)}'s hidden gangsters"
        return f"{self._p(q)}'s attack"

    def _turncoat(self, x, q, t, power, *_):
        if t == C.TGT_ATTACK and self._attackers is not None and self._attackers[power - 1] > 0:
            self._attackers[power - 1] -= 1
        frm = self._turncoat_source(q, t)
        return f"{self._p(x)} plays a Turncoat and takes a {power}-gangster from {frm} into hand"

    def _turncoat_miss(self, x, q, t, power, *_):
        frm = self._turncoat_source(q, t)
        return (
            f"{self._p(x)}'s Turncoat finds no {power}-gangster at {frm} any more: it takes nothing"
        )

    def _poker(self, host, winner, pot, *_):
        if winner < 0 or pot == 0:
            return f"Poker Night at {self._p(host)}'s: nobody can stake"
        return f"Poker Night at {self._p(host)}'s: {self._p(winner)} wins the pot of {_coins(pot)}"

    def _countdown(self, p, reason, holder, *_):
        who = self._p(p)
        why = {
            C.CD_HIDEOUT: f"{who} destroyed a Hideout",
            C.CD_BANK: f"the bank ran short paying {who}",
            C.CD_THIRD: f"{who} holds a third of all the money",
        }.get(reason, "?")
        return f"The countdown starts: {why}; {self._p(holder)} holds the tokens"

    def _token(self, p, left, *_):
        return f"{self._p(p)} spends a countdown token: {left} left"

    def _game_over(self, reason, bits, *_):
        winners = [self._p(q) for q in range(C.MAX_PLAYERS) if bits >> q & 1]
        why = C.WIN_REASONS[reason] if 0 <= reason < len(C.WIN_REASONS) else "?"
        if len(winners) == 1:
            return f"Game over: {winners[0]} wins ({why})"
        return f"Game over: {' and '.join(winners)} share the win ({why})"

    def _reshuffle(self, m, *_):
        return f"The discard pile ({_plural(m, 'card')}) is shuffled into a new draw pile"

    def _cancelled(self, x, p, q, t, *_):
        self._attackers = None
        return (
            f"{self._p(x)}'s Police cancels {self._p(p)}'s attack on {self._target(q, t)}; "
            "the attackers go into hiding"
        )

    def _raze_choice(self, p, q, go_on, *_):
        if go_on:
            return f"{self._p(p)}'s attackers go on into {self._p(q)}'s Hideout"
        return f"{self._p(p)}'s attackers stop at the ruins and leave {self._p(q)}'s Hideout alone"

    def _fizzle(self, p, q, t, *_):
        self._attackers = None
        return f"{self._p(p)}'s attack on {self._target(q, t)} comes to nothing"


_SENTENCES = {
    C.EV_TURN: GameLog._turn,
    C.EV_TRIBUTE: GameLog._tribute,
    C.EV_MULLIGAN: GameLog._mulligan,
    C.EV_MOVE: GameLog._move,
    C.EV_MOVE_DISCARD: GameLog._move_discard,
    C.EV_DECLARE: GameLog._declare,
    C.EV_COMBAT: GameLog._combat,
    C.EV_BREACH: GameLog._breach,
    C.EV_ELIMINATED: GameLog._eliminated,
    C.EV_DEPLOY: GameLog._deploy,
    C.EV_HIDEOUT_MOVE: GameLog._hideout_move,
    C.EV_DISCARD: GameLog._discard,
    C.EV_DRAW: GameLog._draw,
    C.EV_PLAY: GameLog._play,
    C.EV_BRIBE: GameLog._bribe,
    C.EV_POLICE: GameLog._police,
    C.EV_DRIVEBY: GameLog._driveby,
    C.EV_TURNCOAT: GameLog._turncoat,
    C.EV_POKER: GameLog._poker,
    C.EV_COUNTDOWN: GameLog._countdown,
    C.EV_TOKEN: GameLog._token,
    C.EV_GAME_OVER: GameLog._game_over,
    C.EV_RESHUFFLE: GameLog._reshuffle,
    C.EV_CANCELLED: GameLog._cancelled,
    C.EV_FIZZLE: GameLog._fizzle,
    C.EV_RAZE_CHOICE: GameLog._raze_choice,
    C.EV_TURNCOAT_MISS: GameLog._turncoat_miss,
    C.EV_AWAY_DISCARD: GameLog._away_discard,
}


def game_log(state, i: int = 0, names: list[str] | None = None) -> list[str]:
    """Sentences of the events still in game i's ring buffer (at most the last LOG_LEN).
    Businesses destroyed earlier than the current table are named by slot only."""
    return sentences_since(state, i, int(state["log_n"][i]) - C.LOG_LEN, names)


def sentences_since(
    state, i: int, since: int, names: list[str] | None = None, before: tuple | None = None
) -> list[str]:
    """Sentences of game i's events from event number `since` on (a count of events ever
    written, `state.log_n` at that moment), as far as the ring buffer still holds them (a
    line says how many were lost). `before`: game i's table at that moment, (`biz` [6, 28],
    `ho_top` [6], `atk_g` [4] or None without a pending attack), to name the businesses the
    events destroyed and the attackers of an attack declared before; without it businesses
    are named by slot only."""
    reader = GameLog(names)
    reader.sync(state, i)
    reader.seen = min(max(0, int(since)), reader.seen)
    if before is None:  # the table before is unknown
        reader._biz_before = np.zeros_like(reader._biz_before)
        reader._top_before[:] = -1
    else:
        biz, top, attackers = before
        reader._biz_before, reader._top_before = np.array(biz), np.array(top)
        reader._attackers = None if attackers is None else [int(k) for k in attackers]
    return reader.read(state, i)
