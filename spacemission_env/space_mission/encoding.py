"""Reference observation encoder: the information state of one seat (R-I1..R-I5).

Plain Python/numpy over a reference ``GameState``; the fast engine's
``engine.observe`` produces the identical int8 vector (tested). Three types
(``OBSERVATION_TYPES``):

- ``"info"``: the *table view* of the rule set: what lies open to the observer now.
  Public facts (R-I1: the board, counts, the discard pile, who has looked through
  which pile and how many rounds ago, every seat's last turn), own hand and
  collection (R-I2), the pile being looked at during the observer's own tile
  decision (R-I3); own reservations by type and the last-visit table only under
  ``yucata`` (R-A4c, R-I3; zeros under ``schmidt``). Never the draw order, other
  hands, unseen piles, other players' reservation/collection types (R-I4).
- ``"recall"``: the perfect-recall information state (R-I5): the info blocks with
  the observer's own reservation types and last-visit table always filled, under
  both rule sets (for ``yucata`` the same content as ``"info"``).
- ``"seer"``: the whole state (all hands, reservations, collections, piles, the
  draw pile's contents as card flags, every last-visit table), for debugging and
  teacher policies: the recall-filled info blocks, then the ``seer_*`` blocks.

Egocentric: seat blocks are rotated so the observer is relative seat 0 and padded
to 5 seats, and the size D does not depend on the player count or rule set.
Everything is int8; the round is clipped to 127 and accompanied by the rounds
left before the round limit (also clipped), so nothing overflows silently. Layout:
``observation_layout()``, rendered in docs/observation.md; ``decode`` gives named,
batched views of the blocks (also ``spacemission_env.decode``).
"""
from __future__ import annotations

import functools

import numpy as np

from ..checks import check_choice, is_int, shown
from ..obs_layout import block_layout, decode_blocks
from .actions import ACTION_KINDS
from .components import (
    CARD_COORDS,
    END_THRESHOLD,
    HAND_SIZE,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_SCAN,
    RING_SIZE,
    SPACE,
)

OBSERVATION_TYPES = ("info", "recall", "seer")  # engine/observe.py takes the index as its mode
CLIP = 127
S = MAX_PLAYERS  # seats are padded to 5
CARD_FEATURES = 15  # per card: one-hot jump (1-4, ?), scan (1-4, ?), landing (1-4, ?)
TURN_KINDS = ACTION_KINDS[:6]  # kinds of a turn's actions (a tile decision belongs to its action)
NK = len(TURN_KINDS)

