"""Race, a tiny third game written against the game protocol (docs/ADDING_A_GAME.md walks
through it): 2 to 4 players take turns moving one shared token 1, 2 or 3 squares along a
track whose length (10 to 20 squares) is dealt by the game's seed; a move may not pass the
end, and whoever lands on the last square wins. A seat's score is how far it moved the token.

The whole game is this module: a state of arrays, three compiled kernels, a `Game` subclass
and `register(RACE)`. Every layer above (vector envs, self-play, arena, tournament,
train.ppo, train.play) takes it by name ("race") unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noir_env.game import Game, register
from noir_env.lockstep import GameKernels

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_MOVE = 3  # actions: advance 1, 2 or 3 squares (ids 0, 1, 2)
SHORTEST, LONGEST = 10, 20  # track lengths
OBS_SIZE = (LONGEST + 1) + MAX_PLAYERS + (MAX_PLAYERS - MIN_PLAYERS + 1)
WIN_REASONS = ("", "finish")

# one record per game; `actor`, `steps` and `mask` are what the lockstep loops read
DTYPE = np.dtype(
    [
        ("actor", "i1"),  # the seat to move, -1 once the game is over
        ("steps", "i4"),  # moves made
        ("mask", "u1", (MAX_MOVE,)),  # the actor's legal moves
        ("num_players", "i1"),
        ("length", "i1"),  # the track's last square
        ("pos", "i1"),  # where the token stands
        ("moved", "i2", (MAX_PLAYERS,)),  # squares each seat moved the token
        ("winner", "i1"),  # -1 while the game goes on
    ]
)


# --- the kernels (per game i; numba compiles one loop per game from them) ---------------------
@njit(cache=True)
def _fill_mask(s, i):
    left = s[i].length - s[i].pos
    for a in range(MAX_MOVE):
        s[i].mask[a] = 1 if s[i].actor >= 0 and a + 1 <= left else 0


@njit(cache=True)
def step_one(s, i, a, rewards, done, illegal):
    """Move the token a + 1 squares in game i; the game ends on the last square."""
    if s[i].actor < 0:
        done[i] = True
        return
    if not (0 <= a < MAX_MOVE and s[i].mask[a]):
        illegal[i] = True
        return
    seat = s[i].actor
    s[i].pos += a + 1
    s[i].moved[seat] += a + 1
    s[i].steps += 1
    n = s[i].num_players
    if s[i].pos == s[i].length:
        s[i].winner = seat
        s[i].actor = -1
        done[i] = True
        for q in range(n):
            rewards[i, q] = 1.0 if q == seat else -1.0 / (n - 1)
    else:
        s[i].actor = (seat + 1) % n
    _fill_mask(s, i)


@njit(cache=True)
def write_observation(s, i, seat, out):
    """Squares left (one-hot), each seat's share of the moves from `seat`'s view
    (seat-relative), the player count (one-hot)."""
    out[:] = 0.0
    out[s[i].length - s[i].pos] = 1.0
    n = s[i].num_players
    for r in range(n):
        out[LONGEST + 1 + r] = s[i].moved[(seat + r) % n] / s[i].length
    out[LONGEST + 1 + MAX_PLAYERS + n - MIN_PLAYERS] = 1.0


@njit(cache=True)
def seat_alive(s, i, q):
    return True


# --- the protocol ------------------------------------------------------------------------------
class RaceGame(Game):
    """The race (module docstring)."""

    name = "race"
    title = "Race"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 2
    presets, default_rules = (), None
    obs_size = OBS_SIZE
    num_actions = MAX_MOVE
    action_names = tuple(f"advance:{k}" for k in range(1, MAX_MOVE + 1))
    obs_slices = {
        "left": slice(0, LONGEST + 1),
        "moved": slice(LONGEST + 1, LONGEST + 1 + MAX_PLAYERS),
        "players": slice(LONGEST + 1 + MAX_PLAYERS, OBS_SIZE),
    }
    win_reasons = WIN_REASONS
    turn_word = "turns"
    heuristic = "random"  # no heuristic of its own
    seed_salt = 0x7ACE0000
    kernels = GameKernels(step_one, write_observation, seat_alive)
    elimination = False

    def allocate(self, n):
        return np.zeros(n, DTYPE).view(np.recarray)

    def init(self, num_games, num_players=None, rules=None, seeds=0, ask_all=False):
        self.check_rules(rules)
        if int(num_games) < 1:
            raise ValueError(f"num_games must be >= 1, got {num_games}")
        n = int(num_games)
        players = np.broadcast_to(self.default_players if num_players is None else num_players, n)
        self.player_counts(players)  # checks every count
        seed_arr = np.asarray(seeds, np.int64)
        seed_arr = seed_arr + np.arange(n) if seed_arr.ndim == 0 else seed_arr
        if seed_arr.shape != (n,):
            raise ValueError(f"seeds must be an int or {n} ints, got shape {seed_arr.shape}")
        s = self.allocate(n)
        s.num_players = players
        mixed = seed_arr.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)  # wrapping
        s.length = SHORTEST + (mixed >> np.uint64(33)) % np.uint64(LONGEST - SHORTEST + 1)
        s.winner = -1
        s.mask = 1  # every move fits a track of 10 or more squares
        return s

    def step(self, state, actions, strict=True):
        kv = self.kernel_view(state)
        acts = np.asarray(actions)
        if acts.shape != (len(kv),) or acts.dtype.kind not in "iu":
            raise ValueError(f"actions must be {len(kv)} integer ids, got {acts!r}")
        legal = (kv["actor"] >= 0) & (acts >= 0) & (acts < MAX_MOVE)
        legal[legal] = kv["mask"][legal, acts[legal]] != 0
        if strict and not legal[kv["actor"] >= 0].all():
            bad = int(np.flatnonzero(~legal & (kv["actor"] >= 0))[0])
            raise ValueError(self.describe_illegal(state, bad, int(acts[bad])))
        rewards = np.zeros((len(kv), MAX_PLAYERS), np.float32)
        done, illegal = np.zeros(len(kv), np.bool_), np.zeros(len(kv), np.bool_)
        _step_all(kv, acts.astype(np.int64), rewards, done, illegal)
        return rewards, done, illegal

    def observe(self, state, seats=None):
        kv = self.kernel_view(state)
        seat_arr = np.broadcast_to(np.maximum(kv["actor"], 0) if seats is None else seats, len(kv))
        out = np.zeros((len(kv), OBS_SIZE), np.float32)
        for i, seat in enumerate(seat_arr):
            write_observation(kv, i, int(seat), out[i])
        return out

    def legal_action_mask(self, state):
        return self.kernel_view(state)["mask"].astype(np.bool_)

    def current_player(self, state):
        return self.kernel_view(state)["actor"].copy()

    def kernel_view(self, state):
        if not isinstance(state, np.ndarray) or state.dtype.descr != DTYPE.descr:
            raise ValueError(f"not a Race state: {getattr(state, 'dtype', type(state))}")
        return np.ndarray.view(state, np.ndarray)

    def state_to_dict(self, state, i=0):
        g = state[i]
        return {name: np.asarray(g[name]).tolist() for name in DTYPE.names}

    def state_from_dict(self, data):
        unknown = sorted(set(data) - set(DTYPE.names))
        if unknown:
            raise ValueError(f"unknown Race state keys {unknown}")
        s = self.allocate(1)
        for name in DTYPE.names:
            s[name][0] = data[name]
        return s

    def num_players(self, state):
        return state.num_players.astype(np.int8)

    def scores(self, state):
        return state.moved.astype(np.int32)

    def outcome(self, state):
        n = state.num_players[:, None].astype(np.float32)
        seats = np.arange(MAX_PLAYERS)[None, :]
        won = np.where(seats == state.winner[:, None], 1.0, -1.0 / (n - 1))
        return np.where((state.winner[:, None] >= 0) & (seats < n), won, 0.0).astype(np.float32)

    def winners(self, state):
        return state.winner[:, None] == np.arange(MAX_PLAYERS)[None, :]

    def win_reason(self, state):
        return (state.winner >= 0).astype(np.int64)

    def alive(self, state):
        return np.arange(MAX_PLAYERS)[None, :] < state.num_players[:, None]

    def turns(self, state):
        return state.steps // state.num_players + 1

    def check_rules(self, rules):
        if rules is not None:
            raise ValueError(f"Race has no rule presets, got rules={rules!r}")
        return None

    def rules_name(self, rules):
        return None

    def describe_illegal(self, state, game, action):
        g = state[game]
        name = self.action_names[action] if 0 <= action < MAX_MOVE else f"<id {action}>"
        legal = [self.action_names[a] for a in np.flatnonzero(g.mask)]
        return (f"illegal action {name!r} (id {action}) in game {game}: player {int(g.actor)} "
                f"to move, {int(g.length - g.pos)} squares left; legal: {legal}")  # fmt: skip

    def render(self, state, game=0, seat=None, rules=None):
        g = state[game]
        track = "".join("#" if k == g.pos else "." for k in range(int(g.length) + 1))
        moved = ", ".join(f"player_{q} {int(g.moved[q])}" for q in range(int(g.num_players)))
        return f"Race {track} ({int(g.length - g.pos)} left) | moved: {moved}"

    def history(self, state, game, rules, seed, actions):
        return {"env": "race", "num_players": int(state.num_players[game]), "seed": int(seed),
                "actions": list(actions)}  # fmt: skip


@njit(cache=True)
def _step_all(s, actions, rewards, done, illegal):
    for i in range(s.shape[0]):
        step_one(s, i, actions[i], rewards, done, illegal)


RACE = register(RaceGame())
