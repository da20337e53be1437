"""Observation kernel: the same int8 vector as encoding.observe, for a batch.

Block offsets come from encoding.observation_layout at run time (argument
``off``, in the order of _NAMES below), so the layout has one source.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import encoding as E
from ..components import HAND_SIZE, NUM_POINT_TYPES, NUM_TILE_TYPES, RING_SIZE, SPACE

_NAMES = (
    "tile_decision", "pending", "actions_left", "round", "rounds_left", "end_triggered", "game_over",
    "round_limit", "revealed_count", "revealed_to_end", "draw_pile_size", "discard_pile_size", "seat_present",
    "acting_seat", "start_seat", "ring_planet", "ring_jump", "ring_scan", "ring_landing", "pile_size", "revealed",
    "revealed_space", "station", "probes", "ship", "supply", "gate_probes", "hand_size", "collected", "scanned",
    "discard_cards", "own_hand", "own_collection", "own_reservations", "pile_seen", "last_visit_seen",
    "last_visit_age", "last_visit_pile",
    "seer_piles", "seer_draw_cards", "seer_hands", "seer_collections", "seer_reservations", "seer_last_visit_seen",
    "seer_last_visit_age", "seer_last_visit_pile",
)
(O_TILE, O_PENDING, O_ACTIONS, O_ROUND, O_TRUNC, O_END, O_OVER, O_ROUNDLIMIT, O_REVC, O_REVEND, O_DRAWN, O_DISCN,
 O_PRESENT, O_ACTING, O_START, O_PLANET, O_RJUMP, O_RSCAN, O_RLAND, O_PSIZE, O_REVEALED, O_RSPACE, O_STATION,
 O_PROBES, O_SHIP, O_SUPPLY, O_GATE, O_HSIZE, O_COLLECTED, O_SCANNED, O_DISCARD, O_HAND, O_OWNCOL, O_OWNRES,
 O_SEEN, O_LVSEEN, O_LVAGE, O_LVPILE,
 O_SPILES, O_SDRAW, O_SHANDS, O_SCOLS, O_SRES, O_SLVSEEN, O_SLVAGE, O_SLVPILE) = range(len(_NAMES))
S = E.S  # seats padded to MAX_PLAYERS
R = RING_SIZE
NPT = NUM_POINT_TYPES
NTT = NUM_TILE_TYPES
CF = E.CARD_FEATURES
CLIP = E.CLIP


def offsets(observation_type: str) -> np.ndarray:
    starts = {name: a for name, a, _, _ in E.observation_layout(observation_type)}
    return np.array([starts.get(n, -1) for n in _NAMES], dtype=np.int64)


@njit(cache=True)
def _card(row, k, card, card_table):
    for c in range(3):
        v = card_table[card, c]
        if v > 0:
            row[k + c * 5 + v - 1] = 1


@njit(cache=True)
def _last_visits(row, k_seen, k_age, k_pile, b, q, round_, last_seen, last_seen_round):
    for p in range(R):
        lr = last_seen_round[b, q, p]
        if lr > 0:
            row[k_seen + p] = 1
            row[k_age + p] = min(round_[b] - lr, CLIP)
            for t in range(NTT):
                row[k_pile + p * NTT + t] = last_seen[b, q, p, t]


@njit(cache=True)
def observe_games(out, players, off, seer, rules_id, max_rounds, ring, piles, revealed, draw, draw_len, discard,
                  discard_len, hand, hand_len, supply, gate_probes, ship, collection, scanned, last_seen,
                  last_seen_round, reservations, stations, start_player, current_player, round_, actions_left,
                  phase, pending, end_triggered, terminated, round_limit, card_table, planet_coords, end_table):
    B = out.shape[0]
    P = hand.shape[1]
    yucata = seer or rules_id == 0
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
        for i in range(discard_len[b]):
            row[off[O_DISCARD] + discard[b, i]] = 1
        for s in range(hand_len[b, me]):
            _card(row, off[O_HAND] + s * CF, hand[b, me, s], card_table)
        for t in range(NPT):
            row[off[O_OWNCOL] + t] = collection[b, me, t]
        if yucata:  # R-A4c
            for p in range(R):
                for t in range(NPT):
                    row[off[O_OWNRES] + p * NPT + t] = reservations[b, p, me, t]
        if phase[b] == 1 and cp == me:  # R-I3: the pile looked through now
            pos = ship[b, me]
            for t in range(NTT):
                row[off[O_SEEN] + t] = piles[b, pos, t]
        if yucata:  # R-I3 [variant] last-visit table
            _last_visits(row, off[O_LVSEEN], off[O_LVAGE], off[O_LVPILE], b, me, round_, last_seen, last_seen_round)
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
                _last_visits(row, off[O_SLVSEEN] + r * R, off[O_SLVAGE] + r * R, off[O_SLVPILE] + r * R * NTT,
                             b, q, round_, last_seen, last_seen_round)
