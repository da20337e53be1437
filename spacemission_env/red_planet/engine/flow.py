"""Round-flow kernels: the round (M-R1..M-R8), ships (M-L1..M-L6) and the turn of
step 3, bit-identical to rules/game.py. ``advance`` is the reference's
``call_next_turn`` as a loop (numba compiles no mutual recursion): it runs every turn
that needs no decision (a lost Travel Agent turn M-O7, a turn with nothing to place
and no ability) until a player must decide or the round ends."""
from __future__ import annotations

from ...engine.jit import njit
from ..components import FIRST_DISTRIBUTION_ROUND, NUM_ROUNDS, RECRUITER, SECOND_DISTRIBUTION_ROUND
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
    has_ability,
    any_placement,
    destination,
    free_seats,
    shuffle,
)
from .scoring import distribution_after_round_5, distribution_after_round_8, final_scoring


# --- ships (M-L1..M-L6, M-C6) ----------------------------------------------------------------
@njit
def return_token(s, b, ship):
    t = s.token[b, ship]
    if t != NONE:
        s.token_supply[b, t] += 1
        s.token[b, ship] = NONE


@njit
def lay_token(s, b, ship, zone):
    """M-C6: a destination token from supply onto a ship (a token already there returns)."""
    return_token(s, b, ship)
    s.token_supply[b, zone] -= 1
    s.token[b, ship] = zone


@njit
def launch(s, b, slot):
    """M-L3: the ship leaves the pad; it lands in launch order (M-L4)."""
    s.airborne[b, s.airborne_len[b]] = slot
    s.airborne_len[b] += 1


@njit
def reveal_mineral(s, b, z):
    """M-L5: astronauts entering a zone without a mineral token draw one from the pool."""
    if s.mineral[b, z] == NONE:
        s.mineral_pool_len[b] -= 1
        s.mineral[b, z] = s.mineral_pool[b, s.mineral_pool_len[b]]


@njit
def to_used_pile(s, b, slot):
    ship = s.slots[b, slot]
    s.used_ships[b, s.used_ships_len[b]] = ship
    s.used_ships_len[b] += 1
    s.slots[b, slot] = NONE


@njit
def land_ships(s, b):
    """M-L4, M-L6: in launch order each ship lands; its crew enters the zone (M-L5)."""
    n = s.supply.shape[1]
    for i in range(s.airborne_len[b]):
        slot = s.airborne[b, i]
        ship = s.slots[b, slot]
        crewed = False
        for q in range(n):
            crewed = crewed or s.crew[b, ship, q] > 0
        if crewed:
            zone = destination(s, b, ship)
            for q in range(n):
                s.mars[b, zone, q] += s.crew[b, ship, q]
                s.crew[b, ship, q] = 0
            reveal_mineral(s, b, zone)
        return_token(s, b, ship)
        to_used_pile(s, b, slot)
    s.airborne_len[b] = 0


@njit
def refill_pad(s, b):
    """M-R2: ships into the free slots; an empty deck is first replaced by the shuffled used pile."""
    for k in range(s.slots.shape[1]):
        if s.slots[b, k] == NONE:
            if s.ship_deck_len[b] == 0:
                for i in range(s.used_ships_len[b]):
                    s.ship_deck[b, i] = s.used_ships[b, i]
                s.ship_deck_len[b] = s.used_ships_len[b]
                s.used_ships_len[b] = 0
                shuffle(s.rng, b, s.ship_deck[b], s.ship_deck_len[b])
            s.ship_deck_len[b] -= 1
            s.slots[b, k] = s.ship_deck[b, s.ship_deck_len[b]]


# --- the round (M-R1, M-R8) ----------------------------------------------------------------------
@njit
def start_round(s, b):
    """M-R1: step 1 (refill, rounds 2-10), then step 2 from the start player."""
    if s.round[b] > 1:
        refill_pad(s, b)
    for q in range(s.supply.shape[1]):
        s.commit[b, q] = NONE
        s.acted[b, q] = False
    s.last_actor[b] = NONE
    s.phase[b] = PH_COMMIT
    s.current_player[b] = s.start_player[b]


@njit
def end_of_round(s, b):
    """M-R8: the last to act starts next round; M-P1, M-P2 after rounds 5 and 8; M-P3, M-X1 after 10."""
    s.start_player[b] = s.last_actor[b]
    r = s.round[b]
    if r == FIRST_DISTRIBUTION_ROUND:
        distribution_after_round_5(s, b)
    elif r == SECOND_DISTRIBUTION_ROUND:
        distribution_after_round_8(s, b)
    elif r == NUM_ROUNDS:
        final_scoring(s, b)
        s.phase[b] = PH_OVER
        s.terminated[b] = True
        s.current_player[b] = s.start_player[b]  # never -1 (state.py); the reference says NONE
        return
    s.round[b] = r + 1
    start_round(s, b)