# (name, shape, meaning); sizes multiply out. Info blocks first, then seer-only blocks.
_INFO_BLOCKS = (
    ("tile_decision", (1,), "1 while the acting player must choose a tile (phase 'tile')"),
    ("pending", (3,), "one-hot action awaiting the tile decision: scan, develop, discover"),
    ("actions_left", (1,), "actions left in the acting player's turn (R-T2; 0 once over)"),
    ("round", (1,), "round number (R-T1), clipped to 127"),
    ("rounds_left", (1,), "max_rounds - round: rounds after this one before the round limit (R-E3), clipped to 127"),
    ("end_triggered", (1,), "R-E1 threshold reached; this is the last round"),
    ("game_over", (1,), "the game has ended (R-E1 or R-E3)"),
    ("round_limit", (1,), "the game ended at the round limit max_rounds (R-E3)"),
    ("revealed_count", (1,), "revealed space tiles (R-V1)"),
    ("revealed_to_end", (1,), "revealed space tiles still needed to end the game (R-E1), >= 0"),
    ("draw_pile_size", (1,), "cards in the draw pile (R-I1)"),
    ("discard_pile_size", (1,), "cards in the discard pile (R-I1)"),
    ("seat_present", (S,), "[relative seat] 1 if that seat is in the game (observer = seat 0)"),
    ("acting_seat", (S,), "[relative seat] one-hot acting player"),
    ("start_seat", (S,), "[relative seat] one-hot start player (R-T1, R-S5)"),
    ("ring_planet", (RING_SIZE,), "[position] planet id 0-11 on the ring (R-S1)"),
    ("ring_jump", (RING_SIZE, 4), "[position, value 1-4] one-hot jump coordinate (R-C1)"),
    ("ring_scan", (RING_SIZE, 4), "[position, value 1-4] one-hot scan coordinate"),
    ("ring_landing", (RING_SIZE, 4), "[position, value 1-4] the two landing coordinates (multi-hot)"),
    ("pile_size", (RING_SIZE,), "[position] tiles in the pile (R-I1)"),
    ("revealed", (RING_SIZE,), "[position] 1 if the pile's space tiles are face up (R-V1)"),
    ("revealed_space", (RING_SIZE,), "[position] face-up space tiles in the pile"),
    ("station", (RING_SIZE, S), "[position, relative seat] one-hot station owner (R-A5)"),
    ("probes", (RING_SIZE, S), "[position, relative seat] probes (= reservations) on the planet (R-I1)"),
    ("ship", (S, RING_SIZE), "[relative seat, position] one-hot ship position; all 0 = on the jump gate"),
    ("supply", (S,), "[relative seat] chips in supply (R-C4)"),
    ("gate_probes", (S,), "[relative seat] probes on the jump gate (R-A2, R-P1)"),
    ("hand_size", (S,), "[relative seat] cards in hand (R-I1)"),
    ("collected", (S,), "[relative seat] point tiles collected, all types together (R-I1)"),
    ("scanned", (S, RING_SIZE), "[relative seat, position] has scanned that planet (public action; R-A5)"),
    ("visited", (S, RING_SIZE), "[relative seat, position] 1 if that seat has looked through the pile (scan, develop, discover; public, R-I1)"),
    ("visit_age", (S, RING_SIZE), "[relative seat, position] rounds since that seat last looked through it, clipped to 127 (R-I1)"),
    ("last_turn_kind", (S, 2, NK), "[relative seat, action, kind] one-hot kind of each action of the seat's last turn (the acting seat: its turn so far): top up, jump, fly, scan, develop, discover (R-I1)"),
    ("last_turn_target", (S, 2, RING_SIZE), "[relative seat, action, position] one-hot ring position jumped or flown to, or acted on (scan, develop, discover); none for top up"),
    ("last_turn_tile", (S, 2), "[relative seat, action] 1 if the action took a tile (the pile shrank; its type is private)"),
    ("last_turn_cards", (S, 2, NUM_CARDS), "[relative seat, action, card id] 1 for each card the action played or discarded"),
    ("discard_cards", (NUM_CARDS,), "[card id] 1 if the card lies in the discard pile (played since the last reshuffle, R-I1)"),
    ("own_hand", (HAND_SIZE, CARD_FEATURES), "[slot, feature] own card per canonical slot: one-hot jump 1-4,?, scan 1-4,?, landing 1-4,? (R-I2)"),
    ("own_collection", (NUM_POINT_TYPES,), "[tile type] own collected tiles by type (R-I2)"),
    ("own_reservations", (RING_SIZE, NUM_POINT_TYPES), "[position, tile type] own reserved tiles by type; *recall* (R-A4c: zeros in info under schmidt)"),
    ("pile_seen", (NUM_TILE_TYPES,), "[tile type] the pile the observer looks at during its own tile decision (R-I3), else 0"),
    ("last_visit_pile", (RING_SIZE, NUM_TILE_TYPES), "[position, tile type] the pile after the observer's last visit (when: visited/visit_age of seat 0); *recall* (R-I3, R-I5)"),
)
_SEER_BLOCKS = (
    ("seer_piles", (RING_SIZE, NUM_TILE_TYPES), "[position, tile type] every pile's contents"),
    ("seer_draw_cards", (NUM_CARDS,), "[card id] 1 if the card is in the draw pile (order not encoded)"),
    ("seer_hands", (S, HAND_SIZE, CARD_FEATURES), "[relative seat, slot, feature] every hand, as own_hand"),
    ("seer_collections", (S, NUM_POINT_TYPES), "[relative seat, tile type] every collection"),
    ("seer_reservations", (RING_SIZE, S, NUM_POINT_TYPES), "[position, relative seat, tile type] every reservation"),
    ("seer_last_visit_pile", (S, RING_SIZE, NUM_TILE_TYPES), "[relative seat, position, tile type] every seat's pile after its last visit"),
)


