"""GreedyAgent: one-ply greedy play on its own provisional score.

Every legal action gets its immediate gain in the bot's own provisional score:

- a tile (develop, discover): its marginal collection points (R-P3..R-P7); during a
  scan's tile decision (no points yet) the points it would add once collected;
- develop: the station (R-P2, +3), the bot's own reservations on the planet moving
  into its collection (R-A5 step 2), and the expected best tile of the pile;
- discover: the expected best tile of the pile (R-A6);
- jump: the change of its jump-gate points (R-P1) from the new probe;
- scan, fly, top up: nothing.

Ties (most of all the zero-gain actions) go to the more progress-making kind:
take > develop > discover > scan > a move (jump or fly) toward a useful planet >
a top up that draws, discarding the cards with no use > an idle fly > an idle top up.
A planet is *useful* if the bot could discover, develop or scan there next; a jump
pays a small cost for its card and chip, so an equally useful fly wins. Pile contents
come from the bot's own last visits (R-I3) or, for unseen piles, from the tiles it
cannot place. Remaining ties break by a hash of the seed and the observation, so the
bot is deterministic given its seed and ``act`` equals ``act_batch`` row by row.
"""
from __future__ import annotations

import numpy as np
from spacemission_env.jit import njit
from spacemission_env.space_mission.engine.kernels import matches, provides_landing

from ._bot_features import (
    C_GATE,
    C_MEDAL,
    C_PAIR,
    C_SINGLE,
    C_WATER,
    CONSTS,
    DEV_PAIRS,
    F_NHAND,
    F_OVER,
    F_PENDING,
    F_SHIP,
    F_TILE,
    P_OWNER,
    P_POINTS,
    S_GATE,
    S_PRESENT,
    S_SUPPLY,
    BotBase,
    Features,
    noise,
    row_salt,
)

# --- scoring helpers (R-P1..R-P7) ------------------------------------------------------------
@njit
def set_points(a, b, c, d):
    """R-P3/R-P4: tiles x count of the most numerous colour (unused colours pass 0)."""
    return (a + b + c + d) * max(max(a, b), max(c, d))


