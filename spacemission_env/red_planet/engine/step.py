"""Legality and step kernels: the legal mask of every decision (rules/game.py
``legal_actions``) and the batched step, which validates every stepped game's action
before any game changes."""
from __future__ import annotations

import numpy as np

from ...jit import njit
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
    A_COMMIT,
    A_DESTINATION,
    A_DISCOVERY,
    A_DRAW,
    A_KEEP,
    A_KILL,
    A_LAUNCH,
    A_LOOK,
    A_MOVE,
    A_PASS,
    A_PILOT,
    A_PLACE,
    A_SABOTAGE,
    A_SEDUCE,
    A_SETUP_ZONE,
    A_STOP,
    BONUS_INDEX,
    COLOURS,
    EDGE_FROM,
    EDGE_TO,
    GROUP_ROLE,
    IS_BONUS_T,
    NONE,
    NR,
    OUTER_T,
    PH_ABILITY,
    PH_COMMIT,
    PH_DESTINATION,
    PH_DISCOVERY,
    PH_KEEP,
    PH_OVER,
    PH_PLACE,
    PH_SETUP_ZONE,
    Z,
    ability_legal,
    ability_row,
    boardable,
)
from .flow import (
    NEXT_BEGIN_ABILITY,
    NEXT_END_TURN,
    NEXT_NONE,
    choose_destination,
    place,
    resolve,
)
from .setup import choose_setup_destination, commit_role, keep_bonus_card, new_game
from .state import (
    F_CURRENT_PLAYER,
    F_DISCOVERY,
    F_HAND,
    F_PHASE,
    F_PLAYER_COUNT,
    F_ROLE,
    F_SETUP_HAND,
    F_SETUP_HAND_LEN,
    F_TERMINATED,
    F_TOKEN_SUPPLY,
    SETUP_CARDS,
    R,
)

BONUS_CARDS_T = np.array(BONUS_CARDS, dtype=np.int8)


@njit
def mask_row(g, rng, b, row):
    """The legal actions of game b into row (bool [243]); all True once it is over."""
    row[:] = False
    ph = g[b, F_PHASE]
    q = g[b, F_CURRENT_PLAYER]
    if ph == PH_SETUP_ZONE or ph == PH_DESTINATION:  # M-S4, M-L2: a zone with a token left (M-C6)
        base = A_SETUP_ZONE if ph == PH_SETUP_ZONE else A_DESTINATION
        for z in range(Z):
            if g[b, F_TOKEN_SUPPLY + z] > 0:
                row[base + z] = True
    elif ph == PH_KEEP:  # M-S6
        for j in range(g[b, F_SETUP_HAND_LEN + q]):
            c = g[b, F_SETUP_HAND + q * SETUP_CARDS + j]
            if IS_BONUS_T[c]:
                row[A_KEEP + BONUS_INDEX[c]] = True
    elif ph == PH_COMMIT:  # M-R3
        for r in range(NR):
            if g[b, F_HAND + q * R + r]:
                row[A_COMMIT + r] = True
    elif ph == PH_PLACE:  # M-L1; stopping early is allowed except for the groups (M-O7, M-O8)
        bits = boardable(g, rng, b)
        for k in range(g[b, F_PLAYER_COUNT]):
            row[A_PLACE + k] = (bits >> k) & 1
        if bits and not GROUP_ROLE[g[b, F_ROLE]]:
            row[A_STOP] = True
    elif ph == PH_ABILITY:  # M-O1..M-O9; declining is always allowed (M-R5)
        ability_row(g, rng, b, row, True)
        row[A_PASS] = True
    elif ph == PH_DISCOVERY:  # M-E1
        for z in range(Z):
            if OUTER_T[z] and g[b, F_DISCOVERY + z] == NONE:
                row[A_DISCOVERY + z] = True
    elif ph == PH_OVER:
        row[:] = True


@njit(inline="always")  # into step_games: a call passing the arrays costs ~10 ns a game
def is_legal(g, rng, b, a):
    """Whether mask_row(g, rng, b)[a] is True for any int64 a (out-of-range ids are not),
    for a running game: mask_row's conditions for that one id, so a step need not build
    the whole row (tests/env/red_planet/engine/test_api.py checks every id against the mask)."""
    ph = g[b, F_PHASE]
    q = g[b, F_CURRENT_PLAYER]
    if ph == PH_SETUP_ZONE or ph == PH_DESTINATION:
        z = a - (A_SETUP_ZONE if ph == PH_SETUP_ZONE else A_DESTINATION)
        return 0 <= z < Z and g[b, F_TOKEN_SUPPLY + z] > 0
    if ph == PH_KEEP:
        i = a - A_KEEP
        if i < 0 or i >= A_COMMIT - A_KEEP:
            return False
        for j in range(g[b, F_SETUP_HAND_LEN + q]):
            if g[b, F_SETUP_HAND + q * SETUP_CARDS + j] == BONUS_CARDS_T[i]:
                return True
        return False
    if ph == PH_COMMIT:
        r = a - A_COMMIT
        return 0 <= r < NR and g[b, F_HAND + q * R + r] != 0
    if ph == PH_PLACE:
        if a == A_STOP:
            return not GROUP_ROLE[g[b, F_ROLE]] and boardable(g, rng, b) != 0
        k = a - A_PLACE
        return 0 <= k < g[b, F_PLAYER_COUNT] and (boardable(g, rng, b) >> k) & 1 != 0
    if ph == PH_ABILITY:
        return a == A_PASS or ability_legal(g, rng, b, a)
    if ph == PH_DISCOVERY:
        z = a - A_DISCOVERY
        return 0 <= z < Z and OUTER_T[z] and g[b, F_DISCOVERY + z] == NONE
    return False


