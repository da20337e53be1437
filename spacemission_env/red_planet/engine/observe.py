"""Observation kernel: the same int8 vector as red_planet/encoding.py ``observe``, for a
batch (M-I1..M-I5). Block offsets come from encoding's layout (the seer layout starts
with the info/recall blocks, so one table serves the three types), as module constants
``O_<BLOCK>``."""
from __future__ import annotations

import numpy as np

from ...jit import njit
from .. import encoding as E
from ..components import MINERAL_TOKENS, NUM_MINERALS, NUM_SHIPS
from .core import (
    IS_BONUS_T,
    NE,
    NONE,
    NR,
    PH_OVER,
    SHIP_CAP_T,
    SHIP_DEST_T,
    Z,
)
from .state import (
    F_ACTED,
    F_AIRBORNE,
    F_AIRBORNE_LEN,
    F_BONUS,
    F_BONUS_LEN,
    F_COMMIT,
    F_COUNTERS,
    F_CREW,
    F_CURRENT_PLAYER,
    F_DISCOVERY,
    F_DISCOVERY_OWNER,
    F_DRAWN,
    F_EVENT_PILE,
    F_EVENT_PILE_LEN,
    F_HAND,
    F_LAST_ACTOR,
    F_LEFTOVER,
    F_LISM,
    F_LOOKED,
    F_MARS,
    F_MINERAL,
    F_MINERAL_POOL,
    F_MINERAL_POOL_LEN,
    F_PENDING_SLOT,
    F_PHASE,
    F_PLACED_LEN,
    F_PLACED_SLOTS,
    F_PLAYER_COUNT,
    F_REMOVED,
    F_REMOVED_CARDS,
    F_REMOVED_CARDS_LEN,
    F_ROLE,
    F_ROUND,
    F_SEEN,
    F_SET_ASIDE,
    F_SET_ASIDE_LEN,
    F_SETUP_HAND,
    F_SETUP_HAND_LEN,
    F_SHIP_DECK,
    F_SHIP_DECK_LEN,
    F_SLOTS,
    F_START_PLAYER,
    F_STEPS_LEFT,
    F_SUPPLY,
    F_TOKEN,
    F_TOKEN_SUPPLY,
    F_USED_SHIPS,
    F_USED_SHIPS_LEN,
    NB,
    PAD,
    SETUP_CARDS,
)

