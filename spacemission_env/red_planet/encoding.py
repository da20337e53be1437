"""Reference observation encoder of Mission: Red Planet: the information state of one seat
(M-I1..M-I5), as one fixed-size int8 vector.

Plain Python/numpy over a reference ``GameState``; a batched engine must reproduce the
same vector bit for bit. Three types (``OBSERVATION_TYPES``), one layout convention
with Space Mission's (spacemission_env/space_mission/encoding.py):

- ``"info"``: what lies open to the observer (M-I1) and his own private knowledge (M-I2):
  the pad and airborne ships, Mars, every seat's supply, LiSM, counters, number of bonus
  cards and remaining role cards, this round's revealed roles, the used ship pile, the
  sizes of the piles; his own bonus cards, his own commit, the discovery cards on Mars he
  laid or looked at, his setup cards while he keeps a bonus card (M-S6) and the drawn
  discovery card while he lays it (M-E1). While roles are chosen (M-I4) it shows nothing
  of this round's other commits: a committed card counts among its owner's remaining
  role cards until its role is called (M-R4); after role k is called the revealed roles
  are shown and every unrevealed player holds a remaining card above k. The cards of M-I2
  that have left his view (returned at setup, drawn and removed) are memory: ``recall``.
- ``"recall"``: the perfect-recall information state (M-I5): the same blocks with the
  *recall* block ``seen_cards`` filled: every event card the observer has ever seen
  (setup hands, set-aside and returned cards, cards drawn, laid, looked at or removed).
  The public history is summarised by the public state (remaining role cards, used
  ships, Mars); earlier turns are not replayed.
- ``"seer"``: the whole state (debugging, teacher policies): the recall-filled info blocks,
  then the ``seer_*`` blocks (every commit, bonus hand, setup hand, seen set and discovery
  card; the orders of the event pile, ship deck and mineral pool). Only the random
  generator's state is left out.

Egocentric: seat blocks are indexed by *relative seat* (the observer is 0, then clockwise)
and padded to 5 seats, pad slots (the action space's ship names) by absolute slot, padded
to 5; the size does not depend on the player count. Counters and leftovers are clipped to
127 (no game reaches it); every other feature is at most 34. Layout:
``observation_layout()``, rendered in docs/red_planet/observation.md.
"""
from __future__ import annotations

import functools

import numpy as np

from ..checks import check_choice, is_int, shown
from ..obs_layout import block_layout, decode_blocks
from .components import (
    DISCOVERY_CARDS,
    MAX_PLAYERS,
    MINERAL_TOKENS,
    NUM_EVENTS,
    NUM_MINERAL_TOKENS,
    NUM_MINERALS,
    NUM_ROLES,
    NUM_SHIPS,
    NUM_ZONES,
    SHIP_CAPACITY,
    SHIP_DEST,
)
from .rules.state import NONE, PHASES, GameState

OBSERVATION_TYPES = ("info", "recall", "seer")
CLIP = 127
S = MAX_PLAYERS  # seats padded to 5
K = MAX_PLAYERS  # pad slots padded to 5 (M-S2: one per player)
Z = NUM_ZONES
R = NUM_ROLES
E = NUM_EVENTS
NUM_DISCOVERY = len(DISCOVERY_CARDS)
DISCOVERY_INDEX = {c: i for i, c in enumerate(DISCOVERY_CARDS)}

