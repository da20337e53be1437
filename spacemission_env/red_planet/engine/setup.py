"""Setup and commit kernels: M-S1..M-S6 and the hidden role commit (M-R3), bit-identical
to rules/game.py (the same SplitMix64 draws in the same order: M-S1 mineral pool, M-S2
ship deck, M-S3 seat order, M-S5 event cards, M-S6 event pile)."""
from __future__ import annotations

import numpy as np

from ...jit import njit
from ...engine_common import (
    shuffle,  # SplitMix64 Fisher-Yates (spacemission_env/rng.py)
)
from ..components import (
    ASTRONAUTS,
    MINERAL_TOKENS,
    NUM_EVENTS,
    NUM_MINERALS,
    NUM_SHIPS,
    SETUP_HAND,
    TOKENS_PER_ZONE,
)
from .core import (
    IS_BONUS_T,
    NONE,
    NR,
    PH_KEEP,
    PH_SETUP_ZONE,
    Z,
    destination,
    is_last_in_order,
    next_seat,
    see,
)
from .flow import NEXT_ADVANCE, NEXT_NONE, lay_token, start_round
from .state import (
    F_BONUS,
    F_BONUS_LEN,
    F_COMMIT,
    F_CREW,
    F_CURRENT_PLAYER,
    F_DISCOVERY,
    F_DISCOVERY_OWNER,
    F_DRAWN,
    F_EVENT_PILE,
    F_EVENT_PILE_LEN,
    F_HAND,
    F_LAST_ACTOR,
    F_MINERAL,
    F_MINERAL_POOL,
    F_MINERAL_POOL_LEN,
    F_PENDING_SLOT,
    F_PHASE,
    F_PLAYER_COUNT,
    F_ROLE,
    F_ROUND,
    F_SET_ASIDE,
    F_SET_ASIDE_LEN,
    F_SETUP_HAND,
    F_SETUP_HAND_LEN,
    F_SHIP_DECK,
    F_SHIP_DECK_LEN,
    F_SLOTS,
    F_START_PLAYER,
    F_SUPPLY,
    F_TOKEN,
    F_TOKEN_SUPPLY,
    NB,
    NS,
    PAD,
    SETUP_CARDS,
    E,
    R,
)

MINERAL_TOKENS_T = np.array(MINERAL_TOKENS, dtype=np.int8)


@njit
def clear_game(g, rng, b):
    """Every field of game b to its value before setup."""
    n = g[b, F_PLAYER_COUNT]
    g[b, :] = 0
    g[b, F_PLAYER_COUNT] = n
    g[b, F_ROUND] = 1
    for f in (F_LAST_ACTOR, F_ROLE, F_DRAWN, F_PENDING_SLOT):
        g[b, f] = NONE
    g[b, F_MINERAL:F_MINERAL + Z] = NONE
    g[b, F_DISCOVERY:F_DISCOVERY + Z] = NONE
    g[b, F_DISCOVERY_OWNER:F_DISCOVERY_OWNER + Z] = NONE
    g[b, F_TOKEN:F_TOKEN + NUM_SHIPS] = NONE
    g[b, F_TOKEN_SUPPLY:F_TOKEN_SUPPLY + Z] = TOKENS_PER_ZONE
    g[b, F_SUPPLY:F_SUPPLY + n] = ASTRONAUTS
    g[b, F_HAND:F_HAND + n * NR] = 1
    g[b, F_COMMIT:F_COMMIT + n] = NONE


@njit
def new_game(g, rng, b, seed):
    """rules.new_game(num_players, seed): M-S1..M-S3 drawn, then M-S4 (if any) and M-S5."""
    n = g[b, F_PLAYER_COUNT]
    clear_game(g, rng, b)
    rng[b] = seed
    k = 0  # M-S1: the mineral pool, shuffled face down
    for t in range(NUM_MINERALS):
        for _ in range(MINERAL_TOKENS_T[t]):
            g[b, F_MINERAL_POOL + k] = t
            k += 1
    g[b, F_MINERAL_POOL_LEN] = k
    shuffle(rng, b, g[b, F_MINERAL_POOL:F_MINERAL_POOL + 14], k)
    for i in range(NUM_SHIPS):  # M-S2: the ship deck; N ships onto the pad from the top
        g[b, F_SHIP_DECK + i] = i
    shuffle(rng, b, g[b, F_SHIP_DECK:F_SHIP_DECK + NS], NUM_SHIPS)
    for k in range(n):
        g[b, F_SLOTS + k] = g[b, F_SHIP_DECK + NUM_SHIPS - 1 - k]
    g[b, F_SHIP_DECK_LEN] = NUM_SHIPS - n
    order = np.arange(n)  # M-S3: seat order[k] puts an astronaut on slot k
    shuffle(rng, b, order, n)
    for k in range(n):
        g[b, F_CREW + (g[b, F_SLOTS + k]) * PAD + order[k]] += 1
        g[b, F_SUPPLY + order[k]] -= 1
    g[b, F_START_PLAYER] = order[0]
    g[b, F_CURRENT_PLAYER] = order[0]
    for c in range(NUM_EVENTS):  # in the box, in id order, until M-S5 shuffles them
        g[b, F_EVENT_PILE + c] = c
    g[b, F_EVENT_PILE_LEN] = NUM_EVENTS
    next_setup_destination(g, rng, b)


