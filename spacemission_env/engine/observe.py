"""Observation kernel: the same int8 vector as encoding.observe, for a batch.

Block offsets come from encoding.observation_layout at run time (argument
``off``, in the order of _NAMES below), so the layout has one source.
"""
from __future__ import annotations

import numpy as np
from .jit import njit

from .. import encoding as E
from ..components import HAND_SIZE, NUM_POINT_TYPES, NUM_TILE_TYPES, RING_SIZE, SPACE

_NAMES = (
    "tile_decision", "pending", "actions_left", "round", "rounds_left", "end_triggered", "game_over",
    "round_limit", "revealed_count", "revealed_to_end", "draw_pile_size", "discard_pile_size", "seat_present",
    "acting_seat", "start_seat", "ring_planet", "ring_jump", "ring_scan", "ring_landing", "pile_size", "revealed",
    "revealed_space", "station", "probes", "ship", "supply", "gate_probes", "hand_size", "collected", "scanned",
    "visited", "visit_age", "last_turn_kind", "last_turn_target", "last_turn_tile", "last_turn_cards",
    "discard_cards", "own_hand", "own_collection", "own_reservations", "pile_seen", "last_visit_pile",
    "seer_piles", "seer_draw_cards", "seer_hands", "seer_collections", "seer_reservations", "seer_last_visit_pile",
)
(O_TILE, O_PENDING, O_ACTIONS, O_ROUND, O_TRUNC, O_END, O_OVER, O_ROUNDLIMIT, O_REVC, O_REVEND, O_DRAWN, O_DISCN,
 O_PRESENT, O_ACTING, O_START, O_PLANET, O_RJUMP, O_RSCAN, O_RLAND, O_PSIZE, O_REVEALED, O_RSPACE, O_STATION,
 O_PROBES, O_SHIP, O_SUPPLY, O_GATE, O_HSIZE, O_COLLECTED, O_SCANNED,
 O_VISITED, O_VAGE, O_TKIND, O_TTARGET, O_TTILE, O_TCARDS,
 O_DISCARD, O_HAND, O_OWNCOL, O_OWNRES, O_SEEN, O_LVPILE,
 O_SPILES, O_SDRAW, O_SHANDS, O_SCOLS, O_SRES, O_SLVPILE) = range(len(_NAMES))
MODE_INFO, MODE_RECALL, MODE_SEER = (E.OBSERVATION_TYPES.index(t) for t in ("info", "recall", "seer"))
S = E.S  # seats padded to MAX_PLAYERS
R = RING_SIZE
NPT = NUM_POINT_TYPES
NTT = NUM_TILE_TYPES
CF = E.CARD_FEATURES
CLIP = E.CLIP
NK = E.NK
NC = E.NUM_CARDS


def offsets(observation_type: str) -> np.ndarray:
    starts = {name: a for name, a, _, _ in E.observation_layout(observation_type)}
    return np.array([starts.get(n, -1) for n in _NAMES], dtype=np.int64)


@njit
def _card(row, k, card, card_table):
    for c in range(3):
        v = card_table[card, c]
        if v > 0:
            row[k + c * 5 + v - 1] = 1


@njit
def _last_visit_piles(row, k_pile, b, q, last_seen, last_seen_round):
    for p in range(R):
        if last_seen_round[b, q, p] > 0:
            for t in range(NTT):
                row[k_pile + p * NTT + t] = last_seen[b, q, p, t]