# (name, shape, meaning); sizes multiply out. Info blocks first, then seer-only blocks.
_INFO_BLOCKS = (
    # the decision being asked
    ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES) + " (the decision asked; 'over' at the end)"),
    ("role", (R,), "one-hot role whose turn is in progress (M-R4), 0 outside step 3's turns"),
    ("placed", (K,), "[slot] astronauts placed this turn into that slot's ship (M-L1, M-O4)"),
    ("steps_left", (1,), "Explorer steps left (M-O2)"),
    ("pending_slot", (K,), "[slot] one-hot ship awaiting its destination (M-S4, M-L2)"),
    ("drawn", (NUM_DISCOVERY,), "[discovery index] the drawn discovery card, for its drawer only (M-E1, M-I2)"),
    # game clock and seats
    ("round", (1,), "round 1-10 (M-R1)"),
    ("own_colour", (S,), "[colour] one-hot the observer's own colour (absolute seat): the colour ids that "
                         "the seduce and kill actions name (M-O5, M-O8) are absolute"),
    ("seat_present", (S,), "[relative seat] 1 if that seat is in the game (observer = 0)"),
    ("acting_seat", (S,), "[relative seat] one-hot seat to act"),
    ("start_seat", (S,), "[relative seat] one-hot start player (M-S3, M-R8)"),
    ("last_actor", (S,), "[relative seat] one-hot seat of this round's latest turn of step 3 (M-R8)"),
    # per player, public (M-I1)
    ("supply", (S,), "[relative seat] astronauts in supply"),
    ("lism", (S,), "[relative seat] astronauts in the Lost-in-Space-Memorial (M-O6, M-O8)"),
    ("removed", (S,), "[relative seat] astronauts removed by Radioaktive Strahlen (M-E8)"),
    ("counters", (S, NUM_MINERALS), "[relative seat, type] counters: ice, sylvanite, celerium; clipped to 127"),
    ("bonus_count", (S,), "[relative seat] bonus cards held (M-I1)"),
    ("roles_left", (S, R), "[relative seat, role] remaining role cards: the hand with an unrevealed commit (M-I1 ruling, M-I4)"),
    ("revealed_role", (S, R), "[relative seat, role] one-hot role revealed this round (called, M-R4)"),
    ("acted", (S,), "[relative seat] took (or lost) his turn of this round's step 3"),
    # Mars (M-I1)
    ("mars", (Z, S), "[zone, relative seat] astronauts on Mars"),
    ("mineral", (Z, NUM_MINERALS), "[zone, type] one-hot revealed mineral token (M-L5); all 0 = none yet"),
    ("leftover", (Z,), "[zone] counters lying in the zone (M-P1, M-P2); clipped to 127"),
    ("discovery_present", (Z,), "[zone] a face-down discovery card lies there (M-E1)"),
    ("discovery_owner", (Z, S), "[zone, relative seat] one-hot who laid it"),
    ("looked", (Z, S), "[zone, relative seat] that seat looked at its card (M-O3(b))"),
    ("token_supply", (Z,), "[zone] destination tokens in supply (M-C6)"),
    # ships (M-I1): by pad slot, the action space's name for a ship
    ("slot_ship", (K, NUM_SHIPS), "[slot, ship id] one-hot ship in the slot (pad or air); all 0 = empty slot"),
    ("slot_airborne", (K,), "[slot] the slot's ship is in the air (M-L3)"),
    ("slot_launch_order", (K,), "[slot] 1-based launch order of an airborne ship (landing order, M-L4), else 0"),
    ("slot_capacity", (K,), "[slot] capacity (M-C3)"),
    ("slot_free", (K,), "[slot] free seats"),
    ("slot_hand_piloted", (K,), "[slot] no printed destination (M-C3)"),
    ("slot_token", (K, Z), "[slot, zone] one-hot destination token laid on it (M-L2, M-O9)"),
    ("slot_destination", (K, Z), "[slot, zone] one-hot zone it flies to (token, else printed, M-L4); all 0 = none yet"),
    ("slot_crew", (K, S), "[slot, relative seat] astronauts aboard by colour"),
    ("used_ships", (NUM_SHIPS,), "[ship id] 1 if in the used pile (landed or destroyed, M-R2)"),
    ("ship_deck_size", (1,), "ships in the deck (M-I1)"),
    ("event_pile_size", (1,), "event cards in the draw pile (M-I1)"),
    ("removed_cards_count", (1,), "discovery cards removed from the game face down (M-E1)"),
    ("mineral_pool", (NUM_MINERALS,), "[type] tokens still in the pool, by type (14 minus those revealed; M-C4)"),
    ("mineral_pool_size", (1,), "tokens in the pool"),
    # own private knowledge (M-I2)
    ("own_bonus", (E,), "[event card id] own bonus cards (M-S6, M-O3(a))"),
    ("own_commit", (R,), "[role] one-hot own commit this round (M-R3), revealed or not"),
    ("own_setup_hand", (E,), "[event card id] own setup cards while keeping a bonus card (M-S5, M-S6)"),
    ("known_discovery", (Z, NUM_DISCOVERY), "[zone, discovery index] the card on Mars he laid or looked at (M-I2)"),
    ("seen_cards", (E,), "[event card id] every event card he has seen; *recall* (M-I5: zeros in info)"),
)
_SEER_BLOCKS = (
    ("seer_commit", (S, R), "[relative seat, role] one-hot every commit, unrevealed too"),
    ("seer_bonus", (S, E), "[relative seat, event card id] every bonus hand"),
    ("seer_setup_hand", (S, E), "[relative seat, event card id] every setup hand (M-S5)"),
    ("seer_seen", (S, E), "[relative seat, event card id] every player's seen cards"),
    ("seer_discovery", (Z, NUM_DISCOVERY), "[zone, discovery index] every discovery card on Mars"),
    ("seer_drawn", (NUM_DISCOVERY,), "[discovery index] the drawn card awaiting its zone"),
    ("seer_removed", (E,), "[event card id] discovery cards removed from the game"),
    ("seer_set_aside", (E,), "[event card id] set-aside and returned setup cards (M-S5, M-S6)"),
    ("seer_event_pile", (E,), "[event card id] position in the event pile from the top (1 = next drawn), 0 if absent"),
    ("seer_ship_deck", (NUM_SHIPS,), "[ship id] position in the ship deck from the top (1 = next drawn), 0 if absent"),
    ("seer_mineral_pool", (NUM_MINERAL_TOKENS, NUM_MINERALS), "[position from the top, type] one-hot mineral pool order"),
)


