"""Ability kernels of the nine roles (M-O1..M-O9) and the Scientist's discovery card
(M-E1), bit-identical to rules/game.py. Each returns what follows (flow.NEXT_*): the
end of the turn (M-R6) unless it asks for another decision (the Explorer's next step,
the drawn discovery card's zone); step.resolve carries it out."""
from __future__ import annotations

from ...jit import njit
from .core import (
    IS_BONUS_T,
    NONE,
    OUTER_T,
    PH_DISCOVERY,
    Z,
    has_ability,
    see,
)
from .flow import (
    NEXT_END_TURN,
    NEXT_NONE,
    launch,
    lay_token,
    return_token,
    reveal_mineral,
    to_used_pile,
)
from .state import (
    F_BONUS,
    F_BONUS_LEN,
    F_CREW,
    F_DISCOVERY,
    F_DISCOVERY_OWNER,
    F_DRAWN,
    F_EVENT_PILE,
    F_EVENT_PILE_LEN,
    F_LISM,
    F_LOOKED,
    F_MARS,
    F_PHASE,
    F_PLAYER_COUNT,
    F_REMOVED_BY,
    F_REMOVED_CARDS,
    F_REMOVED_CARDS_LEN,
    F_SLOTS,
    F_STEPS_LEFT,
    F_SUPPLY,
    NB,
    PAD,
)


@njit
def explorer(g, rng, b, q, src, dst):
    """M-O2: one step of an own astronaut to a neighbouring zone (M-L5 reveals)."""
    g[b, F_MARS + src * PAD + q] -= 1
    g[b, F_MARS + dst * PAD + q] += 1
    reveal_mineral(g, rng, b, dst)
    g[b, F_STEPS_LEFT] -= 1
    return NEXT_NONE if has_ability(g, rng, b) else NEXT_END_TURN


@njit
def scientist_draw(g, rng, b, q):
    """M-O3(a), M-E1: a bonus card to the hand; a discovery card onto a free outer zone
    of his choice, or out of the game when all outer zones hold one."""
    g[b, F_EVENT_PILE_LEN] -= 1
    card = g[b, F_EVENT_PILE + g[b, F_EVENT_PILE_LEN]]
    see(g, rng, b, q, card)
    if IS_BONUS_T[card]:
        g[b, F_BONUS + q * NB + g[b, F_BONUS_LEN + q]] = card
        g[b, F_BONUS_LEN + q] += 1
    else:
        for z in range(Z):
            if OUTER_T[z] and g[b, F_DISCOVERY + z] == NONE:
                g[b, F_DRAWN] = card
                g[b, F_PHASE] = PH_DISCOVERY
                return NEXT_NONE
        g[b, F_REMOVED_CARDS + g[b, F_REMOVED_CARDS_LEN]] = card
        g[b, F_REMOVED_BY + g[b, F_REMOVED_CARDS_LEN]] = q  # only the drawer knows the card
        g[b, F_REMOVED_CARDS_LEN] += 1
    return NEXT_END_TURN


@njit
def scientist_lay_discovery(g, rng, b, q, zone):
    """M-E1: the drawn card face down onto a free outer zone."""
    g[b, F_DISCOVERY + zone] = g[b, F_DRAWN]
    g[b, F_DISCOVERY_OWNER + zone] = q
    g[b, F_DRAWN] = NONE
    return NEXT_END_TURN


@njit
def scientist_look(g, rng, b, q, zone):
    """M-O3(b): look secretly at a discovery card on Mars (that he looked is public)."""
    see(g, rng, b, q, g[b, F_DISCOVERY + zone])
    g[b, F_LOOKED + zone * PAD + q] = True
    return NEXT_END_TURN


@njit
def secret_agent(g, rng, b, q, slot):
    """M-O4: launch one pad ship that is not full."""
    launch(g, rng, b, slot)
    return NEXT_END_TURN


@njit
def femme_fatale(g, rng, b, q, slot, colour):
    """M-O5: replace an astronaut of another colour aboard with one of hers."""
    ship = g[b, F_SLOTS + slot]
    g[b, F_CREW + ship * PAD + colour] -= 1
    g[b, F_SUPPLY + colour] += 1
    g[b, F_CREW + ship * PAD + q] += 1
    g[b, F_SUPPLY + q] -= 1
    return NEXT_END_TURN


@njit
def saboteur(g, rng, b, q, slot):
    """M-O6: destroy a pad ship: its crew to the LiSM, its token back, the ship to the used pile."""
    ship = g[b, F_SLOTS + slot]
    for c in range(g[b, F_PLAYER_COUNT]):
        g[b, F_LISM + c] += g[b, F_CREW + ship * PAD + c]
        g[b, F_CREW + ship * PAD + c] = 0
    return_token(g, rng, b, ship)
    to_used_pile(g, rng, b, slot)
    return NEXT_END_TURN


@njit
def soldier(g, rng, b, q, zone, colour):
    """M-O8: kill one astronaut in an outer zone: to the LiSM."""
    g[b, F_MARS + zone * PAD + colour] -= 1
    g[b, F_LISM + colour] += 1
    return NEXT_END_TURN


@njit
def pilot(g, rng, b, q, slot, zone):
    """M-O9: lay a token of another zone on a ship with a destination, pad or air."""
    lay_token(g, rng, b, g[b, F_SLOTS + slot], zone)
    return NEXT_END_TURN
