"""HeuristicAgent's compiled part (private): its model of its own turn (a state vector and
the actions on it), the evaluation V, and the batch kernel that plans each row's turn; the
state's layout, scoring, the value table and the card choices are in _heuristic_values.py.
agents/spacemission_agents/heuristic.py describes the strategy in words.

The state is one float64 vector (offsets O_*) so a plan level is copied with one slice;
what the bot cannot change in its own turn (the ring, the rivals) lives in context arrays
built once per row. Within a row the kernel keeps what many plans recompute alike: a value
table per collection (``lookup``, ``top``), the card choices (``card``, ``pair_for``) and
the next-turn plan per untouched planet (``potential``); each is a pure function of its key,
so the outputs are bit for bit those of computing it every time. The card rules (R-C2,
R-A5) are the engine's own kernels, the tie-break hash is _bot_features';
spacemission_env/jit.py says why the disk cache stays correct when they change.
"""
from __future__ import annotations

import numpy as np
from spacemission_env.jit import njit

from ._bot_features import (
    C_STATION, F_END, F_LEFT, F_NHAND, F_NPLAYERS, F_OVER, F_PENDING, F_REVEALED, F_ROUNDS_LEFT, F_SHIP,
    F_START, F_TILE, F_TO_END, P_EXACT, P_OWNER, P_POINTS, P_REVEALED, P_SIZE, S_COLLECTED, S_GATE,
    S_PRESENT, S_STATIONS, S_SUPPLY, noise, row_salt,
)

from ._heuristic_values import (
    MW, M_F0, M_TOP, M_TOPOK, M_VALS, NCTX, NPLANS, NSTATE, NTAB, NWORK, O_COL, O_EST, O_EXACT, O_EXTRA,
    O_GATE, O_GIFT, O_PRES, O_PTS, O_RES, O_REV, O_REVEALED, O_SCANNED, O_SHIP, O_SIZE, O_STAT, O_STATION,
    O_SUPPLY, O_TOUCHED, O_UNK, O_USED, Q_BETA, Q_CHIP, Q_CHIP_RESERVE, Q_END_BONUS, Q_END_SCALE, Q_FUTURE,
    Q_GAMMA, Q_GIFT, Q_RES, Q_RES_RIVAL, Q_REVEAL_W, Q_RIVAL_TILE, Q_RIVAL_TURN, Q_RIVAL_W, Q_SECOND,
    Q_TOPUP_FIRST, Q_UNK, W_COL, W_NTAB, W_PLANS, W_RES, W_ROW, X_AFTER, X_K, X_LAST, X_NHAND, X_NP, X_REV0,
    X_RIVALMAX, X_THRESH, card, card_cost, flex, gate_balance, gate_pts, held, lookup, pair_for, points,
)

# --- actions on the state ----------------------------------------------------------------------
@njit
def take_tile(S, p, t, reserve, vals, extra_value):
    """Take type t from pile p (reserve it under a probe, R-A4, or collect it, R-A5/R-A6), then
    R-V1's reveal check. ``extra_value`` corrects to the expected value of an uncertain pile."""
    S[O_EXTRA] += extra_value
    S[O_TOUCHED] = int(S[O_TOUCHED]) | (1 << p)
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


@njit
def reveal_check(S, p):
    if S[O_REVEALED + p] == 0 and S[O_PTS + p] < 0.5:
        S[O_REVEALED + p] = 1.0
        S[O_REV] += S[O_SIZE + p]  # what is left is space tiles (R-V1)


@njit
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


@njit
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


@njit(inline="always")
def top(S, p, M, e, params, work):
    """expected_top of pile p with the tile values of table row e, from the table while
    the plan has not touched the pile (its contents are then the row's own)."""
    if (int(S[O_TOUCHED]) >> p) & 1:
        return expected_top(S, p, M[e, M_VALS:M_VALS + 10], params[Q_SECOND], work)
    if M[e, M_TOPOK + p] == 0:
        v1, v2 = expected_top(S, p, M[e, M_VALS:M_VALS + 10], params[Q_SECOND], work)
        M[e, M_TOP + 2 * p] = v1
        M[e, M_TOP + 2 * p + 1] = v2
        M[e, M_TOPOK + p] = 1.0
    return M[e, M_TOP + 2 * p], M[e, M_TOP + 2 * p + 1]