def _check_type(observation_type) -> str:
    return check_choice(observation_type, "observation_type", OBSERVATION_TYPES)


def _blocks(observation_type: str):
    _check_type(observation_type)
    if observation_type in ("info", "recall"):  # one layout; recall fills the *recall* block
        return _INFO_BLOCKS
    if observation_type == "seer":
        return _INFO_BLOCKS + _SEER_BLOCKS
    raise ValueError(f"unknown observation_type {observation_type!r}; expected one of {OBSERVATION_TYPES}")


def _layout(observation_type: str) -> tuple:
    return _cached_layout(_check_type(observation_type))


@functools.cache
def _cached_layout(observation_type: str) -> tuple:
    return block_layout(_blocks(observation_type))


def observation_layout(observation_type: str = "info") -> list[tuple[str, int, int, str]]:
    """(name, start, stop, meaning) per block; the vector is their concatenation."""
    return list(_layout(observation_type))


def observation_size(observation_type: str = "info") -> int:
    return _layout(observation_type)[-1][2]


def observation_shapes(observation_type: str = "info") -> dict[str, tuple[int, ...]]:
    return {name: shape for name, shape, _ in _blocks(observation_type)}


def decode(obs, observation_type: str = "info") -> dict[str, np.ndarray]:
    """Named views of the observation blocks: ``obs`` is one observation [D] or a batch
    [N, D] of any dtype; each block has the shape of ``observation_shapes`` (batched:
    [N, *shape]) and is a view into ``obs`` (no copy) when ``obs`` is a numpy array.
    ValueError for an unknown type or a last dimension other than D::

        v = decode(observe(state), "info")
        v["mars"][:, 0]          # [10]: own astronauts per zone
        v["roles_left"][1]       # [9]: the next seat's remaining role cards
    """
    return decode_blocks(obs, _layout(observation_type), observation_shapes(observation_type), observation_type)


def revealed(state: GameState, player: int) -> bool:
    """M-R4, M-I4: a commit is open once its role has been called: in step 3, roles up to
    the one in execution are called (the turn in progress's role included)."""
    commit = state.players[player].commit
    return commit != NONE and state.role != NONE and commit <= state.role or state.players[player].acted


