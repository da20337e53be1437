"""Structure-of-arrays batch state of the fast engine.

Every field is one numpy array whose first dimension is the batch; a batch holds
B games of ONE configuration (player count, rule set, max rounds). The fields
mirror the reference ``GameState`` (rules/state.py) one to one, so a batch slot
converts to and from it exactly (engine/convert.py).

Card piles are fixed-size arrays plus a length: ``draw[b, :draw_len[b]]`` is the
draw pile bottom..top (top = last, as in the reference), ``discard[b, :discard_len[b]]``
the discard pile in the order cards were put on it, ``hand[b, q, :hand_len[b, q]]``
the hand sorted by card id (slot i = i-th lowest card id, docs/actions.md).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from ...checks import check_batch_memory, is_int, shown
from ...engine_common import check_rows
from ..components import (
    CARD_COORDS,
    END_THRESHOLD,
    HAND_SIZE,
    NUM_CARDS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_SCAN,
    RING_SIZE,
    TILE_COUNTS,
)
from ..config import RULE_SETS, check_game_config

RULES = RULE_SETS  # rules_id 0, 1
PHASE_MAIN, PHASE_TILE = 0, 1
PENDING_NONE, PENDING_SCAN, PENDING_DEVELOP, PENDING_DISCOVER = 0, 1, 2, 3
GATE = -1
NO_STATION = -1

# (name, shape after the batch dim (P = num_players), dtype). Order = kernel argument order.
FIELDS = (
    ("rng", (), np.uint64),  # SplitMix64 state (spacemission_env/rng.py)
    ("ring", (RING_SIZE,), np.int8),  # planet id at ring position (R-S1)
    ("piles", (RING_SIZE, NUM_TILE_TYPES), np.int8),  # tile counts per position (R-S2)
    ("revealed", (RING_SIZE,), np.bool_),  # R-V1
    ("draw", (NUM_CARDS,), np.int8),
    ("draw_len", (), np.int8),
    ("discard", (NUM_CARDS,), np.int8),
    ("discard_len", (), np.int8),
    ("hand", ("P", HAND_SIZE), np.int8),
    ("hand_len", ("P",), np.int8),
    ("supply", ("P",), np.int8),  # R-C4
    ("gate_probes", ("P",), np.int8),  # R-A2
    ("ship", ("P",), np.int8),  # ring position or GATE (R-S3)
    ("collection", ("P", NUM_POINT_TYPES), np.int8),
    ("scanned", ("P", RING_SIZE), np.bool_),  # R-A5 precondition
    ("last_seen", ("P", RING_SIZE, NUM_TILE_TYPES), np.int8),  # R-I3 yucata table
    ("last_seen_round", ("P", RING_SIZE), np.int32),  # 0 = never
    ("reservations", (RING_SIZE, "P", NUM_POINT_TYPES), np.int8),  # R-A4
    ("stations", (RING_SIZE,), np.int8),  # owner seat or NO_STATION (R-A5)
    ("start_player", (), np.int8),
    ("current_player", (), np.int8),
    ("round", (), np.int32),  # 1-based (R-T1)
    ("actions_left", (), np.int8),  # R-T2
    ("phase", (), np.int8),  # PHASE_MAIN / PHASE_TILE
    ("pending", (), np.int8),  # PENDING_*
    ("end_triggered", (), np.bool_),  # R-E1
    ("terminated", (), np.bool_),  # game over (R-E1, or R-E3 at the round limit)
    ("round_limit", (), np.bool_),  # the game ended at the round limit (R-E3)
    # R-I1: each seat's most recent turn (reference PlayerState.last_turn); entries past turn_len are 0
    ("turn_len", ("P",), np.int8),  # actions recorded, 0-2
    ("turn_kind", ("P", 2), np.int8),  # actions.ACTION_KINDS index (top up .. discover)
    ("turn_target", ("P", 2), np.int8),  # ring position jumped / flown to or acted on; -1 for top up
    ("turn_ncards", ("P", 2), np.int8),  # cards played or discarded
    ("turn_cards", ("P", 2, HAND_SIZE), np.int8),  # their ids, in hand-slot order
    ("turn_tile", ("P", 2), np.bool_),  # a tile left the pile
)
FIELD_NAMES = tuple(f[0] for f in FIELDS)


@functools.lru_cache(maxsize=None)
def game_bytes(num_players: int) -> int:
    """Bytes of one game's fields at ``num_players`` players (the batch's arrays per game;
    kept per player count: summing the fields cost 0.2 ms, a third of sampling 16 worlds)."""
    return sum(int(np.prod([num_players if d == "P" else int(d) for d in shape], dtype=np.int64)) * np.dtype(dt).itemsize
               for _, shape, dt in FIELDS)
_FIELD_SET = frozenset(FIELD_NAMES)
_SCORED_FIELDS = ("collection", "gate_probes", "stations", "terminated", "round_limit")  # what scores / rewards read

# Component tables passed to every kernel as arguments (not numba globals), so a
# replaced data file never meets a stale compiled constant in the numba cache.
PLANET_COORDS = np.stack([PLANET_JUMP, PLANET_SCAN, PLANET_LANDING[:, 0], PLANET_LANDING[:, 1]], axis=1).astype(np.int8)
CARD_TABLE = np.ascontiguousarray(CARD_COORDS, dtype=np.int8)  # [60, 3] jump, scan, landing (0 absent, 5 joker)
TILE_COUNT_TABLE = np.ascontiguousarray(TILE_COUNTS, dtype=np.int8)
END_TABLE = np.ascontiguousarray(END_THRESHOLD, dtype=np.int8)
TABLES = (CARD_TABLE, PLANET_COORDS, TILE_COUNT_TABLE, END_TABLE)


class BatchState:
    """B games of one configuration as arrays (see FIELDS). Attributes: every field
    name, plus ``batch_size``, ``num_players``, ``rules`` ("yucata"/"schmidt"),
    ``rules_id`` (0/1) and ``max_rounds``."""

    def __init__(self, batch_size: int, num_players: int, rules: str = "yucata", max_rounds: int = 100):
        num_players, rules, max_rounds = check_game_config(num_players, rules, max_rounds)
        if not is_int(batch_size) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {shown(batch_size)}")
        check_batch_memory(int(batch_size), game_bytes(int(num_players)), "batch_size")
        self.batch_size = int(batch_size)
        self.num_players = int(num_players)
        self.rules = rules
        self.rules_id = RULES.index(rules)
        self.max_rounds = int(max_rounds)
        for name, shape, dtype in FIELDS:
            full = (self.batch_size,) + tuple(self.num_players if d == "P" else d for d in shape)
            setattr(self, name, np.zeros(full, dtype=dtype))
        self.all_games = np.ones(self.batch_size, dtype=np.bool_)  # the default ``select`` of step / mask (read-only)
        self.all_games.flags.writeable = False

    if TYPE_CHECKING:  # for type checkers only: the FIELDS are set by name (setattr), one array each
        def __getattr__(self, name: str) -> np.ndarray: ...

    def __setattr__(self, name, value):
        if name in _FIELD_SET:  # a field array replaced: the cached argument tuple is stale
            self.__dict__.pop("_arrays", None)
        object.__setattr__(self, name, value)

    def arrays(self) -> tuple:
        """The field arrays in FIELDS order (the kernels' argument order). Built once and
        kept until a field is replaced (``__setattr__``): a batch of one game, as the AEC
        and Gymnasium envs step, spent a quarter of its step rebuilding this tuple."""
        cached = self.__dict__.get("_arrays")
        if cached is None:
            cached = tuple(getattr(self, n) for n in FIELD_NAMES)
            object.__setattr__(self, "_arrays", cached)
        return cached

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_arrays", None)  # rebuilt on demand
        return state

    def __setstate__(self, state: dict) -> None:
        """After ``pickle`` or ``copy.deepcopy``: ``all_games`` read-only again (numpy's
        copies are writable, and numba would compile the kernels a second time for it)."""
        self.__dict__.update(state)
        self.all_games.flags.writeable = False

    @property
    def is_over(self) -> np.ndarray:
        return self.terminated

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.arrays())

    def copy(self) -> "BatchState":
        out = BatchState.__new__(BatchState)
        out.__dict__.update(self.__dict__)
        for n in FIELD_NAMES:
            setattr(out, n, getattr(self, n).copy())
        return out

    def take(self, rows) -> "BatchState":
        """A new batch of the games ``self[rows]``, in that order; rows may repeat (copies
        of one game). Finished games dropped this way stop costing kernel time, and every
        game evolves exactly as it would have in place. ValueError unless ``rows`` is a 1-d
        integer array of indices into this batch (a bool mask would leave ``batch_size``
        wrong); no rows give an empty batch (``engine_common.check_rows``)."""
        rows = check_rows(rows, self.batch_size)
        out = BatchState.__new__(BatchState)
        out.__dict__.update(self.__dict__)
        for n in FIELD_NAMES:
            setattr(out, n, np.ascontiguousarray(getattr(self, n)[rows]))
        out.batch_size = len(rows)
        out.all_games = np.ones(len(rows), dtype=np.bool_)
        out.all_games.flags.writeable = False
        return out

    def concat(self, other: "BatchState") -> "BatchState":
        """A new batch of this batch's games followed by ``other``'s (same player count and
        rules): e.g. more sampled worlds appended to those already in use."""
        if not isinstance(other, BatchState):
            raise TypeError(f"concat needs a Space Mission BatchState, got {type(other).__name__}")
        mine = (self.num_players, self.rules, self.max_rounds)
        theirs = (other.num_players, other.rules, other.max_rounds)
        if mine != theirs:
            raise ValueError(f"concat needs games of one configuration (num_players, rules, max_rounds): "
                             f"this batch has {mine}, the other {theirs}")
        out = BatchState.__new__(BatchState)
        out.__dict__.update(self.__dict__)
        for n in FIELD_NAMES:
            setattr(out, n, np.concatenate([getattr(self, n), getattr(other, n)]))
        out.batch_size = self.batch_size + other.batch_size
        out.all_games = np.ones(out.batch_size, dtype=np.bool_)
        out.all_games.flags.writeable = False
        return out

    def score_view(self, rows) -> "BatchState":
        """The games ``rows`` with only the fields ``engine.scores`` and ``engine.rewards``
        read (collection, gate probes, stations, terminated, round limit): finished games
        are scored without copying their whole state (tests/env/test_env_rewards.py).
        ``rows`` are checked as ``take``'s are (``engine_common.check_rows``)."""
        rows = check_rows(rows, self.batch_size)
        out = BatchState.__new__(BatchState)
        object.__setattr__(out, "__dict__", {k: v for k, v in self.__dict__.items() if k not in _FIELD_SET
                                             and k != "_arrays"})
        for n in _SCORED_FIELDS:
            object.__setattr__(out, n, getattr(self, n)[rows])
        out.batch_size = len(rows)
        return out

    def __repr__(self) -> str:
        return (f"BatchState(batch_size={self.batch_size}, num_players={self.num_players}, rules={self.rules!r}, "
                f"max_rounds={self.max_rounds}, running={int((~self.is_over).sum())})")
