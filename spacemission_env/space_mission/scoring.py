"""Scoring (R-P1..R-P8), shared by both engines' end-of-game results."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import engine_common
from .components import (
    GATE_RANK_POINTS,
    MATTER_PAIR_POINTS,
    MATTER_SINGLE_POINTS,
    MEDAL_POINTS,
    NUM_POINT_TYPES,
    STATION_POINTS,
    TILE_INDEX,
    TILE_NAMES,
    WATER_TABLE,
)

CATEGORIES = ("jump_gate", "stations", "minerals", "aliens", "matter", "water", "medals")
SCORE_KEYS = CATEGORIES + ("total",)  # a breakdown's keys; the columns of engine.scores
MINERALS = tuple(TILE_INDEX[n] for n in ("mineral_red", "mineral_purple", "mineral_green", "mineral_blue"))
ALIENS = tuple(TILE_INDEX[n] for n in ("alien_brown", "alien_blue"))
MATTER_GREEN = TILE_INDEX["matter_green"]
MATTER_BLUE = TILE_INDEX["matter_blue"]
WATER = TILE_INDEX["water"]
MEDAL = TILE_INDEX["medal"]


def _counts(counts: Sequence[int] | Mapping[str, int]) -> list[int]:
    if isinstance(counts, Mapping):
        unknown = set(counts) - set(TILE_NAMES[:NUM_POINT_TYPES])
        if unknown:
            raise ValueError(f"unknown point-tile names: {sorted(unknown)}")
        out = [0] * NUM_POINT_TYPES
        for name, n in counts.items():
            out[TILE_INDEX[name]] = n
    else:
        out = list(counts)
        if len(out) != NUM_POINT_TYPES:
            raise ValueError(f"expected {NUM_POINT_TYPES} tile counts in R-C3 order, got {len(out)}")
    for n in out:
        if isinstance(n, bool) or int(n) != n or n < 0:
            raise ValueError(f"tile counts must be non-negative integers, got {n!r}")
    return [int(n) for n in out]


def set_points(counts: Sequence[int], types: Sequence[int]) -> int:
    """R-P3/R-P4: (tiles of the category) x (count of its most numerous colour)."""
    of_type = [counts[t] for t in types]
    return sum(of_type) * max(of_type)


def matter_points(green: int, blue: int) -> int:
    """R-P5: each green+blue pair 7, each unpaired matter 2."""
    pairs = min(green, blue)
    return pairs * MATTER_PAIR_POINTS + (green + blue - 2 * pairs) * MATTER_SINGLE_POINTS


def water_points(n: int) -> int:
    """R-P6: every full four scores 14, the rest by the table 2, 5, 9."""
    return (n // 4) * int(WATER_TABLE[4]) + int(WATER_TABLE[n % 4])


def tile_points(counts: Sequence[int] | Mapping[str, int]) -> dict[str, int]:
    """Points of a collection: counts as 10 ints in R-C3 order, or a dict by tile name."""
    c = _counts(counts)
    points = {
        "minerals": set_points(c, MINERALS),
        "aliens": set_points(c, ALIENS),
        "matter": matter_points(c[MATTER_GREEN], c[MATTER_BLUE]),
        "water": water_points(c[WATER]),
        "medals": c[MEDAL] * MEDAL_POINTS,
    }
    points["total"] = sum(points.values())
    return points


def jump_gate_points(probes: Sequence[int]) -> list[int]:
    """R-P1: rank players with >= 1 probe by count; ties share a rank, next rank skipped."""
    for n in probes:
        if isinstance(n, bool) or int(n) != n or n < 0:
            raise ValueError(f"probe counts must be non-negative integers, got {n!r}")
    points = []
    for n in probes:
        if n == 0:
            points.append(0)
            continue
        rank = sum(1 for m in probes if m > n)  # 0-based competition rank
        points.append(int(GATE_RANK_POINTS[rank]) if rank < len(GATE_RANK_POINTS) else 0)
    return points


def score_breakdown(gate_points: int, stations: int, collection: Sequence[int]) -> dict[str, int]:
    """One player's breakdown with the keys of CATEGORIES plus ``total``."""
    tiles = tile_points(collection)
    out = {"jump_gate": int(gate_points), "stations": stations * STATION_POINTS}  # R-P1, R-P2
    out.update({k: tiles[k] for k in ("minerals", "aliens", "matter", "water", "medals")})
    out["total"] = sum(out.values())
    return out


def winners_of(totals: Sequence[int], stations: Sequence[int]) -> list[int]:
    """R-P8: most points; tie -> most stations; still tied -> shared win."""
    best = max(totals)
    tied = [i for i, t in enumerate(totals) if t == best]
    most = max(stations[i] for i in tied)
    return [i for i in tied if stations[i] == most]


def rank_rewards(totals: Sequence[int], stations: Sequence[int]) -> list[float]:
    """Zero-sum terminal rewards in [-1, 1] by final rank (R-P8 order: points, then
    stations). Rank r of P players (0 = best) is worth 1 - 2r/(P-1); tied players share
    the mean of the values of the ranks they span. Two players: +1 / -1, 0 on a shared win."""
    return engine_common.rank_rewards([(totals[i], stations[i]) for i in range(len(totals))])
