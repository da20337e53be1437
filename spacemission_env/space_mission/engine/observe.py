"""Observation kernel: the same int8 vector as encoding.observe, for a batch.

Block offsets come from encoding.observation_layout at run time (argument
``off``, in the order of _NAMES below), so the layout has one source.
"""
from __future__ import annotations

import numpy as np
from ...jit import njit

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
    # block offsets as locals: the int8 stores into `row` may alias any array as far as LLVM
    # can tell, so offsets read from `off` inside the loop would be reloaded after every store
    o_tile = off[O_TILE]
    o_pending = off[O_PENDING]
    o_actions = off[O_ACTIONS]
    o_round = off[O_ROUND]
    o_trunc = off[O_TRUNC]
    o_end = off[O_END]
    o_over = off[O_OVER]
    o_roundlimit = off[O_ROUNDLIMIT]
    o_revc = off[O_REVC]
    o_revend = off[O_REVEND]
    o_drawn = off[O_DRAWN]
    o_discn = off[O_DISCN]
    o_present = off[O_PRESENT]
    o_acting = off[O_ACTING]
    o_start = off[O_START]
    o_planet = off[O_PLANET]
    o_rjump = off[O_RJUMP]
    o_rscan = off[O_RSCAN]
    o_rland = off[O_RLAND]
    o_psize = off[O_PSIZE]
    o_revealed = off[O_REVEALED]
    o_rspace = off[O_RSPACE]
    o_station = off[O_STATION]
    o_probes = off[O_PROBES]
    o_ship = off[O_SHIP]
    o_supply = off[O_SUPPLY]
    o_gate = off[O_GATE]
    o_hsize = off[O_HSIZE]
    o_collected = off[O_COLLECTED]
    o_scanned = off[O_SCANNED]
    o_visited = off[O_VISITED]
    o_vage = off[O_VAGE]
    o_tkind = off[O_TKIND]
    o_ttarget = off[O_TTARGET]
    o_ttile = off[O_TTILE]
    o_tcards = off[O_TCARDS]
    o_discard = off[O_DISCARD]
    o_hand = off[O_HAND]
    o_owncol = off[O_OWNCOL]
    o_seen = off[O_SEEN]
    o_ownres = off[O_OWNRES]
    o_lvpile = off[O_LVPILE]
    o_spiles = off[O_SPILES]
    o_sdraw = off[O_SDRAW]
    o_shands = off[O_SHANDS]
    o_scols = off[O_SCOLS]
    o_sres = off[O_SRES]
    o_slvpile = off[O_SLVPILE]
    P = hand.shape[1]
    seer = mode == MODE_SEER
    full = mode != MODE_INFO or rules_id == 0  # yucata table view, or perfect recall (R-A4c, R-I3, R-I5)
    for b in range(B):
        row = out[b]
        row[:] = 0
        me = players[b]
        cp = current_player[b]
        row[o_tile] = phase[b]
        if pending[b] > 0:
            row[o_pending + pending[b] - 1] = 1
        row[o_actions] = actions_left[b]
        rd = round_[b]
        row[o_round] = min(rd, CLIP)
        row[o_trunc] = min(max(max_rounds - rd, 0), CLIP)
        row[o_end] = end_triggered[b]
        row[o_over] = terminated[b]
        row[o_roundlimit] = round_limit[b]
        rc = 0
        for p in range(R):
            if revealed[b, p]:
                rc += piles[b, p, SPACE]
        row[o_revc] = rc
        row[o_revend] = max(end_table[P] - rc, 0)
        row[o_drawn] = draw_len[b]
        row[o_discn] = discard_len[b]
        for r in range(P):
            row[o_present + r] = 1
        row[o_acting + (cp - me) % P] = 1
        row[o_start + (start_player[b] - me) % P] = 1
        for p in range(R):
            planet = ring[b, p]
            row[o_planet + p] = planet
            row[o_rjump + p * 4 + planet_coords[planet, 0] - 1] = 1
            row[o_rscan + p * 4 + planet_coords[planet, 1] - 1] = 1
            row[o_rland + p * 4 + planet_coords[planet, 2] - 1] += 1
            row[o_rland + p * 4 + planet_coords[planet, 3] - 1] += 1
            tot = 0
            for t in range(NTT):
                tot += piles[b, p, t]
            row[o_psize + p] = tot
            if revealed[b, p]:
                row[o_revealed + p] = 1
                row[o_rspace + p] = piles[b, p, SPACE]
            st = stations[b, p]
            if st >= 0:
                row[o_station + p * S + (st - me) % P] = 1
            for q in range(P):
                n = 0
                for t in range(NPT):
                    n += reservations[b, p, q, t]
                row[o_probes + p * S + (q - me) % P] = n
        for q in range(P):
            r = (q - me) % P
            if ship[b, q] >= 0:
                row[o_ship + r * R + ship[b, q]] = 1
            row[o_supply + r] = supply[b, q]
            row[o_gate + r] = gate_probes[b, q]
            row[o_hsize + r] = hand_len[b, q]
            n = 0
            for t in range(NPT):
                n += collection[b, q, t]
            row[o_collected + r] = n
            for p in range(R):
                row[o_scanned + r * R + p] = scanned[b, q, p]
                lr = last_seen_round[b, q, p]
                if lr > 0:  # R-I1: who looked through which pile, and when
                    row[o_visited + r * R + p] = 1
                    row[o_vage + r * R + p] = min(rd - lr, CLIP)
            for k in range(turn_len[b, q]):  # R-I1: every action is taken openly
                row[o_tkind + (r * 2 + k) * NK + turn_kind[b, q, k]] = 1
                if turn_target[b, q, k] >= 0:
                    row[o_ttarget + (r * 2 + k) * R + turn_target[b, q, k]] = 1
                row[o_ttile + r * 2 + k] = turn_tile[b, q, k]
                for i in range(turn_ncards[b, q, k]):
                    row[o_tcards + (r * 2 + k) * NC + turn_cards[b, q, k, i]] = 1
        for i in range(discard_len[b]):
            row[o_discard + discard[b, i]] = 1
        for s in range(hand_len[b, me]):
            _card(row, o_hand + s * CF, hand[b, me, s], card_table)
        for t in range(NPT):
            row[o_owncol + t] = collection[b, me, t]
        if phase[b] == 1 and cp == me:  # R-I3: the pile looked through now
            pos = ship[b, me]
            for t in range(NTT):
                row[o_seen + t] = piles[b, pos, t]
        if full:  # own reservation types (R-A4c) and the last-visit table (R-I3, R-I5)
            for p in range(R):
                for t in range(NPT):
                    row[o_ownres + p * NPT + t] = reservations[b, p, me, t]
            _last_visit_piles(row, o_lvpile, b, me, last_seen, last_seen_round)
        if seer:
            for p in range(R):
                for t in range(NTT):
                    row[o_spiles + p * NTT + t] = piles[b, p, t]
            for i in range(draw_len[b]):
                row[o_sdraw + draw[b, i]] = 1
            for q in range(P):
                r = (q - me) % P
                for s in range(hand_len[b, q]):
                    _card(row, o_shands + (r * HAND_SIZE + s) * CF, hand[b, q, s], card_table)
                for t in range(NPT):
                    row[o_scols + r * NPT + t] = collection[b, q, t]
                for p in range(R):
                    for t in range(NPT):
                        row[o_sres + (p * S + r) * NPT + t] = reservations[b, p, q, t]
                _last_visit_piles(row, o_slvpile + r * R * NTT, b, q, last_seen, last_seen_round)
