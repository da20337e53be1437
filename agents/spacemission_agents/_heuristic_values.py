"""HeuristicAgent's compiled part, first half (private): the layout of its plan state and
scratch vectors, scoring in O(1) per type, the per-row value table and the card choices.
_heuristic_kernel.py holds the actions on the state, the evaluation and the batch kernel, and
says how the caches keep the outputs bit for bit those of computing every value each time.
"""
from __future__ import annotations

import numpy as np
from spacemission_env.jit import njit
from spacemission_env.space_mission.engine.kernels import matches, provides_landing

from ._bot_features import (
    C_GATE, C_MEDAL, C_PAIR, C_SINGLE, C_WATER,
)

# --- state vector ----------------------------------------------------------------------------
O_SHIP, O_SUPPLY, O_GATE, O_USED, O_UNK, O_REV, O_STAT, O_EXTRA, O_GIFT = range(9)
O_TOUCHED = 9  # bitmask of the planets whose pile, station, scans or reservations the plan changed
O_COL = 16  # [10] own collection
O_RES = 26  # [8, 10] own reservations
O_PTS = 106  # [8] point tiles in the pile (estimated where unseen)
O_SIZE = 114  # [8] tiles in the pile
O_EST = 122  # [8, 10] expected count per type
O_PRES = 202  # [8, 10] probability that the type is there
O_STATION = 282  # [8] owner (relative seat) or -1
O_SCANNED = 290  # [8] the bot has scanned there
O_REVEALED = 298  # [8]
O_EXACT = 306  # [8] the pile's contents are known
NSTATE = 314

# scratch vector ``work``: [0:10] expected_top, W_COL collection + reservations, W_RES joint
# reservation value per planet (set by evaluate, read by plan_at), W_NTAB entries of the table,
# W_ROW the row's stamp and W_CARDS its card choices (see ``card``)
W_COL, W_RES, W_NTAB, W_ROW, W_CARDS = 10, 20, 32, 33, 48
W_JUMPS, W_SCANS, W_PAIRS = W_CARDS, W_CARDS + 32 * 8 * 2, W_CARDS + 32 * 8 * 2 + 32 * 6 * 8 * 2
W_PLANS = W_PAIRS + 32 * 8  # NPLANS x (key, value, cards, jump card) of plan_at, see ``potential``
NPLANS = 2048
NWORK = W_PLANS + 4 * NPLANS

# --- value table (per row) ---------------------------------------------------------------------
# A plan's states share few distinct collections (only a discover, develop or take changes one),
# so the tile values of a collection, its points and set value, and the expected best tiles of
# the piles the plan has not touched are computed once per row and collection and looked up
# afterwards: the same arithmetic on the same inputs, hence the same bits. Row of table M:
# key, tile values [10], fvalue, points, per pile a computed flag [8] and (best, second) [16].
M_KEY, M_VALS, M_F0, M_PTS, M_TOPOK, M_TOP, MW = 0, 1, 11, 12, 13, 21, 37
NTAB = 48  # entries per row; beyond them two spare rows (NTAB, NTAB + 1) are recomputed each use

# --- context (per row, fixed during the bot's turn) ------------------------------------------
X_NP, X_THRESH, X_REV0, X_LAST, X_NHAND, X_AFTER, X_K, X_LEAD0, X_MYPTS0, X_RIVALMAX = range(10)
NCTX = 16

# --- parameters (HeuristicAgent keyword arguments, in this order) --------------------------
PARAM_NAMES = (
    "set_potential", "future_tiles", "reservation_weight", "reservation_rival_scanned",
    "potential_discount", "rival_tile_points", "gift_weight", "rival_weight", "unknown_card_value",
    "card_flex_value", "chip_value", "end_bonus", "end_scale", "reveal_weight", "rival_turn_points",
    "topup_first_bonus", "second_tile_factor", "chip_reserve",
)
(Q_BETA, Q_FUTURE, Q_RES, Q_RES_RIVAL, Q_GAMMA, Q_RIVAL_TILE, Q_GIFT, Q_RIVAL_W, Q_UNK, Q_FLEX,
 Q_CHIP, Q_END_BONUS, Q_END_SCALE, Q_REVEAL_W, Q_RIVAL_TURN, Q_TOPUP_FIRST, Q_SECOND, Q_CHIP_RESERVE) = range(
    len(PARAM_NAMES))


