"""Constants and small per-game helpers shared by the Red Planet kernels.

Every helper takes the fields namedtuple ``s`` (state.Fields) and a batch index ``b``.
Component tables are module-level constants read from components.py (the project's
njit cache policy, spacemission_env/engine/jit.py, re-compiles when the data file or
any imported module changes). The SplitMix64 shuffle is Space Mission's engine kernel.
"""
from __future__ import annotations

import numpy as np

from ...jit import njit
from .. import actions as A
from ..components import (
    BONUS_CARDS,
    CARD_KIND,
    CENTRAL,
    EDGES,
    EVENT_PARAM,
    EXPLORER,
    EXPLORER_STEPS,
    FEMME_FATALE,
    FINAL_BASE,
    IS_BONUS,
    MISSION_OF,
    MISSION_ZONES,
    NUM_EVENTS,
    NUM_ROLES,
    NUM_ZONES,
    PILOT,
    ROLE_PLACE,
    SABOTEUR,
    SCIENTIST,
    SECRET_AGENT,
    SHIP_CAPACITY,
    SHIP_DEST,
    SOLDIER,
    TRAVEL_AGENT,
)
from ..rules.state import PHASES
from .state import (
    F_AIRBORNE,
    F_AIRBORNE_LEN,
    F_CREW,
    F_CURRENT_PLAYER,
    F_DISCOVERY,
    F_EVENT_PILE_LEN,
    F_MARS,
    F_PLACED_LEN,
    F_PLACED_SLOTS,
    F_PLAYER_COUNT,
    F_ROLE,
    F_SEEN,
    F_SLOTS,
    F_START_PLAYER,
    F_STEPS_LEFT,
    F_SUPPLY,
    F_TOKEN,
    F_TOKEN_SUPPLY,
    PAD,
    E,
)

NONE = -1
Z = NUM_ZONES
NE = NUM_EVENTS
NR = NUM_ROLES
COLOURS = A.COLOURS
NUM_ACTIONS = A.NUM_ACTIONS
(PH_SETUP_ZONE, PH_KEEP, PH_COMMIT, PH_PLACE, PH_DESTINATION, PH_ABILITY, PH_DISCOVERY, PH_OVER) = (
    PHASES.index(p) for p in ("setup_zone", "keep", "commit", "place", "destination", "ability", "discovery", "over"))
(A_SETUP_ZONE, A_KEEP, A_COMMIT, A_PLACE, A_STOP, A_DESTINATION, A_MOVE, A_DRAW, A_LOOK, A_DISCOVERY, A_LAUNCH,
 A_SEDUCE, A_SABOTAGE, A_KILL, A_PILOT, A_PASS) = (A.START[k] for k in A.ACTION_KINDS)
KIND_OF_ACTION = np.array([A.ACTION_KINDS.index(A.decode(a)[0]) for a in range(NUM_ACTIONS)], dtype=np.int8)

# components as arrays
SHIP_DEST_T = np.array(SHIP_DEST, dtype=np.int8)
SHIP_CAP_T = np.array(SHIP_CAPACITY, dtype=np.int8)
ROLE_PLACE_T = np.array(ROLE_PLACE, dtype=np.int8)
IS_BONUS_T = np.array(IS_BONUS, dtype=np.bool_)
CENTRAL_T = np.array(CENTRAL, dtype=np.bool_)
EDGE_FROM = np.array([a for a, _ in EDGES], dtype=np.int8)
EDGE_TO = np.array([b for _, b in EDGES], dtype=np.int8)
NUM_EDGES = len(EDGES)
BONUS_INDEX = np.full(NUM_EVENTS, -1, dtype=np.int8)  # card id -> index in the keep block (M-S6)
for _i, _c in enumerate(BONUS_CARDS):
    BONUS_INDEX[_c] = _i
# event card kinds (M-E2..M-E19) as codes, with their parameters per card
KINDS = tuple(dict.fromkeys(CARD_KIND))
(K_FAULTY, K_MINE_DISASTER, K_MOSSES, K_RADIATION, K_METEORITES, K_SYLVANITE_VEIN, K_SECRET_MISSION, K_TOP_SECRET,
 K_ICE_BLOCKS, K_CELERIUM, K_SYLVANITE, K_MEMORIAL, K_GOOD_PLANNING, K_COLONISATION, K_STRATEGIC) = (KINDS.index(k) for k in (
     "faulty_analysis", "mine_disaster", "mosses", "radiation", "meteorites", "sylvanite_vein", "secret_mission",
     "top_secret_mission", "ice_blocks", "celerium", "sylvanite", "memorial", "good_planning", "colonisation",
     "strategic_zones"))
