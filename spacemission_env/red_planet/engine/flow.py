"""Round-flow kernels: the round (M-R1..M-R8), ships (M-L1..M-L6) and the turn of
step 3, bit-identical to rules/game.py. ``advance`` is the reference's
``call_next_turn`` as a loop (numba compiles no mutual recursion): it runs every turn
that needs no decision (a lost Travel Agent turn M-O7, a turn with nothing to place
and no ability) until a player must decide or the round ends."""
from __future__ import annotations

from ...jit import njit
from ...engine_common import (
    shuffle,  # SplitMix64 Fisher-Yates (spacemission_env/rng.py)
)
from ..components import (
    FIRST_DISTRIBUTION_ROUND,
    NUM_ROUNDS,
    RECRUITER,
    SECOND_DISTRIBUTION_ROUND,
)
from .core import (
    EXPLORER_STEPS_C,
    GROUP_ROLE,
    NONE,
    NR,
    PH_ABILITY,
    PH_COMMIT,
    PH_DESTINATION,
    PH_OVER,
    PH_PLACE,
    R_EXPLORER,
    R_TRAVEL_AGENT,
    ROLE_PLACE_T,
    any_placement,
    destination,
    free_seats,
    has_ability,
)
from .scoring import (
    distribution_after_round_5,
    distribution_after_round_8,
    final_scoring,
)
from .state import (
    F_ACTED,
    F_AIRBORNE,
    F_AIRBORNE_LEN,
    F_COMMIT,
    F_CREW,
    F_CURRENT_PLAYER,
    F_DISCARD,
    F_HAND,
    F_LAST_ACTOR,
    F_MARS,
    F_MINERAL,
    F_MINERAL_POOL,
    F_MINERAL_POOL_LEN,
    F_PENDING_SLOT,
    F_PHASE,
    F_PLACED_LEN,
    F_PLACED_SLOTS,
    F_PLAYER_COUNT,
    F_ROLE,
    F_ROUND,
    F_SHIP_DECK,
    F_SHIP_DECK_LEN,
    F_SLOTS,
    F_START_PLAYER,
    F_STEPS_LEFT,
    F_SUPPLY,
    F_TERMINATED,
    F_TOKEN,
    F_TOKEN_SUPPLY,
    F_USED_SHIPS,
    F_USED_SHIPS_LEN,
    NS,
    PAD,
    R,
)

# what an action leaves to do (step.resolve): one place for the chain placement ->
# ability -> end of turn -> next turn, so the compiled step holds it once
NEXT_NONE, NEXT_CONTINUE_PLACEMENT, NEXT_BEGIN_ABILITY, NEXT_END_TURN, NEXT_ADVANCE = range(5)


# --- ships (M-L1..M-L6, M-C6) ----------------------------------------------------------------
@njit
def return_token(g, rng, b, ship):
    t = g[b, F_TOKEN + ship]
    if t != NONE:
        g[b, F_TOKEN_SUPPLY + t] += 1
        g[b, F_TOKEN + ship] = NONE


@njit
def lay_token(g, rng, b, ship, zone):
    """M-C6: a destination token from supply onto a ship (a token already there returns)."""
    return_token(g, rng, b, ship)
    g[b, F_TOKEN_SUPPLY + zone] -= 1
    g[b, F_TOKEN + ship] = zone


@njit
def launch(g, rng, b, slot):
    """M-L3: the ship leaves the pad; it lands in launch order (M-L4)."""
    g[b, F_AIRBORNE + g[b, F_AIRBORNE_LEN]] = slot
    g[b, F_AIRBORNE_LEN] += 1


@njit
def reveal_mineral(g, rng, b, z):
    """M-L5: astronauts entering a zone without a mineral token draw one from the pool."""
    if g[b, F_MINERAL + z] == NONE:
        g[b, F_MINERAL_POOL_LEN] -= 1
        g[b, F_MINERAL + z] = g[b, F_MINERAL_POOL + g[b, F_MINERAL_POOL_LEN]]


@njit
def to_used_pile(g, rng, b, slot):
    ship = g[b, F_SLOTS + slot]
    g[b, F_USED_SHIPS + g[b, F_USED_SHIPS_LEN]] = ship
    g[b, F_USED_SHIPS_LEN] += 1
    g[b, F_SLOTS + slot] = NONE