MODE_INFO, MODE_RECALL, MODE_SEER = (E.OBSERVATION_TYPES.index(t) for t in ("info", "recall", "seer"))
_START = {name: a for name, a, _b, _m in E.observation_layout("seer")}
O_PHASE = _START["phase"]
O_ROLE = _START["role"]
O_PLACED = _START["placed"]
O_STEPS_LEFT = _START["steps_left"]
O_PENDING_SLOT = _START["pending_slot"]
O_DRAWN = _START["drawn"]
O_ROUND = _START["round"]
O_OWN_COLOUR = _START["own_colour"]
O_SEAT_PRESENT = _START["seat_present"]
O_ACTING_SEAT = _START["acting_seat"]
O_START_SEAT = _START["start_seat"]
O_LAST_ACTOR = _START["last_actor"]
O_SUPPLY = _START["supply"]
O_LISM = _START["lism"]
O_REMOVED = _START["removed"]
O_COUNTERS = _START["counters"]
O_BONUS_COUNT = _START["bonus_count"]
O_ROLES_LEFT = _START["roles_left"]
O_REVEALED_ROLE = _START["revealed_role"]
O_ACTED = _START["acted"]
O_MARS = _START["mars"]
O_MINERAL = _START["mineral"]
O_LEFTOVER = _START["leftover"]
O_DISCOVERY_PRESENT = _START["discovery_present"]
O_DISCOVERY_OWNER = _START["discovery_owner"]
O_LOOKED = _START["looked"]
O_TOKEN_SUPPLY = _START["token_supply"]
O_SLOT_SHIP = _START["slot_ship"]
O_SLOT_AIRBORNE = _START["slot_airborne"]
O_SLOT_LAUNCH_ORDER = _START["slot_launch_order"]
O_SLOT_CAPACITY = _START["slot_capacity"]
O_SLOT_FREE = _START["slot_free"]
O_SLOT_HAND_PILOTED = _START["slot_hand_piloted"]
O_SLOT_TOKEN = _START["slot_token"]
O_SLOT_DESTINATION = _START["slot_destination"]
O_SLOT_CREW = _START["slot_crew"]
O_USED_SHIPS = _START["used_ships"]
O_SHIP_DECK_SIZE = _START["ship_deck_size"]
O_EVENT_PILE_SIZE = _START["event_pile_size"]
O_REMOVED_CARDS_COUNT = _START["removed_cards_count"]
O_MINERAL_POOL = _START["mineral_pool"]
O_MINERAL_POOL_SIZE = _START["mineral_pool_size"]
O_OWN_BONUS = _START["own_bonus"]
O_OWN_COMMIT = _START["own_commit"]
O_OWN_SETUP_HAND = _START["own_setup_hand"]
O_KNOWN_DISCOVERY = _START["known_discovery"]
O_SEEN_CARDS = _START["seen_cards"]
O_SEER_COMMIT = _START["seer_commit"]
O_SEER_BONUS = _START["seer_bonus"]
O_SEER_SETUP_HAND = _START["seer_setup_hand"]
O_SEER_SEEN = _START["seer_seen"]
O_SEER_DISCOVERY = _START["seer_discovery"]
O_SEER_DRAWN = _START["seer_drawn"]
O_SEER_REMOVED = _START["seer_removed"]
O_SEER_SET_ASIDE = _START["seer_set_aside"]
O_SEER_EVENT_PILE = _START["seer_event_pile"]
O_SEER_SHIP_DECK = _START["seer_ship_deck"]
O_SEER_MINERAL_POOL = _START["seer_mineral_pool"]
S = E.S  # seats padded to 5
K = E.K  # pad slots padded to 5
ND = E.NUM_DISCOVERY
NM = NUM_MINERALS
NSH = NUM_SHIPS
CLIP = E.CLIP
DISCOVERY_INDEX_T = np.full(NE, -1, dtype=np.int64)
for _c, _i in E.DISCOVERY_INDEX.items():
    DISCOVERY_INDEX_T[_c] = _i
MINERAL_TOKENS_T = np.array(MINERAL_TOKENS, dtype=np.int64)
assert not IS_BONUS_T[list(E.DISCOVERY_INDEX)].any()


@njit
def ix(i):
    """i (>= 0) as an unsigned index: numba then drops its negative-index wrap-around (a
    compare and a conditional add on every access, a third of this kernel's time)."""
    return np.uint64(i)


@njit
def rel(q, me, n):
    """The relative seat of q for observer me (0 = me, then clockwise); no modulo."""
    d = q - me
    return d + n if d < 0 else d


@njit
def revealed(gb, q):
    """M-R4, M-I4: a commit is open once its role has been called, or its owner acted
    (gb: one game's record)."""
    c, role = gb[ix(F_COMMIT + q)], gb[F_ROLE]
    return (c != NONE and role != NONE and c <= role) or gb[ix(F_ACTED + q)] != 0


