"""HeuristicAgent's model of its own turn (private): a state vector, the actions on it, and
the evaluation V. See agents/heuristic.py for the strategy in words.

The state is one float64 vector (offsets O_*) so a plan level is copied with one slice;
what the bot cannot change in its own turn (the ring, the rivals) lives in the context
arrays built once per row. Everything here is numba-compiled.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ._bot_features import C_GATE, C_MEDAL, C_PAIR, C_SINGLE, C_STATION, C_WATER, provides, lands

# --- state vector ----------------------------------------------------------------------------
O_SHIP, O_SUPPLY, O_GATE, O_USED, O_UNK, O_REV, O_STAT, O_EXTRA, O_GIFT = range(9)
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

# --- context (per row, fixed during the bot's turn) ------------------------------------------
X_NP, X_THRESH, X_REV0, X_LAST, X_NHAND, X_AFTER, X_K, X_LEAD0, X_MYPTS0, X_RIVALMAX = range(10)
NCTX = 16

# --- parameters (HeuristicAgent keyword arguments, in this order) --------------------------
PARAM_NAMES = (
    "set_potential", "future_tiles", "reservation_weight", "reservation_rival_scanned", "reservation_self",
    "potential_discount", "rival_tile_points", "gift_weight", "rival_weight", "unknown_card_value",
    "card_flex_value", "chip_value", "end_bonus", "end_scale", "reveal_weight", "rival_turn_points",
    "topup_first_bonus", "second_tile_factor",
)
(Q_BETA, Q_FUTURE, Q_RES, Q_RES_RIVAL, Q_RES_SELF, Q_GAMMA, Q_RIVAL_TILE, Q_GIFT, Q_RIVAL_W, Q_UNK, Q_FLEX,
 Q_CHIP, Q_END_BONUS, Q_END_SCALE, Q_REVEAL_W, Q_RIVAL_TURN, Q_TOPUP_FIRST, Q_SECOND) = range(len(PARAM_NAMES))


# --- scoring in O(1) per type (R-P3..R-P7) ----------------------------------------------------
@njit(cache=True)
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


@njit(cache=True)
def points(c, consts):
    mn = c[0] + c[1] + c[2] + c[3]
    mm = max(max(c[0], c[1]), max(c[2], c[3]))
    pairs = min(c[6], c[7])
    w = int(c[8])
    return (mn * mm + (c[4] + c[5]) * max(c[4], c[5]) + pairs * consts[C_PAIR]
            + (c[6] + c[7] - 2 * pairs) * consts[C_SINGLE] + (w // 4) * consts[C_WATER + 4] + consts[C_WATER + w % 4]
            + c[9] * consts[C_MEDAL])


@njit(cache=True)
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


@njit(cache=True)
def tile_values(c, share, kb, consts, out):
    base = fvalue(c, share, kb, consts)
    for t in range(10):
        c[t] += 1.0
        out[t] = fvalue(c, share, kb, consts) - base
        c[t] -= 1.0


@njit(cache=True)
def gate_pts(gate, present, q, consts):
    if gate[q] <= 0:
        return 0.0
    rank = 0
    for r in range(5):
        if present[r] != 0 and gate[r] > gate[q]:
            rank += 1
    return consts[C_GATE + rank] if rank < 4 else 0.0


@njit(cache=True)
def gate_balance(S, gate, present, n, consts, rw):
    """Own gate points minus rw x the rivals' mean, with the bot's planned probes."""
    gate[0] = S[O_GATE]
    v = gate_pts(gate, present, 0, consts)
    riv = 0.0
    for r in range(1, n):
        riv += gate_pts(gate, present, r, consts)
    return v - rw * riv / max(n - 1, 1)


# --- cards -------------------------------------------------------------------------------------
@njit(cache=True)
def held(S, s, nh):
    return s < nh and (int(S[O_USED]) >> s) & 1 == 0


@njit(cache=True)
def flex(hand, s, params):
    j = 0
    for c in range(3):
        j += hand[s, c] == 5
    return params[Q_FLEX] * (1.0 + 0.5 * j)


@njit(cache=True)
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
            if lands(hand[a, 2], hand[b, 2], ring[q, 2], ring[q, 3]):
                j = (hand[a, 2] == 5) + (hand[b, 2] == 5)
                if j < bj:
                    bj = j
                    best = (1 << a) | (1 << b)
    return best


@njit(cache=True)
def card_cost(S, hand, nh, ring, s, q, colour):
    """How much playing slot s for ``colour`` hurts plans at planet q: its other coordinates."""
    c = 0.0
    if hand[s, colour] == 5:
        c += 1.0
    if S[O_STATION + q] < 0:
        if colour != 1 and provides(hand[s, 1], ring[q, 1]):
            c += 2.0
        if colour != 2:
            for b in range(nh):
                if b != s and held(S, b, nh) and lands(hand[s, 2], hand[b, 2], ring[q, 2], ring[q, 3]):
                    c += 3.0
                    break
    return c


@njit(cache=True)
def best_card(S, hand, nh, ring, q, colour, want, excl):
    """The held slot (not excl) providing ``want`` in ``colour`` that hurts least; -1 if none."""
    best = -1
    bc = 1e9
    for s in range(nh):
        if s == excl or not held(S, s, nh) or not provides(hand[s, colour], want):
            continue
        c = card_cost(S, hand, nh, ring, s, q, colour)
        if c < bc:
            bc = c
            best = s
    return best


# --- actions on the state ----------------------------------------------------------------------
@njit(cache=True)
def take_tile(S, p, t, reserve, vals, extra_value):
    """Take type t from pile p (reserve it under a probe, R-A4, or collect it, R-A5/R-A6), then
    R-V1's reveal check. ``extra_value`` corrects to the expected value of an uncertain pile."""
    S[O_EXTRA] += extra_value
    if reserve:
        S[O_RES + p * 10 + t] += 1.0
        S[O_SUPPLY] -= 1.0
    else:
        S[O_COL + t] += 1.0
    S[O_EST + p * 10 + t] = max(S[O_EST + p * 10 + t] - 1.0, 0.0)
    if S[O_EXACT + p] > 0 and S[O_EST + p * 10 + t] < 0.5:
        S[O_PRES + p * 10 + t] = 0.0
    S[O_PTS + p] = max(S[O_PTS + p] - 1.0, 0.0)
    S[O_SIZE + p] = max(S[O_SIZE + p] - 1.0, 0.0)
    reveal_check(S, p)


