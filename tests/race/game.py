"""Race, a tiny third game written against the game protocol (docs/ADDING_A_GAME.md walks
through it): 2 to 4 players take turns moving one shared token 1, 2 or 3 squares along a
track whose length (10 to 20 squares) is dealt by the game's seed; a move may not pass the
end, and whoever lands on the last square wins. A seat's score is how far it moved the token.

The whole game is this module: its state's fields, five compiled kernels and a declaration.
The engine gives it the batched API (deal, all-or-nothing step, observe, masks, playouts),
and every layer above (vector envs, self-play, arena, tournament, train.ppo, train.play, the
AEC env) takes it by name ("race") unchanged.
"""

from __future__ import annotations

import numpy as np

from noir_env.engine.binding import GameKernels
from noir_env.engine.fields import flag, int_in, list_of, rng_state
from noir_env.engine.jit import kernel
from noir_env.engine.protocol import Game
from noir_env.engine.records import RecordLayout
from noir_env.engine.registry import register
from noir_env.engine.rng import randint

MIN_PLAYERS, MAX_PLAYERS, MAX_MOVE = 2, 4, 3  # actions: advance 1, 2 or 3 squares
SHORTEST, LONGEST = 10, 20  # track lengths
OBS_SIZE = (LONGEST + 1) + MAX_PLAYERS + (MAX_PLAYERS - MIN_PLAYERS + 1)
LAYOUT = RecordLayout("Race", [
    ("actor", "i1", (), "the seat to move, -1 once the game is over"),
    ("steps", "i4", (), "moves made"),
    ("mask", "u1", (MAX_MOVE,), "the actor's legal moves"),
    ("rng", "u8", (), "the game's random state (deals the track)"),
    ("num_players", "i1", (), "2..4"),
    ("length", "i1", (), "the track's last square"),
    ("pos", "i1", (), "where the token stands"),
    ("moved", "i2", (MAX_PLAYERS,), "squares each seat moved the token"),
    ("winner", "i1", (), "-1 while the game goes on"),
])  # fmt: skip


@kernel
def deal(s, ctx, i, num_players):
    s[i].num_players, s[i].winner = num_players, -1
    s[i].length = SHORTEST + randint(s, i, LONGEST - SHORTEST + 1)


@kernel
def advance(s, ctx, i, a):
    """Move the token a + 1 squares; landing on the last square wins."""
    seat = s[i].actor
    s[i].pos += a + 1
    s[i].moved[seat] += a + 1
    if s[i].pos == s[i].length:
        s[i].winner, s[i].actor = seat, -1
    else:
        s[i].actor = (seat + 1) % s[i].num_players


@kernel
def fill_mask(s, ctx, i):
    count = 0
    for a in range(MAX_MOVE):
        s[i].mask[a] = s[i].actor >= 0 and a + 1 <= s[i].length - s[i].pos
        count += s[i].mask[a]
    return count, (0 if count == 1 else -1)  # only "advance 1" can be the one legal move


@kernel
def write_outcome(s, i, out):
    n = s[i].num_players
    for q in range(n):
        out[q] = 1.0 if q == s[i].winner else -1.0 / (n - 1)


@kernel
def write_observation(s, i, seat, out):
    """Squares left (one-hot), each seat's share of the moves from `seat`'s view
    (seat-relative), the player count (one-hot)."""
    out[:] = 0.0
    out[s[i].length - s[i].pos] = 1.0
    n = s[i].num_players
    for r in range(n):
        out[LONGEST + 1 + r] = s[i].moved[(seat + r) % n] / s[i].length
    out[LONGEST + 1 + MAX_PLAYERS + n - MIN_PLAYERS] = 1.0


class RaceGame(Game):
    """The race (module docstring)."""

    name, title, seed_salt = "race", "Race", 0x7ACE0000
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 2
    obs_size, num_actions = OBS_SIZE, MAX_MOVE
    action_names = tuple(f"advance:{k}" for k in range(1, MAX_MOVE + 1))
    obs_slices = {"left": slice(0, LONGEST + 1), "moved": slice(LONGEST + 1, LONGEST + 5),
                  "players": slice(LONGEST + 5, OBS_SIZE)}  # fmt: skip
    win_reasons = ("", "finish")
    layout = LAYOUT
    kernels = GameKernels(deal, advance, fill_mask, write_outcome, write_observation)

    def num_players(self, state):
        return self.kernel_view(state)["num_players"].astype(np.int8)

    def scores(self, state):
        return self.kernel_view(state)["moved"].astype(np.int32)

    def winners(self, state):
        return self.kernel_view(state)["winner"][:, None] == np.arange(MAX_PLAYERS)[None, :]

    def win_reason(self, state):
        return (self.kernel_view(state)["winner"] >= 0).astype(np.int64)

    def turns(self, state):
        kv = self.kernel_view(state)
        return kv["steps"] // kv["num_players"] + 1

    def state_to_dict(self, state, i=0):
        return {name: np.asarray(state[i][name]).tolist() for name in LAYOUT.dtype.names}

    def state_from_dict(self, data):
        """Every value type- and range-checked (the engine's `fields` helpers), the parts
        checked against each other, the legal moves recomputed and compared."""
        if not isinstance(data, dict) or set(data) != set(LAYOUT.dtype.names):
            raise ValueError(f"a Race state has exactly the keys {list(LAYOUT.dtype.names)}")
        s = self.allocate(1)
        n = s.num_players[0] = int_in(data["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
        length = s.length[0] = int_in(data["length"], "length", SHORTEST, LONGEST)
        s.pos[0] = int_in(data["pos"], "pos", 0, length)
        s.winner[0] = int_in(data["winner"], "winner", -1, n - 1)
        s.actor[0] = int_in(data["actor"], "actor", -1, n - 1)
        s.steps[0] = int_in(data["steps"], "steps", 0, 2**31 - 1)
        s.rng[0] = rng_state(data["rng"])
        moved = list_of(data["moved"], "moved", MAX_PLAYERS) + [None] * MAX_PLAYERS
        s.moved[0] = [int_in(m, f"moved[{q}]", 0, length if q < n else 0)
                      for q, m in enumerate(moved[:MAX_PLAYERS])]  # fmt: skip
        over = s.pos[0] == length
        if sum(s.moved[0]) != s.pos[0] or over != (s.winner[0] >= 0) or over != (s.actor[0] < 0):
            why = "the moves add up to pos; winner set and actor -1 exactly at the last square"
            raise ValueError(f"inconsistent position: {why}")
        given = [flag(v, f"mask[{a}]") for a, v in enumerate(list_of(data["mask"], "mask", 3))]
        self.refresh(s)
        if given != s.mask[0].tolist():
            raise ValueError(f"mask={given}: the legal moves are {s.mask[0].tolist()}")
        return s


RACE = register(RaceGame())