CARD_KIND_T = np.array([KINDS.index(k) for k in CARD_KIND], dtype=np.int8)
CARD_POINTS = np.array([EVENT_PARAM[k].get("points", 0) for k in CARD_KIND], dtype=np.int32)
CARD_COUNTERS = np.array([EVENT_PARAM[k].get("counters", 0) for k in CARD_KIND], dtype=np.int32)
CARD_FINAL_BASE = np.array([EVENT_PARAM[k].get("final_base", FINAL_BASE) for k in CARD_KIND], dtype=np.int32)
MISSION_MASK = np.zeros((NUM_EVENTS, Z), dtype=np.bool_)  # [card, zone] red zones of a secret mission (M-C8)
for _c, _m in MISSION_OF.items():
    MISSION_MASK[_c, list(MISSION_ZONES[_m])] = True
OUTER_T = ~CENTRAL_T
GROUP_ROLE = np.zeros(NUM_ROLES, dtype=np.bool_)  # M-O7, M-O8: the whole group into one ship
GROUP_ROLE[[TRAVEL_AGENT, SOLDIER]] = True
R_EXPLORER, R_SCIENTIST, R_SECRET_AGENT, R_FEMME_FATALE, R_SABOTEUR, R_TRAVEL_AGENT, R_SOLDIER, R_PILOT = (
    EXPLORER, SCIENTIST, SECRET_AGENT, FEMME_FATALE, SABOTEUR, TRAVEL_AGENT, SOLDIER, PILOT)
EXPLORER_STEPS_C = EXPLORER_STEPS


# --- derived views (rules/state.py GameState methods) --------------------------------------
@njit
def destination(g, rng, b, ship):
    """The zone a ship flies to: its token, else its printed zone (M-L4); -1 for none (M-L2)."""
    t = g[b, F_TOKEN + ship]
    return t if t != NONE else SHIP_DEST_T[ship]


@njit
def free_seats(g, rng, b, ship):
    n = 0
    for q in range(g[b, F_PLAYER_COUNT]):
        n += g[b, F_CREW + ship * PAD + q]
    return SHIP_CAP_T[ship] - n


@njit
def is_airborne(g, rng, b, slot):
    for i in range(g[b, F_AIRBORNE_LEN]):
        if g[b, F_AIRBORNE + i] == slot:
            return True
    return False


@njit
def on_pad(g, rng, b, slot):
    return g[b, F_SLOTS + slot] != NONE and not is_airborne(g, rng, b, slot)


@njit
def seat_index(g, rng, b, q):
    """Position of seat q in the seat order from the start player."""
    n = g[b, F_PLAYER_COUNT]
    return (q - g[b, F_START_PLAYER] + n) % n


@njit
def next_seat(g, rng, b, q):
    return (q + 1) % g[b, F_PLAYER_COUNT]


@njit
def is_last_in_order(g, rng, b, q):
    return seat_index(g, rng, b, q) == g[b, F_PLAYER_COUNT] - 1


@njit
def see(g, rng, b, q, card):
    """M-I2: remember an event card a seat has seen."""
    g[b, F_SEEN + q * E + card] = True


@njit
def mars_leaders(g, rng, b, z, out):
    """Seats with the most astronauts in zone z (at least one) into out; their count."""
    n = g[b, F_PLAYER_COUNT]
    top = 0
    for q in range(n):
        top = max(top, g[b, F_MARS + z * PAD + q])
    k = 0
    if top > 0:
        for q in range(n):
            if g[b, F_MARS + z * PAD + q] == top:
                out[k] = q
                k += 1
    return k


# --- what a decision offers (rules/game.py placement_actions, ability_actions) --------------
@njit
def boardable(g, rng, b):
    """The pad slots the current player can board now, as bits (bit k: slot k): M-L1 with
    the role's constraints (M-O4 two different ships, M-O7/M-O8 the whole group into one
    ship). One pass for all slots: the mask, the step's check and the turn flow share it."""
    q, role = g[b, F_CURRENT_PLAYER], g[b, F_ROLE]
    placed = g[b, F_PLACED_LEN]
    group = GROUP_ROLE[role]
    need = ROLE_PLACE_T[role] if group else 1
    if placed >= ROLE_PLACE_T[role] or (group and placed > 0) or g[b, F_SUPPLY + q] < need:
        return 0
    taken = 0  # slots in the air (M-L3), and for the Secret Agent those he boarded (M-O4)
    for i in range(g[b, F_AIRBORNE_LEN]):
        taken |= 1 << g[b, F_AIRBORNE + i]
    if role == R_SECRET_AGENT:
        for i in range(placed):
            taken |= 1 << g[b, F_PLACED_SLOTS + i]
    bits = 0
    for k in range(g[b, F_PLAYER_COUNT]):
        ship = g[b, F_SLOTS + k]
        if ship != NONE and not (taken >> k) & 1 and free_seats(g, rng, b, ship) >= need:
            bits |= 1 << k
    return bits


@njit
def any_placement(g, rng, b):
    return boardable(g, rng, b) != 0


