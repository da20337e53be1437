"""Mission: Red Planet reference engine: plain Python, one function per role and step,
to be read beside RED_PLANET.md (each function cites its M- id).

Public API: new_game, legal_actions, legal_action_mask, apply, current_player, is_over,
scores, winners, action_label. The engine asks a player only when he has a choice
beyond stop/pass (docs/red_planet/actions.md); everything else runs on its own.

Randomness: one SplitMix64 generator kept in ``state.rng`` (spacemission_env/rng.py),
drawn only here and in this order: M-S1 (mineral pool shuffle), M-S2 (ship deck shuffle),
M-S3 (seat order), M-S5 (event card shuffle), M-S6 (event pile shuffle), then M-R2 (used
ships reshuffled whenever a refill finds the deck empty). The draws of M-L5, M-O3 and
M-E2 take the top of piles shuffled there (the mineral pool, the event pile).
"""
from __future__ import annotations

import numbers
from typing import Callable

import numpy as np

from ... import rng
from ...checks import shown
from .. import actions as A
from ..components import (
    EDGES,
    EXPLORER,
    EXPLORER_STEPS,
    FEMME_FATALE,
    FIRST_DISTRIBUTION_ROUND,
    IS_BONUS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MINERAL_TOKENS,
    NUM_EVENTS,
    NUM_MINERALS,
    NUM_ROUNDS,
    NUM_SHIPS,
    NUM_ZONES,
    OUTER_ZONES,
    PILOT,
    RECRUITER,
    ROLE_PLACE,
    SABOTEUR,
    SCIENTIST,
    SECOND_DISTRIBUTION_ROUND,
    SECRET_AGENT,
    SETUP_HAND,
    SOLDIER,
    TRAVEL_AGENT,
)
from ..errors import WrongTypeError, require_int
from .labels import action_label, describe
from .scoring import (
    distribution_after_round_5,
    distribution_after_round_8,
    final_scoring,
    scores,
    winners,
)
from .state import NONE, GameState, PlayerState, check_state

GROUP_ROLES = (TRAVEL_AGENT, SOLDIER)  # place their astronauts together into one ship, compulsorily (M-O7, M-O8)

__all__ = [
    "action_label",
    "apply",
    "current_player",
    "is_legal",
    "is_over",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "scores",
    "winners",
]


# --- setup (M-S1..M-S6) ----------------------------------------------------------------
def check_num_players(num_players) -> int:
    """M-X2: 3, 4 or 5 players; WrongTypeError (a TypeError and a ValueError, as Space
    Mission's ValueError for any bad count) for another type."""
    if isinstance(num_players, bool) or not isinstance(num_players, numbers.Integral):
        raise WrongTypeError(f"num_players must be an int, got {type(num_players).__name__} {shown(num_players)}")
    if not MIN_PLAYERS <= int(num_players) <= MAX_PLAYERS:  # int(): a numpy count reads 7, not np.int64(7), as before
        raise ValueError(f"Mission: Red Planet takes {MIN_PLAYERS} to {MAX_PLAYERS} players (M-X2), "
                         f"got {shown(int(num_players))}")
    return int(num_players)


def new_game(num_players: int, seed: int | None = None) -> GameState:
    """A new game: M-S1..M-S3 drawn here, then the M-S4 choices (if any) and M-S5.
    ``seed``: an int in [0, 2**64) or None (fresh entropy); WrongTypeError (a TypeError)
    for another type, ValueError out of range."""
    n = check_num_players(num_players)
    if seed is not None:
        seed = require_int(seed, "seed")
    g = rng.seed_state(seed)
    # M-S1: the mineral pool, shuffled face down
    pool = [t for t in range(NUM_MINERALS) for _ in range(MINERAL_TOKENS[t])]
    g = rng.shuffle(g, pool)
    # M-S2: the ship deck; N ships onto pad slots 0..N-1 from the top
    deck = list(range(NUM_SHIPS))
    g = rng.shuffle(g, deck)
    slots = [deck.pop() for _ in range(n)]
    # M-S3: a random order of the seats; seat order[k] puts an astronaut on slot k
    order = list(range(n))
    g = rng.shuffle(g, order)
    players = [PlayerState() for _ in range(n)]
    crew = [[0] * n for _ in range(NUM_SHIPS)]
    for k, q in enumerate(order):
        crew[slots[k]][q] += 1
        players[q].supply -= 1
    state = GameState(
        num_players=n, rng=g, players=players, start_player=order[0], current_player=order[0], phase="setup_zone",
        mars=[[0] * n for _ in range(NUM_ZONES)], mineral_pool=pool, ship_deck=deck, slots=slots, crew=crew,
        event_pile=list(range(NUM_EVENTS)),  # in the box, in id order, until M-S5 shuffles them
    )
    next_setup_destination(state)
    return state