@njit
def legal_mask(out, select, g, rng):
    for b in range(out.shape[0]):
        if select[b]:
            mask_row(g, rng, b, out[b])


@njit
def sample_mask(mask, u, out):
    """engine_common.sample_legal's draw, the same ids for the same u: out[b] = the k-th
    legal id of row b, k = floor(u[b] * #legal); -1 for a row with none. The count is one
    vectorised pass; the k-th id is then found by skipping whole 16-id chunks, so a row
    of 243 ids costs less than half of sample_legal's gather of every legal id."""
    A = mask.shape[1]
    for b in range(mask.shape[0]):
        row = mask[b]
        n = 0
        for a in range(A):
            n += row[a]
        if n == 0:
            out[b] = -1
            continue
        k = min(int(u[b] * n), n - 1)
        a = 0
        while a + 16 <= A:
            c = 0
            for j in range(16):
                c += row[a + j]
            if c > k:
                break
            k -= c
            a += 16
        while not row[a] or k > 0:
            k -= row[a]
            a += 1
        out[b] = a


@njit(inline="always")  # into step_games: a call passing the arrays costs ~10 ns a game
def apply_action(g, rng, b, a):
    """Play legal action a for game b's current player (rules/game.py HANDLERS); returns
    what is left to do (flow.NEXT_*)."""
    q = g[b, F_CURRENT_PLAYER]
    if a >= A_PASS:
        return NEXT_END_TURN  # M-R5: decline the ability
    if a >= A_PILOT:
        i = a - A_PILOT
        return pilot(g, rng, b, q, i // Z, i % Z)
    if a >= A_KILL:
        i = a - A_KILL
        return soldier(g, rng, b, q, i // COLOURS, i % COLOURS)
    if a >= A_SABOTAGE:
        return saboteur(g, rng, b, q, a - A_SABOTAGE)
    if a >= A_SEDUCE:
        i = a - A_SEDUCE
        return femme_fatale(g, rng, b, q, i // COLOURS, i % COLOURS)
    if a >= A_LAUNCH:
        return secret_agent(g, rng, b, q, a - A_LAUNCH)
    if a >= A_DISCOVERY:
        return scientist_lay_discovery(g, rng, b, q, a - A_DISCOVERY)
    if a >= A_LOOK:
        return scientist_look(g, rng, b, q, a - A_LOOK)
    if a >= A_DRAW:
        return scientist_draw(g, rng, b, q)
    if a >= A_MOVE:
        return explorer(g, rng, b, q, EDGE_FROM[a - A_MOVE], EDGE_TO[a - A_MOVE])
    if a >= A_DESTINATION:
        return choose_destination(g, rng, b, q, a - A_DESTINATION)
    if a >= A_STOP:
        return NEXT_BEGIN_ABILITY  # M-L1: place no more
    if a >= A_PLACE:
        return place(g, rng, b, q, a - A_PLACE)
    if a >= A_COMMIT:
        return commit_role(g, rng, b, q, a - A_COMMIT)
    if a >= A_KEEP:
        keep_bonus_card(g, rng, b, q, BONUS_CARDS_T[a - A_KEEP])
    else:
        choose_setup_destination(g, rng, b, a - A_SETUP_ZONE)
    return NEXT_NONE


@njit
def step_games(actions, select, g, rng):
    """Step every selected running game; returns -1, or the first game whose action is
    out of range or illegal (then no game has changed)."""
    B = actions.shape[0]
    for b in range(B):
        if select[b] and not g[b, F_TERMINATED] and not is_legal(g, rng, b, actions[b]):
            return b
    for b in range(B):
        if select[b] and not g[b, F_TERMINATED]:
            resolve(g, rng, b, apply_action(g, rng, b, actions[b]))
    return -1


@njit
def init_games(select, seeds, g, rng):
    """(Re)initialise the games b with select[b]: rules.new_game(num_players, seeds[b])."""
    for b in range(select.shape[0]):
        if select[b]:
            new_game(g, rng, b, seeds[b])

