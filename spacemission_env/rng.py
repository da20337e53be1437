"""SplitMix64: the per-game random generator (R-S1, R-S2, R-S4, R-S5, R-A1a).

The whole generator state is one unsigned 64-bit integer kept in the game
state, so a JSON state is plain and the fast engine (numba, uint64 arithmetic)
reproduces every shuffle bit for bit.

    next():   state += 0x9E3779B97F4A7C15
              z = state
              z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
              z = (z ^ (z >> 27)) * 0x94D049BB133111EB
              return z ^ (z >> 31)                      (all mod 2**64)
    below(n): next() % n        (bias < n / 2**64: negligible for n <= 64)
    shuffle:  Fisher-Yates, i = len-1 .. 1, swap a[i] with a[below(i + 1)]
"""
from __future__ import annotations

import numbers

from .checks import shown

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator; returns (new_state, output)."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A number in [0, n); returns (new_state, value)."""
    state, z = next_u64(state)
    return state, z % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def salt64(seed: int) -> int:
    """A bot's 64-bit tie-break salt for its seed (any non-negative integer): the seed itself
    below 2**64, a 64-bit hash of it from 2**64 on (the seed modulo 2**64 made seed 2**64
    play exactly as seed 0, and 2**64 + s as s)."""
    seed = int(seed)
    if seed <= MASK64:
        return seed
    import numpy as np  # only for these seeds: the reference engine imports no numpy

    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


class SeedTypeError(TypeError, ValueError):
    """A seed of the wrong type: a TypeError (the project's rule for a wrong type) and
    also a ValueError, what ``seed_state`` raised for every bad seed before (as
    Red Planet's ``errors.WrongTypeError``)."""


def seed_state(seed: int | None) -> int:
    """The generator state for a user seed (None: fresh entropy): ``SeedTypeError`` (a
    TypeError and a ValueError) for a value that is not an integer (float, bool, str),
    ValueError for an integer outside [0, 2**64)."""
    if seed is None:
        import secrets

        return secrets.randbits(64)
    # numpy integers included; int named too, as typeshed does not register it as Integral
    if isinstance(seed, bool) or not isinstance(seed, (int, numbers.Integral)):
        raise SeedTypeError(f"seed must be an int or None, got {shown(seed)}")
    seed = int(seed)
    if not 0 <= seed <= MASK64:
        raise ValueError(f"seed must be in [0, 2**64), got {shown(seed)}")  # as engine.init: no silent wrap-around
    return seed