def next_setup_destination(state: GameState) -> None:
    """M-S4: in slot order, the owner of the setup astronaut on a hand-piloted ship
    chooses its destination; when none is left, the event cards are dealt (M-S5)."""
    for k, ship in enumerate(state.slots):
        if state.destination(ship) == NONE and any(state.crew[ship]):
            state.phase, state.pending_slot = "setup_zone", k
            state.current_player = state.crew[ship].index(1)
            return
    state.pending_slot = NONE
    deal_event_cards(state)


def choose_setup_destination(state: GameState, player: int, zone: int) -> None:
    """M-S4 (M-L2's choice, made at setup by the astronaut's owner)."""
    lay_token(state, state.slots[state.pending_slot], zone)
    next_setup_destination(state)


def deal_event_cards(state: GameState) -> None:
    """M-S5: shuffle the 24 event cards; three to each player in seat order from the start
    player; then, in that order, a player without a bonus card shows his cards (every player
    sees them), sets them aside and gets three new ones until he holds one. The bonus keep
    (M-S6) follows."""
    cards = state.event_pile
    state.rng = rng.shuffle(state.rng, cards)
    order = state.seat_order()
    for q in order:
        state.players[q].setup_hand = [cards.pop() for _ in range(SETUP_HAND)]
    for q in order:
        pl = state.players[q]
        while not any(IS_BONUS[c] for c in pl.setup_hand):
            state.set_aside += pl.setup_hand
            for viewer in range(state.num_players):  # he shows them (M-S5): every player has seen them
                see(state, viewer, pl.setup_hand)
            pl.setup_hand = [cards.pop() for _ in range(SETUP_HAND)]
        see(state, q, pl.setup_hand)
    state.event_pile = cards  # the undealt cards, until M-S6
    state.phase, state.current_player = "keep", order[0]


def keep_bonus_card(state: GameState, player: int, card: int) -> None:
    """M-S6: keep one bonus card secretly, return the others face down. After the last
    player, undealt + set-aside + returned cards are shuffled into the event pile."""
    pl = state.players[player]
    pl.bonus = [card]
    state.set_aside += [c for c in pl.setup_hand if c != card]
    pl.setup_hand = []
    order = state.seat_order()
    if player != order[-1]:
        state.current_player = order[order.index(player) + 1]
        return
    pile = state.event_pile + state.set_aside
    state.rng = rng.shuffle(state.rng, pile)
    state.event_pile, state.set_aside = pile, []
    start_round(state)


def see(state: GameState, player: int, cards: list[int]) -> None:
    """M-I2: remember event cards a player has seen."""
    pl = state.players[player]
    pl.seen = sorted(set(pl.seen) | set(cards))


# --- the round (M-R1..M-R8) ------------------------------------------------------------
def start_round(state: GameState) -> None:
    """M-R1: step 1 (refill, rounds 2-10), then step 2 from the start player."""
    if state.round > 1:
        refill_pad(state)
    for pl in state.players:
        pl.commit, pl.acted = NONE, False
    state.last_actor = NONE
    state.phase, state.current_player = "commit", state.start_player


