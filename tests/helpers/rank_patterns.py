"""Every way ``n`` seats can finish (R-P8, M-P4): the tie patterns, and what the rank
rewards of each must be. A pattern is the sizes of the tied groups from the best place
down, e.g. (1, 2, 1): one winner, two tied in the middle, one last."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def tie_patterns(n: int) -> list[tuple[int, ...]]:
    """The 2**(n-1) compositions of ``n``: group sizes from the best place down."""
    if n == 0:
        return [()]
    return [(first,) + rest for first in range(1, n + 1) for rest in tie_patterns(n - first)]


def levels(pattern: tuple[int, ...]) -> list[int]:
    """Seat q's level (higher is better) when the seats fill the pattern's groups from the
    best place down: seat 0 is in the best group."""
    return [len(pattern) - 1 - g for g, size in enumerate(pattern) for _ in range(size)]


def numerators(pattern: tuple[int, ...]) -> list[int]:
    """Each seat's rank reward times (n - 1), an integer: n - 2 * better - tied."""
    n, out, better = sum(pattern), [], 0
    for size in pattern:
        out += [n - 2 * better - size] * size
        better += size
    return out


def check_rank_rewards(pattern: tuple[int, ...], rewards) -> None:
    """The rewards (float64 or the engines' float32, seat order as :func:`levels`) of a
    finished game of this pattern: each is the closed form (n - 2*better - tied) / (n - 1)
    rounded once to its dtype, tied seats get the same value, a place worth 0 gets exactly
    0.0, and the exact sum of the values is 0.0 wherever binary floats allow it: at 2, 3 and
    5 players always (halves and quarters are exact), at 4 players for the patterns whose
    places mirror each other ((1,1,1,1), (1,2,1), (2,2), (4)). At 4 players the other
    patterns hold thirds that cannot cancel (3 * fl(1/3) != 1): their sum is the rounding
    of the thirds alone."""
    r = np.asarray(rewards)
    n = sum(pattern)
    k = numerators(pattern)
    assert r.shape == (n,)
    assert r.tolist() == [float(r.dtype.type(x / (n - 1))) for x in k], (pattern, r.tolist())
    assert [v for v, x in zip(r.tolist(), k) if x == 0] == [0.0] * k.count(0), (pattern, r.tolist())
    exact = math.fsum(r.tolist())
    if n != 4 or sorted(k) == sorted(-x for x in k):
        assert exact == 0.0, (pattern, r.tolist(), exact)
    else:
        thirds = sum(x for x in k if abs(x) != n - 1)  # what the exact +-1 values cannot cancel
        third = Fraction(float(r.dtype.type(1 / 3)))  # fl(2/3) = 2 * fl(1/3) exactly, in both dtypes
        assert exact == float(thirds * third - Fraction(thirds, 3)) != 0.0, (pattern, exact)