@njit
def collect_best(S, p, M, e, params, work):
    vals = M[e, M_VALS:M_VALS + 10]
    t = pick_tile(S, p, vals)
    if t < 0:
        reveal_check(S, p)
        return
    extra = 0.0
    if S[O_EXACT + p] == 0:
        v, _ = top(S, p, M, e, params, work)
        extra = v - vals[t]
    take_tile(S, p, t, False, vals, extra)


@njit(inline="always")
def res_weight(q, rscan, params):
    """Chance-like weight that a reservation on planet q is collected (R-A5 by anyone, R-E2):
    higher where a rival has scanned, as it may develop there."""
    return min(params[Q_RES] + params[Q_RES_RIVAL] * rscan[q], 0.95)


@njit(inline="always")
def gift(q, probes, n, params):
    """What developing q hands the rivals (R-A5 step 2), in the bot's relative points."""
    g = 0.0
    for r in range(1, n):
        g += probes[q, r]
    return g * params[Q_RIVAL_TILE] * params[Q_GIFT] * params[Q_RIVAL_W] / max(n - 1, 1)


@njit
def do_jump(S, s, q):
    S[O_USED] = int(S[O_USED]) | (1 << s)
    S[O_SHIP] = q
    S[O_SUPPLY] -= 1.0
    S[O_GATE] += 1.0


@njit
def do_fly(S, d):
    S[O_SHIP] = (int(S[O_SHIP]) + d) % 8


@njit
def do_scan(S, s, vals):
    S[O_USED] = int(S[O_USED]) | (1 << s)
    p = int(S[O_SHIP])
    S[O_TOUCHED] = int(S[O_TOUCHED]) | (1 << p)
    S[O_SCANNED + p] = 1.0
    if S[O_PTS + p] >= 0.5:
        t = pick_tile(S, p, vals)
        if t >= 0:
            take_tile(S, p, t, True, vals, 0.0)
            return
    reveal_check(S, p)  # R-A4b: a pile without point tiles shows its space tiles


@njit
def do_develop(S, pair, probes, n, M, share, kb, params, consts, work):
    S[O_USED] = int(S[O_USED]) | pair
    p = int(S[O_SHIP])
    S[O_TOUCHED] = int(S[O_TOUCHED]) | (1 << p)
    S[O_SUPPLY] -= 1.0
    S[O_STATION + p] = 0.0
    S[O_STAT] += 1.0
    for t in range(10):  # R-A5 step 2: reservations to the collection, probes home
        r = S[O_RES + p * 10 + t]
        S[O_COL + t] += r
        S[O_SUPPLY] += r
        S[O_RES + p * 10 + t] = 0.0
    S[O_GIFT] += gift(p, probes, n, params)
    e = lookup(M, work, S[O_COL:O_COL + 10], share, kb, consts, NTAB)
    collect_best(S, p, M, e, params, work)


@njit
def do_topup(S, mask, nh):
    S[O_USED] = int(S[O_USED]) | mask
    have = S[O_UNK]
    for s in range(nh):
        if held(S, s, nh):
            have += 1.0
    S[O_UNK] += max(5.0 - have, 0.0)


# --- evaluation -------------------------------------------------------------------------------
@njit(inline="always")
def plan_at(S, q, a, excl, sup, hand, nh, ring, probes, n, rscan, params, M, e, work, share, kb, consts):
    """Value of a turn with ``a`` actions on planet q (the cards used as a bitmask)."""
    v1, v2 = top(S, q, M, e, params, work)
    if a < 2:
        v2 = 0.0
    if S[O_STATION + q] >= 0:
        return v1 + v2, 0  # discover (R-A6)
    best = 0.0
    bmask = 0
    rw = res_weight(q, rscan, params)
    resgain = work[W_RES + q] * (1.0 - rw)  # the part of the reservations V does not count yet
    if work[W_RES + q] != 0:  # a develop's tiles join the reservations (not additive)
        for t in range(10):
            work[W_COL + t] = S[O_COL + t] + S[O_RES + q * 10 + t]
        d1, d2 = top(S, q, M, lookup(M, work, work[W_COL:W_COL + 10], share, kb, consts, NTAB + 1), params, work)
    else:
        d1, d2 = v1, v2
    if a < 2:
        d2 = 0.0
    # undiscounted: the potential is weighted by potential_discount, what the develop hands the
    # rivals is not (else waiting always looks cheaper than developing)
    g = gift(q, probes, n, params) / max(params[Q_GAMMA], 0.05)
    if S[O_SCANNED + q] > 0 and sup >= 1:
        pair = pair_for(S, hand, nh, ring, q, excl, -1, work)
        if pair != 0:
            best = 3.0 + resgain - g + d1 + d2
            bmask = pair
    if sup >= 1 and S[O_PTS + q] >= 0.5:
        sc = card(S, hand, nh, ring, q, 1, excl, work)
        if sc >= 0:
            v = rw * v1
            m = 1 << sc
            if a >= 2 and sup >= 2:
                pair = pair_for(S, hand, nh, ring, q, excl, sc, work)
                if pair != 0:
                    v = 3.0 + resgain - g + d1 + d2
                    m |= pair
            if v > best:
                best = v
                bmask = m
    return best, bmask