@njit
def land_ships(g, rng, b):
    """M-L4, M-L6: in launch order each ship lands; its crew enters the zone (M-L5)."""
    n = g[b, F_PLAYER_COUNT]
    for i in range(g[b, F_AIRBORNE_LEN]):
        slot = g[b, F_AIRBORNE + i]
        ship = g[b, F_SLOTS + slot]
        crewed = False
        for q in range(n):
            crewed = crewed or g[b, F_CREW + ship * PAD + q] > 0
        if crewed:
            zone = destination(g, rng, b, ship)
            for q in range(n):
                g[b, F_MARS + zone * PAD + q] += g[b, F_CREW + ship * PAD + q]
                g[b, F_CREW + ship * PAD + q] = 0
            reveal_mineral(g, rng, b, zone)
        return_token(g, rng, b, ship)
        to_used_pile(g, rng, b, slot)
    g[b, F_AIRBORNE_LEN] = 0


@njit
def refill_pad(g, rng, b):
    """M-R2: ships into the free slots; an empty deck is first replaced by the shuffled used pile."""
    for k in range(g[b, F_PLAYER_COUNT]):
        if g[b, F_SLOTS + k] == NONE:
            if g[b, F_SHIP_DECK_LEN] == 0:
                for i in range(g[b, F_USED_SHIPS_LEN]):
                    g[b, F_SHIP_DECK + i] = g[b, F_USED_SHIPS + i]
                g[b, F_SHIP_DECK_LEN] = g[b, F_USED_SHIPS_LEN]
                g[b, F_USED_SHIPS_LEN] = 0
                shuffle(rng, b, g[b, F_SHIP_DECK:F_SHIP_DECK + NS], g[b, F_SHIP_DECK_LEN])
            g[b, F_SHIP_DECK_LEN] -= 1
            g[b, F_SLOTS + k] = g[b, F_SHIP_DECK + g[b, F_SHIP_DECK_LEN]]


# --- the round (M-R1, M-R8) ----------------------------------------------------------------------
@njit
def start_round(g, rng, b):
    """M-R1: step 1 (refill, rounds 2-10), then step 2 from the start player."""
    if g[b, F_ROUND] > 1:
        refill_pad(g, rng, b)
    for q in range(g[b, F_PLAYER_COUNT]):
        g[b, F_COMMIT + q] = NONE
        g[b, F_ACTED + q] = False
    g[b, F_LAST_ACTOR] = NONE
    g[b, F_PHASE] = PH_COMMIT
    g[b, F_CURRENT_PLAYER] = g[b, F_START_PLAYER]


@njit
def end_of_round(g, rng, b):
    """M-R8: the last to act starts next round; M-P1, M-P2 after rounds 5 and 8; M-P3, M-X1 after 10."""
    g[b, F_START_PLAYER] = g[b, F_LAST_ACTOR]
    r = g[b, F_ROUND]
    if r == FIRST_DISTRIBUTION_ROUND:
        distribution_after_round_5(g, rng, b)
    elif r == SECOND_DISTRIBUTION_ROUND:
        distribution_after_round_8(g, rng, b)
    elif r == NUM_ROUNDS:
        final_scoring(g, rng, b)
        g[b, F_PHASE] = PH_OVER
        g[b, F_TERMINATED] = True
        g[b, F_CURRENT_PLAYER] = g[b, F_START_PLAYER]  # never -1 (state.py); the reference says NONE
        return
    g[b, F_ROUND] = r + 1
    start_round(g, rng, b)


# --- the turn of step 3 (M-R4..M-R6) --------------------------------------------------------------
@njit
def finish_turn(g, rng, b):
    """M-R6: the role card to the discard; M-O1: the Recruiter takes all back."""
    q = g[b, F_CURRENT_PLAYER]
    g[b, F_DISCARD + q * R + g[b, F_ROLE]] = True
    if g[b, F_ROLE] == RECRUITER:
        for r in range(NR):
            if g[b, F_DISCARD + q * R + r]:
                g[b, F_HAND + q * R + r] = True
                g[b, F_DISCARD + q * R + r] = False
    g[b, F_ACTED + q] = True
    g[b, F_ROLE] = NONE
    g[b, F_PLACED_LEN] = 0
    g[b, F_STEPS_LEFT] = 0


