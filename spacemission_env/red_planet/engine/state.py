"""Batch state of the Red Planet fast engine: one int32 record per game plus its
generator, with every field of the reference ``GameState`` (red_planet/rules/state.py)
as a named numpy view.

Storage: ``record`` int32 [B, RECORD_SIZE] holds every field at a fixed offset
(``OFFSETS[name]``; seat dimensions padded to MAX_PLAYERS = 5, so the offsets are
compile-time constants of the kernels), ``rng`` uint64 [B] the SplitMix64 states. The
kernels take (record, rng) -- two arrays whatever the number of fields, which keeps
their calls cheap and their compilation short. Each field of FIELDS is also an attribute:
a view of the record shaped [B, *shape] with "P" = num_players (writes go through),
except ``rng`` (its own array) and ``current_player`` (int8 [B]) and ``terminated``
(bool [B]), plain arrays the API refreshes from the record after every kernel call.

Conventions, as in the reference: ordered piles are an array plus a length:
``event_pile[b, :event_pile_len[b]]`` is bottom..top (top = last); likewise
``mineral_pool``, ``ship_deck``, ``used_ships``, ``set_aside``, ``removed_cards``,
``airborne`` (launch order), ``placed_slots``, each seat's ``bonus`` (order received)
and ``setup_hand``. Sorted sets are 0/1 masks: ``hand``, ``discard`` [P, roles],
``seen`` [P, cards], ``looked`` [zones, P]. ``phase`` is the index of
rules.state.PHASES; ``terminated`` is ``phase == over``. ``current_player`` is never
-1: a finished game keeps its last start player there (the reference says NONE; the
conversion writes NONE).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...checks import check_batch_memory, shown
from ...engine_common import check_rows

from ..components import (
    BONUS_CARDS,
    MAX_PLAYERS,
    NUM_EVENTS,
    NUM_MINERAL_TOKENS,
    NUM_MINERALS,
    NUM_ROLES,
    NUM_SHIPS,
    NUM_ZONES,
    ROLE_PLACE,
)
from ..rules.game import check_num_players

Z, E, R, NS = NUM_ZONES, NUM_EVENTS, NUM_ROLES, NUM_SHIPS
MAX_PLACE = max(ROLE_PLACE)
NB = len(BONUS_CARDS)  # bonus cards one seat can hold
NMIN = NUM_MINERALS
SETUP_CARDS = 3  # a setup hand (M-S5)

# (name, shape after the batch dim (P = num_players), dtype)
FIELDS = (
    ("rng", (), np.uint64),  # SplitMix64 state (spacemission_env/rng.py); its own array
    ("player_count", (), np.int32),  # the batch's num_players, in every record (the kernels read it)
    ("current_player", (), np.int8),  # also a plain int8 array (see above)
    ("terminated", (), np.bool_),  # also a plain bool array  # phase == over (M-X1)
    ("phase", (), np.int32),  # index of rules.state.PHASES
    ("round", (), np.int32),  # 1..10 (M-R1)
    ("start_player", (), np.int32),  # M-S3, M-R8
    ("last_actor", (), np.int32),  # M-R8
    ("role", (), np.int32),  # role of the turn in progress, -1 outside
    ("steps_left", (), np.int32),  # M-O2
    ("drawn", (), np.int32),  # M-E1
    ("pending_slot", (), np.int32),  # M-S4, M-L2
    ("placed_slots", (MAX_PLACE,), np.int32),  # slots boarded this turn (M-L1)
    ("placed_len", (), np.int32),
    # Mars (M-C2, M-L5, M-P1..M-P3)
    ("mars", (Z, "P"), np.int32),
    ("mineral", (Z,), np.int32),
    ("leftover", (Z,), np.int32),
    ("discovery", (Z,), np.int32),
    ("discovery_owner", (Z,), np.int32),
    ("looked", (Z, "P"), np.int32),  # M-O3(b)
    ("removed_cards", (E,), np.int32),
    ("removed_cards_len", (), np.int32),
    ("removed_by", (E,), np.int32),  # who drew each removed card (M-E1), NONE if unknown
    ("mineral_pool", (NUM_MINERAL_TOKENS,), np.int32),  # M-S1
    ("mineral_pool_len", (), np.int32),
    # event cards (M-S5, M-S6, M-E1)
    ("event_pile", (E,), np.int32),
    ("event_pile_len", (), np.int32),
    ("set_aside", (E,), np.int32),
    ("set_aside_len", (), np.int32),
    # ships (M-C3, M-C6, M-L1..M-L6)
    ("ship_deck", (NS,), np.int32),
    ("ship_deck_len", (), np.int32),
    ("slots", ("P",), np.int32),
    ("airborne", ("P",), np.int32),  # slots in launch order (M-L4)
    ("airborne_len", (), np.int32),
    ("used_ships", (NS,), np.int32),
    ("used_ships_len", (), np.int32),
    ("crew", (NS, "P"), np.int32),
    ("token", (NS,), np.int32),
    ("token_supply", (Z,), np.int32),
    # per seat
    ("supply", ("P",), np.int32),
    ("lism", ("P",), np.int32),
    ("removed", ("P",), np.int32),
    ("hand", ("P", R), np.int32),
    ("discard", ("P", R), np.int32),
    ("commit", ("P",), np.int32),
    ("acted", ("P",), np.int32),
    ("bonus", ("P", NB), np.int32),
    ("bonus_len", ("P",), np.int32),
    ("counters", ("P", NMIN), np.int32),
    ("setup_hand", ("P", SETUP_CARDS), np.int32),
    ("setup_hand_len", ("P",), np.int32),
    ("seen", ("P", E), np.int32),  # M-I2
)

FIELD_NAMES = tuple(f[0] for f in FIELDS)
PAD = MAX_PLAYERS  # seat dimensions in the record


def _layout() -> tuple[dict, dict, int]:
    offsets, padded, k = {}, {}, 0
    for name, shape, _dtype in FIELDS:
        if name == "rng":
            continue
        padded[name] = tuple(PAD if d == "P" else int(d) for d in shape)
        offsets[name] = k
        k += int(np.prod(padded[name], dtype=np.int64))
    return offsets, padded, k


OFFSETS, PADDED_SHAPES, RECORD_SIZE = _layout()
# the kernels' offsets (module constants: compile-time)
F_PLAYER_COUNT = OFFSETS["player_count"]
F_CURRENT_PLAYER = OFFSETS["current_player"]
F_TERMINATED = OFFSETS["terminated"]
F_PHASE = OFFSETS["phase"]
F_ROUND = OFFSETS["round"]
F_START_PLAYER = OFFSETS["start_player"]
F_LAST_ACTOR = OFFSETS["last_actor"]
F_ROLE = OFFSETS["role"]
F_STEPS_LEFT = OFFSETS["steps_left"]
F_DRAWN = OFFSETS["drawn"]
F_PENDING_SLOT = OFFSETS["pending_slot"]
F_PLACED_SLOTS = OFFSETS["placed_slots"]
F_PLACED_LEN = OFFSETS["placed_len"]
F_MARS = OFFSETS["mars"]
F_MINERAL = OFFSETS["mineral"]
F_LEFTOVER = OFFSETS["leftover"]
F_DISCOVERY = OFFSETS["discovery"]
F_DISCOVERY_OWNER = OFFSETS["discovery_owner"]
F_LOOKED = OFFSETS["looked"]
F_REMOVED_CARDS = OFFSETS["removed_cards"]
F_REMOVED_CARDS_LEN = OFFSETS["removed_cards_len"]
F_REMOVED_BY = OFFSETS["removed_by"]
F_MINERAL_POOL = OFFSETS["mineral_pool"]
F_MINERAL_POOL_LEN = OFFSETS["mineral_pool_len"]
F_EVENT_PILE = OFFSETS["event_pile"]
F_EVENT_PILE_LEN = OFFSETS["event_pile_len"]
F_SET_ASIDE = OFFSETS["set_aside"]
F_SET_ASIDE_LEN = OFFSETS["set_aside_len"]
F_SHIP_DECK = OFFSETS["ship_deck"]
F_SHIP_DECK_LEN = OFFSETS["ship_deck_len"]
F_SLOTS = OFFSETS["slots"]
F_AIRBORNE = OFFSETS["airborne"]
F_AIRBORNE_LEN = OFFSETS["airborne_len"]
F_USED_SHIPS = OFFSETS["used_ships"]
F_USED_SHIPS_LEN = OFFSETS["used_ships_len"]
F_CREW = OFFSETS["crew"]
F_TOKEN = OFFSETS["token"]
F_TOKEN_SUPPLY = OFFSETS["token_supply"]
F_SUPPLY = OFFSETS["supply"]
F_LISM = OFFSETS["lism"]
F_REMOVED = OFFSETS["removed"]
F_HAND = OFFSETS["hand"]
F_DISCARD = OFFSETS["discard"]
F_COMMIT = OFFSETS["commit"]
F_ACTED = OFFSETS["acted"]
F_BONUS = OFFSETS["bonus"]
F_BONUS_LEN = OFFSETS["bonus_len"]
F_COUNTERS = OFFSETS["counters"]
F_SETUP_HAND = OFFSETS["setup_hand"]
F_SETUP_HAND_LEN = OFFSETS["setup_hand_len"]
F_SEEN = OFFSETS["seen"]
_SHAPES = {name: shape for name, shape, _dtype in FIELDS}
_VIEWED = tuple(n for n in FIELD_NAMES if n not in ("rng", "current_player", "terminated"))


class BatchState:
    """B games of one player count (see FIELDS and the module docstring). Attributes:
    every field name, ``record``, ``batch_size``, ``num_players`` and ``all_games``
    (bool [B] of True, read-only)."""

    def __init__(self, batch_size: int, num_players: int):
        num_players = check_num_players(num_players)
        if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {shown(batch_size)}")
        check_batch_memory(int(batch_size), RECORD_SIZE * 4 + 8, "batch_size")  # int32 record, uint64 rng
        self.batch_size = int(batch_size)
        self.num_players = int(num_players)
        self.record = np.zeros((self.batch_size, RECORD_SIZE), dtype=np.int32)
        self.record[:, F_PLAYER_COUNT] = self.num_players
        self.rng = np.zeros(self.batch_size, dtype=np.uint64)
        self._views()

    if TYPE_CHECKING:  # for type checkers only: the FIELDS are set by name (setattr), one array each
        def __getattr__(self, name: str) -> np.ndarray: ...

    def _views(self) -> None:
        B, P = self.batch_size, self.num_players
        for name in _VIEWED:
            off, shape = OFFSETS[name], PADDED_SHAPES[name]
            size = int(np.prod(shape, dtype=np.int64))
            view = self.record[:, off:off + size].reshape((B,) + shape)
            cut = tuple(slice(0, P) if d == "P" else slice(None) for d in _SHAPES[name])
            setattr(self, name, view[(slice(None),) + cut])
        self.current_player = self.record[:, F_CURRENT_PLAYER].astype(np.int8)
        self.terminated = self.record[:, F_TERMINATED] != 0
        self.all_games = np.ones(B, dtype=np.bool_)  # the default ``select`` of step / mask
        self.all_games.flags.writeable = False

    def sync(self) -> None:
        """Refresh ``current_player`` and ``terminated`` from the record (after a kernel)."""
        self.current_player[:] = self.record[:, F_CURRENT_PLAYER]
        np.not_equal(self.record[:, F_TERMINATED], 0, out=self.terminated)

    def arrays(self) -> tuple:
        """The field arrays in FIELDS order (views of the record, rng its own array)."""
        return tuple(getattr(self, n) for n in FIELD_NAMES)

    def nbytes(self) -> int:
        """Bytes held: the record, the generators and the two plain per-game arrays."""
        return self.record.nbytes + self.rng.nbytes + self.current_player.nbytes + self.terminated.nbytes

    @property
    def is_over(self) -> np.ndarray:
        return self.terminated

    def _with(self, record: np.ndarray, rng: np.ndarray) -> BatchState:
        out = BatchState.__new__(BatchState)
        out.batch_size, out.num_players = record.shape[0], self.num_players
        out.record, out.rng = record, rng
        out._views()
        return out

    def copy(self) -> BatchState:
        return self._with(self.record.copy(), self.rng.copy())

    def __getstate__(self) -> dict:
        """``pickle`` and ``copy.deepcopy`` keep the record and the generators only: copying
        the field views one by one would cut their link to the record, which the kernels
        write, and the copy's fields would stay frozen while its games went on."""
        return {"batch_size": self.batch_size, "num_players": self.num_players, "record": self.record,
                "rng": self.rng}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views()

    def take(self, rows) -> BatchState:
        """A new batch of the games ``self[rows]``, in that order; rows may repeat (copies
        of one game); every game evolves exactly as it would have in place. ValueError
        unless ``rows`` is a 1-d integer array of indices into this batch; no rows give an
        empty batch, as in Space Mission (``engine_common.check_rows``)."""
        rows = check_rows(rows, self.batch_size)
        return self._with(np.ascontiguousarray(self.record[rows]), np.ascontiguousarray(self.rng[rows]))

    def __repr__(self) -> str:
        return (f"BatchState(batch_size={self.batch_size}, num_players={self.num_players}, "
                f"running={int((~self.terminated).sum())})")
