"""Ability kernels of the nine roles (M-O1..M-O9) and the Scientist's discovery card
(M-E1), bit-identical to rules/game.py; each ends the turn (M-R6) unless it asks for
another decision (the Explorer's next step, the drawn discovery card's zone)."""
from __future__ import annotations

from ...engine.jit import njit
from .core import (
    IS_BONUS_T,
    NONE,
    OUTER_T,
    PH_DISCOVERY,
    Z,
    has_ability,
    see,
)
from .flow import end_turn, launch, lay_token, reveal_mineral, return_token, to_used_pile


@njit
def explorer(s, b, q, src, dst):
    """M-O2: one step of an own astronaut to a neighbouring zone (M-L5 reveals)."""
    s.mars[b, src, q] -= 1
    s.mars[b, dst, q] += 1
    reveal_mineral(s, b, dst)
    s.steps_left[b] -= 1
    if not has_ability(s, b):
        end_turn(s, b)


@njit
def scientist_draw(s, b, q):
    """M-O3(a), M-E1: a bonus card to the hand; a discovery card onto a free outer zone
    of his choice, or out of the game when all outer zones hold one."""
    s.event_pile_len[b] -= 1
    card = s.event_pile[b, s.event_pile_len[b]]
    see(s, b, q, card)
    if IS_BONUS_T[card]:
        s.bonus[b, q, s.bonus_len[b, q]] = card
        s.bonus_len[b, q] += 1
    else:
        for z in range(Z):
            if OUTER_T[z] and s.discovery[b, z] == NONE:
                s.drawn[b] = card
                s.phase[b] = PH_DISCOVERY
                return
        s.removed_cards[b, s.removed_cards_len[b]] = card
        s.removed_cards_len[b] += 1
    end_turn(s, b)


@njit
def scientist_lay_discovery(s, b, q, zone):
    """M-E1: the drawn card face down onto a free outer zone."""
    s.discovery[b, zone] = s.drawn[b]
    s.discovery_owner[b, zone] = q
    s.drawn[b] = NONE
    end_turn(s, b)


@njit
def scientist_look(s, b, q, zone):
    """M-O3(b): look secretly at a discovery card on Mars (that he looked is public)."""
    see(s, b, q, s.discovery[b, zone])
    s.looked[b, zone, q] = True
    end_turn(s, b)


@njit
def secret_agent(s, b, q, slot):
    """M-O4: launch one pad ship that is not full."""
    launch(s, b, slot)
    end_turn(s, b)


@njit
def femme_fatale(s, b, q, slot, colour):
    """M-O5: replace an astronaut of another colour aboard with one of hers."""
    ship = s.slots[b, slot]
    s.crew[b, ship, colour] -= 1
    s.supply[b, colour] += 1
    s.crew[b, ship, q] += 1
    s.supply[b, q] -= 1
    end_turn(s, b)


@njit
def saboteur(s, b, q, slot):
    """M-O6: destroy a pad ship: its crew to the LiSM, its token back, the ship to the used pile."""
    ship = s.slots[b, slot]
    for c in range(s.supply.shape[1]):
        s.lism[b, c] += s.crew[b, ship, c]
        s.crew[b, ship, c] = 0
    return_token(s, b, ship)
    to_used_pile(s, b, slot)
    end_turn(s, b)


@njit
def soldier(s, b, q, zone, colour):
    """M-O8: kill one astronaut in an outer zone: to the LiSM."""
    s.mars[b, zone, colour] -= 1
    s.lism[b, colour] += 1
    end_turn(s, b)


@njit
def pilot(s, b, q, slot, zone):
    """M-O9: lay a token of another zone on a ship with a destination, pad or air."""
    lay_token(s, b, s.slots[b, slot], zone)
    end_turn(s, b)
