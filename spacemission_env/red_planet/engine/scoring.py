"""Scoring kernels: the distributions after rounds 5 and 8 (M-P1, M-P2), the final
scoring (M-P3 with M-E2..M-E19) and the score table (rules/scoring.py ``scores``)."""
from __future__ import annotations

import numpy as np

from ...engine.jit import njit
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

MINERAL_VALUE_T = np.array(MINERAL_VALUE, dtype=np.int32)
NUM_CATEGORIES = NUM_MINERALS + 4  # rules/scoring.py CATEGORIES: minerals, ice_bonus, discovery, bonus, total


@njit
def distribution_after_round_5(s, b):
    """M-P1: a single leader gets one counter of the zone's type; a tie lays it as leftover."""
    lead = np.empty(5, np.int64)
    for z in range(Z):
        k = mars_leaders(s, b, z, lead)
        if k == 1:
            s.counters[b, lead[0], s.mineral[b, z]] += 1
        elif k > 1:
            s.leftover[b, z] += 1


@njit
def share_pot(s, b, z, pot, lead):
    """A single leader takes the pot, k tied leaders pot // k each; returns the remainder
    (the whole pot in an empty zone)."""
    k = mars_leaders(s, b, z, lead)
    if k == 0:
        return pot
    for i in range(k):
        s.counters[b, lead[i], s.mineral[b, z]] += pot // k
    return pot % k


@njit
def distribution_after_round_8(s, b):
    """M-P2: pot = 2 + leftover; the remainder stays; an empty zone keeps its leftover."""
    lead = np.empty(5, np.int64)
    for z in range(Z):
        if mars_leaders(s, b, z, lead) > 0:
            s.leftover[b, z] = share_pot(s, b, z, SECOND_DISTRIBUTION_BASE + s.leftover[b, z], lead)


@njit
def card_kind_at(s, b, z):
    c = s.discovery[b, z]
    return NONE if c == NONE else CARD_KIND_T[c]


@njit
def final_scoring(s, b):
    """M-P3 steps 1-3: M-E8 then M-E2 revealed; the final pots (M-E4..M-E6); M-E10, M-E13."""
    n = s.mars.shape[2]
    lead = np.empty(5, np.int64)
    for z in range(Z):  # M-E8: the leaders remove their astronauts (not killed)
        if card_kind_at(s, b, z) == K_RADIATION:
            k = mars_leaders(s, b, z, lead)
            for i in range(k):
                q = lead[i]
                s.removed[b, q] += s.mars[b, z, q]
                s.mars[b, z, q] = 0
    for z in range(Z):  # M-E2: the token is replaced by the pool's top; the old one goes under the pool
        if card_kind_at(s, b, z) == K_FAULTY and s.mineral[b, z] != NONE:
            old = s.mineral[b, z]
            top = s.mineral_pool_len[b] - 1
            s.mineral[b, z] = s.mineral_pool[b, top]
            for i in range(top, 0, -1):
                s.mineral_pool[b, i] = s.mineral_pool[b, i - 1]
            s.mineral_pool[b, 0] = old
    for z in range(Z):
        if mars_leaders(s, b, z, lead) > 0:
            kind = card_kind_at(s, b, z)
            if kind == K_MINE_DISASTER:  # M-E5
                pot = 0
            elif kind == NONE:
                pot = FINAL_BASE + s.leftover[b, z]
            else:  # M-E4, M-E6 change the base
                pot = CARD_FINAL_BASE[s.discovery[b, z]] + s.leftover[b, z]
            share_pot(s, b, z, pot, lead)
            s.leftover[b, z] = 0  # the remainder is lost
    for z in range(Z):  # M-E10
        if card_kind_at(s, b, z) == K_SYLVANITE_VEIN:
            for q in range(n):
                if s.mars[b, z, q] > 0:
                    s.counters[b, q, SYLVANITE] += 1
    for q in range(n):  # M-E13
        for i in range(s.bonus_len[b, q]):
            c = s.bonus[b, q, i]
            if CARD_KIND_T[c] == K_ICE_BLOCKS:
                s.counters[b, q, ICE] += CARD_COUNTERS[c]


