"""The flat action space shared by every engine and interface (Discrete(100)).

A turn is two actions (R-T2). Each action is chosen in a *main decision*; scan,
develop and discover whose pile holds a point tile then need a *tile decision*
(which point-tile type to take, R-A4/R-A5/R-A6). Hands are kept sorted by card
id, so "slot i" is the i-th lowest card id in the hand.

| ids     | count | decision | meaning                                                   |
|---------|-------|----------|-----------------------------------------------------------|
| 0-31    | 32    | main     | top up (R-A1): discard the hand slots in bitmask `id`     |
| 32-71   | 40    | main     | jump (R-A2): slot `(id-32)//8` to ring position `(id-32)%8` |
| 72-73   | 2     | main     | fly (R-A3): 72 clockwise (position+1), 73 counter-clockwise |
| 74-78   | 5     | main     | scan (R-A4) with slot `id-74`                             |
| 79-88   | 10    | main     | develop (R-A5) with slot pair `DEVELOP_PAIRS[id-79]`      |
| 89      | 1     | main     | discover (R-A6)                                           |
| 90-99   | 10    | tile     | take point tile type `id-90` (R-C3 order)                 |
"""
from __future__ import annotations

from itertools import combinations

from ..action_ids import action_index
from .components import HAND_SIZE, RING_SIZE, TILE_NAMES

NUM_TOPUP = 1 << HAND_SIZE
TOPUP = 0
JUMP = TOPUP + NUM_TOPUP
FLY = JUMP + HAND_SIZE * RING_SIZE
FLY_CW = FLY
FLY_CCW = FLY + 1
SCAN = FLY + 2
DEVELOP = SCAN + HAND_SIZE
DEVELOP_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(HAND_SIZE), 2))
DISCOVER = DEVELOP + len(DEVELOP_PAIRS)
TILE = DISCOVER + 1
NUM_POINT_TYPES = len(TILE_NAMES) - 1
NUM_ACTIONS = TILE + NUM_POINT_TYPES

ACTION_KINDS = ("top_up", "jump", "fly", "scan", "develop", "discover", "tile")


def decode(action: int) -> tuple[str, tuple[int, ...]]:
    """(kind, arguments) of an action id; raises ValueError when out of range."""
    a = action_index(action, NUM_ACTIONS)
    if a < JUMP:
        return "top_up", (a - TOPUP,)
    if a < FLY:
        return "jump", divmod(a - JUMP, RING_SIZE)
    if a < SCAN:
        return "fly", (+1 if a == FLY_CW else -1,)
    if a < DEVELOP:
        return "scan", (a - SCAN,)
    if a < DISCOVER:
        return "develop", DEVELOP_PAIRS[a - DEVELOP]
    if a == DISCOVER:
        return "discover", ()
    return "tile", (a - TILE,)


def slots_of_mask(mask: int) -> list[int]:
    return [i for i in range(HAND_SIZE) if mask >> i & 1]


def action_table() -> list[tuple[str, str, str]]:
    """(ids, kind, meaning) rows; docs/actions.md is tested against this."""
    return [
        (f"{TOPUP}-{JUMP - 1}", "top_up", "discard the hand slots in the bitmask, draw to 5 (R-A1)"),
        (f"{JUMP}-{FLY - 1}", "jump", "slot (id-32)//8 to ring position (id-32)%8 (R-A2)"),
        (f"{FLY_CW}-{FLY_CCW}", "fly", "clockwise (+1) / counter-clockwise (-1) (R-A3)"),
        (f"{SCAN}-{DEVELOP - 1}", "scan", "scan with slot id-74 (R-A4)"),
        (f"{DEVELOP}-{DISCOVER - 1}", "develop", "develop with slot pair DEVELOP_PAIRS[id-79] (R-A5)"),
        (f"{DISCOVER}", "discover", "discover (R-A6)"),
        (f"{TILE}-{NUM_ACTIONS - 1}", "tile", "take point tile type id-90 (R-C3 order)"),
    ]
