"""Scoring estimates the Red Planet bots share; private.

- :func:`remaining_counters`: per zone, the counters each of the three distributions still
  to come hands out (M-P1: 1 after round 5; M-P2: 2 + leftover after round 8; M-P3: the
  final base + leftover), with the final base of the discovery cards the observer knows
  (M-E4, M-E5, M-E6; M-E8 and M-E2 make a zone's majority worthless or a lottery).
- :func:`discovery_values`: where to lay a drawn discovery card (M-E1), per card, from
  the observer's and the opponents' expected final shares of each zone.
- :data:`KEEP_FACE` / :func:`keep_values`: a bonus card's worth when it is kept (M-S6).
"""
from __future__ import annotations

import numpy as np

from spacemission_env.red_planet.components import (
    BONUS_CARDS,
    CARD_KIND,
    DISCOVERY_CARDS,
    EVENT_PARAM,
    FINAL_BASE,
    FIRST_DISTRIBUTION_ROUND,
    NUM_EVENTS,
    SECOND_DISTRIBUTION_BASE,
    SECOND_DISTRIBUTION_ROUND,
)

from ._common import IS_OUTER, View, Z, block

DISCOVERY_KIND = tuple(CARD_KIND[c] for c in DISCOVERY_CARDS)  # by discovery index
FINAL_BASE_OF = np.array([0 if k in ("mine_disaster", "radiation") else EVENT_PARAM[k].get("final_base", FINAL_BASE)
                          for k in DISCOVERY_KIND], dtype=np.float64)  # radiation: the leader loses all (M-E8)
KIND_OF_CARD = np.array(CARD_KIND, dtype=object)


def cards_of(kind: str) -> np.ndarray:
    return np.array([c for c in range(NUM_EVENTS) if CARD_KIND[c] == kind], dtype=np.int64)


def holds(view: View, kind: str) -> np.ndarray:
    """[N] number of own bonus cards of ``kind``."""
    return view.own_bonus[:, cards_of(kind)].sum(axis=1)


def known_kind(view: View, kind: str) -> np.ndarray:
    """[N, Z] the observer knows a discovery card of ``kind`` lies in the zone (M-I2)."""
    idx = [i for i, k in enumerate(DISCOVERY_KIND) if k == kind]
    return view.known_discovery[:, :, idx].any(axis=2)  # type: ignore[return-value]  # numpy's stubs: maybe a bool


def remaining_counters(view: View, use_known_cards: bool = True) -> np.ndarray:
    """[N, Z, 3] counters still handed out per zone by the distributions after round 5,
    after round 8 and the final one (0 for those already past)."""
    r = view.round[:, None]
    out = np.zeros((view.N, Z, 3))
    out[:, :, 0] = np.where(r <= FIRST_DISTRIBUTION_ROUND, 1.0, 0.0)
    out[:, :, 1] = np.where(r <= SECOND_DISTRIBUTION_ROUND, SECOND_DISTRIBUTION_BASE + view.leftover, 0.0)
    base = np.full((view.N, Z), float(FINAL_BASE))
    if use_known_cards:
        known = view.known_discovery.any(axis=2)
        base = np.where(known, (view.known_discovery * FINAL_BASE_OF).sum(axis=2), base)
    final = base + np.where(r > SECOND_DISTRIBUTION_ROUND, view.leftover, 0.0)
    out[:, :, 2] = np.where(base > 0, final, 0.0)
    return out


def rounds_until(view: View) -> np.ndarray:
    """[N, 3] rounds until each distribution, counting the current one (M-R1)."""
    r = view.round[:, None].astype(np.float64)
    ends = np.array([FIRST_DISTRIBUTION_ROUND, SECOND_DISTRIBUTION_ROUND, 10], dtype=np.float64)
    return np.maximum(ends[None, :] - r + 1.0, 1.0)


def discovery_values(view: View, mine: np.ndarray, opp: np.ndarray, final_points: np.ndarray,
                     present_mine: np.ndarray, present_opp: np.ndarray, count_rel: np.ndarray,
                     pool_value: np.ndarray, zone_value: np.ndarray) -> np.ndarray:
    """[N, 243] value of laying the drawn discovery card on each outer zone (M-E1, M-E2..M-E10).

    ``mine``/``opp`` [N, Z]: the observer's final share of the zone and the opponents' mean;
    ``final_points`` [N, Z]: the final pot in points; ``present_*`` [N, Z] presence (the
    opponents' mean); ``count_rel`` [N, Z] own astronauts minus the opponents' mean."""
    out = np.zeros((view.N, block("pass").stop))
    rel = mine - opp
    per_zone = np.zeros((view.N, Z))
    card = np.maximum(view.drawn, 0)
    kind = np.array(DISCOVERY_KIND, dtype=object)[card]
    for name, value in (
        ("faulty_analysis", rel * final_points / np.maximum(zone_value, 1e-9) * (pool_value[:, None] - zone_value)),
        ("mine_exhausted", -rel * final_points / FINAL_BASE),
        ("mine_disaster", -rel * final_points),
        ("huge_deposit", rel * final_points * (EVENT_PARAM["huge_deposit"]["final_base"] - FINAL_BASE) / FINAL_BASE),
        ("mosses", EVENT_PARAM["mosses"]["points"] * (present_mine - present_opp)),
        ("radiation", -1.5 * rel * final_points),
        ("meteorites", EVENT_PARAM["meteorites"]["points"] * count_rel),
        ("sylvanite_vein", 2.0 * (present_mine - present_opp)),
    ):
        rows = (kind == name) & (view.drawn >= 0)
        per_zone[rows] = value[rows]
    out[:, block("discovery")] = np.where(IS_OUTER[None, :], per_zone, 0.0)
    return out


# M-S6: a kept bonus card's face value (the points it says, before any chance of scoring)
KEEP_FACE = {"secret_mission": 8.0, "top_secret_mission": 5.0, "ice_blocks": 2.0, "celerium": 8.0, "sylvanite": 8.0,
             "memorial": 1.0, "good_planning": 1.0, "colonisation": 8.0, "strategic_zones": 6.0}


def keep_values(view: View, table: dict[str, float] | np.ndarray) -> np.ndarray:
    """[N, 243] the keep ids valued by ``table`` (kind -> value, or [N, 13] per bonus card)."""
    out = np.zeros((view.N, block("pass").stop))
    if isinstance(table, dict):
        table = np.array([table[CARD_KIND[c]] for c in BONUS_CARDS])[None, :]
    out[:, block("keep")] = table
    return out