@njit(inline="always")
def potential(S, hand, nh, ring, probes, n, gate, present, rscan, params, consts, M, e, work, share, kb, g0):
    """The best next turn from here: stay, fly to a neighbour or jump, then act (plan_at);
    g0 is the state's gate_balance."""
    ship = int(S[O_SHIP])
    sup = S[O_SUPPLY]
    rw = params[Q_RIVAL_W]
    S[O_GATE] += 1.0
    jump_gain = gate_balance(S, gate, present, n, consts, rw) - g0 - params[Q_CHIP]
    S[O_GATE] -= 1.0
    best = 0.0
    bmask = 0
    touched = int(S[O_TOUCHED])
    used = int(S[O_USED]) & 31
    for k in range(24):  # per planet: stay (the ship's), fly (a neighbour), jump; one call site of plan_at
        q = k // 3
        kind = k - 3 * q
        if kind == 0 and q != ship:
            continue
        if kind == 1 and (q == ship or ship < 0 or (q != (ship + 1) % 8 and q != (ship + 7) % 8)):
            continue
        if kind == 2 and (q == ship or sup < 1):
            continue
        s = sup - 1 if kind == 2 else sup
        # plan_at (and the jump's card) read of S only planet q, the collection (table row e),
        # the cards used and whether s >= 1, >= 2: on a planet the plan has not touched they
        # are kept per row and key in work's W_PLANS (open addressing, row-stamped keys)
        slot = -1
        key = -1.0
        if e < NTAB and (touched >> q) & 1 == 0:
            key = ((((work[W_ROW] * NTAB + e) * 8 + q) * 3 + kind) * 3 + min(max(np.floor(s), 0.0), 2.0)) * 32 + used
            stale = work[W_ROW] * (NTAB * 8 * 3 * 3 * 32)
            h = int(key) * 0x9E3779B1
            for probe in range(8):
                x = W_PLANS + 4 * ((h + probe) & (NPLANS - 1))
                if work[x] == key or work[x] < stale:
                    slot = x
                    break
        if slot >= 0 and work[slot] == key:
            excl = int(work[slot + 3])
            if kind == 2 and excl < 0:
                continue
            v = work[slot + 1]
            m = int(work[slot + 2])
        else:
            excl = -1
            if kind == 2:
                excl = card(S, hand, nh, ring, q, 0, -1, work)
                if excl < 0:
                    if slot >= 0:
                        work[slot], work[slot + 3] = key, -1.0
                    continue
            v, m = plan_at(S, q, 2 if kind == 0 else 1, excl, s, hand, nh, ring, probes, n, rscan, params, M, e,
                           work, share, kb, consts)
            if slot >= 0:
                work[slot], work[slot + 1], work[slot + 2], work[slot + 3] = key, v, m, excl
        if kind == 2:
            v += jump_gain
            m |= 1 << excl
        if v > best:
            best, bmask = v, m
    return best, bmask


