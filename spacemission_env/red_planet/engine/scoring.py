"""Scoring kernels: the distributions after rounds 5 and 8 (M-P1, M-P2), the final
scoring (M-P3 with M-E2..M-E19) and the score table (rules/scoring.py ``scores``)."""
from __future__ import annotations

import numpy as np

from ...jit import njit
from ..components import (
    CELERIUM,
    FINAL_BASE,
    ICE,
    ICE_BONUS,
    MINERAL_VALUE,
    NUM_MINERALS,
    SECOND_DISTRIBUTION_BASE,
    SYLVANITE,
)
from .core import (
    CARD_COUNTERS,
    CARD_FINAL_BASE,
    CARD_KIND_T,
    CARD_POINTS,
    CENTRAL_T,
    K_CELERIUM,
    K_COLONISATION,
    K_FAULTY,
    K_GOOD_PLANNING,
    K_ICE_BLOCKS,
    K_MEMORIAL,
    K_METEORITES,
    K_MINE_DISASTER,
    K_MOSSES,
    K_RADIATION,
    K_SECRET_MISSION,
    K_STRATEGIC,
    K_SYLVANITE,
    K_SYLVANITE_VEIN,
    K_TOP_SECRET,
    MISSION_MASK,
    NONE,
    Z,
    mars_leaders,
)
from .state import (
    F_BONUS,
    F_BONUS_LEN,
    F_COUNTERS,
    F_DISCOVERY,
    F_LEFTOVER,
    F_LISM,
    F_MARS,
    F_MINERAL,
    F_MINERAL_POOL,
    F_MINERAL_POOL_LEN,
    F_PLAYER_COUNT,
    F_REMOVED,
    F_TERMINATED,
    NB,
    NMIN,
    PAD,
)

MINERAL_VALUE_T = np.array(MINERAL_VALUE, dtype=np.int32)
NUM_CATEGORIES = NUM_MINERALS + 4  # rules/scoring.py CATEGORIES: minerals, ice_bonus, discovery, bonus, total


@njit
def distribution_after_round_5(g, rng, b):
    """M-P1: a single leader gets one counter of the zone's type; a tie lays it as leftover."""
    lead = np.empty(5, np.int64)
    for z in range(Z):
        k = mars_leaders(g, rng, b, z, lead)
        if k == 1:
            g[b, F_COUNTERS + (lead[0]) * NMIN + g[b, F_MINERAL + z]] += 1
        elif k > 1:
            g[b, F_LEFTOVER + z] += 1


@njit
def share_pot(g, rng, b, z, pot, lead):
    """A single leader takes the pot, k tied leaders pot // k each; returns the remainder
    (the whole pot in an empty zone)."""
    k = mars_leaders(g, rng, b, z, lead)
    if k == 0:
        return pot
    for i in range(k):
        g[b, F_COUNTERS + (lead[i]) * NMIN + g[b, F_MINERAL + z]] += pot // k
    return pot % k


@njit
def distribution_after_round_8(g, rng, b):
    """M-P2: pot = 2 + leftover; the remainder stays; an empty zone keeps its leftover."""
    lead = np.empty(5, np.int64)
    for z in range(Z):
        if mars_leaders(g, rng, b, z, lead) > 0:
            g[b, F_LEFTOVER + z] = share_pot(g, rng, b, z, SECOND_DISTRIBUTION_BASE + g[b, F_LEFTOVER + z], lead)


@njit
def card_kind_at(g, rng, b, z):
    c = g[b, F_DISCOVERY + z]
    return NONE if c == NONE else CARD_KIND_T[c]


@njit
def final_scoring(g, rng, b):
    """M-P3 steps 1-3: M-E8 then M-E2 revealed; the final pots (M-E4..M-E6); M-E10, M-E13."""
    n = g[b, F_PLAYER_COUNT]
    lead = np.empty(5, np.int64)
    for z in range(Z):  # M-E8: the leaders remove their astronauts (not killed)
        if card_kind_at(g, rng, b, z) == K_RADIATION:
            k = mars_leaders(g, rng, b, z, lead)
            for i in range(k):
                q = lead[i]
                g[b, F_REMOVED + q] += g[b, F_MARS + z * PAD + q]
                g[b, F_MARS + z * PAD + q] = 0
    for z in range(Z):  # M-E2: the token is replaced by the pool's top; the old one goes under the pool
        if card_kind_at(g, rng, b, z) == K_FAULTY and g[b, F_MINERAL + z] != NONE:
            old = g[b, F_MINERAL + z]
            top = g[b, F_MINERAL_POOL_LEN] - 1
            g[b, F_MINERAL + z] = g[b, F_MINERAL_POOL + top]
            for i in range(top, 0, -1):
                g[b, F_MINERAL_POOL + i] = g[b, F_MINERAL_POOL + i - 1]
            g[b, F_MINERAL_POOL + 0] = old
    for z in range(Z):
        if mars_leaders(g, rng, b, z, lead) > 0:
            kind = card_kind_at(g, rng, b, z)
            if kind == K_MINE_DISASTER:  # M-E5
                pot = 0
            elif kind == NONE:
                pot = FINAL_BASE + g[b, F_LEFTOVER + z]
            else:  # M-E4, M-E6 change the base
                pot = CARD_FINAL_BASE[g[b, F_DISCOVERY + z]] + g[b, F_LEFTOVER + z]
            share_pot(g, rng, b, z, pot, lead)
            g[b, F_LEFTOVER + z] = 0  # the remainder is lost
    for z in range(Z):  # M-E10: one counter each, the spec's own rule (rules/scoring.py); M-E3: no effect
        if card_kind_at(g, rng, b, z) == K_SYLVANITE_VEIN:
            for q in range(n):
                if g[b, F_MARS + z * PAD + q] > 0:
                    g[b, F_COUNTERS + q * NMIN + SYLVANITE] += 1
    for q in range(n):  # M-E13
        for i in range(g[b, F_BONUS_LEN + q]):
            c = g[b, F_BONUS + q * NB + i]
            if CARD_KIND_T[c] == K_ICE_BLOCKS:
                g[b, F_COUNTERS + q * NMIN + ICE] += CARD_COUNTERS[c]