# --- the turn of step 3 (M-R4..M-R6) --------------------------------------------------------------
@njit
def finish_turn(s, b):
    """M-R6: the role card to the discard; M-O1: the Recruiter takes all back."""
    q = s.current_player[b]
    s.discard[b, q, s.role[b]] = True
    if s.role[b] == RECRUITER:
        for r in range(NR):
            if s.discard[b, q, r]:
                s.hand[b, q, r] = True
                s.discard[b, q, r] = False
    s.acted[b, q] = True
    s.role[b] = NONE
    s.placed_len[b] = 0
    s.steps_left[b] = 0


@njit
def advance(s, b):
    """M-R4: call roles 1..9, ties in seat order from the start player; M-R5: placement
    while there is a choice, then the ability when it can act; M-R7/M-R8 after the last."""
    n = s.supply.shape[1]
    while True:
        best, best_key = NONE, 1 << 30
        for i in range(n):
            q = (s.start_player[b] + i) % n
            if not s.acted[b, q]:
                key = s.commit[b, q] * 16 + i
                if key < best_key:
                    best, best_key = q, key
        if best == NONE:
            land_ships(s, b)  # step 4 (M-R7)
            end_of_round(s, b)
            return
        s.current_player[b] = best
        s.role[b] = s.commit[b, best]
        s.last_actor[b] = best
        s.placed_len[b] = 0
        s.steps_left[b] = 0
        if s.role[b] == R_TRAVEL_AGENT and not any_placement(s, b):
            finish_turn(s, b)  # M-O7: no ship for the group: the turn is lost
            continue
        if any_placement(s, b):
            s.phase[b] = PH_PLACE
            return
        s.steps_left[b] = EXPLORER_STEPS_C if s.role[b] == R_EXPLORER else 0
        if has_ability(s, b):
            s.phase[b] = PH_ABILITY
            return
        finish_turn(s, b)


@njit
def end_turn(s, b):
    finish_turn(s, b)
    advance(s, b)


@njit
def begin_ability(s, b):
    """M-R5: the ability, offered only when it can act on something."""
    s.steps_left[b] = EXPLORER_STEPS_C if s.role[b] == R_EXPLORER else 0
    if has_ability(s, b):
        s.phase[b] = PH_ABILITY
    else:
        end_turn(s, b)


@njit
def continue_placement(s, b):
    if any_placement(s, b):
        s.phase[b] = PH_PLACE
    else:
        begin_ability(s, b)


# --- placement (M-L1, M-L2, M-O7, M-O8) -----------------------------------------------------------
@njit
def board(s, b, q, slot):
    """One astronaut aboard; True when the ship now waits for its destination (M-L2).
    A full ship launches at once (M-L3)."""
    ship = s.slots[b, slot]
    s.crew[b, ship, q] += 1
    s.supply[b, q] -= 1
    s.placed_slots[b, s.placed_len[b]] = slot
    s.placed_len[b] += 1
    if destination(s, b, ship) == NONE:
        s.phase[b] = PH_DESTINATION
        s.pending_slot[b] = slot
        return True
    if free_seats(s, b, ship) == 0:
        launch(s, b, slot)
    return False


@njit
def place_rest_of_group(s, b, q, slot):
    """M-O7, M-O8: the Travel Agent's and Soldier's astronauts all go into one ship."""
    role = s.role[b]
    if GROUP_ROLE[role]:
        while s.placed_len[b] < ROLE_PLACE_T[role]:
            board(s, b, q, slot)


@njit
def place(s, b, q, slot):
    """M-L1: the next astronaut (the group) onto the ship in ``slot``."""
    if board(s, b, q, slot):
        return
    place_rest_of_group(s, b, q, slot)
    continue_placement(s, b)


@njit
def choose_destination(s, b, q, zone):
    """M-L2: the first placer lays a token of his choice on a hand-piloted ship."""
    slot = s.pending_slot[b]
    ship = s.slots[b, slot]
    lay_token(s, b, ship, zone)
    s.pending_slot[b] = NONE
    if free_seats(s, b, ship) == 0:
        launch(s, b, slot)
    place_rest_of_group(s, b, q, slot)
    continue_placement(s, b)