@njit
def evaluate(S, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work):
    """V of a state at the end of the bot's turn (relative points); also the cards the
    best next-turn plan uses (bitmask of hand slots)."""
    n = int(ctx[X_NP])
    nh = int(ctx[X_NHAND])
    col = S[O_COL:O_COL + 10]
    pc = points(col, consts)
    pts = pc + S[O_EXTRA] + consts[C_STATION] * S[O_STAT]
    gate[0] = S[O_GATE]
    mine = pts + gate_pts(gate, present, 0, consts)
    g0 = gate_balance(S, gate, present, n, consts, params[Q_RIVAL_W])
    base = pts + g0 - S[O_GIFT]
    if ctx[X_LAST] > 0:  # the bot's last turn: only points count (R-E1, R-E2, R-E3)
        return base, 0
    lead = mine - ctx[X_RIVALMAX]
    if S[O_REV] >= ctx[X_THRESH]:  # this turn ends the game with the round (R-E1)
        final = lead - ctx[X_AFTER] * params[Q_RIVAL_TURN]
        return base + params[Q_END_BONUS] * np.tanh(final / params[Q_END_SCALE]), 0
    kb = params[Q_BETA] * ctx[X_K]
    e = lookup(M, work, col, share, kb, consts, NTAB)
    f0 = M[e, M_F0]
    v = base + f0 - pc
    for p in range(8):  # reservations valued jointly per planet (set points are not additive)
        work[W_RES + p] = 0.0
        r = 0.0
        for t in range(10):
            work[W_COL + t] = col[t] + S[O_RES + p * 10 + t]
            r += S[O_RES + p * 10 + t]
        if r > 0:
            work[W_RES + p] = M[lookup(M, work, work[W_COL:W_COL + 10], share, kb, consts, NTAB + 1), M_F0] - f0
            v += work[W_RES + p] * res_weight(p, rscan, params)
    v += params[Q_CHIP] * min(S[O_SUPPLY], 12.0) + params[Q_CHIP_RESERVE] * min(S[O_SUPPLY], 2.0)
    pot, mask = potential(S, hand, nh, ring, probes, n, gate, present, rscan, params, consts, M, e, work, share, kb,
                          g0)
    v += params[Q_GAMMA] * pot
    for s in range(nh):
        if held(S, s, nh) and (mask >> s) & 1 == 0:
            v += flex(hand, s, params)
    v += S[O_UNK] * params[Q_UNK]
    v += params[Q_REVEAL_W] * (S[O_REV] - ctx[X_REV0]) * np.tanh(lead / params[Q_END_SCALE])
    return v, mask


# --- the batch kernel ------------------------------------------------------------------------
# An action of a plan: (kind, a, b). One apply function and few call sites of evaluate keep the
# compiled code (and numba's compile time) small.
K_TOPUP, K_JUMP, K_FLY, K_SCAN, K_DEVELOP, K_DISCOVER, K_TAKE = range(7)


@njit
def apply(S, kind, a, b, nh, probes, n, M, share, kb, params, consts, work):
    """Play one action on the model: top up (a = discard mask), jump (slot a to b), fly
    (direction a), scan (slot a), develop (slot mask a), discover, take tile a (b: reserve)."""
    if kind == K_TOPUP:
        do_topup(S, a, nh)
    elif kind == K_JUMP:
        do_jump(S, a, b)
    elif kind == K_FLY:
        do_fly(S, a)
    elif kind == K_DEVELOP:
        do_develop(S, a, probes, n, M, share, kb, params, consts, work)
    else:
        e = lookup(M, work, S[O_COL:O_COL + 10], share, kb, consts, NTAB)
        if kind == K_SCAN:
            do_scan(S, a, M[e, M_VALS:M_VALS + 10])
        elif kind == K_DISCOVER:
            collect_best(S, int(S[O_SHIP]), M, e, params, work)
        else:
            take_tile(S, int(S[O_SHIP]), a, b != 0, M[e, M_VALS:M_VALS + 10], 0.0)


@njit
def _followup(S1, S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work, cand):
    """The best V over the second actions the model allows after S1."""
    n = int(ctx[X_NP])
    nh = int(ctx[X_NHAND])
    kb = params[Q_BETA] * ctx[X_K]
    ship = int(S1[O_SHIP])
    sup = S1[O_SUPPLY]
    S2[:] = S1  # a top up that only draws; its next-turn plan names the cards worth keeping
    do_topup(S2, 0, nh)
    best, plan = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work)
    k = 0
    d = 0
    for s in range(nh):
        if held(S1, s, nh) and (plan >> s) & 1 == 0 and flex(hand, s, params) < params[Q_UNK]:
            d |= 1 << s
    if d != 0:
        cand[k, 0], cand[k, 1], cand[k, 2] = K_TOPUP, d, 0
        k += 1
    if ship >= 0:
        cand[k, 0], cand[k, 1], cand[k, 2] = K_FLY, 1, 0
        cand[k + 1, 0], cand[k + 1, 1], cand[k + 1, 2] = K_FLY, -1, 0
        k += 2
        if S1[O_STATION + ship] >= 0:
            if S1[O_PTS + ship] >= 0.5:
                cand[k, 0], cand[k, 1], cand[k, 2] = K_DISCOVER, 0, 0
                k += 1
        elif sup >= 1:
            if S1[O_SCANNED + ship] > 0:
                pair = pair_for(S1, hand, nh, ring, ship, -1, -1, work)
                if pair != 0:
                    cand[k, 0], cand[k, 1], cand[k, 2] = K_DEVELOP, pair, 0
                    k += 1
            if S1[O_PTS + ship] >= 0.5:
                sc = card(S1, hand, nh, ring, ship, 1, -1, work)
                if sc >= 0:
                    cand[k, 0], cand[k, 1], cand[k, 2] = K_SCAN, sc, 0
                    k += 1
    if sup >= 1:
        for q in range(8):
            if q != ship:
                cj = card(S1, hand, nh, ring, q, 0, -1, work)
                if cj >= 0:
                    cand[k, 0], cand[k, 1], cand[k, 2] = K_JUMP, cj, q
                    k += 1
    for j in range(k):
        S2[:] = S1
        apply(S2, cand[j, 0], cand[j, 1], cand[j, 2], nh, probes, n, M, share, kb, params, consts, work)
        v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work)
        best = max(best, v)
    return best