@njit
def ability_row(g, rng, b, row, write):
    """The role's ability choices (pass excluded, M-O1..M-O9): their count, and with
    ``write`` each one set True in ``row``."""
    q, role, n = g[b, F_CURRENT_PLAYER], g[b, F_ROLE], g[b, F_PLAYER_COUNT]
    cnt = 0
    if role == R_EXPLORER:
        if g[b, F_STEPS_LEFT] > 0:
            for i in range(NUM_EDGES):
                if g[b, F_MARS + (EDGE_FROM[i]) * PAD + q] > 0:
                    cnt += 1
                    if write:
                        row[A_MOVE + i] = True
    elif role == R_SCIENTIST:
        if g[b, F_EVENT_PILE_LEN] > 0:
            cnt += 1
            if write:
                row[A_DRAW] = True
        for z in range(Z):
            if g[b, F_DISCOVERY + z] != NONE:
                cnt += 1
                if write:
                    row[A_LOOK + z] = True
    elif role == R_SECRET_AGENT:
        for k in range(n):
            if on_pad(g, rng, b, k) and free_seats(g, rng, b, g[b, F_SLOTS + k]) > 0:
                cnt += 1
                if write:
                    row[A_LAUNCH + k] = True
    elif role == R_FEMME_FATALE:
        if g[b, F_SUPPLY + q] > 0:
            for k in range(n):
                ship = g[b, F_SLOTS + k]
                if ship != NONE:
                    for c in range(n):
                        if c != q and g[b, F_CREW + ship * PAD + c] > 0:
                            cnt += 1
                            if write:
                                row[A_SEDUCE + k * COLOURS + c] = True
    elif role == R_SABOTEUR:
        for k in range(n):
            if on_pad(g, rng, b, k):
                cnt += 1
                if write:
                    row[A_SABOTAGE + k] = True
    elif role == R_SOLDIER:
        for z in range(Z):
            if OUTER_T[z]:
                for c in range(n):
                    if g[b, F_MARS + z * PAD + c] > 0:
                        cnt += 1
                        if write:
                            row[A_KILL + z * COLOURS + c] = True
    elif role == R_PILOT:
        for k in range(n):
            ship = g[b, F_SLOTS + k]
            if ship != NONE:
                d = destination(g, rng, b, ship)
                if d != NONE:
                    for z in range(Z):
                        if z != d and g[b, F_TOKEN_SUPPLY + z] > 0:
                            cnt += 1
                            if write:
                                row[A_PILOT + k * Z + z] = True
    return cnt


@njit
def ability_legal(g, rng, b, a):
    """Whether ability_row offers action a (pass excluded): the same conditions for that
    one id, without enumerating the others."""
    q, role, n = g[b, F_CURRENT_PLAYER], g[b, F_ROLE], g[b, F_PLAYER_COUNT]
    if role == R_EXPLORER:
        i = a - A_MOVE
        return 0 <= i < NUM_EDGES and g[b, F_STEPS_LEFT] > 0 and g[b, F_MARS + EDGE_FROM[i] * PAD + q] > 0
    if role == R_SCIENTIST:
        if a == A_DRAW:
            return g[b, F_EVENT_PILE_LEN] > 0
        z = a - A_LOOK
        return 0 <= z < Z and g[b, F_DISCOVERY + z] != NONE
    if role == R_SECRET_AGENT:
        k = a - A_LAUNCH
        return 0 <= k < n and on_pad(g, rng, b, k) and free_seats(g, rng, b, g[b, F_SLOTS + k]) > 0
    if role == R_FEMME_FATALE:
        i = a - A_SEDUCE
        if i < 0 or i >= A_SABOTAGE - A_SEDUCE:
            return False
        k, c = i // COLOURS, i % COLOURS
        ship = g[b, F_SLOTS + k] if k < n else NONE
        return (g[b, F_SUPPLY + q] > 0 and ship != NONE and c < n and c != q
                and g[b, F_CREW + ship * PAD + c] > 0)
    if role == R_SABOTEUR:
        k = a - A_SABOTAGE
        return 0 <= k < n and on_pad(g, rng, b, k)
    if role == R_SOLDIER:
        i = a - A_KILL
        if i < 0 or i >= A_PILOT - A_KILL:
            return False
        z, c = i // COLOURS, i % COLOURS
        return OUTER_T[z] and c < n and g[b, F_MARS + z * PAD + c] > 0
    if role == R_PILOT:
        i = a - A_PILOT
        if i < 0 or i >= A_PASS - A_PILOT:
            return False
        k, z = i // Z, i % Z
        ship = g[b, F_SLOTS + k] if k < n else NONE
        if ship == NONE:
            return False
        d = destination(g, rng, b, ship)
        return d != NONE and z != d and g[b, F_TOKEN_SUPPLY + z] > 0
    return False


@njit
def has_ability(g, rng, b):
    """Whether the role's ability can act on something now (M-R5)."""
    return ability_row(g, rng, b, g[b], False) > 0  # counts only: the row argument is never written