@njit
def observe_one(g, rng, b, me, mode, row):
    """One game's observation into row. Seat blocks are walked by relative seat r (q =
    the seat r places after me); every index read from the record goes through ix()."""
    gb = g[b]  # this game's record
    n = gb[F_PLAYER_COUNT]
    over = gb[F_PHASE] == PH_OVER
    cur = gb[F_CURRENT_PLAYER]
    row[:] = 0
    # the decision being asked
    row[ix(O_PHASE + gb[F_PHASE])] = 1
    if gb[F_ROLE] != NONE:
        row[ix(O_ROLE + gb[F_ROLE])] = 1
    for i in range(gb[F_PLACED_LEN]):
        row[ix(O_PLACED + gb[ix(F_PLACED_SLOTS + i)])] += 1
    row[O_STEPS_LEFT] = gb[F_STEPS_LEFT]
    if gb[F_PENDING_SLOT] != NONE:
        row[ix(O_PENDING_SLOT + gb[F_PENDING_SLOT])] = 1
    if gb[F_DRAWN] != NONE and not over and cur == me:  # only the drawer sees it (M-E1)
        row[ix(O_DRAWN + DISCOVERY_INDEX_T[ix(gb[F_DRAWN])])] = 1
    # clock and seats
    row[O_ROUND] = gb[F_ROUND]
    row[ix(O_OWN_COLOUR + me)] = 1
    for r in range(n):
        row[O_SEAT_PRESENT + r] = 1
    if not over:
        row[ix(O_ACTING_SEAT + rel(cur, me, n))] = 1
    row[ix(O_START_SEAT + rel(gb[F_START_PLAYER], me, n))] = 1
    if gb[F_LAST_ACTOR] != NONE:
        row[ix(O_LAST_ACTOR + rel(gb[F_LAST_ACTOR], me, n))] = 1
    # per player (M-I1); an unrevealed commit stays among the remaining cards (M-I4)
    for r in range(n):
        q = r + me - n if r + me >= n else r + me
        row[O_SUPPLY + r] = gb[ix(F_SUPPLY + q)]
        row[O_LISM + r] = gb[ix(F_LISM + q)]
        row[O_REMOVED + r] = gb[ix(F_REMOVED + q)]
        for t in range(NM):
            row[O_COUNTERS + r * NM + t] = min(gb[ix(F_COUNTERS + q * NM + t)], CLIP)
        row[O_BONUS_COUNT + r] = gb[ix(F_BONUS_LEN + q)]
        for k in range(NR):
            row[O_ROLES_LEFT + r * NR + k] = gb[ix(F_HAND + q * NR + k)]
        c = gb[ix(F_COMMIT + q)]
        if c != NONE:
            if revealed(gb, q):
                row[ix(O_REVEALED_ROLE + r * NR + c)] = 1
            elif gb[ix(F_ACTED + q)] == 0:
                row[ix(O_ROLES_LEFT + r * NR + c)] = 1
        row[O_ACTED + r] = gb[ix(F_ACTED + q)]
    # Mars (M-I1); the mineral pool counts down from all tokens as zones show theirs
    for t in range(NM):
        row[O_MINERAL_POOL + t] = MINERAL_TOKENS_T[t]
    for r in range(n):  # zones innermost: a fixed count, unrolled
        q = r + me - n if r + me >= n else r + me
        for z in range(Z):
            row[O_MARS + z * S + r] = gb[ix(F_MARS + z * PAD + q)]
            row[O_LOOKED + z * S + r] = gb[ix(F_LOOKED + z * PAD + q)] != 0
    for z in range(Z):
        m = gb[F_MINERAL + z]
        if m != NONE:
            row[ix(O_MINERAL + z * NM + m)] = 1
            row[ix(O_MINERAL_POOL + m)] -= 1
        row[O_LEFTOVER + z] = min(gb[F_LEFTOVER + z], CLIP)
        d = gb[F_DISCOVERY + z]
        if d != NONE:
            owner = gb[F_DISCOVERY_OWNER + z]
            row[O_DISCOVERY_PRESENT + z] = 1
            row[ix(O_DISCOVERY_OWNER + z * S + rel(owner, me, n))] = 1
            if owner == me or gb[ix(F_LOOKED + z * PAD + me)] != 0:  # M-I2
                row[ix(O_KNOWN_DISCOVERY + z * ND + DISCOVERY_INDEX_T[ix(d)])] = 1
        row[O_TOKEN_SUPPLY + z] = gb[F_TOKEN_SUPPLY + z]
    # ships (M-I1), by pad slot (an airborne slot always holds its ship)
    for i in range(gb[F_AIRBORNE_LEN]):
        k = gb[ix(F_AIRBORNE + i)]
        row[ix(O_SLOT_AIRBORNE + k)] = 1
        row[ix(O_SLOT_LAUNCH_ORDER + k)] = i + 1
    for k in range(n):
        ship = gb[ix(F_SLOTS + k)]
        if ship == NONE:
            continue
        row[ix(O_SLOT_SHIP + k * NSH + ship)] = 1
        aboard = 0
        for r in range(n):
            q = r + me - n if r + me >= n else r + me
            c = gb[ix(F_CREW + ship * PAD + q)]
            row[O_SLOT_CREW + k * S + r] = c
            aboard += c
        cap = SHIP_CAP_T[ix(ship)]
        row[O_SLOT_CAPACITY + k] = cap
        row[O_SLOT_FREE + k] = cap - aboard  # free_seats
        dest = int(SHIP_DEST_T[ix(ship)])  # int(): int8 in plain Python (NUMBA_DISABLE_JIT), too narrow for the index
        row[O_SLOT_HAND_PILOTED + k] = dest == NONE
        token = gb[ix(F_TOKEN + ship)]
        if token != NONE:
            row[ix(O_SLOT_TOKEN + k * Z + token)] = 1
            dest = token  # destination(): the token, else the printed zone
        if dest != NONE:
            row[ix(O_SLOT_DESTINATION + k * Z + dest)] = 1
    for i in range(gb[F_USED_SHIPS_LEN]):
        row[ix(O_USED_SHIPS + gb[ix(F_USED_SHIPS + i)])] = 1
    row[O_SHIP_DECK_SIZE] = gb[F_SHIP_DECK_LEN]
    row[O_EVENT_PILE_SIZE] = gb[F_EVENT_PILE_LEN]
    row[O_REMOVED_CARDS_COUNT] = gb[F_REMOVED_CARDS_LEN]
    row[O_MINERAL_POOL_SIZE] = gb[F_MINERAL_POOL_LEN]
    # own private knowledge (M-I2)
    for i in range(gb[ix(F_BONUS_LEN + me)]):
        row[ix(O_OWN_BONUS + gb[ix(F_BONUS + me * NB + i)])] = 1
    if gb[ix(F_COMMIT + me)] != NONE:
        row[ix(O_OWN_COMMIT + gb[ix(F_COMMIT + me)])] = 1
    for i in range(gb[ix(F_SETUP_HAND_LEN + me)]):
        row[ix(O_OWN_SETUP_HAND + gb[ix(F_SETUP_HAND + me * SETUP_CARDS + i)])] = 1
    if mode != MODE_INFO:  # M-I5: perfect recall
        for c in range(NE):
            row[O_SEEN_CARDS + c] = gb[ix(F_SEEN + me * NE + c)]
    if mode == MODE_SEER:
        observe_seer(g, b, me, row)