@njit
def _sole_most(s, b, t, q):
    """"He alone has the most" counters of type t (at least one)."""
    mine = s.counters[b, q, t]
    if mine <= 0:
        return False
    for o in range(s.counters.shape[1]):
        if o != q and s.counters[b, o, t] >= mine:
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
def bonus_card_points(s, b, q, c, total, central):
    """M-E11..M-E19 on the final state; total/central: astronauts on Mars / in central zones per seat."""
    kind = CARD_KIND_T[c]
    n = s.mars.shape[2]
    pts = CARD_POINTS[c]
    if kind == K_SECRET_MISSION:  # M-E11
        for z in range(Z):
            if MISSION_MASK[c, z] and s.mars[b, z, q] == 0:
                return 0
        return pts
    if kind == K_TOP_SECRET:  # M-E12: zones where he alone is present
        cnt = 0
        for z in range(Z):
            if s.mars[b, z, q] > 0:
                alone = True
                for o in range(n):
                    if o != q and s.mars[b, z, o] > 0:
                        alone = False
                cnt += alone
        return pts * cnt
    if kind == K_CELERIUM:  # M-E14
        return pts if _sole_most(s, b, CELERIUM, q) else 0
    if kind == K_SYLVANITE:  # M-E15
        return pts if _sole_most(s, b, SYLVANITE, q) else 0
    if kind == K_MEMORIAL:  # M-E16
        return pts * s.lism[b, q]
    if kind == K_GOOD_PLANNING:  # M-E17
        cnt = 0
        for z in range(Z):
            cnt += s.mars[b, z, q] > 0
        return pts * cnt
    if kind == K_COLONISATION:  # M-E18
        return pts if _nobody_more(total, q) else 0
    if kind == K_STRATEGIC:  # M-E19
        return pts if _nobody_more(central, q) else 0
    return 0  # M-E13: counters, given in final_scoring


@njit
def scores_kernel(s, out):
    """out int16 [B, P, 7]: rules/scoring.py ``scores`` (counters always; ice bonus,
    discovery and bonus cards once the game is over)."""
    B, n = s.mars.shape[0], s.mars.shape[2]
    total = np.zeros(n, np.int64)
    central = np.zeros(n, np.int64)
    for b in range(B):
        over = s.terminated[b]
        top = 0
        if over:
            for q in range(n):
                top = max(top, s.counters[b, q, ICE])
            nlead = 0
            for q in range(n):
                nlead += top > 0 and s.counters[b, q, ICE] == top
            for q in range(n):
                total[q] = 0
                central[q] = 0
                for z in range(Z):
                    total[q] += s.mars[b, z, q]
                    if CENTRAL_T[z]:
                        central[q] += s.mars[b, z, q]
        for q in range(n):
            row_sum = 0
            for t in range(NUM_MINERALS):
                v = s.counters[b, q, t] * MINERAL_VALUE_T[t]
                out[b, q, t] = v
                row_sum += v
            ice = disc = bon = 0
            if over:
                if top > 0 and s.counters[b, q, ICE] == top:
                    ice = ICE_BONUS // nlead  # M-P3 step 5
                for z in range(Z):  # M-E7, M-E9
                    kind = card_kind_at(s, b, z)
                    if kind == K_MOSSES and s.mars[b, z, q] > 0:
                        disc += CARD_POINTS[s.discovery[b, z]]
                    elif kind == K_METEORITES:
                        disc += CARD_POINTS[s.discovery[b, z]] * s.mars[b, z, q]
                for i in range(s.bonus_len[b, q]):
                    bon += bonus_card_points(s, b, q, s.bonus[b, q, i], total, central)
            out[b, q, NUM_MINERALS] = ice
            out[b, q, NUM_MINERALS + 1] = disc
            out[b, q, NUM_MINERALS + 2] = bon
            out[b, q, NUM_MINERALS + 3] = row_sum + ice + disc + bon