def refill_pad(state: GameState) -> None:
    """M-R2: draw ships into the free pad slots (left, landed or destroyed); a draw that
    finds the deck empty first replaces it by the shuffled used ships."""
    for k in range(state.num_players):
        if state.slots[k] == NONE:
            if not state.ship_deck:
                state.ship_deck, state.used_ships = state.used_ships, []
                state.rng = rng.shuffle(state.rng, state.ship_deck)
            state.slots[k] = state.ship_deck.pop()


def commit_role(state: GameState, player: int, role: int) -> None:
    """M-R3: the card goes face down; the next player in seat order commits. After the
    last one the roles are called (M-R4)."""
    pl = state.players[player]
    pl.hand.remove(role)
    pl.commit = role
    order = state.seat_order()
    if player != order[-1]:
        state.current_player = order[order.index(player) + 1]
    else:
        call_next_turn(state)


def call_next_turn(state: GameState) -> None:
    """M-R4: roles are called 1 to 9; players who chose the called role act in seat order
    from the start player. When all have acted: landing (M-R7) and end of round (M-R8)."""
    order = state.seat_order()
    waiting = [q for q in order if not state.players[q].acted]
    if not waiting:
        land_ships(state)
        end_of_round(state)
        return
    player = min(waiting, key=lambda q: (state.players[q].commit, order.index(q)))
    state.current_player, state.role, state.last_actor = player, state.players[player].commit, player
    state.placed_slots, state.steps_left = [], 0
    if state.role == TRAVEL_AGENT and not placement_actions(state):
        end_turn(state)  # M-O7: no ship with 3 free seats (or fewer than 3 astronauts): the turn is lost
        return
    continue_placement(state)


def continue_placement(state: GameState) -> None:
    """M-R5: the placement first (while there is a choice), then the ability."""
    if placement_actions(state):
        state.phase = "place"
    else:
        begin_ability(state)


def begin_ability(state: GameState) -> None:
    """M-R5: the ability after the placement; offered only when it can act on something
    (declining is always allowed, M-R5). The Recruiter's ability needs no choice (M-O1)."""
    state.steps_left = EXPLORER_STEPS if state.role == EXPLORER else 0
    if ability_actions(state):
        state.phase = "ability"
    else:
        end_turn(state)


def end_turn(state: GameState) -> None:
    """M-R6: the card goes to the discard pile; M-O1: the Recruiter takes all back."""
    player = state.current_player
    pl = state.players[player]
    pl.discard = sorted(pl.discard + [state.role])
    if state.role == RECRUITER:
        recruiter(state, player)
    pl.acted = True
    state.role, state.placed_slots, state.steps_left = NONE, [], 0
    call_next_turn(state)


def end_of_round(state: GameState) -> None:
    """M-R8: the last to act takes the start-player token; the round marker advances;
    distributions after rounds 5 and 8 (M-P1, M-P2), final scoring after 10 (M-P3)."""
    state.start_player = state.last_actor
    if state.round == FIRST_DISTRIBUTION_ROUND:
        distribution_after_round_5(state)
    elif state.round == SECOND_DISTRIBUTION_ROUND:
        distribution_after_round_8(state)
    elif state.round == NUM_ROUNDS:
        final_scoring(state)
        state.phase, state.current_player = "over", NONE  # M-X1
        return
    state.round += 1
    start_round(state)


# --- ships (M-L1..M-L6) ------------------------------------------------------------------
def can_board(state: GameState, player: int, slot: int) -> bool:
    """M-L1 with the role's constraints: a pad ship with a free seat, an astronaut in
    supply; Secret Agent: two different ships (M-O4); Travel Agent and Soldier: the whole
    group into one ship with enough free seats (M-O7, M-O8)."""
    role = state.role
    if not 0 <= slot < state.num_players or not state.on_pad(slot):
        return False
    placed = len(state.placed_slots)
    need = ROLE_PLACE[role] if role in GROUP_ROLES else 1
    if placed >= ROLE_PLACE[role] or (role in GROUP_ROLES and placed):
        return False
    if role == SECRET_AGENT and slot in state.placed_slots:
        return False
    return state.free_seats(state.slots[slot]) >= need and state.players[player].supply >= need


