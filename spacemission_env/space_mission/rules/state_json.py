"""The JSON form of the reference engine's state: the documented schema
(docs/state_json.md) and its loading with validation. A malformed or contradictory
document raises ValueError naming the field; a loaded state satisfies every check of
state.py (turn, end flags, conservation, fields play keeps in step), so both engines continue it alike."""
from __future__ import annotations

import json

from ..components import (
    CARD_INDEX,
    CARD_LABELS,
    CHIPS_PER_PLAYER,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PILE_SIZE,
    PLANET_INDEX,
    PLANET_NAMES,
    RING_SIZE,
    TILE_COUNTS,
    TILE_INDEX,
    TILE_NAMES,
)
from ..config import MAX_ROUNDS_LIMIT, RULE_SETS
from ...checks import shown
from ...json_input import json_kind, json_shown, parse_json
from ...rng import MASK64
from .state import (
    GATE, NO_STATION, PHASES, PENDING, TURN_KINDS, GameState, PlayerState, TurnAction, check_history, check_invariants,
    check_last_views, check_turn,
)

SCHEMA_VERSION = 3  # 2: "truncated" renamed "round_limit" (R-E3 is a real end); 3: players' "last_turn" (R-I1)


def state_to_json(s: GameState, indent: int | None = None) -> str:
    return json.dumps(state_to_dict(s), indent=indent)


def state_from_json(text: str) -> GameState:
    """The state written by ``state_to_json``; ValueError naming the problem for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"game state JSON must be a str, got {type(text).__name__} {shown(text)}")
    try:
        data = parse_json(text)
    except ValueError as exc:
        raise ValueError(f"game state is {exc}") from None
    return state_from_dict(data)


def _tiles_to_dict(counts: list[int], names=TILE_NAMES) -> dict[str, int]:
    return {names[t]: n for t, n in enumerate(counts) if n}


def state_to_dict(s: GameState) -> dict:
    """The documented JSON schema (docs/state_json.md)."""
    return {
        "version": SCHEMA_VERSION,
        "rules": s.rules,
        "num_players": s.num_players,
        "max_rounds": s.max_rounds,
        "rng": s.rng,
        "round": s.round,
        "start_player": s.start_player,
        "current_player": s.current_player,
        "actions_left": s.actions_left,
        "phase": s.phase,
        "pending": s.pending,
        "end_triggered": s.end_triggered,
        "is_over": s.is_over,
        "round_limit": s.round_limit,
        "ring": [
            {
                "planet": PLANET_NAMES[s.ring[p]],
                "pile": _tiles_to_dict(s.piles[p]),
                "revealed": s.revealed[p],
                "station": None if s.stations[p] == NO_STATION else s.stations[p],
                "reservations": {
                    str(q): _tiles_to_dict(s.reservations[p][q]) for q in range(s.num_players) if any(s.reservations[p][q])
                },
            }
            for p in range(RING_SIZE)
        ],
        "draw_pile": [CARD_LABELS[c] for c in s.draw_pile],
        "discard_pile": [CARD_LABELS[c] for c in s.discard_pile],
        "players": [
            {
                "hand": [CARD_LABELS[c] for c in pl.hand],
                "supply": pl.supply,
                "gate_probes": pl.gate_probes,
                "ship": None if pl.ship == GATE else pl.ship,
                "collection": _tiles_to_dict(pl.collection),
                "scanned": [p for p in range(RING_SIZE) if pl.scanned[p]],
                "last_visits": [
                    {"position": p, "round": pl.last_seen_round[p], "pile": _tiles_to_dict(pl.last_seen[p])}
                    for p in range(RING_SIZE)
                    if pl.last_seen_round[p]
                ],
                "last_turn": [
                    {"action": a.kind, "target": None if a.target < 0 else a.target,
                     "cards": [CARD_LABELS[c] for c in a.cards], "tile": a.tile}
                    for a in pl.last_turn
                ],
            }
            for pl in s.players
        ],
    }


# --- loading with validation ---------------------------------------------------
_POINT_INDEX = {name: TILE_INDEX[name] for name in TILE_NAMES[:NUM_POINT_TYPES]}  # no space tile


class _Reader:
    """Small helpers that turn a malformed field into a ValueError naming it."""

    def __init__(self, data):
        if not isinstance(data, dict):
            raise ValueError("game state JSON must be an object")
        self.data = data

    @staticmethod
    def get(obj: object, key: str, where: str):
        if not isinstance(obj, dict):  # ``players[0] = []`` is not an object missing 'hand'
            got = json_kind(obj) if obj is None else f"{json_kind(obj)} {json_shown(obj)}"  # not "null null"
            raise ValueError(f"game state JSON: {where} must be an object, got {got}")
        if key not in obj:
            raise ValueError(f"game state JSON: missing key {json_shown(key)} in {where}")
        return obj[key]

    @staticmethod
    def only(obj, keys: tuple[str, ...], where: str) -> None:
        """No key but the schema's: a misspelt or foreign key is refused, not ignored."""
        if isinstance(obj, dict):
            extra = [k for k in obj if k not in keys]
            if extra:
                raise ValueError(f"game state JSON: unknown key {json_shown(extra[0])} in {where} "
                                 f"(expected only {', '.join(keys)})")

    @staticmethod
    def int_(value, where: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"game state JSON: {where} must be an integer in [{lo}, {hi}], got {json_shown(value)}")
        return value

    @staticmethod
    def bool_(value, where: str) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"game state JSON: {where} must be true or false, got {json_shown(value)}")
        return value

    @staticmethod
    def name(value, names: dict, what: str, where: str) -> int:
        """Index of a planet / tile / card name; names come as strings only."""
        if not isinstance(value, str) or value not in names:
            raise ValueError(f"game state JSON: unknown {what} {json_shown(value)} in {where}")
        return names[value]

    @staticmethod
    def tiles(value, where: str, point_only: bool) -> list[int]:
        if not isinstance(value, dict):
            raise ValueError(f"game state JSON: {where} must be an object of tile counts, got {json_shown(value)}")
        out = [0] * (NUM_POINT_TYPES if point_only else NUM_TILE_TYPES)
        for name, n in value.items():
            t = _Reader.name(name, _POINT_INDEX if point_only else TILE_INDEX, "tile name", where)
            out[t] = _Reader.int_(n, f"{where}.{name}", 0, TILE_COUNTS[t])
        return out

    @staticmethod
    def cards(value, where: str) -> list[int]:
        if not isinstance(value, list):
            raise ValueError(f"game state JSON: {where} must be a list of card labels, got {json_shown(value)}")
        return [_Reader.name(label, CARD_INDEX, "card", where) for label in value]