@njit
def _setup_row(i, scal, hand, ring, seat, scanned, planet, col, res, pres, est, seen, avail, params, consts, S0, ctx,
               gate, present, share, rscan):
    n = scal[i, F_NPLAYERS]
    S0[:] = 0.0
    S0[O_SHIP] = scal[i, F_SHIP]
    S0[O_SUPPLY] = seat[i, 0, S_SUPPLY]
    S0[O_GATE] = seat[i, 0, S_GATE]
    S0[O_REV] = scal[i, F_REVEALED]
    S0[O_STAT] = seat[i, 0, S_STATIONS]
    for t in range(10):
        S0[O_COL + t] = col[i, t]
    for p in range(8):
        S0[O_PTS + p] = planet[i, p, P_POINTS]
        S0[O_SIZE + p] = planet[i, p, P_SIZE]
        S0[O_STATION + p] = planet[i, p, P_OWNER]
        S0[O_SCANNED + p] = scanned[i, 0, p]
        S0[O_REVEALED + p] = planet[i, p, P_REVEALED]
        S0[O_EXACT + p] = planet[i, p, P_EXACT]
        rscan[p] = 0.0
        for r in range(1, n):
            if scanned[i, r, p] != 0:
                rscan[p] = 1.0
        for t in range(10):
            S0[O_RES + p * 10 + t] = res[i, p, t]
            S0[O_EST + p * 10 + t] = est[i, p, t]
            S0[O_PRES + p * 10 + t] = pres[i, p, t]
    ship = scal[i, F_SHIP]
    if scal[i, F_TILE] != 0 and ship >= 0:  # R-I3: the pile in view is known exactly
        tot = 0.0
        for t in range(10):
            S0[O_EST + ship * 10 + t] = seen[i, t]
            S0[O_PRES + ship * 10 + t] = 1.0 if seen[i, t] > 0 else 0.0
            tot += seen[i, t]
        S0[O_PTS + ship] = tot
        S0[O_SIZE + ship] = tot + seen[i, 10]
        S0[O_EXACT + ship] = 1.0
    tot = 0.0
    for t in range(10):
        tot += avail[i, t]
    for t in range(10):
        share[t] = avail[i, t] / tot if tot > 0 else 0.0
    for q in range(5):
        gate[q] = seat[i, q, S_GATE]
        present[q] = seat[i, q, S_PRESENT]
    to_end = scal[i, F_TO_END]
    rev = scal[i, F_REVEALED]
    ctx[:] = 0.0
    ctx[X_NP] = n
    ctx[X_THRESH] = rev + to_end if to_end > 0 else 1e9
    ctx[X_REV0] = rev
    ctx[X_LAST] = 1.0 if (scal[i, F_END] != 0 or scal[i, F_ROUNDS_LEFT] <= 0) else 0.0
    ctx[X_NHAND] = scal[i, F_NHAND]
    start = scal[i, F_START]
    me_k = (n - start) % n
    after = 0
    for r in range(1, n):
        if (r - start + n) % n > me_k:
            after += 1
    ctx[X_AFTER] = after
    ctx[X_K] = params[Q_FUTURE] * to_end / max(rev + to_end, 1)
    rmax = -1e9
    for r in range(1, n):
        est_r = gate_pts(gate, present, r, consts) + consts[0] * seat[i, r, S_STATIONS] \
            + params[Q_RIVAL_TILE] * seat[i, r, S_COLLECTED]
        rmax = max(rmax, est_r)
    ctx[X_RIVALMAX] = rmax