def placement_actions(state: GameState) -> list[int]:
    player = state.current_player
    legal = [A.START["place"] + k for k in range(state.num_players) if can_board(state, player, k)]
    if legal and state.role not in GROUP_ROLES:
        legal.append(A.START["stop"])  # M-L1: fewer than allowed; M-O7/M-O8: compulsory when possible
    return legal


def place(state: GameState, player: int, slot: int) -> None:
    """M-L1: one astronaut (Travel Agent, Soldier: the group) onto the ship in ``slot``;
    a first astronaut on a ship without destination asks for one (M-L2)."""
    if board(state, player, slot):
        return
    place_rest_of_group(state, player, slot)
    continue_placement(state)


def stop_placing(state: GameState, player: int) -> None:
    """M-L1: place no more this turn."""
    begin_ability(state)


def board(state: GameState, player: int, slot: int) -> bool:
    """One astronaut aboard; True when the ship now waits for its destination (M-L2).
    A full ship launches at once (M-L3)."""
    ship = state.slots[slot]
    state.crew[ship][player] += 1
    state.players[player].supply -= 1
    state.placed_slots.append(slot)
    if state.destination(ship) == NONE:
        state.phase, state.pending_slot = "destination", slot
        return True
    if state.free_seats(ship) == 0:
        launch(state, slot)
    return False


def place_rest_of_group(state: GameState, player: int, slot: int) -> None:
    """M-O7, M-O8: the Travel Agent's and Soldier's astronauts all go into one ship."""
    if state.role in GROUP_ROLES:
        while len(state.placed_slots) < ROLE_PLACE[state.role]:
            board(state, player, slot)


def choose_destination(state: GameState, player: int, zone: int) -> None:
    """M-L2: the first placer lays a token of his choice on a hand-piloted ship."""
    slot = state.pending_slot
    ship = state.slots[slot]
    lay_token(state, ship, zone)
    state.pending_slot = NONE
    if state.free_seats(ship) == 0:
        launch(state, slot)
    place_rest_of_group(state, player, slot)
    continue_placement(state)


def lay_token(state: GameState, ship: int, zone: int) -> None:
    """M-C6: a destination token from supply onto a ship (a token already there returns)."""
    return_token(state, ship)
    state.token_supply[zone] -= 1
    state.token[ship] = zone


def return_token(state: GameState, ship: int) -> None:
    if state.token[ship] != NONE:
        state.token_supply[state.token[ship]] += 1
        state.token[ship] = NONE


def launch(state: GameState, slot: int) -> None:
    """M-L3: the ship leaves the pad and is in the air until step 4."""
    state.airborne.append(slot)


def land_ships(state: GameState) -> None:
    """M-L4 (step 4): in launch order each ship lands in its destination; its astronauts
    enter the zone (M-L5), its token returns, the ship goes to the used pile. M-L6: an
    empty ship lands nothing and reveals nothing."""
    for slot in state.airborne:
        ship = state.slots[slot]
        if any(state.crew[ship]):
            zone = state.destination(ship)
            for q in range(state.num_players):
                state.mars[zone][q] += state.crew[ship][q]
            state.crew[ship] = [0] * state.num_players
            reveal_mineral(state, zone)
        return_token(state, ship)
        state.used_ships.append(ship)
        state.slots[slot] = NONE
    state.airborne = []


def reveal_mineral(state: GameState, zone: int) -> None:
    """M-L5: astronauts entering a zone without a mineral token draw one from the pool."""
    if state.mineral[zone] == NONE:
        state.mineral[zone] = state.mineral_pool.pop()


# --- the roles (M-O1..M-O9) ----------------------------------------------------------------
def recruiter(state: GameState, player: int) -> None:
    """M-O1: after the turn all used role cards, this one included, return to the hand."""
    pl = state.players[player]
    pl.hand, pl.discard = sorted(pl.hand + pl.discard), []