@njit
def _sole_most(g, rng, b, t, q):
    """"He alone has the most" counters of type t (at least one)."""
    mine = g[b, F_COUNTERS + q * NMIN + t]
    if mine <= 0:
        return False
    for o in range(g[b, F_PLAYER_COUNT]):
        if o != q and g[b, F_COUNTERS + o * NMIN + t] >= mine:
            return False
    return True


@njit
def _nobody_more(vals, q):
    """"Nobody has more" (ties score; at least one)."""
    if vals[q] <= 0:
        return False
    for o in range(vals.shape[0]):
        if vals[o] > vals[q]:
            return False
    return True


@njit
def bonus_card_points(g, rng, b, q, c, total, central):
    """M-E11..M-E19 on the final state; total/central: astronauts on Mars / in central zones per seat."""
    kind = CARD_KIND_T[c]
    n = g[b, F_PLAYER_COUNT]
    pts = CARD_POINTS[c]
    if kind == K_SECRET_MISSION:  # M-E11
        for z in range(Z):
            if MISSION_MASK[c, z] and g[b, F_MARS + z * PAD + q] == 0:
                return 0
        return pts
    if kind == K_TOP_SECRET:  # M-E12: zones where he alone is present
        cnt = 0
        for z in range(Z):
            if g[b, F_MARS + z * PAD + q] > 0:
                alone = True
                for o in range(n):
                    if o != q and g[b, F_MARS + z * PAD + o] > 0:
                        alone = False
                cnt += alone
        return pts * cnt
    if kind == K_CELERIUM:  # M-E14
        return pts if _sole_most(g, rng, b, CELERIUM, q) else 0
    if kind == K_SYLVANITE:  # M-E15
        return pts if _sole_most(g, rng, b, SYLVANITE, q) else 0
    if kind == K_MEMORIAL:  # M-E16
        return pts * g[b, F_LISM + q]
    if kind == K_GOOD_PLANNING:  # M-E17
        cnt = 0
        for z in range(Z):
            cnt += g[b, F_MARS + z * PAD + q] > 0
        return pts * cnt
    if kind == K_COLONISATION:  # M-E18
        return pts if _nobody_more(total, q) else 0
    if kind == K_STRATEGIC:  # M-E19
        return pts if _nobody_more(central, q) else 0
    return 0  # M-E13: counters, given in final_scoring


@njit
def scores_kernel(g, rng, out):
    """out int16 [B, P, 7]: rules/scoring.py ``scores`` (counters always; ice bonus,
    discovery and bonus cards once the game is over)."""
    total = np.zeros(5, np.int64)  # padded seats stay 0
    central = np.zeros(5, np.int64)
    for b in range(g.shape[0]):
        n = g[b, F_PLAYER_COUNT]
        over = g[b, F_TERMINATED]
        top = 0
        if over:
            for q in range(n):
                top = max(top, g[b, F_COUNTERS + q * NMIN + ICE])
            nlead = 0
            for q in range(n):
                nlead += top > 0 and g[b, F_COUNTERS + q * NMIN + ICE] == top
            for q in range(n):
                total[q] = 0
                central[q] = 0
                for z in range(Z):
                    total[q] += g[b, F_MARS + z * PAD + q]
                    if CENTRAL_T[z]:
                        central[q] += g[b, F_MARS + z * PAD + q]
        for q in range(n):
            row_sum = 0
            for t in range(NUM_MINERALS):
                v = g[b, F_COUNTERS + q * NMIN + t] * MINERAL_VALUE_T[t]
                out[b, q, t] = v
                row_sum += v
            ice = disc = bon = 0
            if over:
                if top > 0 and g[b, F_COUNTERS + q * NMIN + ICE] == top:
                    ice = ICE_BONUS // nlead  # M-P3 step 5
                for z in range(Z):  # M-E7, M-E9
                    kind = card_kind_at(g, rng, b, z)
                    if kind == K_MOSSES and g[b, F_MARS + z * PAD + q] > 0:
                        disc += CARD_POINTS[g[b, F_DISCOVERY + z]]
                    elif kind == K_METEORITES:
                        disc += CARD_POINTS[g[b, F_DISCOVERY + z]] * g[b, F_MARS + z * PAD + q]
                for i in range(g[b, F_BONUS_LEN + q]):
                    bon += bonus_card_points(g, rng, b, q, g[b, F_BONUS + q * NB + i], total, central)
            out[b, q, NUM_MINERALS] = ice
            out[b, q, NUM_MINERALS + 1] = disc
            out[b, q, NUM_MINERALS + 2] = bon
            out[b, q, NUM_MINERALS + 3] = row_sum + ice + disc + bon