def _blocks(observation_type: str):
    check_choice(observation_type, "observation_type", OBSERVATION_TYPES)
    if observation_type in ("info", "recall"):  # same layout; recall fills the *recall* blocks always
        return _INFO_BLOCKS
    if observation_type == "seer":
        return _INFO_BLOCKS + _SEER_BLOCKS
    raise ValueError(f"unknown observation_type {observation_type!r}; expected one of {OBSERVATION_TYPES}")


def _layout(observation_type: str) -> tuple:
    # checked before the cache: a list was lru_cache's "unhashable type", 3 a plain ValueError
    return _cached_layout(check_choice(observation_type, "observation_type", OBSERVATION_TYPES))


@functools.lru_cache(maxsize=None)
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
    """Named views of the observation blocks, for bot writers and tests.

    ``obs``: one observation [D] or a batch [N, D], any dtype (int8 from the envs,
    float32 after a cast). Returns {block name: array of shape ``shape`` or
    [N, *shape]} with the shapes of ``observation_shapes(observation_type)``; each
    is a view into ``obs`` (no copy) when ``obs`` is a numpy array. ValueError for
    an unknown type or a last dimension other than D::

        from spacemission_env import decode
        v = decode(obs_batch)                    # obs_batch: [N, D]
        v["own_hand"]                            # [N, 5, 15]
        v["probes"][:, :, 0]                     # [N, 8]: own probes per ring position
    """
    return decode_blocks(obs, _layout(observation_type), observation_shapes(observation_type), observation_type)


def _card_features(card: int) -> np.ndarray:
    f = np.zeros(CARD_FEATURES, dtype=np.int8)
    for colour in range(3):
        v = int(CARD_COORDS[card, colour])
        if v:
            f[colour * 5 + v - 1] = 1  # value 5 = joker '?'
    return f


CARD_FEATURE_TABLE = np.stack([_card_features(c) for c in range(NUM_CARDS)])  # [card id, feature]


