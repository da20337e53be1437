"""Mission: Red Planet components (M-C1..M-C8), read once from ``data/red_planet.json``.

Every reconstructed table of the spec (zones and borders M-C2, ships M-C3, the mineral
split M-C4, counters M-C5, destination tokens M-C6, secret missions M-C8) and the event
card list (M-E1..M-E19) is in that one file; the engine derives everything from the
constants below, so an owner of the box can correct the data in the JSON alone.
"""
from __future__ import annotations

import json
from importlib import resources


def _load() -> dict:
    text = resources.files("spacemission_env.red_planet").joinpath("data/red_planet.json").read_text(encoding="utf-8")
    return json.loads(text)


DATA = _load()

MIN_PLAYERS: int = DATA["players"]["min"]  # M-X2
MAX_PLAYERS: int = DATA["players"]["max"]
NUM_ROUNDS: int = DATA["rounds"]  # M-R1
ASTRONAUTS: int = DATA["astronauts_per_colour"]  # M-C1, M-X3

# --- M-C2 zones -------------------------------------------------------------------
ZONE_NAMES: tuple[str, ...] = tuple(z["name"] for z in DATA["zones"])
NUM_ZONES = len(ZONE_NAMES)
CENTRAL: tuple[bool, ...] = tuple(z["kind"] == "central" for z in DATA["zones"])
CENTRAL_ZONES: tuple[int, ...] = tuple(z for z in range(NUM_ZONES) if CENTRAL[z])
OUTER_ZONES: tuple[int, ...] = tuple(z for z in range(NUM_ZONES) if not CENTRAL[z])
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(z["neighbours"]) for z in DATA["zones"])
# directed borders (from, to), ascending: the Explorer's steps (M-O2)
EDGES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(NUM_ZONES) for b in NEIGHBOURS[a])

# --- M-C3 ships -------------------------------------------------------------------
NO_ZONE = -1
SHIP_DEST: tuple[int, ...] = tuple(NO_ZONE if s["destination"] is None else s["destination"] for s in DATA["ships"])
SHIP_CAPACITY: tuple[int, ...] = tuple(s["capacity"] for s in DATA["ships"])
NUM_SHIPS = len(SHIP_DEST)

# --- M-C4, M-C5 minerals and counters ---------------------------------------------
MINERAL_NAMES: tuple[str, ...] = tuple(m["name"] for m in DATA["minerals"])
NUM_MINERALS = len(MINERAL_NAMES)
MINERAL_VALUE: tuple[int, ...] = tuple(m["value"] for m in DATA["minerals"])
MINERAL_TOKENS: tuple[int, ...] = tuple(m["tokens"] for m in DATA["minerals"])
NUM_MINERAL_TOKENS = sum(MINERAL_TOKENS)
ICE, SYLVANITE, CELERIUM = (MINERAL_NAMES.index(n) for n in ("ice", "sylvanite", "celerium"))

# --- M-C6 destination tokens -------------------------------------------------------
TOKENS_PER_ZONE: int = DATA["destination_tokens_per_zone"]
NUM_DEST_TOKENS = TOKENS_PER_ZONE * NUM_ZONES

# --- M-C7 roles, in calling order ---------------------------------------------------
ROLE_NAMES: tuple[str, ...] = tuple(r["name"] for r in DATA["roles"])
NUM_ROLES = len(ROLE_NAMES)
ROLE_PLACE: tuple[int, ...] = tuple(r["place"] for r in DATA["roles"])
(RECRUITER, EXPLORER, SCIENTIST, SECRET_AGENT, FEMME_FATALE, SABOTEUR, TRAVEL_AGENT, SOLDIER, PILOT) = range(NUM_ROLES)
EXPLORER_STEPS: int = DATA["explorer_steps"]

# --- M-E1..M-E19 event cards: ids in file order, one per copy -----------------------
CARD_KIND: tuple[str, ...] = tuple(e["kind"] for e in DATA["events"] for _ in range(e["count"]))
NUM_EVENTS = len(CARD_KIND)
_EVENT = {e["kind"]: e for e in DATA["events"]}
IS_BONUS: tuple[bool, ...] = tuple(_EVENT[k]["type"] == "bonus" for k in CARD_KIND)
DISCOVERY_CARDS: tuple[int, ...] = tuple(c for c in range(NUM_EVENTS) if not IS_BONUS[c])
BONUS_CARDS: tuple[int, ...] = tuple(c for c in range(NUM_EVENTS) if IS_BONUS[c])
CARD_RULE: tuple[str, ...] = tuple(_EVENT[k]["rule"] for k in CARD_KIND)
EVENT_PARAM = {k: {key: v for key, v in e.items() if key in ("points", "counters", "final_base")} for k, e in _EVENT.items()}

# M-C8: the secret mission cards, in id order, and their red zones
MISSION_ZONES: tuple[tuple[int, ...], ...] = tuple(tuple(m) for m in DATA["secret_missions"])
_MISSION_CARDS = [c for c in range(NUM_EVENTS) if CARD_KIND[c] == "secret_mission"]
MISSION_OF: dict[int, int] = {c: i for i, c in enumerate(_MISSION_CARDS)}


def _card_label(c: int) -> str:
    kind = CARD_KIND[c]
    name = _EVENT[kind]["german"]
    if kind == "secret_mission":
        return f"{name} GM{MISSION_OF[c] + 1}"
    same = [d for d in range(NUM_EVENTS) if CARD_KIND[d] == kind]
    return name if len(same) == 1 else f"{name} {same.index(c) + 1}"


CARD_LABELS: tuple[str, ...] = tuple(_card_label(c) for c in range(NUM_EVENTS))
CARD_INDEX = {label: c for c, label in enumerate(CARD_LABELS)}
CARDS_OF_KIND: dict[str, tuple[int, ...]] = {k: tuple(c for c in range(NUM_EVENTS) if CARD_KIND[c] == k) for k in _EVENT}

# --- scoring constants (M-P1..M-P3) ------------------------------------------------
_S = DATA["scoring"]
FIRST_DISTRIBUTION_ROUND: int = _S["first_distribution_round"]
SECOND_DISTRIBUTION_ROUND: int = _S["second_distribution_round"]
SECOND_DISTRIBUTION_BASE: int = _S["second_distribution_base"]
FINAL_BASE: int = _S["final_base"]
ICE_BONUS: int = _S["ice_bonus"]
SETUP_HAND = 3  # M-S5: three event cards per deal
