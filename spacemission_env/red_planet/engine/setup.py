"""Setup and commit kernels: M-S1..M-S6 and the hidden role commit (M-R3), bit-identical
to rules/game.py (the same SplitMix64 draws in the same order: M-S1 mineral pool, M-S2
ship deck, M-S3 seat order, M-S5 event cards, M-S6 event pile)."""
from __future__ import annotations

import numpy as np

from ...engine.jit import njit
from ..components import ASTRONAUTS, MINERAL_TOKENS, NUM_EVENTS, NUM_MINERALS, NUM_SHIPS, SETUP_HAND, TOKENS_PER_ZONE
from .core import (
    IS_BONUS_T,
    NONE,
    PH_KEEP,
    PH_SETUP_ZONE,
    destination,
    is_last_in_order,
    next_seat,
    see,
    shuffle,
)
from .flow import advance, lay_token, start_round

MINERAL_TOKENS_T = np.array(MINERAL_TOKENS, dtype=np.int8)


@njit
def clear_game(s, b):
    """Every field of game b to its value before setup."""
    s.terminated[b] = False
    s.round[b] = 1
    s.last_actor[b] = NONE
    s.role[b] = NONE
    s.steps_left[b] = 0
    s.drawn[b] = NONE
    s.pending_slot[b] = NONE
    s.placed_len[b] = 0
    s.placed_slots[b, :] = 0
    s.mars[b] = 0
    s.mineral[b, :] = NONE
    s.leftover[b, :] = 0
    s.discovery[b, :] = NONE
    s.discovery_owner[b, :] = NONE
    s.looked[b] = False
    s.removed_cards_len[b] = 0
    s.set_aside_len[b] = 0
    s.airborne_len[b] = 0
    s.used_ships_len[b] = 0
    s.crew[b] = 0
    s.token[b, :] = NONE
    s.token_supply[b, :] = TOKENS_PER_ZONE
    s.supply[b, :] = ASTRONAUTS
    s.lism[b, :] = 0
    s.removed[b, :] = 0
    s.hand[b] = True
    s.discard[b] = False
    s.commit[b, :] = NONE
    s.acted[b, :] = False
    s.bonus_len[b, :] = 0
    s.counters[b] = 0
    s.setup_hand_len[b, :] = 0
    s.seen[b] = False


@njit
def new_game(s, b, seed):
    """rules.new_game(num_players, seed): M-S1..M-S3 drawn, then M-S4 (if any) and M-S5."""
    n = s.supply.shape[1]
    clear_game(s, b)
    s.rng[b] = seed
    k = 0  # M-S1: the mineral pool, shuffled face down
    for t in range(NUM_MINERALS):
        for _ in range(MINERAL_TOKENS_T[t]):
            s.mineral_pool[b, k] = t
            k += 1
    s.mineral_pool_len[b] = k
    shuffle(s.rng, b, s.mineral_pool[b], k)
    for i in range(NUM_SHIPS):  # M-S2: the ship deck; N ships onto the pad from the top
        s.ship_deck[b, i] = i
    shuffle(s.rng, b, s.ship_deck[b], NUM_SHIPS)
    for k in range(n):
        s.slots[b, k] = s.ship_deck[b, NUM_SHIPS - 1 - k]
    s.ship_deck_len[b] = NUM_SHIPS - n
    order = np.arange(n)  # M-S3: seat order[k] puts an astronaut on slot k
    shuffle(s.rng, b, order, n)
    for k in range(n):
        s.crew[b, s.slots[b, k], order[k]] += 1
        s.supply[b, order[k]] -= 1
    s.start_player[b] = order[0]
    s.current_player[b] = order[0]
    for c in range(NUM_EVENTS):  # in the box, in id order, until M-S5 shuffles them
        s.event_pile[b, c] = c
    s.event_pile_len[b] = NUM_EVENTS
    next_setup_destination(s, b)


@njit
def next_setup_destination(s, b):
    """M-S4: in slot order, the owner of the setup astronaut on a hand-piloted ship
    chooses its destination; then the event cards are dealt (M-S5)."""
    n = s.supply.shape[1]
    for k in range(n):
        ship = s.slots[b, k]
        if destination(s, b, ship) == NONE:
            for q in range(n):
                if s.crew[b, ship, q] == 1:
                    s.phase[b] = PH_SETUP_ZONE
                    s.pending_slot[b] = k
                    s.current_player[b] = q
                    return
    s.pending_slot[b] = NONE
    deal_event_cards(s, b)


@njit
def choose_setup_destination(s, b, zone):
    """M-S4 (M-L2's choice, made at setup)."""
    lay_token(s, b, s.slots[b, s.pending_slot[b]], zone)
    next_setup_destination(s, b)


@njit
def draw_setup_hand(s, b, q):
    for i in range(SETUP_HAND):
        s.event_pile_len[b] -= 1
        s.setup_hand[b, q, i] = s.event_pile[b, s.event_pile_len[b]]
    s.setup_hand_len[b, q] = SETUP_HAND


@njit
def deal_event_cards(s, b):
    """M-S5: shuffle; three cards each from the start player; a hand without a bonus card
    is shown to every player, set aside and replaced until it holds one."""
    n = s.supply.shape[1]
    shuffle(s.rng, b, s.event_pile[b], s.event_pile_len[b])
    for i in range(n):
        draw_setup_hand(s, b, (s.start_player[b] + i) % n)
    for i in range(n):
        q = (s.start_player[b] + i) % n
        while True:
            has_bonus = False
            for j in range(SETUP_HAND):
                has_bonus = has_bonus or IS_BONUS_T[s.setup_hand[b, q, j]]
            if has_bonus:
                break
            for j in range(SETUP_HAND):
                c = s.setup_hand[b, q, j]
                s.set_aside[b, s.set_aside_len[b]] = c
                s.set_aside_len[b] += 1
                for viewer in range(n):
                    see(s, b, viewer, c)
            draw_setup_hand(s, b, q)
        for j in range(SETUP_HAND):
            see(s, b, q, s.setup_hand[b, q, j])
    s.phase[b] = PH_KEEP
    s.current_player[b] = s.start_player[b]


@njit
def keep_bonus_card(s, b, q, card):
    """M-S6: keep one bonus card; the others return. After the last player the undealt,
    set-aside and returned cards are shuffled into the event pile; round 1 starts."""
    s.bonus[b, q, 0] = card
    s.bonus_len[b, q] = 1
    for j in range(s.setup_hand_len[b, q]):
        c = s.setup_hand[b, q, j]
        if c != card:
            s.set_aside[b, s.set_aside_len[b]] = c
            s.set_aside_len[b] += 1
    s.setup_hand_len[b, q] = 0
    if not is_last_in_order(s, b, q):
        s.current_player[b] = next_seat(s, b, q)
        return
    m = s.event_pile_len[b]
    for i in range(s.set_aside_len[b]):
        s.event_pile[b, m + i] = s.set_aside[b, i]
    m += s.set_aside_len[b]
    s.set_aside_len[b] = 0
    s.event_pile_len[b] = m
    shuffle(s.rng, b, s.event_pile[b], m)
    start_round(s, b)


@njit
def commit_role(s, b, q, role):
    """M-R3: the card goes face down; the next seat commits, seeing nothing (M-I4);
    after the last the roles are called (M-R4)."""
    s.hand[b, q, role] = False
    s.commit[b, q] = role
    if not is_last_in_order(s, b, q):
        s.current_player[b] = next_seat(s, b, q)
    else:
        advance(s, b)