@njit
def advance(g, rng, b):
    """M-R4: call roles 1..9, ties in seat order from the start player; M-R5: placement
    while there is a choice, then the ability when it can act; M-R7/M-R8 after the last."""
    n = g[b, F_PLAYER_COUNT]
    while True:
        best, best_key = NONE, 1 << 30
        for i in range(n):
            q = (g[b, F_START_PLAYER] + i) % n
            if not g[b, F_ACTED + q]:
                key = g[b, F_COMMIT + q] * 16 + i
                if key < best_key:
                    best, best_key = q, key
        if best == NONE:
            land_ships(g, rng, b)  # step 4 (M-R7)
            end_of_round(g, rng, b)
            return
        g[b, F_CURRENT_PLAYER] = best
        g[b, F_ROLE] = g[b, F_COMMIT + best]
        g[b, F_LAST_ACTOR] = best
        g[b, F_PLACED_LEN] = 0
        g[b, F_STEPS_LEFT] = 0
        if g[b, F_ROLE] == R_TRAVEL_AGENT and not any_placement(g, rng, b):
            finish_turn(g, rng, b)  # M-O7: no ship for the group: the turn is lost
            continue
        if any_placement(g, rng, b):
            g[b, F_PHASE] = PH_PLACE
            return
        g[b, F_STEPS_LEFT] = EXPLORER_STEPS_C if g[b, F_ROLE] == R_EXPLORER else 0
        if has_ability(g, rng, b):
            g[b, F_PHASE] = PH_ABILITY
            return
        finish_turn(g, rng, b)


@njit(inline="always")  # into step_games: a call passing the arrays costs ~10 ns a game
def resolve(g, rng, b, nxt):
    """Carry out what an action left to do (NEXT_*): M-R5 placement while there is a
    choice, then the ability when it can act, M-R6 the end of the turn, M-R4 the next."""
    if nxt == NEXT_CONTINUE_PLACEMENT:
        if any_placement(g, rng, b):
            g[b, F_PHASE] = PH_PLACE
            return
        nxt = NEXT_BEGIN_ABILITY
    if nxt == NEXT_BEGIN_ABILITY:
        g[b, F_STEPS_LEFT] = EXPLORER_STEPS_C if g[b, F_ROLE] == R_EXPLORER else 0
        if has_ability(g, rng, b):
            g[b, F_PHASE] = PH_ABILITY
            return
        nxt = NEXT_END_TURN
    if nxt == NEXT_END_TURN:
        finish_turn(g, rng, b)
        nxt = NEXT_ADVANCE
    if nxt == NEXT_ADVANCE:
        advance(g, rng, b)


# --- placement (M-L1, M-L2, M-O7, M-O8) -----------------------------------------------------------
@njit
def board(g, rng, b, q, slot):
    """One astronaut aboard; True when the ship now waits for its destination (M-L2).
    A full ship launches at once (M-L3)."""
    ship = g[b, F_SLOTS + slot]
    g[b, F_CREW + ship * PAD + q] += 1
    g[b, F_SUPPLY + q] -= 1
    g[b, F_PLACED_SLOTS + g[b, F_PLACED_LEN]] = slot
    g[b, F_PLACED_LEN] += 1
    if destination(g, rng, b, ship) == NONE:
        g[b, F_PHASE] = PH_DESTINATION
        g[b, F_PENDING_SLOT] = slot
        return True
    if free_seats(g, rng, b, ship) == 0:
        launch(g, rng, b, slot)
    return False


@njit
def place_rest_of_group(g, rng, b, q, slot):
    """M-O7, M-O8: the Travel Agent's and Soldier's astronauts all go into one ship."""
    role = g[b, F_ROLE]
    if GROUP_ROLE[role]:
        while g[b, F_PLACED_LEN] < ROLE_PLACE_T[role]:
            board(g, rng, b, q, slot)


@njit
def place(g, rng, b, q, slot):
    """M-L1: the next astronaut (the group) onto the ship in ``slot``."""
    if board(g, rng, b, q, slot):
        return NEXT_NONE
    place_rest_of_group(g, rng, b, q, slot)
    return NEXT_CONTINUE_PLACEMENT


@njit
def choose_destination(g, rng, b, q, zone):
    """M-L2: the first placer lays a token of his choice on a hand-piloted ship."""
    slot = g[b, F_PENDING_SLOT]
    ship = g[b, F_SLOTS + slot]
    lay_token(g, rng, b, ship, zone)
    g[b, F_PENDING_SLOT] = NONE
    if free_seats(g, rng, b, ship) == 0:
        launch(g, rng, b, slot)
    place_rest_of_group(g, rng, b, q, slot)
    return NEXT_CONTINUE_PLACEMENT