def observe(state: GameState, player: int | None = None, observation_type: str = "info") -> np.ndarray:
    """The int8 observation vector of ``player`` (default: the seat to act; name the
    player once the game is over). ValueError for an unknown type or seat, TypeError for
    a player that is not an int."""
    layout = _blocks(observation_type)  # validates the type
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a red planet GameState, got {type(state).__name__}")
    n = state.num_players
    me = state.current_player if player is None else player
    if not is_int(me):
        raise TypeError(f"player must be an int seat, got {type(player).__name__} {shown(player)}")
    if not 0 <= me < n:
        raise ValueError(f"player must be a seat in 0..{n - 1} (name it once the game is over), got {shown(player)}")
    me = int(me)
    o = {name: np.zeros(shape, dtype=np.int64) for name, shape, _ in layout}
    rel = [(q - me) % n for q in range(n)]
    mine = state.players[me]
    # the decision being asked
    o["phase"][PHASES.index(state.phase)] = 1
    if state.role != NONE:
        o["role"][state.role] = 1
    for k in state.placed_slots:
        o["placed"][k] += 1
    o["steps_left"][0] = state.steps_left
    if state.pending_slot != NONE:
        o["pending_slot"][state.pending_slot] = 1
    if state.drawn != NONE and state.current_player == me:  # only the drawer sees it (M-E1)
        o["drawn"][DISCOVERY_INDEX[state.drawn]] = 1
    # clock and seats
    o["round"][0] = state.round
    o["own_colour"][me] = 1
    o["seat_present"][:n] = 1
    if state.current_player != NONE:
        o["acting_seat"][rel[state.current_player]] = 1
    o["start_seat"][rel[state.start_player]] = 1
    if state.last_actor != NONE:
        o["last_actor"][rel[state.last_actor]] = 1
    # per player (M-I1); an unrevealed commit stays among the remaining cards (M-I4)
    for q, pl in enumerate(state.players):
        r = rel[q]
        o["supply"][r] = pl.supply
        o["lism"][r] = pl.lism
        o["removed"][r] = pl.removed
        o["counters"][r] = np.minimum(pl.counters, CLIP)
        o["bonus_count"][r] = len(pl.bonus)
        o["roles_left"][r, pl.hand] = 1
        if pl.commit != NONE:
            if revealed(state, q):
                o["revealed_role"][r, pl.commit] = 1
            elif not pl.acted:
                o["roles_left"][r, pl.commit] = 1
        o["acted"][r] = pl.acted
    # Mars (M-I1)
    for z in range(Z):
        for q in range(n):
            o["mars"][z, rel[q]] = state.mars[z][q]
        if state.mineral[z] != NONE:
            o["mineral"][z, state.mineral[z]] = 1
        o["leftover"][z] = min(state.leftover[z], CLIP)
        if state.discovery[z] != NONE:
            o["discovery_present"][z] = 1
            o["discovery_owner"][z, rel[state.discovery_owner[z]]] = 1
            if state.discovery_owner[z] == me or me in state.looked[z]:  # M-I2
                o["known_discovery"][z, DISCOVERY_INDEX[state.discovery[z]]] = 1
        for q in state.looked[z]:
            o["looked"][z, rel[q]] = 1
        o["token_supply"][z] = state.token_supply[z]
    # ships (M-I1)
    for k, ship in enumerate(state.slots):
        if ship == NONE:
            continue
        o["slot_ship"][k, ship] = 1
        if k in state.airborne:
            o["slot_airborne"][k] = 1
            o["slot_launch_order"][k] = state.airborne.index(k) + 1
        o["slot_capacity"][k] = SHIP_CAPACITY[ship]
        o["slot_free"][k] = state.free_seats(ship)
        o["slot_hand_piloted"][k] = SHIP_DEST[ship] == NONE
        if state.token[ship] != NONE:
            o["slot_token"][k, state.token[ship]] = 1
        if state.destination(ship) != NONE:
            o["slot_destination"][k, state.destination(ship)] = 1
        for q in range(n):
            o["slot_crew"][k, rel[q]] = state.crew[ship][q]
    o["used_ships"][state.used_ships] = 1
    o["ship_deck_size"][0] = len(state.ship_deck)
    o["event_pile_size"][0] = len(state.event_pile)
    o["removed_cards_count"][0] = len(state.removed_cards)
    o["mineral_pool"][:] = [MINERAL_TOKENS[t] - state.mineral.count(t) for t in range(NUM_MINERALS)]
    o["mineral_pool_size"][0] = len(state.mineral_pool)
    # own private knowledge (M-I2)
    o["own_bonus"][mine.bonus] = 1
    if mine.commit != NONE:
        o["own_commit"][mine.commit] = 1
    o["own_setup_hand"][mine.setup_hand] = 1
    if observation_type != "info":  # M-I5: perfect recall
        o["seen_cards"][mine.seen] = 1
    if observation_type == "seer":
        _fill_seer(state, rel, o)
    vec = np.concatenate([o[name].reshape(-1) for name, _, _ in layout])
    assert vec.min() >= -128 and vec.max() <= 127, "observation feature out of int8 range"
    return vec.astype(np.int8)


def _fill_seer(state: GameState, rel: list[int], o: dict[str, np.ndarray]) -> None:
    for q, pl in enumerate(state.players):
        r = rel[q]
        if pl.commit != NONE:
            o["seer_commit"][r, pl.commit] = 1
        o["seer_bonus"][r, pl.bonus] = 1
        o["seer_setup_hand"][r, pl.setup_hand] = 1
        o["seer_seen"][r, pl.seen] = 1
    for z in range(Z):
        if state.discovery[z] != NONE:
            o["seer_discovery"][z, DISCOVERY_INDEX[state.discovery[z]]] = 1
    if state.drawn != NONE:
        o["seer_drawn"][DISCOVERY_INDEX[state.drawn]] = 1
    o["seer_removed"][state.removed_cards] = 1
    o["seer_set_aside"][state.set_aside] = 1
    for depth, c in enumerate(reversed(state.event_pile)):  # the top is the last element
        o["seer_event_pile"][c] = depth + 1
    for depth, ship in enumerate(reversed(state.ship_deck)):
        o["seer_ship_deck"][ship] = depth + 1
    for depth, t in enumerate(reversed(state.mineral_pool)):
        o["seer_mineral_pool"][depth, t] = 1