@njit(cache=True)
def reveal_check(S, p):
    if S[O_REVEALED + p] == 0 and S[O_PTS + p] < 0.5:
        S[O_REVEALED + p] = 1.0
        S[O_REV] += S[O_SIZE + p]  # what is left is space tiles (R-V1)


@njit(cache=True)
def pick_tile(S, p, vals):
    """The type the bot would take from pile p and the expected-value correction."""
    best = -1
    bv = -1e18
    for t in range(10):
        if S[O_PRES + p * 10 + t] <= 0:
            continue
        v = vals[t] * (1.0 if S[O_EXACT + p] > 0 else S[O_PRES + p * 10 + t])
        if v > bv:
            bv = v
            best = t
    return best


@njit(cache=True)
def expected_top(S, p, vals, second, work):
    """Values of the best and the second-best tile of pile p: exact where the pile is known,
    else the expected best over the types' presence and ``second`` x that."""
    if S[O_PTS + p] < 0.5:
        return 0.0, 0.0
    if S[O_EXACT + p] > 0:
        v1 = -1e18
        v2 = -1e18
        for t in range(10):
            cnt = S[O_EST + p * 10 + t]
            if cnt < 0.5:
                continue
            for _ in range(2 if cnt >= 1.5 else 1):
                if vals[t] > v1:
                    v2 = v1
                    v1 = vals[t]
                elif vals[t] > v2:
                    v2 = vals[t]
        return max(v1, 0.0), max(v2, 0.0)
    for t in range(10):
        work[t] = vals[t]
    e = 0.0
    none_better = 1.0
    for _ in range(10):  # expected max over the present types, best first
        bt = -1
        for t in range(10):
            if work[t] > -1e17 and (bt < 0 or work[t] > work[bt]):
                bt = t
        if bt < 0 or work[bt] <= 0:
            break
        pr = S[O_PRES + p * 10 + bt]
        e += work[bt] * pr * none_better
        none_better *= 1.0 - pr
        work[bt] = -1e18
    return e, (e * second if S[O_PTS + p] >= 1.5 else 0.0)


