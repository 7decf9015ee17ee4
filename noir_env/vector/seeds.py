"""Seeds of the games the batched layers deal: per-slot seed streams and the per-game draws
keyed by a game's seed (player count, learner seat, opponent, random streams), so that a
game is a function of its seed and the decisions taken in it, whatever the batch size."""

from __future__ import annotations

from typing import cast

import numpy as np

from ..engine.args import as_int

SEED_LIMIT = 2**62  # game seeds stay in 0 .. 2**62 - 1
# the draws keyed by a game's seed, offsets from its game's `seed_salt` (one per use)
SALT_PLAYERS, SALT_SEAT, SALT_OPPONENT, SALT_RNG, SALT_ARENA = 1, 2, 3, 4, 5
SALT_MIXED = 6  # whether a game seats its opponents one by one (mixed tables)
SALT_SEAT_OPPONENT = 16  # + seat: that seat's opponent at a mixed table


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 mixer over uint64 arrays (wrapping arithmetic): decorrelated draws
    from consecutive seeds."""
    z = np.asarray(x, np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def salt(game_salt: int, use: int) -> np.uint64:
    """The salt of one use (SALT_*) of a game's draws."""
    return np.uint64(game_salt + use)


def draw(seeds: np.ndarray, salt: np.uint64, k: np.ndarray | int) -> np.ndarray:
    """uint64 draws in 0..k-1 keyed by each game's seed and a salt (one salt per use)."""
    return splitmix64(seeds.astype(np.uint64) ^ salt) % np.asarray(k, np.uint64)


def random_streams(seeds: np.ndarray, salt: np.uint64, keys: np.ndarray | None = None):
    """uint64 [E]: non-zero xorshift states of the built-in random policy, one per game,
    keyed by its seed (and `keys`, e.g. its place in a schedule)."""
    keyed = splitmix64(seeds.astype(np.uint64) ^ salt)
    if keys is not None:
        keyed = splitmix64(keyed + keys.astype(np.uint64))
    return keyed | np.uint64(1)  # xorshift needs a non-zero state


def check_seed(seed, num_slots: int) -> int:
    """A reset seed as a Python int: an int or numpy integer in 0 .. 2**62 - num_slots - 1
    (TypeError for a bool, float, str, ...; ValueError out of range)."""
    value = as_int(seed, "seed")
    if not 0 <= value < SEED_LIMIT - num_slots:
        raise ValueError(f"seed must be in 0..2**62 - num_envs, got {value}")
    return value


class SeedStreams:
    """The game seeds of N slots: after `restart(s)` slot i's first game has the seed s + i
    (as `init(seeds=s)`), its later games seeds from a splitmix stream keyed by s + i, so a
    slot's games never depend on the number of slots."""

    def __init__(self, num_slots: int):
        self.num_slots = num_slots
        self.base = 0
        self.dealt = np.zeros(num_slots, np.int64)  # games dealt so far in each slot
        self.started = False

    def restart(self, seed: int | None) -> None:
        """Start every stream again from `seed` (None: fresh entropy)."""
        if seed is None:
            entropy = cast(int, np.random.SeedSequence().entropy)  # drawn from the OS: an int
            seed = int(entropy % (SEED_LIMIT - self.num_slots))
        self.base = check_seed(seed, self.num_slots)
        self.dealt[:] = 0
        self.started = True

    def next(self, slots: np.ndarray) -> np.ndarray:
        """int64 [E]: the next game seed of each slot in `slots` (advancing its stream)."""
        first = np.uint64(self.base) + slots.astype(np.uint64)
        k = self.dealt[slots].astype(np.uint64)
        later = splitmix64(splitmix64(first) + k) >> np.uint64(2)  # < 2**62
        self.dealt[slots] += 1
        return np.where(k == 0, first, later).astype(np.int64)
