"""The JSON form of the Red Planet state and its loading with validation.

``state_to_json`` writes a readable document (zones, cards, minerals and roles by name);
``state_from_json`` reads it back. A malformed or contradictory document raises
ValueError naming the field (``players[2].counters.ice``, ``slots[1]``, ...); a loaded
state passes every check of state.py (conservation and turn), so play continues from it
exactly as from the state that was saved.

Schema versions: 2 adds ``removed_by`` (who drew each removed card, M-E1; ``null`` where not
known). A version 1 document, without it, still loads, its drawers unknown.
"""
from __future__ import annotations

import json

from ...json_input import json_shown, parse_json
from ...rng import MASK64
from ..errors import WrongTypeError
from ..components import (
    ASTRONAUTS,
    CARD_INDEX,
    CARD_LABELS,
    CARDS_OF_KIND,
    EVENT_PARAM,
    EXPLORER_STEPS,
    FINAL_BASE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MINERAL_NAMES,
    NUM_ROUNDS,
    NUM_SHIPS,
    NUM_ZONES,
    ROLE_NAMES,
    SECOND_DISTRIBUTION_BASE,
    TOKENS_PER_ZONE,
    ZONE_NAMES,
)
from .state import NONE, PHASES, GameState, PlayerState, check_can_act, check_invariants

GAME = "red_planet"
SCHEMA_VERSION = 2  # 2: "removed_by"; version 1 documents still load (the drawers unknown)


def _opt(value: int, names=None):
    if value == NONE:
        return None
    return names[value] if names is not None else value


def state_to_dict(s: GameState) -> dict:
    """The documented JSON form (keys as in the dataclass; names for cards, roles, minerals)."""
    return {
        "game": GAME,
        "version": SCHEMA_VERSION,
        "num_players": s.num_players,
        "rng": s.rng,
        "round": s.round,
        "phase": s.phase,
        "start_player": s.start_player,
        "current_player": _opt(s.current_player),
        "players": [
            {
                "supply": pl.supply,
                "lism": pl.lism,
                "removed": pl.removed,
                "hand": [ROLE_NAMES[r] for r in pl.hand],
                "discard": [ROLE_NAMES[r] for r in pl.discard],
                "commit": _opt(pl.commit, ROLE_NAMES),
                "acted": pl.acted,
                "bonus": [CARD_LABELS[c] for c in pl.bonus],
                "counters": dict(zip(MINERAL_NAMES, pl.counters)),
                "setup_hand": [CARD_LABELS[c] for c in pl.setup_hand],
                "seen": [CARD_LABELS[c] for c in pl.seen],
            }
            for pl in s.players
        ],
        "zones": [
            {
                "name": ZONE_NAMES[z],
                "astronauts": list(s.mars[z]),
                "mineral": _opt(s.mineral[z], MINERAL_NAMES),
                "leftover": s.leftover[z],
                "discovery": _opt(s.discovery[z], CARD_LABELS),
                "discovery_owner": _opt(s.discovery_owner[z]),
                "looked": list(s.looked[z]),
            }
            for z in range(NUM_ZONES)
        ],
        "removed_cards": [CARD_LABELS[c] for c in s.removed_cards],
        "removed_by": [_opt(q) for q in s.removed_by],
        "mineral_pool": [MINERAL_NAMES[t] for t in s.mineral_pool],
        "event_pile": [CARD_LABELS[c] for c in s.event_pile],
        "set_aside": [CARD_LABELS[c] for c in s.set_aside],
        "ship_deck": list(s.ship_deck),
        "slots": [_opt(ship) for ship in s.slots],
        "airborne": list(s.airborne),
        "used_ships": list(s.used_ships),
        "ships": {
            str(ship): {"crew": list(s.crew[ship]), "token": _opt(s.token[ship], ZONE_NAMES)}
            for ship in s.slots if ship != NONE
        },
        "token_supply": list(s.token_supply),
        "turn": {
            "role": _opt(s.role, ROLE_NAMES),
            "placed_slots": list(s.placed_slots),
            "steps_left": s.steps_left,
            "drawn": _opt(s.drawn, CARD_LABELS),
            "pending_slot": _opt(s.pending_slot),
            "last_actor": _opt(s.last_actor),
        },
    }