@njit(cache=True)
def collect_best(S, p, vals, params, work):
    t = pick_tile(S, p, vals)
    if t < 0:
        reveal_check(S, p)
        return
    extra = 0.0
    if S[O_EXACT + p] == 0:
        e, _ = expected_top(S, p, vals, params[Q_SECOND], work)
        extra = e - vals[t]
    take_tile(S, p, t, False, vals, extra)


@njit(cache=True)
def res_weight(S, q, hand, nh, ring, rscan, params):
    """Chance-like weight that a reservation on planet q is collected (R-A5 by anyone, R-E2)."""
    w = params[Q_RES] + params[Q_RES_RIVAL] * rscan[q]
    if S[O_SCANNED + q] > 0 and find_pair(S, hand, nh, ring, q, -1, -1) != 0:
        w += params[Q_RES_SELF]
    return min(w, 0.95)


@njit(cache=True)
def gift(q, probes, n, params):
    """What developing q hands the rivals (R-A5 step 2), in the bot's relative points."""
    g = 0.0
    for r in range(1, n):
        g += probes[q, r]
    return g * params[Q_RIVAL_TILE] * params[Q_GIFT] * params[Q_RIVAL_W] / max(n - 1, 1)


@njit(cache=True)
def do_jump(S, s, q):
    S[O_USED] = int(S[O_USED]) | (1 << s)
    S[O_SHIP] = q
    S[O_SUPPLY] -= 1.0
    S[O_GATE] += 1.0


@njit(cache=True)
def do_fly(S, d):
    S[O_SHIP] = (int(S[O_SHIP]) + d) % 8


@njit(cache=True)
def do_scan(S, s, vals):
    S[O_USED] = int(S[O_USED]) | (1 << s)
    p = int(S[O_SHIP])
    S[O_SCANNED + p] = 1.0
    if S[O_PTS + p] >= 0.5:
        t = pick_tile(S, p, vals)
        if t >= 0:
            take_tile(S, p, t, True, vals, 0.0)
            return
    reveal_check(S, p)  # R-A4b: a pile without point tiles shows its space tiles


@njit(cache=True)
def do_develop(S, pair, probes, n, vals, share, kb, params, consts, work):
    S[O_USED] = int(S[O_USED]) | pair
    p = int(S[O_SHIP])
    S[O_SUPPLY] -= 1.0
    S[O_STATION + p] = 0.0
    S[O_STAT] += 1.0
    for t in range(10):  # R-A5 step 2: reservations to the collection, probes home
        r = S[O_RES + p * 10 + t]
        S[O_COL + t] += r
        S[O_SUPPLY] += r
        S[O_RES + p * 10 + t] = 0.0
    S[O_GIFT] += gift(p, probes, n, params)
    tile_values(S[O_COL:O_COL + 10], share, kb, consts, vals)
    collect_best(S, p, vals, params, work)


@njit(cache=True)
def do_topup(S, mask, nh):
    S[O_USED] = int(S[O_USED]) | mask
    have = S[O_UNK]
    for s in range(nh):
        if held(S, s, nh):
            have += 1.0
    S[O_UNK] += max(5.0 - have, 0.0)


# --- evaluation -------------------------------------------------------------------------------
@njit(cache=True)
def plan_at(S, q, a, excl, sup, hand, nh, ring, probes, n, rscan, params, vals, work):
    """Value of a turn with ``a`` actions on planet q (the cards used as a bitmask)."""
    v1, v2 = expected_top(S, q, vals, params[Q_SECOND], work)
    if a < 2:
        v2 = 0.0
    if S[O_STATION + q] >= 0:
        return v1 + v2, 0  # discover (R-A6)
    best = 0.0
    bmask = 0
    rw = res_weight(S, q, hand, nh, ring, rscan, params)
    resgain = 0.0
    for t in range(10):
        resgain += S[O_RES + q * 10 + t] * vals[t]
    resgain *= 1.0 - rw
    g = gift(q, probes, n, params)
    if S[O_SCANNED + q] > 0 and sup >= 1:
        pair = find_pair(S, hand, nh, ring, q, excl, -1)
        if pair != 0:
            best = 3.0 + resgain - g + v1 + v2
            bmask = pair
    if sup >= 1 and S[O_PTS + q] >= 0.5:
        sc = best_card(S, hand, nh, ring, q, 1, ring[q, 1], excl)
        if sc >= 0:
            v = rw * v1
            m = 1 << sc
            if a >= 2 and sup >= 2:
                pair = find_pair(S, hand, nh, ring, q, excl, sc)
                if pair != 0:
                    v = 3.0 + resgain - g + v1 + v2
                    m |= pair
            if v > best:
                best = v
                bmask = m
    return best, bmask