def explorer(state: GameState, player: int, src: int, dst: int) -> None:
    """M-O2: one step of an own astronaut to a neighbouring zone; up to 3 steps, each
    chosen after the previous. M-L5: entering an unrevealed zone reveals its mineral."""
    state.mars[src][player] -= 1
    state.mars[dst][player] += 1
    reveal_mineral(state, dst)
    state.steps_left -= 1
    if not ability_actions(state):
        end_turn(state)


def scientist_draw(state: GameState, player: int) -> None:
    """M-O3(a), M-E1: the top event card; a bonus card goes secretly to his hand, a
    discovery card onto a free outer zone of his choice, or out of the game face down
    when all seven hold one."""
    card = state.event_pile.pop()
    see(state, player, [card])
    if IS_BONUS[card]:
        state.players[player].bonus.append(card)
    elif any(state.discovery[z] == NONE for z in OUTER_ZONES):
        state.drawn, state.phase = card, "discovery"
        return
    else:  # out of the game face down: only the drawer knows which card (M-E1)
        state.removed_cards.append(card)
        state.removed_by.append(player)
    end_turn(state)


def scientist_lay_discovery(state: GameState, player: int, zone: int) -> None:
    """M-E1: the drawn discovery card goes face down onto a free outer zone."""
    state.discovery[zone], state.discovery_owner[zone] = state.drawn, player
    state.drawn = NONE
    end_turn(state)


def scientist_look(state: GameState, player: int, zone: int) -> None:
    """M-O3(b): look secretly at one discovery card on Mars."""
    see(state, player, [state.discovery[zone]])
    state.looked[zone] = sorted(set(state.looked[zone]) | {player})
    end_turn(state)


def secret_agent(state: GameState, player: int, slot: int) -> None:
    """M-O4: launch one pad ship that is not full (an empty one too)."""
    launch(state, slot)
    end_turn(state)


def femme_fatale(state: GameState, player: int, slot: int, colour: int) -> None:
    """M-O5: replace one astronaut of another colour aboard (pad or air) with one of hers;
    the replaced one returns to its owner's supply; the count aboard is unchanged."""
    ship = state.slots[slot]
    state.crew[ship][colour] -= 1
    state.players[colour].supply += 1
    state.crew[ship][player] += 1
    state.players[player].supply -= 1
    end_turn(state)


def saboteur(state: GameState, player: int, slot: int) -> None:
    """M-O6: destroy a pad ship: its astronauts go to the LiSM, its token returns, the
    ship goes to the used pile (its slot is refilled next round, M-R2)."""
    ship = state.slots[slot]
    for q in range(state.num_players):
        state.players[q].lism += state.crew[ship][q]
    state.crew[ship] = [0] * state.num_players
    return_token(state, ship)
    state.used_ships.append(ship)
    state.slots[slot] = NONE
    end_turn(state)


def soldier(state: GameState, player: int, zone: int, colour: int) -> None:
    """M-O8: kill one astronaut (any colour) in an outer zone: it goes to the LiSM."""
    state.mars[zone][colour] -= 1
    state.players[colour].lism += 1
    end_turn(state)


def pilot(state: GameState, player: int, slot: int, zone: int) -> None:
    """M-O9: lay a token of another zone on a ship with a destination, pad or air."""
    lay_token(state, state.slots[slot], zone)
    end_turn(state)


def pass_ability(state: GameState, player: int) -> None:
    """M-R5: abilities are optional (the Explorer stops stepping)."""
    end_turn(state)


