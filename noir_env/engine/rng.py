"""Per-game random numbers: an xorshift64 state kept inside the game state.

Game i draws only from `state.rng[i]`, so its trajectory depends on its seed and its actions
alone, never on the batch size. Only shifts and xors are used: they wrap identically in numba
and in plain numpy (NUMBA_DISABLE_JIT=1), where a multiply would raise overflow warnings.
"""

import numpy as np

from .jit import kernel

_MASK64 = (1 << 64) - 1


def seed_to_state(seed: int) -> np.uint64:
    """A non-zero xorshift state from any integer seed (splitmix64 finaliser, in Python)."""
    z = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return np.uint64(z or 0x2545F4914F6CDD1D)


@kernel
def next_u64(s, i):
    """Advance game i's generator and return the new 64-bit value."""
    x = s[i].rng
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    s[i].rng = x
    return x


@kernel
def randint(s, i, n):
    """Uniform integer in [0, n) for game i (modulo bias below 1e-17)."""
    return np.int64(next_u64(s, i) % np.uint64(n))


@kernel
def roll_d6(s, i):
    """One six-sided die."""
    return randint(s, i, 6) + 1


@kernel
def shuffle_prefix(s, i, arr, n):
    """Fisher-Yates shuffle of arr[:n] with game i's generator."""
    for k in range(n - 1, 0, -1):
        j = randint(s, i, k + 1)
        t = arr[k]
        arr[k] = arr[j]
        arr[j] = t