@njit(cache=True)
def potential(S, hand, nh, ring, probes, n, gate, present, rscan, params, consts, vals, work):
    """The best next turn from here: stay, fly to a neighbour or jump, then act (plan_at)."""
    ship = int(S[O_SHIP])
    sup = S[O_SUPPLY]
    rw = params[Q_RIVAL_W]
    g0 = gate_balance(S, gate, present, n, consts, rw)
    S[O_GATE] += 1.0
    jump_gain = gate_balance(S, gate, present, n, consts, rw) - g0 - params[Q_CHIP]
    S[O_GATE] -= 1.0
    best = 0.0
    bmask = 0
    for q in range(8):
        if q == ship:
            v, m = plan_at(S, q, 2, -1, sup, hand, nh, ring, probes, n, rscan, params, vals, work)
            if v > best:
                best, bmask = v, m
            continue
        if ship >= 0 and (q == (ship + 1) % 8 or q == (ship + 7) % 8):
            v, m = plan_at(S, q, 1, -1, sup, hand, nh, ring, probes, n, rscan, params, vals, work)
            if v > best:
                best, bmask = v, m
        if sup >= 1:
            cj = best_card(S, hand, nh, ring, q, 0, ring[q, 0], -1)
            if cj >= 0:
                v, m = plan_at(S, q, 1, cj, sup - 1, hand, nh, ring, probes, n, rscan, params, vals, work)
                v += jump_gain
                if v > best:
                    best, bmask = v, m | (1 << cj)
    return best, bmask


@njit(cache=True)
def evaluate(S, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work):
    """V of a state at the end of the bot's turn (relative points); also the cards the
    best next-turn plan uses (bitmask of hand slots)."""
    n = int(ctx[X_NP])
    nh = int(ctx[X_NHAND])
    col = S[O_COL:O_COL + 10]
    pts = points(col, consts) + S[O_EXTRA] + consts[C_STATION] * S[O_STAT]
    gate[0] = S[O_GATE]
    mine = pts + gate_pts(gate, present, 0, consts)
    base = pts + gate_balance(S, gate, present, n, consts, params[Q_RIVAL_W]) - S[O_GIFT]
    if ctx[X_LAST] > 0:  # the bot's last turn: only points count (R-E1, R-E2, R-E3)
        return base, 0
    lead = mine - ctx[X_RIVALMAX]
    if S[O_REV] >= ctx[X_THRESH]:  # this turn ends the game with the round (R-E1)
        final = lead - ctx[X_AFTER] * params[Q_RIVAL_TURN]
        return base + params[Q_END_BONUS] * np.tanh(final / params[Q_END_SCALE]), 0
    kb = params[Q_BETA] * ctx[X_K]
    tile_values(col, share, kb, consts, vals)
    v = base + fvalue(col, share, kb, consts) - points(col, consts)
    for p in range(8):
        r = 0.0
        for t in range(10):
            r += S[O_RES + p * 10 + t] * vals[t]
        if r != 0:
            v += r * res_weight(S, p, hand, nh, ring, rscan, params)
    v += params[Q_CHIP] * min(S[O_SUPPLY], 12.0)
    pot, mask = potential(S, hand, nh, ring, probes, n, gate, present, rscan, params, consts, vals, work)
    v += params[Q_GAMMA] * pot
    for s in range(nh):
        if held(S, s, nh) and (mask >> s) & 1 == 0:
            v += flex(hand, s, params)
    v += S[O_UNK] * params[Q_UNK]
    v += params[Q_REVEAL_W] * (S[O_REV] - ctx[X_REV0]) * np.tanh(lead / params[Q_END_SCALE])
    return v, mask