@njit
def observe_seer(g, b, me, row):
    """The seer blocks: every hidden card, commit and pile order."""
    gb = g[b]
    n = gb[F_PLAYER_COUNT]
    for q in range(n):
        r = rel(q, me, n)
        if gb[F_COMMIT + q] != NONE:
            row[O_SEER_COMMIT + r * NR + gb[F_COMMIT + q]] = 1
        for i in range(gb[F_BONUS_LEN + q]):
            row[O_SEER_BONUS + r * NE + gb[F_BONUS + q * NB + i]] = 1
        for i in range(gb[F_SETUP_HAND_LEN + q]):
            row[O_SEER_SETUP_HAND + r * NE + gb[F_SETUP_HAND + q * SETUP_CARDS + i]] = 1
        for c in range(NE):
            row[O_SEER_SEEN + r * NE + c] = gb[F_SEEN + q * NE + c]
    for z in range(Z):
        d = gb[F_DISCOVERY + z]
        if d != NONE:
            row[O_SEER_DISCOVERY + z * ND + DISCOVERY_INDEX_T[d]] = 1
    if gb[F_DRAWN] != NONE:
        row[O_SEER_DRAWN + DISCOVERY_INDEX_T[gb[F_DRAWN]]] = 1
    for i in range(gb[F_REMOVED_CARDS_LEN]):
        row[O_SEER_REMOVED + gb[F_REMOVED_CARDS + i]] = 1
    for i in range(gb[F_SET_ASIDE_LEN]):
        row[O_SEER_SET_ASIDE + gb[F_SET_ASIDE + i]] = 1
    m = gb[F_EVENT_PILE_LEN]  # depth from the top (the last element), 1 = next drawn
    for i in range(m):
        row[O_SEER_EVENT_PILE + gb[F_EVENT_PILE + i]] = m - i
    m = gb[F_SHIP_DECK_LEN]
    for i in range(m):
        row[O_SEER_SHIP_DECK + gb[F_SHIP_DECK + i]] = m - i
    m = gb[F_MINERAL_POOL_LEN]
    for i in range(m):
        row[O_SEER_MINERAL_POOL + (m - 1 - i) * NM + gb[F_MINERAL_POOL + i]] = 1


@njit
def observe_games(out, players, mode, g, rng):
    for b in range(out.shape[0]):
        observe_one(g, rng, b, players[b], mode, out[b])
