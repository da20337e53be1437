"""Component data (R-C1..R-C4) loaded once from ``data/components.json``.

Every other module derives planets, cards, tile counts and scoring tables from
the constants here, so an owner of the box can correct the reconstructed
numbers in the JSON file alone (see docs/components.md).
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np

JOKER = 5  # value code for a '?' coordinate; 0 means "colour not on this card"
COLOURS = ("jump", "scan", "landing")
COLOUR_LETTER = {"jump": "J", "scan": "S", "landing": "L"}


def _load() -> dict:
    text = resources.files("spacemission_env.space_mission").joinpath("data/components.json").read_text()
    return json.loads(text)


DATA = _load()

# --- R-C1 planets ---------------------------------------------------------
PLANET_NAMES: tuple[str, ...] = tuple(p["name"] for p in DATA["planets"])
NUM_PLANETS = len(PLANET_NAMES)
PLANET_JUMP = np.array([p["jump"] for p in DATA["planets"]], dtype=np.int8)
PLANET_SCAN = np.array([p["scan"] for p in DATA["planets"]], dtype=np.int8)
PLANET_LANDING = np.array([p["landing"] for p in DATA["planets"]], dtype=np.int8)  # [12, 2]
PLANET_INDEX = {name: i for i, name in enumerate(PLANET_NAMES)}


# --- R-C2 cards -------------------------------------------------------------
def _coord(card: dict, colour: str) -> int:
    value = card.get(colour, 0)
    return JOKER if value == "?" else int(value)


NUM_CARDS = len(DATA["cards"])
CARD_COORDS = np.array([[_coord(c, col) for col in COLOURS] for c in DATA["cards"]], dtype=np.int8)
CARD_JUMP = CARD_COORDS[:, 0].copy()
CARD_SCAN = CARD_COORDS[:, 1].copy()
CARD_LANDING = CARD_COORDS[:, 2].copy()


def card_label(card: int) -> str:
    """Short printed form of a card, e.g. ``J2/S4`` or ``S?/L1``."""
    parts = []
    for colour, value in zip(COLOURS, CARD_COORDS[card]):
        if value:
            parts.append(COLOUR_LETTER[colour] + ("?" if value == JOKER else str(int(value))))
    return "/".join(parts)


CARD_LABELS: tuple[str, ...] = tuple(card_label(c) for c in range(NUM_CARDS))
CARD_INDEX = {label: i for i, label in enumerate(CARD_LABELS)}

# --- R-C3 tiles -------------------------------------------------------------
TILE_NAMES: tuple[str, ...] = tuple(t["name"] for t in DATA["tiles"])
TILE_COUNTS = np.array([t["count"] for t in DATA["tiles"]], dtype=np.int8)
TILE_INDEX = {name: i for i, name in enumerate(TILE_NAMES)}
SPACE = TILE_INDEX["space"]
NUM_TILE_TYPES = len(TILE_NAMES)  # 11, space included
NUM_POINT_TYPES = SPACE  # 10: point tiles come first in the canonical order
NUM_TILES = int(TILE_COUNTS.sum())
TILE_CATEGORY: tuple[str, ...] = tuple(t["category"] for t in DATA["tiles"])

# --- R-C4, setup, end, scoring constants ------------------------------------
_SETUP = DATA["setup"]
RING_SIZE = int(_SETUP["ring_size"])
PILE_SIZE = int(_SETUP["pile_size"])
HAND_SIZE = int(_SETUP["hand_size"])
CHIPS_PER_PLAYER = int(_SETUP["chips_per_player"])
MIN_PLAYERS = int(_SETUP["min_players"])
MAX_PLAYERS = int(_SETUP["max_players"])
# R-E1: revealed space tiles that end the game, indexed by player count
END_THRESHOLD = np.zeros(MAX_PLAYERS + 1, dtype=np.int8)
for _n, _t in DATA["end"]["revealed_space_to_end"].items():
    END_THRESHOLD[int(_n)] = _t

_SCORING = DATA["scoring"]
GATE_RANK_POINTS = np.array(_SCORING["jump_gate_rank_points"], dtype=np.int16)
STATION_POINTS = int(_SCORING["station"])
MATTER_PAIR_POINTS = int(_SCORING["matter_pair"])
MATTER_SINGLE_POINTS = int(_SCORING["matter_single"])
WATER_TABLE = np.array(_SCORING["water_table"], dtype=np.int16)  # points for 0..4 tiles
MEDAL_POINTS = int(_SCORING["medal"])


def _check() -> None:
    assert NUM_TILES == RING_SIZE * PILE_SIZE, "tiles must fill the ring's piles exactly (R-S2)"
    assert NUM_CARDS >= MAX_PLAYERS * HAND_SIZE
    assert len(set(CARD_LABELS)) == NUM_CARDS, "card labels must be unique"
    assert TILE_NAMES[-1] == "space"
    assert ((CARD_COORDS > 0).sum(axis=1) == 2).all(), "every card shows two colours (R-C2)"
    assert len(WATER_TABLE) == 5


_check()
