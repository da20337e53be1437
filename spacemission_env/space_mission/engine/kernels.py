"""numba kernels of the fast engine: setup, legality, step (bit-identical to rules/game.py).

Every kernel loops over the batch inside compiled code; per-game helpers take the
state arrays and a batch index ``b``. Component tables come in as arguments
(engine/state.py TABLES); structural sizes (hand 5, ring 8, 10 point types, the
action-id ranges of actions.py) are constants, as the action space depends on them.
Generator calls happen in exactly the reference order: setup shuffles planets,
tiles, cards, then (yucata) the start player; the top-up draw that takes the last
card reshuffles the discard pile at once (R-A1a; deferred while the discard pile is empty).
"""
from __future__ import annotations

import numpy as np
from ...engine_common import below, sample_legal, shuffle  # noqa: F401  (game-neutral kernels; api and determinize call them as K.*)
from ...jit import njit

from .. import actions as A
from ..components import HAND_SIZE, JOKER, NUM_CARDS, NUM_PLANETS, NUM_POINT_TYPES, NUM_TILE_TYPES, PILE_SIZE, RING_SIZE, SPACE


H = HAND_SIZE
R = RING_SIZE
NPT = NUM_POINT_TYPES
NTT = NUM_TILE_TYPES
SP = SPACE
JK = JOKER
TOPUP, JUMP, FLY, SCAN, DEVELOP, DISCOVER, TILE, NUM_ACTIONS = (
    A.TOPUP, A.JUMP, A.FLY, A.SCAN, A.DEVELOP, A.DISCOVER, A.TILE, A.NUM_ACTIONS)
DEV_A = np.array([p[0] for p in A.DEVELOP_PAIRS], dtype=np.int64)
DEV_B = np.array([p[1] for p in A.DEVELOP_PAIRS], dtype=np.int64)
NDEV = len(A.DEVELOP_PAIRS)


@njit
def sort_small(a, n):
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


