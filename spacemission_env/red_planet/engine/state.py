"""Structure-of-arrays batch state of the Red Planet fast engine.

Every field is one C-contiguous numpy array whose first dimension is the batch; a
batch holds B games of ONE player count. The fields mirror the reference
``GameState`` (red_planet/rules/state.py) one to one, so a batch slot converts to and
from it exactly (engine/convert.py):

- ordered piles are a fixed-size array plus a length: ``event_pile[b, :event_pile_len[b]]``
  is bottom..top (top = last, as in the reference); likewise ``mineral_pool``,
  ``ship_deck``, ``used_ships``, ``set_aside``, ``removed_cards``, ``airborne`` (launch
  order), ``placed_slots``, each seat's ``bonus`` (order received) and ``setup_hand``;
- sorted sets are bool masks: ``hand`` and ``discard`` [P, roles], ``seen`` [P, cards],
  ``looked`` [zones, P];
- ``phase`` is the index of rules.state.PHASES; ``terminated`` is ``phase == over``.

The kernels receive the fields as one namedtuple (``Fields``) and read them by name.
``current_player`` is never -1: a finished game keeps its last start player there
(the reference's ``current_player`` is NONE then; to_reference writes NONE).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..components import (
    BONUS_CARDS,
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

# (name, shape after the batch dim (P = num_players), dtype)
FIELDS = (
    ("rng", (), np.uint64),  # SplitMix64 state (spacemission_env/rng.py)
    ("current_player", (), np.int8),
    ("terminated", (), np.bool_),  # phase == over (M-X1)
    ("phase", (), np.int8),  # index of rules.state.PHASES
    ("round", (), np.int8),  # 1..10 (M-R1)
    ("start_player", (), np.int8),  # M-S3, M-R8
    ("last_actor", (), np.int8),  # M-R8
    ("role", (), np.int8),  # role of the turn in progress, -1 outside
    ("steps_left", (), np.int8),  # M-O2
    ("drawn", (), np.int8),  # M-E1
    ("pending_slot", (), np.int8),  # M-S4, M-L2
    ("placed_slots", (MAX_PLACE,), np.int8),  # slots boarded this turn (M-L1)
    ("placed_len", (), np.int8),
    # Mars (M-C2, M-L5, M-P1..M-P3)
    ("mars", (Z, "P"), np.int8),
    ("mineral", (Z,), np.int8),
    ("leftover", (Z,), np.int32),
    ("discovery", (Z,), np.int8),
    ("discovery_owner", (Z,), np.int8),
    ("looked", (Z, "P"), np.bool_),  # M-O3b
    ("removed_cards", (E,), np.int8),
    ("removed_cards_len", (), np.int8),
    ("mineral_pool", (NUM_MINERAL_TOKENS,), np.int8),  # M-S1
    ("mineral_pool_len", (), np.int8),
    # event cards (M-S5, M-S6, M-E1)
    ("event_pile", (E,), np.int8),
    ("event_pile_len", (), np.int8),
    ("set_aside", (E,), np.int8),
    ("set_aside_len", (), np.int8),
    # ships (M-C3, M-C6, M-L1..M-L6)
    ("ship_deck", (NS,), np.int8),
    ("ship_deck_len", (), np.int8),
    ("slots", ("P",), np.int8),
    ("airborne", ("P",), np.int8),  # slots in launch order (M-L4)
    ("airborne_len", (), np.int8),
    ("used_ships", (NS,), np.int8),
    ("used_ships_len", (), np.int8),
    ("crew", (NS, "P"), np.int8),
    ("token", (NS,), np.int8),
    ("token_supply", (Z,), np.int8),
    # per seat
    ("supply", ("P",), np.int8),
    ("lism", ("P",), np.int8),
    ("removed", ("P",), np.int8),
    ("hand", ("P", R), np.bool_),
    ("discard", ("P", R), np.bool_),
    ("commit", ("P",), np.int8),
    ("acted", ("P",), np.bool_),
    ("bonus", ("P", len(BONUS_CARDS)), np.int8),
    ("bonus_len", ("P",), np.int8),
    ("counters", ("P", NUM_MINERALS), np.int32),
    ("setup_hand", ("P", 3), np.int8),
    ("setup_hand_len", ("P",), np.int8),
    ("seen", ("P", E), np.bool_),  # M-I2
)
FIELD_NAMES = tuple(f[0] for f in FIELDS)
Fields = namedtuple("Fields", FIELD_NAMES)  # what the kernels receive (module level: numba's cache pickles it)

class BatchState:
    """B games of one player count as arrays (see FIELDS). Attributes: every field name,
    plus ``batch_size``, ``num_players`` and ``all_games`` (bool [B] of True, read-only)."""

    def __init__(self, batch_size: int, num_players: int):
        num_players = check_num_players(num_players)
        if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        self.batch_size = int(batch_size)
        self.num_players = int(num_players)
        for name, shape, dtype in FIELDS:
            full = (self.batch_size,) + tuple(self.num_players if d == "P" else d for d in shape)
            setattr(self, name, np.zeros(full, dtype=dtype))
        self._set_all_games()

    def _set_all_games(self) -> None:
        self.all_games = np.ones(self.batch_size, dtype=np.bool_)  # the default ``select`` of step / mask
        self.all_games.flags.writeable = False

    def arrays(self) -> tuple:
        """The field arrays in FIELDS order."""
        return tuple(getattr(self, n) for n in FIELD_NAMES)

    def fields(self) -> Fields:
        """The field arrays as the kernels' namedtuple."""
        return Fields(*self.arrays())

    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.arrays())

    @property
    def is_over(self) -> np.ndarray:
        return self.terminated

    def copy(self) -> "BatchState":
        out = BatchState.__new__(BatchState)
        out.__dict__.update(self.__dict__)
        for n in FIELD_NAMES:
            setattr(out, n, getattr(self, n).copy())
        return out

    def take(self, rows) -> "BatchState":
        """A new batch of the games ``self[rows]``, in that order; rows may repeat (copies
        of one game); every game evolves exactly as it would have in place."""
        rows = np.asarray(rows)
        if rows.ndim != 1 or rows.dtype.kind not in "iu" or len(rows) < 1:
            raise ValueError(f"rows must be a non-empty 1-d integer array, got {rows!r}")
        if rows.min() < -self.batch_size or rows.max() >= self.batch_size:
            raise ValueError(f"rows must index the batch of {self.batch_size}, got {rows!r}")
        out = BatchState.__new__(BatchState)
        out.__dict__.update(self.__dict__)
        for n in FIELD_NAMES:
            setattr(out, n, np.ascontiguousarray(getattr(self, n)[rows]))
        out.batch_size = len(rows)
        out._set_all_games()
        return out

    def __repr__(self) -> str:
        return (f"BatchState(batch_size={self.batch_size}, num_players={self.num_players}, "
                f"running={int((~self.terminated).sum())})")
