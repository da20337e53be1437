"""HeuristicAgent: a planning bot with a hand-made evaluation.

Each decision, the bot plans the rest of its turn (R-T2: one or two actions) on a model of
what it knows, and plays the first action of the best plan:

- **Plans.** Every legal first action (one card per kind and destination: the card whose
  other coordinates matter least; every develop pair; discover; both flies; a top up that
  keeps the cards of its next-turn plan and one that draws past all others) is applied to
  the model, then every second action the model allows. Tile choices inside the plan take
  the best tile of the pile as the bot knows it (its own last visit, R-I3, or the tiles it
  cannot place, for unseen piles).
- **Evaluation V** at the end of the turn, in points relative to the rivals:
  own points (R-P2..R-P7) plus a *set potential* (``set_potential`` x expected future tiles
  x the expected marginal of a next tile, so tiles that open or extend mineral and alien
  colour sets, matter pairs and water steps are worth more than their immediate points);
  jump-gate standing against the rivals' mean (R-P1); own reservations weighted by the
  chance they are collected (higher where a rival has scanned, so a rival develop is
  likely, or where the bot holds the landing pair itself); minus what a develop hands the
  rivals (their reservations there, R-A5 step 2); ``chip_value`` per chip in supply (up to
  12); ``potential_discount`` x the best *next turn* (stay, fly or jump to a planet, then
  discover twice, scan and develop, develop and discover, or scan); the cards that plan
  needs count there, the other held cards ``card_flex_value`` each, cards still to be drawn
  ``unknown_card_value`` each (so a top up discards what the plan does not need).
- **End condition** (R-E1): the bot compares its points with each rival's estimate (gate,
  stations, ``rival_tile_points`` per collected tile). A plan that reveals enough space
  tiles to end the game scores ``end_bonus`` x tanh(lead at the end / ``end_scale``), the
  lead reduced by ``rival_turn_points`` for every rival still to play in the round; short
  of that, each revealed space tile scores ``reveal_weight`` x tanh(lead / end_scale): it
  hurries the end when ahead and stalls it when behind. In its last turn (end triggered or
  round limit, R-E3) only points count, so it develops its reservations and cashes in.

Parameters are keyword arguments (defaults in ``DEFAULTS``); the bot is deterministic
given its seed, which only salts exact ties.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ._bot_features import (
    CONSTS,
    DEV_PAIRS,
    F_LEFT,
    F_NHAND,
    F_NPLAYERS,
    F_OVER,
    F_PENDING,
    F_REVEALED,
    F_ROUNDS_LEFT,
    F_SHIP,
    F_START,
    F_TILE,
    F_TO_END,
    F_END,
    P_EXACT,
    P_OWNER,
    P_POINTS,
    P_REVEALED,
    P_SIZE,
    S_COLLECTED,
    S_GATE,
    S_PRESENT,
    S_STATIONS,
    S_SUPPLY,
    BotBase,
    Features,
    noise,
    row_salt,
)
from ._heuristic_model import (
    NCTX,
    NSTATE,
    O_COL,
    O_EST,
    O_EXACT,
    O_GATE,
    O_PRES,
    O_PTS,
    O_RES,
    O_REV,
    O_REVEALED,
    O_SCANNED,
    O_SHIP,
    O_SIZE,
    O_STAT,
    O_STATION,
    O_SUPPLY,
    PARAM_NAMES,
    Q_BETA,
    Q_FUTURE,
    Q_RIVAL_TILE,
    Q_TOPUP_FIRST,
    Q_UNK,
    X_AFTER,
    X_K,
    X_LAST,
    X_NHAND,
    X_NP,
    X_REV0,
    X_RIVALMAX,
    X_THRESH,
    best_card,
    card_cost,
    do_develop,
    do_fly,
    do_jump,
    do_scan,
    do_topup,
    collect_best,
    evaluate,
    find_pair,
    flex,
    gate_pts,
    held,
    take_tile,
    tile_values,
)

DEFAULTS = {
    "set_potential": 0.3,  # weight of the expected marginal of future tiles (per future tile)
    "future_tiles": 8.0,  # tiles the bot still expects to collect at the start of a game
    "reservation_weight": 0.45,  # base chance a reservation is collected
    "reservation_rival_scanned": 0.2,  # added where a rival has scanned (it may develop)
    "reservation_self": 0.25,  # added where the bot has scanned and holds a landing pair
    "potential_discount": 0.7,  # weight of the best next-turn plan
    "rival_tile_points": 2.7,  # points per collected tile assumed for rivals
    "gift_weight": 1.0,  # weight of rival reservations a develop hands over
    "rival_weight": 1.0,  # weight of the rivals' (mean) gains against the bot's own
    "unknown_card_value": 1.0,  # a card still to be drawn
    "card_flex_value": 0.5,  # a held card outside the next-turn plan (x1.5 per joker)
    "chip_value": 0.3,  # a chip in supply (up to 12)
    "end_bonus": 12.0,  # ending the game (R-E1): x tanh(lead / end_scale)
    "end_scale": 8.0,  # points of lead that make the end (or a revealed tile) count fully
    "reveal_weight": 1.0,  # a revealed space tile short of the end: x tanh(lead / end_scale)
    "rival_turn_points": 5.0,  # a rival's expected gain in one more turn
    "topup_first_bonus": 1.0,  # a top up as first action leaves an action for the new cards
    "second_tile_factor": 0.8,  # second tile of an unseen pile, relative to the best
}
assert tuple(DEFAULTS) == PARAM_NAMES


@njit(cache=True)
def _followup(S1, S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work):
    """The best V over the second actions the model allows after S1."""
    n = int(ctx[X_NP])
    nh = int(ctx[X_NHAND])
    kb = params[Q_BETA] * ctx[X_K]
    ship = int(S1[O_SHIP])
    sup = S1[O_SUPPLY]
    best = -1e18
    # top up: draw only, then draw past the cards the next-turn plan does not need
    S2[:] = S1
    do_topup(S2, 0, nh)
    v, m = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
    best = max(best, v)
    d = 0
    for s in range(nh):
        if held(S1, s, nh) and (m >> s) & 1 == 0 and flex(hand, s, params) < params[Q_UNK]:
            d |= 1 << s
    if d != 0:
        S2[:] = S1
        do_topup(S2, d, nh)
        v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
        best = max(best, v)
    if ship >= 0:
        for dd in (1, -1):
            S2[:] = S1
            do_fly(S2, dd)
            v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
            best = max(best, v)
        if S1[O_STATION + ship] >= 0:
            if S1[O_PTS + ship] >= 0.5:
                S2[:] = S1
                tile_values(S2[O_COL:O_COL + 10], share, kb, consts, vals)
                collect_best(S2, ship, vals, params, work)
                v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
                best = max(best, v)
        elif sup >= 1:
            if S1[O_SCANNED + ship] > 0:
                pair = find_pair(S1, hand, nh, ring, ship, -1, -1)
                if pair != 0:
                    S2[:] = S1
                    do_develop(S2, pair, probes, n, vals, share, kb, params, consts, work)
                    v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals,
                                    work)
                    best = max(best, v)
            if S1[O_PTS + ship] >= 0.5:
                sc = best_card(S1, hand, nh, ring, ship, 1, ring[ship, 1], -1)
                if sc >= 0:
                    S2[:] = S1
                    tile_values(S2[O_COL:O_COL + 10], share, kb, consts, vals)
                    do_scan(S2, sc, vals)
                    v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals,
                                    work)
                    best = max(best, v)
    if sup >= 1:
        for q in range(8):
            if q == ship:
                continue
            cj = best_card(S1, hand, nh, ring, q, 0, ring[q, 0], -1)
            if cj >= 0:
                S2[:] = S1
                do_jump(S2, cj, q)
                v, _ = evaluate(S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
                best = max(best, v)
    return best


@njit(cache=True)
def _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work):
    if more:
        return _followup(S1, S2, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
    v, _ = evaluate(S1, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
    return v


@njit(cache=True)
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


@njit(cache=True)
def heuristic_kernel(scal, hand_all, ring_all, seat, scanned, planet, col, res, pres, est, seen, avail, probes_all,
                     masks, dev_pairs, params, consts, salt, out):
    n_rows = masks.shape[0]
    S0 = np.zeros(NSTATE)
    S1 = np.zeros(NSTATE)
    S2 = np.zeros(NSTATE)
    ctx = np.zeros(NCTX)
    gate = np.zeros(5)
    present = np.zeros(5)
    share = np.zeros(10)
    rscan = np.zeros(8)
    vals = np.zeros(10)
    work = np.zeros(10)
    for i in range(n_rows):
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
        h = row_salt(salt, scal, hand_all, planet, col, i)
        nh = scal[i, F_NHAND]
        n = scal[i, F_NPLAYERS]
        kb = params[Q_BETA] * ctx[X_K]
        ship = scal[i, F_SHIP]
        more = scal[i, F_LEFT] >= 2
        best = -1e18
        if scal[i, F_TILE] != 0:
            reserve = scal[i, F_PENDING] == 1
            for t in range(10):
                if not masks[i, 90 + t]:
                    continue
                S1[:] = S0
                tile_values(S1[O_COL:O_COL + 10], share, kb, consts, vals)
                take_tile(S1, ship, t, reserve, vals, 0.0)
                v = _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts,
                                vals, work) + 1e-6 * noise(h, t)
                if v > best:
                    best = v
                    out[i] = 90 + t
            continue
        # top ups: draw only; draw past the cards the next-turn plan does not need
        _, plan = evaluate(S0, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
        disc = 0
        for s in range(nh):
            if (plan >> s) & 1 == 0 and flex(hand, s, params) < params[Q_UNK]:
                disc |= 1 << s
        for k in range(2):
            a = 0 if k == 0 else disc
            if (k == 1 and disc == 0) or not masks[i, a]:
                continue
            S1[:] = S0
            do_topup(S1, a, nh)
            v, _ = evaluate(S1, ctx, hand, ring, probes, gate, present, share, rscan, params, consts, vals, work)
            if more:
                v += params[Q_TOPUP_FIRST]
            v += 1e-6 * noise(h, a)
            if v > best:
                best = v
                out[i] = a
        # jumps: per destination the legal card that hurts least
        for q in range(8):
            bs = -1
            bc = 1e9
            for s in range(nh):
                if masks[i, 32 + 8 * s + q]:
                    c = card_cost(S0, hand, nh, ring, s, q, 0)
                    if c < bc:
                        bc = c
                        bs = s
            if bs < 0:
                continue
            S1[:] = S0
            do_jump(S1, bs, q)
            v = _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts,
                            vals, work) + 1e-6 * noise(h, 32 + 8 * bs + q)
            if v > best:
                best = v
                out[i] = 32 + 8 * bs + q
        for a in (72, 73):
            if masks[i, a]:
                S1[:] = S0
                do_fly(S1, 1 if a == 72 else -1)
                v = _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts,
                                vals, work) + 1e-6 * noise(h, a)
                if v > best:
                    best = v
                    out[i] = a
        bs = -1
        bc = 1e9
        for s in range(nh):
            if masks[i, 74 + s]:
                c = card_cost(S0, hand, nh, ring, s, ship, 1)
                if c < bc:
                    bc = c
                    bs = s
        if bs >= 0:
            S1[:] = S0
            tile_values(S1[O_COL:O_COL + 10], share, kb, consts, vals)
            do_scan(S1, bs, vals)
            v = _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts,
                            vals, work) + 1e-6 * noise(h, 74 + bs)
            if v > best:
                best = v
                out[i] = 74 + bs
        for k in range(10):
            if masks[i, 79 + k]:
                S1[:] = S0
                do_develop(S1, (1 << dev_pairs[k, 0]) | (1 << dev_pairs[k, 1]), probes, n, vals, share, kb, params,
                           consts, work)
                v = _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts,
                                vals, work) + 1e-6 * noise(h, 79 + k)
                v -= 0.05 * ((hand[dev_pairs[k, 0], 2] == 5) + (hand[dev_pairs[k, 1], 2] == 5))  # keep jokers
                if v > best:
                    best = v
                    out[i] = 79 + k
        if masks[i, 89]:
            S1[:] = S0
            tile_values(S1[O_COL:O_COL + 10], share, kb, consts, vals)
            collect_best(S1, ship, vals, params, work)
            v = _plan_value(S1, S2, more, ctx, hand, ring, probes, gate, present, share, rscan, params, consts,
                            vals, work) + 1e-6 * noise(h, 89)
            if v > best:
                best = v
                out[i] = 89


class HeuristicAgent(BotBase):
    """Planning bot (see the module docstring). ``HeuristicAgent(seed=0, **params)`` with
    the parameters of ``DEFAULTS``; unknown names raise TypeError, non-finite values ValueError."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0, **params: float):
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise TypeError(f"HeuristicAgent got unknown parameters {unknown}; known: {sorted(DEFAULTS)}")
        merged = {**DEFAULTS, **params}
        for k, v in merged.items():
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v):
                raise ValueError(f"HeuristicAgent parameter {k} must be a finite number, got {v!r}")
        if merged["end_scale"] <= 0:
            raise ValueError(f"HeuristicAgent parameter end_scale must be > 0, got {merged['end_scale']!r}")
        self.params = merged
        self._params = np.array([merged[k] for k in PARAM_NAMES], dtype=np.float64)
        super().__init__(seed)

    def _decide(self, f: Features, masks: np.ndarray, out: np.ndarray) -> None:
        heuristic_kernel(f.scal, f.hand, f.ring, f.seat, f.scanned, f.planet, f.col, f.res, f.pres, f.est, f.seen,
                         f.avail, f.probes, masks, DEV_PAIRS, self._params, CONSTS, self._salt, out)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != DEFAULTS[k]}
        return f"HeuristicAgent({', '.join(f'{k}={v}' for k, v in changed.items())})"