TOP_KEYS = ("version", "rules", "num_players", "max_rounds", "rng", "round", "start_player", "current_player",
            "actions_left", "phase", "pending", "end_triggered", "is_over", "round_limit", "ring", "draw_pile",
            "discard_pile", "players")
RING_KEYS = ("planet", "pile", "revealed", "station", "reservations")
PLAYER_KEYS = ("hand", "supply", "gate_probes", "ship", "collection", "scanned", "last_visits", "last_turn")
VISIT_KEYS = ("position", "round", "pile")
TURN_KEYS = ("action", "target", "cards", "tile")


def state_from_dict(data) -> GameState:
    if isinstance(data, dict) and data.get("game") == "red_planet":  # the other game's document (its "game" key)
        raise ValueError("game state JSON: a Mission: Red Planet state ('game': 'red_planet'), not a Space Mission "
                         "one; load it with spacemission_env.red_planet.rules.from_json")
    r = _Reader(data)
    g = r.get
    version = g(data, "version", "state")
    if not isinstance(version, int) or isinstance(version, bool) or version not in (1, 2, SCHEMA_VERSION):
        raise ValueError(f"game state JSON: unsupported version {json_shown(version)} (expected {SCHEMA_VERSION})")
    if version == 1:  # schema 1 called R-E3's flag "truncated"
        r.only(data, tuple(k if k != "round_limit" else "truncated" for k in TOP_KEYS), "state (version 1)")
        if "truncated" not in data:
            raise ValueError("game state JSON: version 1 needs the key 'truncated'")
        data = {k: v for k, v in data.items() if k != "truncated"} | {"round_limit": data["truncated"]}
    else:
        r.only(data, TOP_KEYS, "state")
    player_keys = PLAYER_KEYS if version == SCHEMA_VERSION else PLAYER_KEYS[:-1]  # no turn records before 3
    rules = g(data, "rules", "state")
    if not isinstance(rules, str) or rules not in RULE_SETS:
        raise ValueError(f"game state JSON: unknown rules {json_shown(rules)}; expected one of {json.dumps(list(RULE_SETS))}")
    n = r.int_(g(data, "num_players", "state"), "num_players", MIN_PLAYERS, MAX_PLAYERS)
    # every round limit a game may have (the fast engine's int32 round): 10**9 refused the files of
    # games with more rounds that state_to_json wrote
    max_rounds = r.int_(g(data, "max_rounds", "state"), "max_rounds", 1, MAX_ROUNDS_LIMIT)
    rng = r.int_(g(data, "rng", "state"), "rng", 0, MASK64)
    ring_data = g(data, "ring", "state")
    if not isinstance(ring_data, list) or len(ring_data) != RING_SIZE:
        raise ValueError(f"game state JSON: ring must list {RING_SIZE} planets")
    ring, piles, revealed, stations, reservations = [], [], [], [], []
    for p, entry in enumerate(ring_data):
        where = f"ring[{p}]"
        r.only(entry, RING_KEYS, where)
        ring.append(r.name(g(entry, "planet", where), PLANET_INDEX, "planet", where))
        piles.append(r.tiles(g(entry, "pile", where), f"{where}.pile", point_only=False))
        revealed.append(r.bool_(g(entry, "revealed", where), f"{where}.revealed"))
        station = g(entry, "station", where)
        stations.append(NO_STATION if station is None else r.int_(station, f"{where}.station", 0, n - 1))
        res = g(entry, "reservations", where)
        if not isinstance(res, dict):
            raise ValueError(f"game state JSON: {where}.reservations must be an object by seat")
        per_player = [[0] * NUM_POINT_TYPES for _ in range(n)]
        for seat, tiles in res.items():
            if seat not in [str(q) for q in range(n)]:
                raise ValueError(f"game state JSON: {where}.reservations has unknown seat {json_shown(seat)}")
            per_player[int(seat)] = r.tiles(tiles, f"{where}.reservations.{seat}", point_only=True)
        reservations.append(per_player)
    if len(set(ring)) != RING_SIZE:
        raise ValueError("game state JSON: a planet appears twice on the ring")

    players_data = g(data, "players", "state")
    if not isinstance(players_data, list) or len(players_data) != n:
        raise ValueError(f"game state JSON: players must list {n} players")
    players = []
    for q, pd in enumerate(players_data):
        where = f"players[{q}]"
        r.only(pd, player_keys, where)
        hand = r.cards(g(pd, "hand", where), f"{where}.hand")
        if len(hand) > HAND_SIZE:
            raise ValueError(f"game state JSON: {where}.hand holds {len(hand)} cards (at most {HAND_SIZE})")
        if hand != sorted(hand):  # list index = hand slot (docs/actions.md): reordering would change the actions
            raise ValueError(f"game state JSON: {where}.hand must list its cards sorted by card id (index = hand "
                             f"slot), got {json_shown(g(pd, 'hand', where), 300)}, expected "  # a hand of card labels, all shown
                             f"{json_shown([CARD_LABELS[c] for c in sorted(hand)], 300)}")
        ship = g(pd, "ship", where)
        pl = PlayerState(
            hand=hand,
            supply=r.int_(g(pd, "supply", where), f"{where}.supply", 0, CHIPS_PER_PLAYER),
            gate_probes=r.int_(g(pd, "gate_probes", where), f"{where}.gate_probes", 0, CHIPS_PER_PLAYER),
            ship=GATE if ship is None else r.int_(ship, f"{where}.ship", 0, RING_SIZE - 1),
            collection=r.tiles(g(pd, "collection", where), f"{where}.collection", point_only=True),
        )
        scanned = g(pd, "scanned", where)
        if not isinstance(scanned, list):
            raise ValueError(f"game state JSON: {where}.scanned must be a list of ring positions")
        for i, p in enumerate(scanned):
            if pl.scanned[r.int_(p, f"{where}.scanned[{i}]", 0, RING_SIZE - 1)]:
                raise ValueError(f"game state JSON: {where}.scanned lists position {p} twice "
                                 f"({where}.scanned[{scanned.index(p)}] and [{i}])")
            pl.scanned[p] = True
        visits = g(pd, "last_visits", where)
        if not isinstance(visits, list):
            raise ValueError(f"game state JSON: {where}.last_visits must be a list")
        first: dict[int, int] = {}  # position -> index of its entry
        for i, v in enumerate(visits):
            w = f"{where}.last_visits[{i}]"
            r.only(v, VISIT_KEYS, w)
            p = r.int_(g(v, "position", w), f"{w}.position", 0, RING_SIZE - 1)
            if p in first:  # one entry per position: a second one would silently replace the first
                raise ValueError(f"game state JSON: {where}.last_visits lists position {p} twice "
                                 f"({where}.last_visits[{first[p]}] and [{i}])")
            first[p] = i
            pl.last_seen_round[p] = r.int_(g(v, "round", w), f"{w}.round", 1, MAX_ROUNDS_LIMIT)
            pl.last_seen[p] = r.tiles(g(v, "pile", w), f"{w}.pile", point_only=False)
            if sum(pl.last_seen[p]) > PILE_SIZE:
                raise ValueError(f"game state JSON: {w}.pile (position {p}) holds more than {PILE_SIZE} tiles")
        if version == SCHEMA_VERSION:  # versions 1 and 2 have no turn records: empty
            pl.last_turn = _read_turn(r, g(pd, "last_turn", where), f"{where}.last_turn")
        players.append(pl)

    phase = g(data, "phase", "state")
    if not isinstance(phase, str) or phase not in PHASES:
        raise ValueError(f"game state JSON: unknown phase {json_shown(phase)}; expected one of {json.dumps(list(PHASES))}")
    pending = g(data, "pending", "state")
    if not (pending in PENDING if phase == "tile" else pending is None):
        raise ValueError(f"game state JSON: pending {json_shown(pending)} does not fit phase {json_shown(phase)}")
    start = r.int_(g(data, "start_player", "state"), "start_player", 0, n - 1)
    is_over = r.bool_(g(data, "is_over", "state"), "is_over")
    state = GameState(
        num_players=n,
        rules=rules,
        max_rounds=max_rounds,
        rng=rng,
        ring=ring,
        piles=piles,
        revealed=revealed,
        draw_pile=r.cards(g(data, "draw_pile", "state"), "draw_pile"),
        discard_pile=r.cards(g(data, "discard_pile", "state"), "discard_pile"),
        players=players,
        reservations=reservations,
        stations=stations,
        start_player=start,
        current_player=r.int_(g(data, "current_player", "state"), "current_player", 0, n - 1),
        round=r.int_(g(data, "round", "state"), "round", 1, max_rounds),
        actions_left=r.int_(g(data, "actions_left", "state"), "actions_left", 0 if is_over else 1, 2),  # 0 once over
        phase=phase,
        pending=pending,
        end_triggered=r.bool_(g(data, "end_triggered", "state"), "end_triggered"),
        is_over=is_over,
        round_limit=r.bool_(g(data, "round_limit", "state"), "round_limit"),
    )
    check_invariants(state)
    check_turn(state)
    check_last_views(state)  # R-I3
    check_history(state)  # fields play keeps in step (R-V1, R-A4, R-A5, R-I3, R-T1, R-I1)
    return state


def _read_turn(r: _Reader, value, where: str) -> list[TurnAction]:
    if not isinstance(value, list):
        raise ValueError(f"game state JSON: {where} must be a list")
    out = []
    for i, a in enumerate(value):
        w = f"{where}[{i}]"
        r.only(a, TURN_KEYS, w)
        kind = r.get(a, "action", w)
        if kind not in TURN_KINDS:
            raise ValueError(f"game state JSON: {w}.action must be one of {TURN_KINDS}, got {json_shown(kind)}")
        target = r.get(a, "target", w)
        out.append(TurnAction(
            kind=kind,
            target=-1 if target is None else r.int_(target, f"{w}.target", 0, RING_SIZE - 1),
            cards=r.cards(r.get(a, "cards", w), f"{w}.cards"),
            tile=r.bool_(r.get(a, "tile", w), f"{w}.tile"),
        ))
    return out