def state_to_json(s: GameState, indent: int | None = None) -> str:
    return json.dumps(state_to_dict(s), indent=indent, ensure_ascii=False)


def state_from_json(text) -> GameState:
    """The state written by ``state_to_json``; ValueError naming the problem for anything
    else (WrongTypeError, a TypeError and a ValueError, when ``text`` is not a str)."""
    if not isinstance(text, str):
        raise WrongTypeError(f"red planet state JSON must be a str, got {type(text).__name__}")
    try:
        data = parse_json(text)
    except ValueError as exc:
        raise ValueError(f"red planet state is {exc}") from None
    return state_from_dict(data)


# --- validation --------------------------------------------------------------------------
def _bad(where: str, what: str, value) -> ValueError:
    return ValueError(f"red planet state JSON: {where} must be {what}, got {json_shown(value)}")


def _obj(value, where: str, keys: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise _bad(where, "an object", value)
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys]
    if missing:
        raise ValueError(f"red planet state JSON: missing key {json_shown(missing[0])} in {where}")
    if extra:
        raise ValueError(f"red planet state JSON: unknown key {json_shown(extra[0])} in {where}")  # cut: a key may be 16 KiB
    return value


def _int(value, where: str, lo: int, hi: int, why: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(where, f"an integer in [{lo}, {hi}]" + (f" ({why})" if why else ""), value)
    return value


def _counters(value, where: str) -> int:
    return _int(value, where, 0, MAX_COUNTERS, _COUNTERS_WHY)


def _opt_int(value, where: str, lo: int, hi: int) -> int:
    return NONE if value is None else _int(value, where, lo, hi)


def _bool(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(where, "true or false", value)
    return value


def _list(value, where: str, length: int | None = None, max_len: int = 64) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length) or len(value) > max_len:
        raise _bad(where, f"a list{'' if length is None else f' of {length} entries'}", value)
    return value


def _name(value, where: str, names, optional: bool = False) -> int:
    if optional and value is None:
        return NONE
    index = names if isinstance(names, dict) else {n: i for i, n in enumerate(names)}
    if not isinstance(value, str) or value not in index:
        raise _bad(where, "one of " + ", ".join(sorted(index)[:12]) + ("..." if len(index) > 12 else "")
                   + (" or null" if optional else ""), value)
    return index[value]


def _ints(value, where: str, lo: int, hi: int, length: int | None = None) -> list[int]:
    return [_int(v, f"{where}[{i}]", lo, hi) for i, v in enumerate(_list(value, where, length))]


def _names(value, where: str, names) -> list[int]:
    return [_name(v, f"{where}[{i}]", names) for i, v in enumerate(_list(value, where))]


TOP_KEYS = ("game", "version", "num_players", "rng", "round", "phase", "start_player", "current_player", "players",
            "zones", "removed_cards", "removed_by", "mineral_pool", "event_pile", "set_aside", "ship_deck", "slots",
            "airborne", "used_ships", "ships", "token_supply", "turn")
TOP_KEYS_V1 = tuple(k for k in TOP_KEYS if k != "removed_by")  # schema 1 did not record who drew a removed card
PLAYER_KEYS = ("supply", "lism", "removed", "hand", "discard", "commit", "acted", "bonus", "counters", "setup_hand",
               "seen")
ZONE_KEYS = ("name", "astronauts", "mineral", "leftover", "discovery", "discovery_owner", "looked")
TURN_KEYS = ("role", "placed_slots", "steps_left", "drawn", "pending_slot", "last_actor")
# M-C5: the supply of counters is unlimited, but the game hands out only so many: at most
# 1 per zone after round 5 (M-P1), 2 per zone after round 8 (M-P2), the largest final base
# per zone after round 10 (M-P3 step 2; 5 with M-E6), 1 per player with M-E10 and 2 per
# Eisblöcke card (M-E13). Counters only accrue or lie in a zone until a pot takes them, so
# no reachable state holds more, in all players' counters and all zones' leftovers together,
# than MAX_COUNTERS (89 with the shipped data). Each count and their sum is bounded by it:
# any total the game can then score stays far below the fast engine's int16 scores.
_MOST_FINAL_BASE = max([FINAL_BASE] + [p["final_base"] for p in EVENT_PARAM.values() if "final_base" in p])
MAX_COUNTERS = (NUM_ZONES * (1 + SECOND_DISTRIBUTION_BASE + _MOST_FINAL_BASE)
                + len(CARDS_OF_KIND["sylvanite_vein"]) * MAX_PLAYERS
                + len(CARDS_OF_KIND["ice_blocks"]) * EVENT_PARAM["ice_blocks"]["counters"])
_COUNTERS_WHY = f"the game hands out at most {MAX_COUNTERS} counters: M-C5, M-P1..M-P3, M-E10, M-E13"


def state_from_dict(data) -> GameState:
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(data, dict) and "game" not in data and "rules" in data and "ring" in data:  # Space Mission's keys
        raise ValueError("red planet state JSON: a Space Mission state (no 'game' key; its 'rules' and 'ring'), not a "
                         "Mission: Red Planet one; load it with spacemission_env.space_mission.rules.from_json")
    d = _obj(data, "the document", TOP_KEYS_V1 if type(version) is int and version == 1 else TOP_KEYS)
    if d["game"] != GAME:
        raise _bad("game", json_shown(GAME), d["game"])
    if type(d["version"]) is not int or d["version"] not in (1, SCHEMA_VERSION):  # not 1.0 or true
        raise _bad("version", f"{SCHEMA_VERSION} (or 1)", d["version"])
    n = _int(d["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS)
    if d["phase"] not in PHASES:
        raise _bad("phase", "one of " + ", ".join(PHASES), d["phase"])
    players = []
    for q, raw in enumerate(_list(d["players"], "players", n)):
        w = f"players[{q}]"
        p = _obj(raw, w, PLAYER_KEYS)
        counters = _obj(p["counters"], f"{w}.counters", MINERAL_NAMES)
        players.append(PlayerState(
            supply=_int(p["supply"], f"{w}.supply", 0, ASTRONAUTS),
            lism=_int(p["lism"], f"{w}.lism", 0, ASTRONAUTS),
            removed=_int(p["removed"], f"{w}.removed", 0, ASTRONAUTS),
            hand=_names(p["hand"], f"{w}.hand", ROLE_NAMES),
            discard=_names(p["discard"], f"{w}.discard", ROLE_NAMES),
            commit=_name(p["commit"], f"{w}.commit", ROLE_NAMES, optional=True),
            acted=_bool(p["acted"], f"{w}.acted"),
            bonus=_names(p["bonus"], f"{w}.bonus", CARD_INDEX),
            counters=[_counters(counters[m], f"{w}.counters.{m}") for m in MINERAL_NAMES],
            setup_hand=_names(p["setup_hand"], f"{w}.setup_hand", CARD_INDEX),
            seen=_names(p["seen"], f"{w}.seen", CARD_INDEX),
        ))
    mars, mineral, leftover, discovery, owner, looked = [], [], [], [], [], []
    for z, raw in enumerate(_list(d["zones"], "zones", NUM_ZONES)):
        w = f"zones[{z}]"
        zd = _obj(raw, w, ZONE_KEYS)
        if zd["name"] != ZONE_NAMES[z]:
            raise _bad(f"{w}.name", json_shown(ZONE_NAMES[z]), zd["name"])
        mars.append(_ints(zd["astronauts"], f"{w}.astronauts", 0, ASTRONAUTS, n))
        mineral.append(_name(zd["mineral"], f"{w}.mineral", MINERAL_NAMES, optional=True))
        leftover.append(_counters(zd["leftover"], f"{w}.leftover"))
        discovery.append(_name(zd["discovery"], f"{w}.discovery", CARD_INDEX, optional=True))
        owner.append(_opt_int(zd["discovery_owner"], f"{w}.discovery_owner", 0, n - 1))
        looked.append(_ints(zd["looked"], f"{w}.looked", 0, n - 1))
    slots = [_opt_int(v, f"slots[{k}]", 0, NUM_SHIPS - 1) for k, v in enumerate(_list(d["slots"], "slots", n))]
    ships = d["ships"]
    expected = [str(ship) for ship in slots if ship != NONE]
    if not isinstance(ships, dict) or sorted(ships) != sorted(expected):
        raise _bad("ships", f"an object with one entry per ship in the slots ({', '.join(expected)})", ships)
    crew = [[0] * n for _ in range(NUM_SHIPS)]
    token = [NONE] * NUM_SHIPS
    for key, raw in ships.items():
        w = f"ships[{key}]"
        sd = _obj(raw, w, ("crew", "token"))
        crew[int(key)] = _ints(sd["crew"], f"{w}.crew", 0, ASTRONAUTS, n)
        token[int(key)] = _name(sd["token"], f"{w}.token", ZONE_NAMES, optional=True)
    t = _obj(d["turn"], "turn", TURN_KEYS)
    removed_cards = _names(d["removed_cards"], "removed_cards", CARD_INDEX)
    if d["version"] == 1:
        removed_by = [NONE] * len(removed_cards)
    else:
        removed_by = [_opt_int(v, f"removed_by[{i}]", 0, n - 1)
                      for i, v in enumerate(_list(d["removed_by"], "removed_by", len(removed_cards)))]
    state = GameState(
        num_players=n,
        rng=_int(d["rng"], "rng", 0, MASK64),
        players=players,
        start_player=_int(d["start_player"], "start_player", 0, n - 1),
        current_player=_opt_int(d["current_player"], "current_player", 0, n - 1),
        phase=d["phase"],
        round=_int(d["round"], "round", 1, NUM_ROUNDS),
        mars=mars, mineral=mineral, leftover=leftover, discovery=discovery, discovery_owner=owner,
        looked=looked,
        removed_cards=removed_cards,
        removed_by=removed_by,
        mineral_pool=_names(d["mineral_pool"], "mineral_pool", MINERAL_NAMES),
        event_pile=_names(d["event_pile"], "event_pile", CARD_INDEX),
        set_aside=_names(d["set_aside"], "set_aside", CARD_INDEX),
        ship_deck=_ints(d["ship_deck"], "ship_deck", 0, NUM_SHIPS - 1),
        slots=slots,
        airborne=_ints(d["airborne"], "airborne", 0, n - 1),
        used_ships=_ints(d["used_ships"], "used_ships", 0, NUM_SHIPS - 1),
        crew=crew, token=token,
        token_supply=_ints(d["token_supply"], "token_supply", 0, TOKENS_PER_ZONE, NUM_ZONES),
        role=_name(t["role"], "turn.role", ROLE_NAMES, optional=True),
        placed_slots=_ints(t["placed_slots"], "turn.placed_slots", 0, n - 1),
        steps_left=_int(t["steps_left"], "turn.steps_left", 0, EXPLORER_STEPS),
        drawn=_name(t["drawn"], "turn.drawn", CARD_INDEX, optional=True),
        pending_slot=_opt_int(t["pending_slot"], "turn.pending_slot", 0, n - 1),
        last_actor=_opt_int(t["last_actor"], "turn.last_actor", 0, n - 1),
    )
    held = sum(sum(pl.counters) for pl in players) + sum(leftover)
    if held > MAX_COUNTERS:
        raise ValueError(f"red planet state JSON: players[*].counters and zones[*].leftover hold {held} counters "
                         f"together, more than the {MAX_COUNTERS} the game can hand out ({_COUNTERS_WHY})")
    check_invariants(state)  # conservation and turn consistency; ValueError naming the broken law
    check_can_act(state)  # the player to act has a choice (M-O1, M-E1, M-C6)
    return state
