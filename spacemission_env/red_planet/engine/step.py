"""Legality and step kernels: the legal mask of every decision (rules/game.py
``legal_actions``) and the batched step, which validates every stepped game's action
before any game changes."""
from __future__ import annotations

import numpy as np

from ...engine.jit import njit
from ..components import BONUS_CARDS
from .abilities import (
    explorer,
    femme_fatale,
    pilot,
    saboteur,
    scientist_draw,
    scientist_lay_discovery,
    scientist_look,
    secret_agent,
    soldier,
)
from .core import (
    A_COMMIT, A_DESTINATION, A_DISCOVERY, A_DRAW, A_KEEP, A_KILL, A_LAUNCH, A_LOOK, A_MOVE, A_PASS, A_PILOT,
    A_PLACE, A_SABOTAGE, A_SEDUCE, A_SETUP_ZONE, A_STOP,
    BONUS_INDEX, COLOURS, EDGE_FROM, EDGE_TO, GROUP_ROLE, IS_BONUS_T, NONE, NR, NUM_ACTIONS, OUTER_T,
    PH_ABILITY, PH_COMMIT, PH_DESTINATION, PH_DISCOVERY, PH_KEEP, PH_OVER, PH_PLACE, PH_SETUP_ZONE, Z,
    ability_row, can_board,
)
from .flow import begin_ability, choose_destination, end_turn, place
from .setup import choose_setup_destination, commit_role, keep_bonus_card, new_game

BONUS_CARDS_T = np.array(BONUS_CARDS, dtype=np.int8)


@njit
def mask_row(s, b, row):
    """The legal actions of game b into row (bool [243]); all True once it is over."""
    row[:] = False
    ph = s.phase[b]
    q = s.current_player[b]
    if ph == PH_SETUP_ZONE or ph == PH_DESTINATION:  # M-S4, M-L2: a zone with a token left (M-C6)
        base = A_SETUP_ZONE if ph == PH_SETUP_ZONE else A_DESTINATION
        for z in range(Z):
            if s.token_supply[b, z] > 0:
                row[base + z] = True
    elif ph == PH_KEEP:  # M-S6
        for j in range(s.setup_hand_len[b, q]):
            c = s.setup_hand[b, q, j]
            if IS_BONUS_T[c]:
                row[A_KEEP + BONUS_INDEX[c]] = True
    elif ph == PH_COMMIT:  # M-R3
        for r in range(NR):
            if s.hand[b, q, r]:
                row[A_COMMIT + r] = True
    elif ph == PH_PLACE:  # M-L1; stopping early is allowed except for the groups (M-O7, M-O8)
        found = False
        for k in range(s.slots.shape[1]):
            if can_board(s, b, q, k):
                row[A_PLACE + k] = True
                found = True
        if found and not GROUP_ROLE[s.role[b]]:
            row[A_STOP] = True
    elif ph == PH_ABILITY:  # M-O1..M-O9; declining is always allowed (M-R5)
        ability_row(s, b, row)
        row[A_PASS] = True
    elif ph == PH_DISCOVERY:  # M-E1
        for z in range(Z):
            if OUTER_T[z] and s.discovery[b, z] == NONE:
                row[A_DISCOVERY + z] = True
    elif ph == PH_OVER:
        row[:] = True


@njit
def legal_mask(out, select, s):
    for b in range(out.shape[0]):
        if select[b]:
            mask_row(s, b, out[b])


@njit
def apply_action(s, b, a):
    """Play legal action a for game b's current player (rules/game.py HANDLERS)."""
    q = s.current_player[b]
    if a >= A_PASS:
        end_turn(s, b)  # M-R5: decline the ability
    elif a >= A_PILOT:
        i = a - A_PILOT
        pilot(s, b, q, i // Z, i % Z)
    elif a >= A_KILL:
        i = a - A_KILL
        soldier(s, b, q, i // COLOURS, i % COLOURS)
    elif a >= A_SABOTAGE:
        saboteur(s, b, q, a - A_SABOTAGE)
    elif a >= A_SEDUCE:
        i = a - A_SEDUCE
        femme_fatale(s, b, q, i // COLOURS, i % COLOURS)
    elif a >= A_LAUNCH:
        secret_agent(s, b, q, a - A_LAUNCH)
    elif a >= A_DISCOVERY:
        scientist_lay_discovery(s, b, q, a - A_DISCOVERY)
    elif a >= A_LOOK:
        scientist_look(s, b, q, a - A_LOOK)
    elif a >= A_DRAW:
        scientist_draw(s, b, q)
    elif a >= A_MOVE:
        explorer(s, b, q, EDGE_FROM[a - A_MOVE], EDGE_TO[a - A_MOVE])
    elif a >= A_DESTINATION:
        choose_destination(s, b, q, a - A_DESTINATION)
    elif a >= A_STOP:
        begin_ability(s, b)  # M-L1: place no more
    elif a >= A_PLACE:
        place(s, b, q, a - A_PLACE)
    elif a >= A_COMMIT:
        commit_role(s, b, q, a - A_COMMIT)
    elif a >= A_KEEP:
        keep_bonus_card(s, b, q, BONUS_CARDS_T[a - A_KEEP])
    else:
        choose_setup_destination(s, b, a - A_SETUP_ZONE)


@njit
def step_games(actions, select, s):
    """Step every selected running game; returns -1, or the first game whose action is
    out of range or illegal (then no game has changed)."""
    B = actions.shape[0]
    row = np.empty(NUM_ACTIONS, np.bool_)
    for b in range(B):
        if select[b] and not s.terminated[b]:
            a = actions[b]
            if a < 0 or a >= NUM_ACTIONS:
                return b
            mask_row(s, b, row)
            if not row[a]:
                return b
    for b in range(B):
        if select[b] and not s.terminated[b]:
            apply_action(s, b, actions[b])
    return -1


@njit
def init_games(select, seeds, s):
    """(Re)initialise the games b with select[b]: rules.new_game(num_players, seeds[b])."""
    for b in range(select.shape[0]):
        if select[b]:
            new_game(s, b, seeds[b])