# --- setup (R-S1..R-S5) -------------------------------------------------------------------
@njit
def init_games(select, seeds, rng, ring, piles, revealed, draw, draw_len, discard, discard_len, hand, hand_len,
               supply, gate_probes, ship, collection, scanned, last_seen, last_seen_round, reservations, stations,
               start_player, current_player, round_, actions_left, phase, pending, end_triggered, terminated,
               round_limit, turn_len, turn_kind, turn_target, turn_ncards, turn_cards, turn_tile,
               card_table, planet_coords, tile_counts, end_table, rules_id, chips):
    """(Re)initialise the games b with select[b]; identical to rules.new_game(seed=seeds[b])."""
    B = rng.shape[0]
    P = hand.shape[1]
    planets = np.empty(NUM_PLANETS, np.int8)
    ntiles = 0
    for t in range(NTT):
        ntiles += tile_counts[t]
    tiles = np.empty(ntiles, np.int8)
    for b in range(B):
        if not select[b]:
            continue
        rng[b] = seeds[b]
        # R-S1: shuffle the 12 planets; the first 8 form the ring
        for i in range(NUM_PLANETS):
            planets[i] = i
        shuffle(rng, b, planets, NUM_PLANETS)
        for p in range(R):
            ring[b, p] = planets[p]
        # R-S2: shuffle the 64 tiles; position p gets tiles[8p:8p+8]
        k = 0
        for t in range(NTT):
            for _ in range(tile_counts[t]):
                tiles[k] = t
                k += 1
        shuffle(rng, b, tiles, ntiles)
        piles[b, :, :] = 0
        for i in range(ntiles):
            piles[b, i // PILE_SIZE, tiles[i]] += 1
        # R-S4: shuffle the 60 cards; deal 5 to each seat from the top (end)
        for i in range(NUM_CARDS):
            draw[b, i] = i
        shuffle(rng, b, draw[b], NUM_CARDS)
        n = NUM_CARDS
        for q in range(P):
            for s in range(H):
                n -= 1
                hand[b, q, s] = draw[b, n]
            sort_small(hand[b, q], H)
            hand_len[b, q] = H
            supply[b, q] = chips
            gate_probes[b, q] = 0
            ship[b, q] = -1  # R-S3: on the jump gate
        draw_len[b] = n
        discard_len[b] = 0
        # R-S5 [variant]: yucata a random seat, schmidt seat 0
        sp = below(rng, b, P) if rules_id == 0 else 0
        start_player[b] = sp
        current_player[b] = sp
        revealed[b, :] = False
        collection[b] = 0
        scanned[b] = False
        last_seen[b] = 0
        last_seen_round[b] = 0
        reservations[b] = 0
        stations[b, :] = -1
        round_[b] = 1
        actions_left[b] = 2
        phase[b] = 0
        pending[b] = 0
        end_triggered[b] = False
        terminated[b] = False
        round_limit[b] = False
        clear_turns(b, turn_len, turn_kind, turn_target, turn_ncards, turn_cards, turn_tile)


# --- legality (R-A1..R-A6, R-T2) -----------------------------------------------------------
@njit
def matches(card_value, wanted):
    return card_value == wanted or card_value == JK


@njit
def has_point_tile(piles, b, p):
    for t in range(NPT):
        if piles[b, p, t] > 0:
            return True
    return False


@njit
def provides_landing(la, lb, l1, l2):
    """R-A5: the two cards provide the two landing coordinates, one each."""
    return (matches(la, l1) and matches(lb, l2)) or (matches(la, l2) and matches(lb, l1))


@njit
def mask_row(b, out, ring, piles, hand, hand_len, supply, ship, scanned, stations, current_player,
             phase, over, card_table, planet_coords):
    """Legal actions of game b into out[:NUM_ACTIONS] (all True once the game is over)."""
    if over:
        for a in range(NUM_ACTIONS):
            out[a] = True
        return
    out[:] = False
    q = current_player[b]
    pos = ship[b, q]
    if phase[b] == 1:  # tile decision: a point tile of that type lies in the pile
        for t in range(NPT):
            out[TILE + t] = piles[b, pos, t] > 0
        return
    hl = hand_len[b, q]
    out[TOPUP:TOPUP + (1 << hl)] = True  # R-A1: any subset of the held slots
    chip = supply[b, q] > 0
    if chip:  # R-A2: jump coordinate of another planet, a chip
        for s in range(hl):
            cj = card_table[hand[b, q, s], 0]
            base = JUMP + s * R
            for p in range(R):
                if p != pos and (cj == JK or cj == planet_coords[ring[b, p], 0]):
                    out[base + p] = True
    if pos < 0:
        return
    out[FLY] = True  # R-A3
    out[FLY + 1] = True
    planet = ring[b, pos]
    if stations[b, pos] < 0:
        if chip:  # R-A4; R-A4a: scanned before or not; R-A4b: whatever the pile holds
            for s in range(hl):
                if matches(card_table[hand[b, q, s], 1], planet_coords[planet, 1]):
                    out[SCAN + s] = True
        if chip and scanned[b, q, pos]:  # R-A5
            l1 = planet_coords[planet, 2]
            l2 = planet_coords[planet, 3]
            for i in range(NDEV):
                sb = DEV_B[i]
                if sb < hl and provides_landing(card_table[hand[b, q, DEV_A[i]], 2], card_table[hand[b, q, sb], 2], l1, l2):
                    out[DEVELOP + i] = True
    elif has_point_tile(piles, b, pos):  # R-A6
        out[DISCOVER] = True


@njit
def legal_mask(out, select, ring, piles, hand, hand_len, supply, ship, scanned, stations, current_player,
               phase, terminated, card_table, planet_coords):
    """Rows of games not in ``select`` are left as they are in ``out``."""
    for b in range(out.shape[0]):
        if not select[b]:
            continue
        mask_row(b, out[b], ring, piles, hand, hand_len, supply, ship, scanned, stations,
                 current_player, phase, terminated[b], card_table, planet_coords)


@njit
def first_illegal(actions, select, ring, piles, hand, hand_len, supply, ship, scanned, stations, current_player,
                  phase, terminated, card_table, planet_coords):
    """Index of the first selected running game whose action is not legal (any int64,
    out-of-range ids included), or -1. The conditions of mask_row for one id per game,
    written inline: a helper call per game taking these arrays costs ~20x the check."""
    for b in range(actions.shape[0]):
        if not select[b] or terminated[b]:
            continue
        a = actions[b]
        ok = False
        if 0 <= a < NUM_ACTIONS:
            q = current_player[b]
            pos = ship[b, q]
            hl = hand_len[b, q]
            if phase[b] == 1:  # tile decision: a point tile of that type in the pile
                ok = a >= TILE and piles[b, pos, a - TILE] > 0
            elif a >= TILE:
                ok = False
            elif a < JUMP:  # R-A1: a subset of the held slots
                ok = a - TOPUP < (1 << hl)
            elif a < FLY:  # R-A2: jump coordinate of another planet, a chip
                s = (a - JUMP) // R
                p = (a - JUMP) % R
                ok = (s < hl and p != pos and supply[b, q] > 0
                      and matches(card_table[hand[b, q, s], 0], planet_coords[ring[b, p], 0]))
            elif pos < 0:  # fly, scan, develop and discover need a planet
                ok = False
            elif a < SCAN:  # R-A3
                ok = True
            elif a < DEVELOP:  # R-A4; R-A4b: whatever the pile holds
                s = a - SCAN
                ok = (s < hl and stations[b, pos] < 0 and supply[b, q] > 0
                      and matches(card_table[hand[b, q, s], 1], planet_coords[ring[b, pos], 1]))
            elif a < DISCOVER:  # R-A5
                i = a - DEVELOP
                sb = DEV_B[i]
                planet = ring[b, pos]
                ok = (sb < hl and stations[b, pos] < 0 and scanned[b, q, pos] and supply[b, q] > 0
                      and provides_landing(card_table[hand[b, q, DEV_A[i]], 2], card_table[hand[b, q, sb], 2],
                                           planet_coords[planet, 2], planet_coords[planet, 3]))
            else:  # R-A6
                ok = stations[b, pos] >= 0 and has_point_tile(piles, b, pos)
        if not ok:
            return b
    return -1


# --- step (R-A1..R-A6, R-V1, R-T1, R-T2, R-E1, R-E3) ---------------------------------------
@njit
def play_cards(b, q, slot_mask, hand, hand_len, discard, discard_len):
    """Played/discarded cards go onto the discard pile in slot order; the hand stays sorted."""
    hl = hand_len[b, q]
    k = 0
    d = discard_len[b]
    for s in range(hl):
        c = hand[b, q, s]
        if (slot_mask >> s) & 1:
            discard[b, d] = c
            d += 1
        else:
            hand[b, q, k] = c
            k += 1
    discard_len[b] = d
    hand_len[b, q] = k


@njit
def reshuffle(b, rng, draw, draw_len, discard, discard_len):
    """R-A1a: the discard pile, shuffled, becomes the draw pile (rules/game.py reshuffle)."""
    n = discard_len[b]
    for i in range(n):
        draw[b, i] = discard[b, i]
    discard_len[b] = 0
    draw_len[b] = n
    shuffle(rng, b, draw[b], n)


@njit
def reveal(b, p, piles, revealed, end_triggered, end_table, P):
    """R-V1: turn the pile's space tiles face up; R-E1 watches the revealed count."""
    revealed[b, p] = True
    n = 0
    for i in range(R):
        if revealed[b, i]:
            n += piles[b, i, SP]
    if n >= end_table[P]:
        end_triggered[b] = True


@njit
def remember_visit(b, q, p, piles, last_seen, last_seen_round, round_):
    """R-I3: the pile as the player saw it after this visit, and the round."""
    for t in range(NTT):
        last_seen[b, q, p, t] = piles[b, p, t]
    last_seen_round[b, q, p] = round_[b]


@njit
def finish_action(b, P, start_player, current_player, round_, actions_left, end_triggered, terminated, round_limit,
                  max_rounds):
    """R-T2: two actions make a turn; R-T1 round end; R-E1 end; R-E3 end at the round limit."""
    actions_left[b] -= 1
    if actions_left[b] > 0:
        return
    cp = current_player[b]
    over = False
    if cp == (start_player[b] - 1) % P:
        if end_triggered[b]:
            terminated[b] = True
            over = True
        elif round_[b] >= max_rounds:  # R-E3: a real end, scored as at R-E1
            terminated[b] = True
            round_limit[b] = True
            over = True
        else:
            round_[b] += 1
    if not over:
        current_player[b] = (cp + 1) % P
        actions_left[b] = 2


@njit
def clear_turns(b, turn_len, turn_kind, turn_target, turn_ncards, turn_cards, turn_tile):
    turn_len[b] = 0
    turn_kind[b] = 0
    turn_target[b] = 0
    turn_ncards[b] = 0
    turn_cards[b] = 0
    turn_tile[b] = False


@njit
def record_turn(b, q, a, pos, hand, actions_left, turn_len, turn_kind, turn_target, turn_ncards, turn_cards,
                turn_tile):
    """R-I1 (rules/game.py record_turn): called before the action runs, its cards still in hand."""
    if a >= TILE:  # the tile decision: its action took a tile
        k = turn_len[b, q] - 1
        if k >= 0:
            turn_tile[b, q, k] = True
        return
    if actions_left[b] == 2:  # R-T2: the turn's first action starts a new record
        turn_len[b, q] = 0
        turn_kind[b, q] = 0
        turn_target[b, q] = 0
        turn_ncards[b, q] = 0
        turn_cards[b, q] = 0
        turn_tile[b, q] = False
    elif turn_len[b, q] == 0:  # the turn began before a schema 1/2 state was loaded: unknown, stays empty
        return
    k = turn_len[b, q]
    turn_len[b, q] = k + 1
    mask = 0
    if a < JUMP:  # top up: the discarded slots
        kind, target, mask = 0, -1, a - TOPUP
    elif a < FLY:
        kind, target, mask = 1, (a - JUMP) % R, 1 << ((a - JUMP) // R)
    elif a < SCAN:
        kind, target = 2, (pos + (1 if a == FLY else -1)) % R
    elif a < DEVELOP:
        kind, target, mask = 3, pos, 1 << (a - SCAN)
    elif a < DISCOVER:
        kind, target, mask = 4, pos, (1 << DEV_A[a - DEVELOP]) | (1 << DEV_B[a - DEVELOP])
    else:
        kind, target = 5, pos
    turn_kind[b, q, k] = kind
    turn_target[b, q, k] = target
    n = 0
    for s in range(H):
        if (mask >> s) & 1:
            turn_cards[b, q, k, n] = hand[b, q, s]
            n += 1
    turn_ncards[b, q, k] = n


@njit
def step_games(actions, select, rng, ring, piles, revealed, draw, draw_len, discard, discard_len, hand, hand_len,
               supply, gate_probes, ship, collection, scanned, last_seen, last_seen_round, reservations, stations,
               start_player, current_player, round_, actions_left, phase, pending, end_triggered, terminated,
               round_limit, turn_len, turn_kind, turn_target, turn_ncards, turn_cards, turn_tile,
               card_table, planet_coords, tile_counts, end_table, max_rounds):
    """Step every selected running game; returns -1, or, changing nothing, the index of
    the first such game whose action is not legal (out-of-range ids included)."""
    B = rng.shape[0]
    P = hand.shape[1]
    bad = first_illegal(actions, select, ring, piles, hand, hand_len, supply, ship, scanned, stations,
                        current_player, phase, terminated, card_table, planet_coords)
    if bad >= 0:  # first pass: validate, so a bad id can never touch the state
        return bad
    for b in range(B):
        if not select[b] or terminated[b]:
            continue  # unselected and finished games: no-op
        q = current_player[b]
        a = actions[b]
        pos = ship[b, q]
        record_turn(b, q, a, pos, hand, actions_left, turn_len, turn_kind, turn_target, turn_ncards, turn_cards,
                    turn_tile)
        done = True  # whether the action is complete (no tile decision follows)
        if a < JUMP:  # R-A1 top up
            play_cards(b, q, a - TOPUP, hand, hand_len, discard, discard_len)
            hl = hand_len[b, q]
            while hl < H:
                if draw_len[b] == 0:
                    if discard_len[b] == 0:
                        break  # R-A1a ruling: both piles empty, drawing stops short
                    reshuffle(b, rng, draw, draw_len, discard, discard_len)  # deferred (R-A1a ruling)
                n = draw_len[b] - 1
                draw_len[b] = n
                hand[b, q, hl] = draw[b, n]
                hl += 1
                if n == 0 and discard_len[b] > 0:
                    reshuffle(b, rng, draw, draw_len, discard, discard_len)  # R-A1a: used up, replaced at once
            hand_len[b, q] = hl
            sort_small(hand[b, q], hl)
        elif a < FLY:  # R-A2 jump
            s = (a - JUMP) // R
            play_cards(b, q, 1 << s, hand, hand_len, discard, discard_len)
            ship[b, q] = (a - JUMP) % R
            supply[b, q] -= 1
            gate_probes[b, q] += 1
        elif a < SCAN:  # R-A3 fly
            ship[b, q] = (pos + (1 if a == FLY else -1)) % R
        elif a < DEVELOP:  # R-A4 scan
            play_cards(b, q, 1 << (a - SCAN), hand, hand_len, discard, discard_len)
            scanned[b, q, pos] = True  # R-A4b scans count for R-A5 too
            if has_point_tile(piles, b, pos):
                phase[b] = 1
                pending[b] = 1
                done = False
            else:  # R-A4b: nothing taken, chip stays; face-down space tiles revealed (R-V1)
                if not revealed[b, pos]:
                    reveal(b, pos, piles, revealed, end_triggered, end_table, P)
                remember_visit(b, q, pos, piles, last_seen, last_seen_round, round_)
        elif a < DISCOVER:  # R-A5 develop
            i = a - DEVELOP
            play_cards(b, q, (1 << DEV_A[i]) | (1 << DEV_B[i]), hand, hand_len, discard, discard_len)
            supply[b, q] -= 1  # 1. station
            stations[b, pos] = q
            for o in range(P):  # 2. reservations to collections, probes home
                for t in range(NPT):
                    r = reservations[b, pos, o, t]
                    if r:
                        supply[b, o] += r
                        collection[b, o, t] += r
                        reservations[b, pos, o, t] = 0
            if has_point_tile(piles, b, pos):  # 3. a tile of choice
                phase[b] = 1
                pending[b] = 2
                done = False
            else:  # 4. reveal check
                if not revealed[b, pos]:
                    reveal(b, pos, piles, revealed, end_triggered, end_table, P)
                remember_visit(b, q, pos, piles, last_seen, last_seen_round, round_)
        elif a == DISCOVER:  # R-A6
            phase[b] = 1
            pending[b] = 3
            done = False
        else:  # tile decision of R-A4 / R-A5 / R-A6
            t = a - TILE
            piles[b, pos, t] -= 1
            if pending[b] == 1:
                supply[b, q] -= 1
                reservations[b, pos, q, t] += 1
            else:
                collection[b, q, t] += 1
            phase[b] = 0
            pending[b] = 0
            if not revealed[b, pos] and not has_point_tile(piles, b, pos):  # R-V1
                reveal(b, pos, piles, revealed, end_triggered, end_table, P)
            remember_visit(b, q, pos, piles, last_seen, last_seen_round, round_)
        if done:
            finish_action(b, P, start_player, current_player, round_, actions_left, end_triggered, terminated,
                          round_limit, max_rounds)
    return -1


# action-id boundaries of the kinds (actions.ACTION_KINDS order), for kind-uniform sampling
KIND_STARTS = np.array([TOPUP, JUMP, FLY, SCAN, DEVELOP, DISCOVER, TILE, NUM_ACTIONS], dtype=np.int64)


@njit
def sample_legal_by_kind(mask, u_kind, u_action, out):
    """out[b]: a legal action kind chosen uniformly among the kinds with a legal id,
    then an id uniformly within it (random play that does not favour top-up's 32 ids);
    -1 for a row with no legal action."""
    nk = KIND_STARTS.shape[0] - 1
    counts = np.zeros(nk, np.int64)
    for b in range(mask.shape[0]):
        kinds = 0
        for k in range(nk):
            c = 0
            for a in range(KIND_STARTS[k], KIND_STARTS[k + 1]):
                c += mask[b, a]
            counts[k] = c
            kinds += c > 0
        if kinds == 0:
            out[b] = -1
            continue
        pick = min(int(u_kind[b] * kinds), kinds - 1)
        for k in range(nk):
            if counts[k] == 0:
                continue
            if pick > 0:
                pick -= 1
                continue
            j = min(int(u_action[b] * counts[k]), counts[k] - 1)
            for a in range(KIND_STARTS[k], KIND_STARTS[k + 1]):
                if mask[b, a]:
                    if j == 0:
                        out[b] = a
                        break
                    j -= 1
            break