@njit
def next_setup_destination(g, rng, b):
    """M-S4: in slot order, the owner of the setup astronaut on a hand-piloted ship
    chooses its destination; then the event cards are dealt (M-S5)."""
    n = g[b, F_PLAYER_COUNT]
    for k in range(n):
        ship = g[b, F_SLOTS + k]
        if destination(g, rng, b, ship) == NONE:
            for q in range(n):
                if g[b, F_CREW + ship * PAD + q] == 1:
                    g[b, F_PHASE] = PH_SETUP_ZONE
                    g[b, F_PENDING_SLOT] = k
                    g[b, F_CURRENT_PLAYER] = q
                    return
    g[b, F_PENDING_SLOT] = NONE
    deal_event_cards(g, rng, b)


@njit
def choose_setup_destination(g, rng, b, zone):
    """M-S4 (M-L2's choice, made at setup)."""
    lay_token(g, rng, b, g[b, F_SLOTS + g[b, F_PENDING_SLOT]], zone)
    next_setup_destination(g, rng, b)


@njit
def draw_setup_hand(g, rng, b, q):
    for i in range(SETUP_HAND):
        g[b, F_EVENT_PILE_LEN] -= 1
        g[b, F_SETUP_HAND + q * SETUP_CARDS + i] = g[b, F_EVENT_PILE + g[b, F_EVENT_PILE_LEN]]
    g[b, F_SETUP_HAND_LEN + q] = SETUP_HAND


@njit
def deal_event_cards(g, rng, b):
    """M-S5: shuffle; three cards each from the start player; a hand without a bonus card
    is shown to every player, set aside and replaced until it holds one."""
    n = g[b, F_PLAYER_COUNT]
    shuffle(rng, b, g[b, F_EVENT_PILE:F_EVENT_PILE + E], g[b, F_EVENT_PILE_LEN])
    for i in range(n):
        draw_setup_hand(g, rng, b, (g[b, F_START_PLAYER] + i) % n)
    for i in range(n):
        q = (g[b, F_START_PLAYER] + i) % n
        while True:
            has_bonus = False
            for j in range(SETUP_HAND):
                has_bonus = has_bonus or IS_BONUS_T[g[b, F_SETUP_HAND + q * SETUP_CARDS + j]]
            if has_bonus:
                break
            for j in range(SETUP_HAND):
                c = g[b, F_SETUP_HAND + q * SETUP_CARDS + j]
                g[b, F_SET_ASIDE + g[b, F_SET_ASIDE_LEN]] = c
                g[b, F_SET_ASIDE_LEN] += 1
                for viewer in range(n):
                    see(g, rng, b, viewer, c)
            draw_setup_hand(g, rng, b, q)
        for j in range(SETUP_HAND):
            see(g, rng, b, q, g[b, F_SETUP_HAND + q * SETUP_CARDS + j])
    g[b, F_PHASE] = PH_KEEP
    g[b, F_CURRENT_PLAYER] = g[b, F_START_PLAYER]


@njit
def keep_bonus_card(g, rng, b, q, card):
    """M-S6: keep one bonus card; the others return. After the last player the undealt,
    set-aside and returned cards are shuffled into the event pile; round 1 starts."""
    g[b, F_BONUS + q * NB + 0] = card
    g[b, F_BONUS_LEN + q] = 1
    for j in range(g[b, F_SETUP_HAND_LEN + q]):
        c = g[b, F_SETUP_HAND + q * SETUP_CARDS + j]
        if c != card:
            g[b, F_SET_ASIDE + g[b, F_SET_ASIDE_LEN]] = c
            g[b, F_SET_ASIDE_LEN] += 1
    g[b, F_SETUP_HAND_LEN + q] = 0
    if not is_last_in_order(g, rng, b, q):
        g[b, F_CURRENT_PLAYER] = next_seat(g, rng, b, q)
        return
    m = g[b, F_EVENT_PILE_LEN]
    for i in range(g[b, F_SET_ASIDE_LEN]):
        g[b, F_EVENT_PILE + m + i] = g[b, F_SET_ASIDE + i]
    m += g[b, F_SET_ASIDE_LEN]
    g[b, F_SET_ASIDE_LEN] = 0
    g[b, F_EVENT_PILE_LEN] = m
    shuffle(rng, b, g[b, F_EVENT_PILE:F_EVENT_PILE + E], m)
    start_round(g, rng, b)


@njit
def commit_role(g, rng, b, q, role):
    """M-R3: the card goes face down; the next seat commits, seeing nothing (M-I4);
    after the last the roles are called (M-R4, step.resolve)."""
    g[b, F_HAND + q * R + role] = False
    g[b, F_COMMIT + q] = role
    if not is_last_in_order(g, rng, b, q):
        g[b, F_CURRENT_PLAYER] = next_seat(g, rng, b, q)
        return NEXT_NONE
    return NEXT_ADVANCE