# --- scoring in O(1) per type (R-P3..R-P7) ----------------------------------------------------
@njit
def marg(c, u, consts):
    """Points one more tile of type u adds to collection c (float counts)."""
    if u < 4:
        n = c[0] + c[1] + c[2] + c[3]
        m = max(max(c[0], c[1]), max(c[2], c[3]))
        return n + m + 1.0 if c[u] >= m else m
    if u < 6:
        n = c[4] + c[5]
        m = max(c[4], c[5])
        return n + m + 1.0 if c[u] >= m else m
    if u == 6 or u == 7:
        other = c[13 - u]
        return consts[C_PAIR] - consts[C_SINGLE] if c[u] < other else consts[C_SINGLE]
    if u == 8:
        w = int(c[8]) % 4
        return consts[C_WATER + w + 1] - consts[C_WATER + w]
    return consts[C_MEDAL]


@njit
def points(c, consts):
    mn = c[0] + c[1] + c[2] + c[3]
    mm = max(max(c[0], c[1]), max(c[2], c[3]))
    pairs = min(c[6], c[7])
    w = int(c[8])
    return (mn * mm + (c[4] + c[5]) * max(c[4], c[5]) + pairs * consts[C_PAIR]
            + (c[6] + c[7] - 2 * pairs) * consts[C_SINGLE] + (w // 4) * consts[C_WATER + 4] + consts[C_WATER + w % 4]
            + c[9] * consts[C_MEDAL])


@njit
def fvalue(c, share, kb, consts):
    """Points plus the set potential: kb x the expected marginal of a future tile."""
    v = points(c, consts)
    if kb > 0:
        e = 0.0
        for u in range(10):
            if share[u] > 0:
                e += share[u] * marg(c, u, consts)
        v += kb * e
    return v


@njit
def tile_values(c, share, kb, consts, out):
    """out[t]: what one more tile of type t adds to fvalue; returns fvalue(c)."""
    base = fvalue(c, share, kb, consts)
    for t in range(10):
        c[t] += 1.0
        out[t] = fvalue(c, share, kb, consts) - base
        c[t] -= 1.0
    return base


@njit
def lookup(M, work, c, share, kb, consts, spare):
    """The table row of collection c (share and kb are fixed within a row), filled on first
    use; ``spare`` (NTAB or NTAB + 1, one per caller that may hold a row while another is
    looked up) when the table is full or c is not a small count vector."""
    key = 0.0
    ok = True
    for t in range(10):
        x = c[t]
        if not (0.0 <= x < 32.0 and x == np.floor(x)):
            ok = False
        key = key * 32.0 + x  # exact: below 2 ** 50 for counts under 32
    n = int(work[W_NTAB])
    e = spare
    if ok:
        for k in range(n):
            if M[k, M_KEY] == key:
                return k
        if n < NTAB:
            e = n
            work[W_NTAB] = n + 1
    M[e, M_KEY] = key if ok else -1.0
    M[e, M_F0] = tile_values(c, share, kb, consts, M[e, M_VALS:M_VALS + 10])
    M[e, M_PTS] = points(c, consts)
    M[e, M_TOPOK:M_TOPOK + 8] = 0.0
    return e


@njit(inline="always")
def gate_pts(gate, present, q, consts):
    if gate[q] <= 0:
        return 0.0
    rank = 0
    for r in range(5):
        if present[r] != 0 and gate[r] > gate[q]:
            rank += 1
    return consts[C_GATE + rank] if rank < 4 else 0.0


@njit(inline="always")
def gate_balance(S, gate, present, n, consts, rw):
    """Own gate points minus rw x the rivals' mean, with the bot's planned probes."""
    gate[0] = S[O_GATE]
    v = gate_pts(gate, present, 0, consts)
    riv = 0.0
    for r in range(1, n):
        riv += gate_pts(gate, present, r, consts)
    return v - rw * riv / max(n - 1, 1)


# --- cards -------------------------------------------------------------------------------------
@njit(inline="always")
def held(S, s, nh):
    return s < nh and (int(S[O_USED]) >> s) & 1 == 0


@njit(inline="always")
def flex(hand, s, params):
    j = 0
    for c in range(3):
        j += hand[s, c] == 5
    return params[Q_FLEX] * (1.0 + 0.5 * j)


@njit
def find_pair(S, hand, nh, ring, q, excl1, excl2):
    """A held landing pair for planet q (fewest jokers), as a bitmask; 0 if none."""
    best = 0
    bj = 99
    for a in range(nh):
        if not held(S, a, nh) or a == excl1 or a == excl2:
            continue
        for b in range(a + 1, nh):
            if not held(S, b, nh) or b == excl1 or b == excl2:
                continue
            if provides_landing(hand[a, 2], hand[b, 2], ring[q, 2], ring[q, 3]):
                j = (hand[a, 2] == 5) + (hand[b, 2] == 5)
                if j < bj:
                    bj = j
                    best = (1 << a) | (1 << b)
    return best


@njit
def card_cost(S, hand, nh, ring, s, q, colour):
    """How much playing slot s for ``colour`` hurts plans at planet q: its other coordinates."""
    c = 0.0
    if hand[s, colour] == 5:
        c += 1.0
    if S[O_STATION + q] < 0:
        if colour != 1 and matches(hand[s, 1], ring[q, 1]):
            c += 2.0
        if colour != 2:
            for b in range(nh):
                if b != s and held(S, b, nh) and provides_landing(hand[s, 2], hand[b, 2], ring[q, 2], ring[q, 3]):
                    c += 3.0
                    break
    return c


@njit
def best_card(S, hand, nh, ring, q, colour, want, excl):
    """The held slot (not excl) providing ``want`` in ``colour`` that hurts least; -1 if none."""
    best = -1
    bc = 1e9
    for s in range(nh):
        if s == excl or not held(S, s, nh) or not matches(hand[s, colour], want):
            continue
        c = card_cost(S, hand, nh, ring, s, q, colour)
        if c < bc:
            bc = c
            best = s
    return best


# The card choices depend on the state only through the cards used (a hand has at most 5 slots)
# and whether the planet has a station, so each is made once per row: work holds
# ``stamp * 64 + answer + 1`` where ``stamp`` (W_ROW) numbers the row within the call.
@njit(inline="always")
def _cached(work, k):
    """The answer stored at work[k] for this row, or -2."""
    base = work[W_ROW] * 64.0
    return int(work[k] - base) - 1 if work[k] >= base else -2


@njit(inline="always")
def card(S, hand, nh, ring, q, colour, excl, work):
    """best_card(S, hand, nh, ring, q, colour, ring[q, colour], excl), once per row and key."""
    sf = 1 if S[O_STATION + q] < 0 else 0
    used = int(S[O_USED]) & 31
    if colour == 0 and excl < 0:
        k = W_JUMPS + (used * 8 + q) * 2 + sf
    elif colour == 1:
        k = W_SCANS + ((used * 6 + excl + 1) * 8 + q) * 2 + sf
    else:
        return best_card(S, hand, nh, ring, q, colour, ring[q, colour], excl)
    c = _cached(work, k)
    if c == -2:
        c = best_card(S, hand, nh, ring, q, colour, ring[q, colour], excl)
        work[k] = work[W_ROW] * 64.0 + c + 1
    return c


@njit(inline="always")
def pair_for(S, hand, nh, ring, q, excl1, excl2, work):
    """find_pair(S, hand, nh, ring, q, excl1, excl2), once per row and key: excluding a slot is
    the same as having used it."""
    used = int(S[O_USED])
    if excl1 >= 0:
        used |= 1 << excl1
    if excl2 >= 0:
        used |= 1 << excl2
    k = W_PAIRS + (used & 31) * 8 + q
    c = _cached(work, k)
    if c == -2:
        c = find_pair(S, hand, nh, ring, q, excl1, excl2)
        work[k] = work[W_ROW] * 64.0 + c + 1
    return c