def observe(state, player: int | None = None, observation_type: str = "info") -> np.ndarray:
    """The int8 observation vector of ``player`` (default: the acting player)."""
    layout = _blocks(observation_type)  # validates the type
    seer = observation_type == "seer"
    blocks = {name: np.zeros(shape, dtype=np.int64) for name, shape, _ in layout}
    n = state.num_players
    me = state.current_player if player is None else player
    if not is_int(me):  # before: int(player) read 1.5, True or "1" as seat 1
        raise TypeError(f"player must be an int seat, got {type(player).__name__} {shown(player)}")
    if not 0 <= me < n:
        raise ValueError(f"player must be a seat in 0..{n - 1}, got {shown(player)}")
    me = int(me)
    rel = lambda q: (q - me) % n  # noqa: E731
    # R-A4c / R-I3 / R-I5: own reservation types and the last-visit table: the yucata table
    # view shows them; a player with perfect recall (recall, seer) remembers them anyway
    full = state.rules == "yucata" or observation_type != "info"
    o = blocks
    o["tile_decision"][0] = state.phase == "tile"
    if state.pending is not None:
        o["pending"][("scan", "develop", "discover").index(state.pending)] = 1
    o["actions_left"][0] = state.actions_left
    o["round"][0] = min(state.round, CLIP)
    o["rounds_left"][0] = min(max(state.max_rounds - state.round, 0), CLIP)
    o["end_triggered"][0] = state.end_triggered
    o["game_over"][0] = state.is_over
    o["round_limit"][0] = state.round_limit
    rc = state.revealed_count
    o["revealed_count"][0] = rc
    o["revealed_to_end"][0] = max(int(END_THRESHOLD[n]) - rc, 0)
    o["draw_pile_size"][0] = len(state.draw_pile)
    o["discard_pile_size"][0] = len(state.discard_pile)
    o["seat_present"][:n] = 1
    o["acting_seat"][rel(state.current_player)] = 1
    o["start_seat"][rel(state.start_player)] = 1
    for p in range(RING_SIZE):
        planet = state.ring[p]
        o["ring_planet"][p] = planet
        o["ring_jump"][p, PLANET_JUMP[planet] - 1] = 1
        o["ring_scan"][p, PLANET_SCAN[planet] - 1] = 1
        for v in PLANET_LANDING[planet]:
            o["ring_landing"][p, v - 1] += 1
        o["pile_size"][p] = sum(state.piles[p])
        o["revealed"][p] = state.revealed[p]
        o["revealed_space"][p] = state.piles[p][SPACE] if state.revealed[p] else 0
        if state.stations[p] >= 0:
            o["station"][p, rel(state.stations[p])] = 1
        for q in range(n):
            o["probes"][p, rel(q)] = sum(state.reservations[p][q])
    for q, pl in enumerate(state.players):
        r = rel(q)
        if pl.ship >= 0:
            o["ship"][r, pl.ship] = 1
        o["supply"][r] = pl.supply
        o["gate_probes"][r] = pl.gate_probes
        o["hand_size"][r] = len(pl.hand)
        o["collected"][r] = sum(pl.collection)
        o["scanned"][r] = pl.scanned
        for p in range(RING_SIZE):  # R-I1: who looked through which pile, and when
            if pl.last_seen_round[p]:
                o["visited"][r, p] = 1
                o["visit_age"][r, p] = min(state.round - pl.last_seen_round[p], CLIP)
        for k, act in enumerate(pl.last_turn):  # R-I1: every action is taken openly
            o["last_turn_kind"][r, k, TURN_KINDS.index(act.kind)] = 1
            if act.target >= 0:
                o["last_turn_target"][r, k, act.target] = 1
            o["last_turn_tile"][r, k] = act.tile
            o["last_turn_cards"][r, k, act.cards] = 1
    for c in state.discard_pile:
        o["discard_cards"][c] = 1
    mine = state.players[me]
    for s, c in enumerate(mine.hand):
        o["own_hand"][s] = CARD_FEATURE_TABLE[c]
    o["own_collection"][:] = mine.collection
    if state.phase == "tile" and state.current_player == me:  # R-I3: the pile being looked through
        o["pile_seen"][:] = state.piles[mine.ship]
    if full:
        for p in range(RING_SIZE):
            o["own_reservations"][p] = state.reservations[p][me]
        _last_visit_piles(mine, o["last_visit_pile"])
    if seer:
        for p in range(RING_SIZE):
            o["seer_piles"][p] = state.piles[p]
        for c in state.draw_pile:
            o["seer_draw_cards"][c] = 1
        for q, pl in enumerate(state.players):
            r = rel(q)
            for s, c in enumerate(pl.hand):
                o["seer_hands"][r, s] = CARD_FEATURE_TABLE[c]
            o["seer_collections"][r] = pl.collection
            for p in range(RING_SIZE):
                o["seer_reservations"][p, r] = state.reservations[p][q]
            _last_visit_piles(pl, o["seer_last_visit_pile"][r])
    vec = np.concatenate([blocks[name].reshape(-1) for name, _, _ in layout])
    assert vec.min() >= -128 and vec.max() <= 127, "observation feature out of int8 range"
    return vec.astype(np.int8)


def _last_visit_piles(pl, pile) -> None:
    for p in range(RING_SIZE):
        if pl.last_seen_round[p]:
            pile[p] = pl.last_seen[p]