@njit
def water_points(w, consts):
    return (w // 4) * consts[C_WATER + 4] + consts[C_WATER + w % 4]


@njit
def collection_points(col, consts):
    """R-P3..R-P7 of a collection [10]."""
    g = col[6]
    b = col[7]
    pairs = min(g, b)
    return (set_points(col[0], col[1], col[2], col[3]) + set_points(col[4], col[5], 0, 0)
            + pairs * consts[C_PAIR] + (g + b - 2 * pairs) * consts[C_SINGLE]
            + water_points(col[8], consts) + col[9] * consts[C_MEDAL])


@njit
def marginal(col, t, consts):
    """Points one more tile of type t adds to the collection (R-P3..R-P7)."""
    before = collection_points(col, consts)
    col[t] += 1
    after = collection_points(col, consts)
    col[t] -= 1
    return after - before


@njit
def gate_points(gate, present, q, consts):
    """R-P1 points of seat q for probe counts gate[5] (competition ranks; none = 0)."""
    if gate[q] <= 0:
        return 0
    rank = 0
    for r in range(5):
        if present[r] != 0 and gate[r] > gate[q]:
            rank += 1
    if rank >= 4:
        return 0
    return consts[C_GATE + rank]


@njit
def expected_best(values, probs, n):
    """E[max value over the types present], types independent with probability probs[t]
    (0 when none is present)."""
    order = np.argsort(-values[:n])
    e = 0.0
    none_better = 1.0
    for k in range(n):
        t = order[k]
        if values[t] <= 0:
            break
        e += values[t] * probs[t] * none_better
        none_better *= 1.0 - probs[t]
    return e


# tie-break classes, best first (module docstring)
TAKE, DEVELOP, DISCOVER, SCAN, MOVE, DRAW, IDLE_FLY, IDLE = 7, 6, 5, 4, 3, 2, 1, 0
JUMP_COST = 0.5  # usefulness a jump gives up for its card and chip against a fly
SCAN_USE = 1.0  # usefulness of a planet where the bot can only scan


@njit
def _tile_values(col, probs, consts, out):
    for t in range(10):
        out[t] = marginal(col, t, consts)
    return expected_best(out, probs, 10)


@njit
def _planet_use(i, q, skip, supply, hand, nh, ring, planet, scanned, col, res, pres, consts, work, vals):
    """How useful standing on planet q would be with the hand minus slot ``skip``:
    the gain of discovering or developing there, SCAN_USE if only a scan is possible."""
    owner = planet[i, q, P_OWNER]
    if owner >= 0:
        if planet[i, q, P_POINTS] > 0:
            return _tile_values(col, pres[i, q], consts, vals)
        return 0.0
    best = 0.0
    if supply > 0 and scanned[i, 0, q] != 0:
        for a in range(nh):
            for b in range(a + 1, nh):
                if a != skip and b != skip and provides_landing(hand[i, a, 2], hand[i, b, 2], ring[i, q, 2], ring[i, q, 3]):
                    for t in range(10):
                        work[t] = col[t] + res[i, q, t]
                    best = 3.0 + collection_points(work, consts) - collection_points(col, consts)
                    best += _tile_values(work, pres[i, q], consts, vals)
                    return best
    if supply > 0 and planet[i, q, P_POINTS] > 0 and scanned[i, 0, q] == 0:
        for a in range(nh):
            if a != skip and matches(hand[i, a, 1], ring[i, q, 1]):
                return SCAN_USE
    return best


@njit
def _better(g, c, t, bg, bc, bt):
    if g > bg + 1e-9:
        return True
    if g < bg - 1e-9:
        return False
    if c != bc:
        return c > bc
    return t > bt


@njit
def greedy_kernel(scal, hand, ring, seat, scanned, planet, col_all, res, pres, masks, dev_pairs, consts, salt, out):
    n = masks.shape[0]
    col = np.zeros(10, np.int64)
    work = np.zeros(10, np.int64)
    vals = np.zeros(10)
    gate = np.zeros(5, np.int64)
    present = np.zeros(5, np.int64)
    use = np.zeros(8)
    for i in range(n):
        first = -1
        for a in range(100):
            if masks[i, a]:
                first = a
                break
        out[i] = first
        if scal[i, F_OVER] != 0 or first < 0:
            continue
        h = row_salt(salt, scal, hand, planet, col_all, i)
        for tile in range(10):
            col[tile] = col_all[i, tile]
        if scal[i, F_TILE] != 0:
            if scal[i, F_PENDING] == 1:  # a reservation: value it as if collected later
                for p in range(8):
                    for tile in range(10):
                        col[tile] += res[i, p, tile]
            best = -1e18
            for tile in range(10):
                if masks[i, 90 + tile]:
                    v = marginal(col, tile, consts) + 1e-3 * noise(h, tile)
                    if v > best:
                        best = v
                        out[i] = 90 + tile
            continue
        ship = scal[i, F_SHIP]
        nh = scal[i, F_NHAND]
        supply = seat[i, 0, S_SUPPLY]
        for q in range(5):
            gate[q] = seat[i, q, S_GATE]
            present[q] = seat[i, q, S_PRESENT]
        gate_now = gate_points(gate, present, 0, consts)
        gate[0] += 1
        jump_gain = gate_points(gate, present, 0, consts) - gate_now
        gate[0] -= 1
        for q in range(8):
            use[q] = _planet_use(i, q, -1, supply, hand, nh, ring, planet, scanned, col, res, pres, consts, work, vals)
        # cards with no part in a plan (the same plans as _planet_use): discarded by the drawing top up
        useless = 0
        for s in range(nh):
            used = False
            for q in range(8):
                if q != ship and use[q] > 0 and matches(hand[i, s, 0], ring[i, q, 0]):
                    used = True
                if planet[i, q, P_OWNER] >= 0:
                    continue
                can_scan = False
                for s2 in range(nh):
                    if matches(hand[i, s2, 1], ring[i, q, 1]):
                        can_scan = True
                if scanned[i, 0, q] == 0 and planet[i, q, P_POINTS] > 0 and matches(hand[i, s, 1], ring[i, q, 1]):
                    used = True
                if scanned[i, 0, q] != 0 or (planet[i, q, P_POINTS] > 0 and can_scan):
                    for s2 in range(nh):
                        if s2 != s and provides_landing(hand[i, s, 2], hand[i, s2, 2], ring[i, q, 2], ring[i, q, 3]):
                            used = True
            if ship < 0 and hand[i, s, 0] == 0:
                used = False  # on the jump gate only a jump leads anywhere (R-A3)
            if not used:
                useless |= 1 << s
        bg, bc, bt = -1e18, -1, -1e18
        for a in range(90):
            if not masks[i, a]:
                continue
            g = 0.0
            c = IDLE
            t = 0.0
            if a < 32:
                if a == useless and (a != 0 or nh < 5):
                    c = DRAW
                    t = 5.0 - nh
                else:
                    t = -1.0
                    for s in range(5):
                        t -= (a >> s) & 1
            elif a < 72:
                s = (a - 32) // 8
                q = (a - 32) % 8
                g = jump_gain
                u = _planet_use(i, q, s, supply - 1, hand, nh, ring, planet, scanned, col, res, pres, consts, work, vals)
                c = MOVE if u > 0 else IDLE
                t = u - JUMP_COST - 0.1 * (hand[i, s, 0] == 5)  # keep jokers
            elif a < 74:
                d = 1 if a == 72 else -1
                best_u = 0.0
                f = 1.0
                for k in range(1, 5):  # the nearest useful planet this way, discounted by distance
                    u = use[(ship + d * k) % 8] * f
                    if u > best_u:
                        best_u = u
                    f *= 0.5
                c = MOVE if use[(ship + d) % 8] > 0 else IDLE_FLY
                t = best_u
            elif a < 79:
                s = a - 74
                if planet[i, ship, P_POINTS] > 0:
                    c = IDLE_FLY
                    if scanned[i, 0, ship] == 0:
                        c = SCAN
                    else:
                        for b in range(nh):
                            for b2 in range(b + 1, nh):
                                if b != s and b2 != s and provides_landing(hand[i, b, 2], hand[i, b2, 2],
                                                                ring[i, ship, 2], ring[i, ship, 3]):
                                    c = SCAN
                    t = -0.1 * (hand[i, s, 1] == 5)
                else:  # R-A4b: a pile without point tiles gives nothing; worse than idling
                    t = -10.0
            elif a < 89:
                sa = dev_pairs[a - 79, 0]
                sb = dev_pairs[a - 79, 1]
                for t2 in range(10):
                    work[t2] = col[t2] + res[i, ship, t2]
                g = 3.0 + collection_points(work, consts) - collection_points(col, consts)
                g += _tile_values(work, pres[i, ship], consts, vals)
                c = DEVELOP
                t = -0.1 * ((hand[i, sa, 2] == 5) + (hand[i, sb, 2] == 5))
            else:
                g = _tile_values(col, pres[i, ship], consts, vals)
                c = DISCOVER
            t += 1e-3 * noise(h, a)
            if _better(g, c, t, bg, bc, bt):
                bg, bc, bt = g, c, t
                out[i] = a


class GreedyAgent(BotBase):
    """One-ply greedy bot (see the module docstring). ``GreedyAgent(seed=0)``: the seed
    only salts tie-breaks; play is deterministic given it."""

    name = "greedy"

    def _decide(self, f: Features, masks: np.ndarray, out: np.ndarray) -> None:
        greedy_kernel(f.scal, f.hand, f.ring, f.seat, f.scanned, f.planet, f.col, f.res, f.pres, masks, DEV_PAIRS,
                      CONSTS, self._salt, out)