def ability_actions(state: GameState) -> list[int]:
    """The role's ability choices, pass excluded (M-O1..M-O9)."""
    q, role, n = state.current_player, state.role, state.num_players
    S = A.START
    if role == EXPLORER and state.steps_left > 0:
        return [S["move"] + i for i, (a, _b) in enumerate(EDGES) if state.mars[a][q] > 0]
    if role == SCIENTIST:
        legal = [S["draw"]] if state.event_pile else []
        return legal + [S["look"] + z for z in range(NUM_ZONES) if state.discovery[z] != NONE]
    if role == SECRET_AGENT:
        return [S["launch"] + k for k in range(n) if state.on_pad(k) and state.free_seats(state.slots[k]) > 0]
    if role == FEMME_FATALE and state.players[q].supply > 0:
        return [S["seduce"] + k * A.COLOURS + c for k in range(n) if state.slots[k] != NONE
                for c in range(n) if c != q and state.crew[state.slots[k]][c] > 0]
    if role == SABOTEUR:
        return [S["sabotage"] + k for k in range(n) if state.on_pad(k)]
    if role == SOLDIER:
        return [S["kill"] + z * A.COLOURS + c for z in OUTER_ZONES for c in range(n) if state.mars[z][c] > 0]
    if role == PILOT:
        return [S["pilot"] + k * NUM_ZONES + z for k in range(n) if state.slots[k] != NONE
                and state.destination(state.slots[k]) != NONE
                for z in range(NUM_ZONES) if z != state.destination(state.slots[k]) and state.token_supply[z] > 0]
    return []  # Recruiter (automatic), Travel Agent (none), an Explorer without steps


# --- legality and apply -------------------------------------------------------------------
def legal_actions(state: GameState) -> list[int]:
    """Legal action ids of the current player, ascending (empty once the game is over)."""
    check_state(state)
    phase, q = state.phase, state.current_player
    S = A.START
    if phase in ("setup_zone", "destination"):
        kind = "setup_zone" if phase == "setup_zone" else "destination"
        return [S[kind] + z for z in range(NUM_ZONES) if state.token_supply[z] > 0]  # M-C6
    if phase == "keep":
        return sorted(A.encode("keep", c) for c in state.players[q].setup_hand if IS_BONUS[c])
    if phase == "commit":
        return [S["commit"] + r for r in state.players[q].hand]
    if phase == "place":
        return placement_actions(state)
    if phase == "ability":
        return ability_actions(state) + [S["pass"]]
    if phase == "discovery":
        return [S["discovery"] + z for z in OUTER_ZONES if state.discovery[z] == NONE]
    return []


def legal_action_mask(state: GameState) -> np.ndarray:
    """bool[NUM_ACTIONS]; all False once the game is over."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    mask[legal_actions(state)] = True
    return mask


def is_legal(state: GameState, action) -> bool:
    A.decode(action)  # ValueError for a malformed id
    return int(action) in legal_actions(state)


HANDLERS: dict[str, Callable[..., None]] = {
    "setup_zone": choose_setup_destination,
    "keep": keep_bonus_card,
    "commit": commit_role,
    "place": place,
    "stop": stop_placing,
    "destination": choose_destination,
    "move": explorer,
    "draw": scientist_draw,
    "look": scientist_look,
    "discovery": scientist_lay_discovery,
    "launch": secret_agent,
    "seduce": femme_fatale,
    "sabotage": saboteur,
    "kill": soldier,
    "pilot": pilot,
    "pass": pass_ability,
}


def apply(state: GameState, action) -> None:
    """Play ``action`` for the current player. ValueError naming the action when it is
    malformed or not legal now (the game over included), WrongTypeError (a TypeError and a
    ValueError) when it is not an integer, TypeError for a state of another kind; the state
    is then unchanged."""
    check_state(state)
    kind, args = A.decode(action)
    if state.phase == "over":
        raise ValueError("the game is over; no action can be applied")
    if int(action) not in legal_actions(state):
        raise ValueError(f"action {int(action)} ({describe(kind, args)}) is not legal now "
                         f"(phase {state.phase!r}, player {state.current_player})")
    HANDLERS[kind](state, state.current_player, *args)


def current_player(state: GameState) -> int:
    """The seat to decide now; -1 once the game is over."""
    check_state(state)
    return state.current_player


def is_over(state: GameState) -> bool:
    check_state(state)
    return state.phase == "over"