@njit
def heuristic_kernel(scal, hand_all, ring_all, seat, scanned, planet, col, res, pres, est, seen, avail, probes_all,
                     masks, dev_pairs, params, consts, salt, out, values):
    S0 = np.zeros(NSTATE)
    S1 = np.zeros(NSTATE)
    S2 = np.zeros(NSTATE)
    ctx = np.zeros(NCTX)
    gate = np.zeros(5)
    present = np.zeros(5)
    share = np.zeros(10)
    rscan = np.zeros(8)
    M = np.zeros((NTAB + 2, MW))
    work = np.zeros(NWORK)
    cand = np.zeros((32, 4), np.int64)  # first actions: kind, a, b, action id
    cand2 = np.zeros((32, 3), np.int64)
    for i in range(masks.shape[0]):
        first = -1
        for a in range(100):
            if masks[i, a]:
                first = a
                break
        out[i] = first
        if scal[i, F_OVER] != 0 or first < 0:
            continue
        hand = hand_all[i]
        ring = ring_all[i]
        probes = probes_all[i]
        _setup_row(i, scal, hand_all, ring_all, seat, scanned, planet, col, res, pres, est, seen, avail, params,
                   consts, S0, ctx, gate, present, share, rscan)
        work[W_NTAB] = 0.0  # a new row: new share and kb, new hand and ring
        work[W_ROW] = i + 1.0
        h = row_salt(salt, scal, hand_all, planet, col, i)
        nh = scal[i, F_NHAND]
        n = scal[i, F_NPLAYERS]
        kb = params[Q_BETA] * ctx[X_K]
        ship = scal[i, F_SHIP]
        more = scal[i, F_LEFT] >= 2
        k = 0
        if scal[i, F_TILE] != 0:
            for t in range(10):
                if masks[i, 90 + t]:
                    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_TAKE, t, scal[i, F_PENDING] == 1, 90 + t
                    k += 1
        else:
            # top ups: one that only draws, one that also discards what the next-turn plan does not use
            _, plan = evaluate(S0, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work)
            disc = 0
            for s in range(nh):
                if (plan >> s) & 1 == 0 and flex(hand, s, params) < params[Q_UNK]:
                    disc |= 1 << s
            for m in (0, disc):
                if masks[i, m] and (k == 0 or m != 0):
                    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_TOPUP, m, 0, m
                    k += 1
            for q in range(8):  # jumps: per destination the legal card that hurts least
                bs = -1
                bc = 1e9
                for s in range(nh):
                    if masks[i, 32 + 8 * s + q]:
                        c = card_cost(S0, hand, nh, ring, s, q, 0)
                        if c < bc:
                            bc = c
                            bs = s
                if bs >= 0:
                    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_JUMP, bs, q, 32 + 8 * bs + q
                    k += 1
            for a in (72, 73):
                if masks[i, a]:
                    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_FLY, 1 if a == 72 else -1, 0, a
                    k += 1
            bs = -1
            bc = 1e9
            for s in range(nh):
                if masks[i, 74 + s]:
                    c = card_cost(S0, hand, nh, ring, s, ship, 1)
                    if c < bc:
                        bc = c
                        bs = s
            if bs >= 0:
                cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_SCAN, bs, 0, 74 + bs
                k += 1
            for d in range(10):
                if masks[i, 79 + d]:
                    pair = (1 << dev_pairs[d, 0]) | (1 << dev_pairs[d, 1])
                    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_DEVELOP, pair, 0, 79 + d
                    k += 1
            if masks[i, 89]:
                cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3] = K_DISCOVER, 0, 0, 89
                k += 1
        best = -1e18
        for j in range(k):
            S1[:] = S0
            kind = cand[j, 0]
            apply(S1, kind, cand[j, 1], cand[j, 2], nh, probes, n, M, share, kb, params, consts, work)
            if more and kind != K_TOPUP:
                v = _followup(S1, S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work,
                              cand2)
            else:
                v, _ = evaluate(S1, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, M, work)
                if more:  # the top up leaves an action for the cards it draws
                    v += params[Q_TOPUP_FIRST]
            if kind == K_DEVELOP:  # keep jokers for later
                for s in range(nh):
                    if (cand[j, 1] >> s) & 1 and hand[s, 2] == 5:
                        v -= 0.05
            v += 1e-6 * noise(h, cand[j, 3])
            values[i, cand[j, 3]] = v
            if v > best:
                best = v
                out[i] = cand[j, 3]