@njit
def observe_games(out, players, off, mode, rules_id, max_rounds, ring, piles, revealed, draw, draw_len, discard,
                  discard_len, hand, hand_len, supply, gate_probes, ship, collection, scanned, last_seen,
                  last_seen_round, reservations, stations, start_player, current_player, round_, actions_left,
                  phase, pending, end_triggered, terminated, round_limit, turn_len, turn_kind, turn_target,
                  turn_ncards, turn_cards, turn_tile, card_table, planet_coords, end_table):
    B = out.shape[0]
    P = hand.shape[1]
    seer = mode == MODE_SEER
    full = mode != MODE_INFO or rules_id == 0  # yucata table view, or perfect recall (R-A4c, R-I3, R-I5)
    for b in range(B):
        row = out[b]
        row[:] = 0
        me = players[b]
        cp = current_player[b]
        row[off[O_TILE]] = phase[b]
        if pending[b] > 0:
            row[off[O_PENDING] + pending[b] - 1] = 1
        row[off[O_ACTIONS]] = actions_left[b]
        rd = round_[b]
        row[off[O_ROUND]] = min(rd, CLIP)
        row[off[O_TRUNC]] = min(max(max_rounds - rd, 0), CLIP)
        row[off[O_END]] = end_triggered[b]
        row[off[O_OVER]] = terminated[b]
        row[off[O_ROUNDLIMIT]] = round_limit[b]
        rc = 0
        for p in range(R):
            if revealed[b, p]:
                rc += piles[b, p, SPACE]
        row[off[O_REVC]] = rc
        row[off[O_REVEND]] = max(end_table[P] - rc, 0)
        row[off[O_DRAWN]] = draw_len[b]
        row[off[O_DISCN]] = discard_len[b]
        for r in range(P):
            row[off[O_PRESENT] + r] = 1
        row[off[O_ACTING] + (cp - me) % P] = 1
        row[off[O_START] + (start_player[b] - me) % P] = 1
        for p in range(R):
            planet = ring[b, p]
            row[off[O_PLANET] + p] = planet
            row[off[O_RJUMP] + p * 4 + planet_coords[planet, 0] - 1] = 1
            row[off[O_RSCAN] + p * 4 + planet_coords[planet, 1] - 1] = 1
            row[off[O_RLAND] + p * 4 + planet_coords[planet, 2] - 1] += 1
            row[off[O_RLAND] + p * 4 + planet_coords[planet, 3] - 1] += 1
            tot = 0
            for t in range(NTT):
                tot += piles[b, p, t]
            row[off[O_PSIZE] + p] = tot
            if revealed[b, p]:
                row[off[O_REVEALED] + p] = 1
                row[off[O_RSPACE] + p] = piles[b, p, SPACE]
            st = stations[b, p]
            if st >= 0:
                row[off[O_STATION] + p * S + (st - me) % P] = 1
            for q in range(P):
                n = 0
                for t in range(NPT):
                    n += reservations[b, p, q, t]
                row[off[O_PROBES] + p * S + (q - me) % P] = n
        for q in range(P):
            r = (q - me) % P
            if ship[b, q] >= 0:
                row[off[O_SHIP] + r * R + ship[b, q]] = 1
            row[off[O_SUPPLY] + r] = supply[b, q]
            row[off[O_GATE] + r] = gate_probes[b, q]
            row[off[O_HSIZE] + r] = hand_len[b, q]
            n = 0
            for t in range(NPT):
                n += collection[b, q, t]
            row[off[O_COLLECTED] + r] = n
            for p in range(R):
                row[off[O_SCANNED] + r * R + p] = scanned[b, q, p]
                lr = last_seen_round[b, q, p]
                if lr > 0:  # R-I1: who looked through which pile, and when
                    row[off[O_VISITED] + r * R + p] = 1
                    row[off[O_VAGE] + r * R + p] = min(rd - lr, CLIP)
            for k in range(turn_len[b, q]):  # R-I1: every action is taken openly
                row[off[O_TKIND] + (r * 2 + k) * NK + turn_kind[b, q, k]] = 1
                if turn_target[b, q, k] >= 0:
                    row[off[O_TTARGET] + (r * 2 + k) * R + turn_target[b, q, k]] = 1
                row[off[O_TTILE] + r * 2 + k] = turn_tile[b, q, k]
                for i in range(turn_ncards[b, q, k]):
                    row[off[O_TCARDS] + (r * 2 + k) * NC + turn_cards[b, q, k, i]] = 1
        for i in range(discard_len[b]):
            row[off[O_DISCARD] + discard[b, i]] = 1
        for s in range(hand_len[b, me]):
            _card(row, off[O_HAND] + s * CF, hand[b, me, s], card_table)
        for t in range(NPT):
            row[off[O_OWNCOL] + t] = collection[b, me, t]
        if phase[b] == 1 and cp == me:  # R-I3: the pile looked through now
            pos = ship[b, me]
            for t in range(NTT):
                row[off[O_SEEN] + t] = piles[b, pos, t]
        if full:  # own reservation types (R-A4c) and the last-visit table (R-I3, R-I5)
            for p in range(R):
                for t in range(NPT):
                    row[off[O_OWNRES] + p * NPT + t] = reservations[b, p, me, t]
            _last_visit_piles(row, off[O_LVPILE], b, me, last_seen, last_seen_round)
        if seer:
            for p in range(R):
                for t in range(NTT):
                    row[off[O_SPILES] + p * NTT + t] = piles[b, p, t]
            for i in range(draw_len[b]):
                row[off[O_SDRAW] + draw[b, i]] = 1
            for q in range(P):
                r = (q - me) % P
                for s in range(hand_len[b, q]):
                    _card(row, off[O_SHANDS] + (r * HAND_SIZE + s) * CF, hand[b, q, s], card_table)
                for t in range(NPT):
                    row[off[O_SCOLS] + r * NPT + t] = collection[b, q, t]
                for p in range(R):
                    for t in range(NPT):
                        row[off[O_SRES] + (p * S + r) * NPT + t] = reservations[b, p, q, t]
                _last_visit_piles(row, off[O_SLVPILE] + r * R * NTT, b, q, last_seen, last_seen_round)
