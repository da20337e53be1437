"""The complete game state of the reference engine, and its JSON form.

Plain lists and ints, so it reads like the rulebook and compares with ``==``.
Tiles are counted per type (a face-down pile's order never matters: players
choose tiles by type); cards keep their order where it matters (draw pile, whose
top is the *last* element, and discard pile, in the order cards were put on it).
"""
from __future__ import annotations

import copy
import json
import reprlib
from dataclasses import dataclass, field

from ..actions import ACTION_KINDS
from ..components import (
    CARD_INDEX,
    CARD_LABELS,
    CHIPS_PER_PLAYER,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_CARDS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PILE_SIZE,
    PLANET_INDEX,
    PLANET_NAMES,
    RING_SIZE,
    SPACE,
    TILE_COUNTS,
    TILE_INDEX,
    TILE_NAMES,
)
from ..config import RULE_SETS
from .rng import MASK64

GATE = -1  # ship position of a ship on the jump gate (R-S3)
NO_STATION = -1
PHASES = ("main", "tile")
PENDING = ("scan", "develop", "discover")
SCHEMA_VERSION = 3  # 2: "truncated" renamed "round_limit" (R-E3 is a real end); 3: players' "last_turn" (R-I1)
TURN_KINDS = ACTION_KINDS[:6]  # the main actions; a tile decision belongs to the action that took the tile (R-T2)
TURN_CARDS = {"top_up": (0, HAND_SIZE), "jump": (1, 1), "fly": (0, 0), "scan": (1, 1), "develop": (2, 2), "discover": (0, 0)}


@dataclass
class TurnAction:
    """One action of a seat's last turn, as every player saw it (R-I1: actions are taken openly)."""
    kind: str  # one of TURN_KINDS
    target: int = -1  # ring position jumped or flown to, or acted on (scan, develop, discover); -1 for top up
    cards: list[int] = field(default_factory=list)  # card ids played or discarded, in hand-slot order
    tile: bool = False  # a tile left the pile (scan, develop, discover): public, the pile shrank


@dataclass
class PlayerState:
    hand: list[int]  # card ids, sorted: slot i is hand[i]
    supply: int = CHIPS_PER_PLAYER  # chips not on the board (R-C4)
    gate_probes: int = 0  # probes on the jump gate (R-A2, R-P1)
    ship: int = GATE  # ring position, or GATE
    collection: list[int] = field(default_factory=lambda: [0] * NUM_POINT_TYPES)
    scanned: list[bool] = field(default_factory=lambda: [False] * RING_SIZE)  # R-A5 precondition
    # R-I3 (yucata): the pile as seen after this player's last visit, and the round of it (0 = never)
    last_seen: list[list[int]] = field(default_factory=lambda: [[0] * NUM_TILE_TYPES for _ in range(RING_SIZE)])
    last_seen_round: list[int] = field(default_factory=lambda: [0] * RING_SIZE)
    # R-I1: the actions of this seat's most recent turn (the turn in progress for the acting seat)
    last_turn: list[TurnAction] = field(default_factory=list)


@dataclass
class GameState:
    num_players: int
    rules: str
    max_rounds: int
    rng: int  # SplitMix64 state (rules/rng.py)
    ring: list[int]  # planet id at ring position p (R-S1)
    piles: list[list[int]]  # [position][tile type] counts, space included (R-S2)
    revealed: list[bool]  # [position]: space tiles turned face up (R-V1)
    draw_pile: list[int]  # top = last element
    discard_pile: list[int]
    players: list[PlayerState]
    reservations: list[list[list[int]]]  # [position][player][point type] (R-A4)
    stations: list[int]  # [position] owner seat or NO_STATION (R-A5)
    start_player: int
    current_player: int
    round: int = 1  # 1-based index of the current round (R-T1)
    actions_left: int = 2  # actions left in this turn (R-T2)
    phase: str = "main"  # "main" or "tile" (tile decision after scan/develop/discover)
    pending: str | None = None  # the action awaiting its tile decision
    end_triggered: bool = False  # R-E1 threshold reached; the round is being finished
    is_over: bool = False
    round_limit: bool = False  # the game ended at the round limit (R-E3)

    # --- derived views -------------------------------------------------------
    @property
    def revealed_count(self) -> int:
        """Space tiles turned face up (R-V1), the quantity R-E1 watches."""
        return sum(self.piles[p][SPACE] for p in range(RING_SIZE) if self.revealed[p])

    def probes_on(self, position: int, player: int) -> int:
        """Probes of ``player`` on the planet at ``position`` (one per reservation)."""
        return sum(self.reservations[position][player])

    def copy(self) -> "GameState":
        return copy.deepcopy(self)

    # --- JSON ----------------------------------------------------------------
    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(state_to_dict(self), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        """The state written by ``to_json``; ValueError naming the problem for anything
        else (docs/state_json.md, Validation)."""
        if not isinstance(text, str):
            raise ValueError(f"game state JSON must be a str, got {type(text).__name__} {_show(text)}")
        try:
            data = json.loads(text)
        except RecursionError:
            raise ValueError("game state is not valid JSON: nested too deeply") from None
        except ValueError as exc:  # JSONDecodeError, and numbers too long to convert
            raise ValueError(f"game state is not valid JSON: {exc}") from None
        return state_from_dict(data)


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 40, 40


def _show(value) -> str:
    """A short repr for error messages, safe for deeply nested values."""
    return _REPR.repr(value)


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
    def get(obj: dict, key: str, where: str):
        if not isinstance(obj, dict) or key not in obj:
            raise ValueError(f"game state JSON: missing key '{key}' in {where}")
        return obj[key]

    @staticmethod
    def int_(value, where: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"game state JSON: {where} must be an integer in [{lo}, {hi}], got {_show(value)}")
        return value

    @staticmethod
    def bool_(value, where: str) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"game state JSON: {where} must be true or false, got {_show(value)}")
        return value

    @staticmethod
    def name(value, names: dict, what: str, where: str) -> int:
        """Index of a planet / tile / card name; names come as strings only."""
        if not isinstance(value, str) or value not in names:
            raise ValueError(f"game state JSON: unknown {what} {_show(value)} in {where}")
        return names[value]

    @staticmethod
    def tiles(value, where: str, point_only: bool) -> list[int]:
        if not isinstance(value, dict):
            raise ValueError(f"game state JSON: {where} must be an object of tile counts, got {_show(value)}")
        out = [0] * (NUM_POINT_TYPES if point_only else NUM_TILE_TYPES)
        for name, n in value.items():
            t = _Reader.name(name, _POINT_INDEX if point_only else TILE_INDEX, "tile name", where)
            out[t] = _Reader.int_(n, f"{where}.{name}", 0, TILE_COUNTS[t])
        return out

    @staticmethod
    def cards(value, where: str) -> list[int]:
        if not isinstance(value, list):
            raise ValueError(f"game state JSON: {where} must be a list of card labels, got {_show(value)}")
        return [_Reader.name(label, CARD_INDEX, "card", where) for label in value]


def state_from_dict(data) -> GameState:
    r = _Reader(data)
    g = r.get
    version = g(data, "version", "state")
    if not isinstance(version, int) or isinstance(version, bool) or version not in (1, 2, SCHEMA_VERSION):
        raise ValueError(f"game state JSON: unsupported version {_show(version)} (expected {SCHEMA_VERSION})")
    if version == 1 and "truncated" in data:  # schema 1 called R-E3's flag "truncated"
        data = {k: v for k, v in data.items() if k != "truncated"} | {"round_limit": data["truncated"]}
    elif version == 1:
        raise ValueError("game state JSON: version 1 needs the key 'truncated'")
    rules = g(data, "rules", "state")
    if not isinstance(rules, str) or rules not in RULE_SETS:
        raise ValueError(f"game state JSON: unknown rules {_show(rules)}; expected one of {RULE_SETS}")
    n = r.int_(g(data, "num_players", "state"), "num_players", MIN_PLAYERS, MAX_PLAYERS)
    max_rounds = r.int_(g(data, "max_rounds", "state"), "max_rounds", 1, 10**9)
    rng = r.int_(g(data, "rng", "state"), "rng", 0, MASK64)
    ring_data = g(data, "ring", "state")
    if not isinstance(ring_data, list) or len(ring_data) != RING_SIZE:
        raise ValueError(f"game state JSON: ring must list {RING_SIZE} planets")
    ring, piles, revealed, stations, reservations = [], [], [], [], []
    for p, entry in enumerate(ring_data):
        where = f"ring[{p}]"
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
                raise ValueError(f"game state JSON: {where}.reservations has unknown seat {_show(seat)}")
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
        hand = sorted(r.cards(g(pd, "hand", where), f"{where}.hand"))
        if len(hand) > HAND_SIZE:
            raise ValueError(f"game state JSON: {where}.hand holds {len(hand)} cards (at most {HAND_SIZE})")
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
        for p in scanned:
            pl.scanned[r.int_(p, f"{where}.scanned", 0, RING_SIZE - 1)] = True
        visits = g(pd, "last_visits", where)
        if not isinstance(visits, list):
            raise ValueError(f"game state JSON: {where}.last_visits must be a list")
        for v in visits:
            p = r.int_(g(v, "position", f"{where}.last_visits"), f"{where}.last_visits.position", 0, RING_SIZE - 1)
            pl.last_seen_round[p] = r.int_(g(v, "round", f"{where}.last_visits"), f"{where}.last_visits.round", 1, 10**9)
            pl.last_seen[p] = r.tiles(g(v, "pile", f"{where}.last_visits"), f"{where}.last_visits.pile", point_only=False)
            if sum(pl.last_seen[p]) > PILE_SIZE:
                raise ValueError(f"game state JSON: {where}.last_visits: the pile at position {p} holds more than {PILE_SIZE} tiles")
        if version == SCHEMA_VERSION:  # versions 1 and 2 have no turn records: empty
            pl.last_turn = _read_turn(r, g(pd, "last_turn", where), f"{where}.last_turn")
        players.append(pl)

    phase = g(data, "phase", "state")
    if not isinstance(phase, str) or phase not in PHASES:
        raise ValueError(f"game state JSON: unknown phase {_show(phase)}; expected one of {PHASES}")
    pending = g(data, "pending", "state")
    if not (pending in PENDING if phase == "tile" else pending is None):
        raise ValueError(f"game state JSON: pending {_show(pending)} does not fit phase {phase!r}")
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
    return state


def _read_turn(r: _Reader, value, where: str) -> list[TurnAction]:
    if not isinstance(value, list):
        raise ValueError(f"game state JSON: {where} must be a list")
    out = []
    for i, a in enumerate(value):
        w = f"{where}[{i}]"
        kind = r.get(a, "action", w)
        if kind not in TURN_KINDS:
            raise ValueError(f"game state JSON: {w}.action must be one of {TURN_KINDS}, got {kind!r}")
        target = r.get(a, "target", w)
        out.append(TurnAction(
            kind=kind,
            target=-1 if target is None else r.int_(target, f"{w}.target", 0, RING_SIZE - 1),
            cards=r.cards(r.get(a, "cards", w), f"{w}.cards"),
            tile=r.bool_(r.get(a, "tile", w), f"{w}.tile"),
        ))
    return out


def check_turn_record(turn: list[TurnAction], where: str) -> None:
    """A seat's last-turn record is well formed (R-T2: two actions; R-I1)."""
    if len(turn) > 2:
        raise ValueError(f"game state: {where} records {len(turn)} actions (a turn has 2, R-T2)")
    for i, a in enumerate(turn):
        w = f"{where}[{i}]"
        if a.kind not in TURN_KINDS:
            raise ValueError(f"game state: {w} has unknown action kind {a.kind!r}")
        if (a.target == -1) != (a.kind == "top_up") or not -1 <= a.target < RING_SIZE:
            raise ValueError(f"game state: {w} ({a.kind}) has target {a.target}; only a top up has none")
        lo, hi = TURN_CARDS[a.kind]
        if not lo <= len(a.cards) <= hi or len(set(a.cards)) != len(a.cards) or not all(0 <= c < NUM_CARDS for c in a.cards):
            raise ValueError(f"game state: {w} ({a.kind}) lists cards {a.cards}; expected {lo}-{hi} distinct card ids")
        if a.tile and a.kind not in PENDING:
            raise ValueError(f"game state: {w} ({a.kind}) cannot take a tile")


def check_turn(s: GameState) -> None:
    """The turn and end flags as play leaves them (R-T1, R-T2, R-E1, R-E3); ValueError
    naming the first contradiction, so that both engines continue a loaded game alike."""
    last_seat = (s.start_player - 1) % s.num_players
    if s.is_over:
        if s.actions_left != 0 or s.phase != "main":
            raise ValueError(f"game state: a finished game has actions_left 0 and phase 'main', "
                             f"got {s.actions_left} and {s.phase!r}")
        if s.current_player != last_seat:
            raise ValueError(f"game state: a game ends with the round's last seat {last_seat} to act, "
                             f"got current_player {s.current_player}")
        if s.end_triggered == s.round_limit:
            raise ValueError(f"game state: a finished game ended either by R-E1 (end_triggered) or at the round "
                             f"limit (round_limit), got end_triggered {s.end_triggered} and round_limit {s.round_limit}")
    elif s.round_limit:
        raise ValueError("game state: round_limit is true but is_over is false")
    if s.round_limit and s.round != s.max_rounds:
        raise ValueError(f"game state: round_limit needs round == max_rounds ({s.max_rounds}), got round {s.round}")
    for q, pl in enumerate(s.players):
        for p, r in enumerate(pl.last_seen_round):
            if r > s.round:
                raise ValueError(f"game state: player {q}'s last visit of position {p} is in round {r}, after the "
                                 f"current round {s.round}")
    if s.phase == "tile":
        pl = s.players[s.current_player]
        owner = s.stations[pl.ship]
        if s.pending == "scan" and (owner != NO_STATION or pl.supply == 0):
            raise ValueError("game state: a scan's tile decision needs a planet without a station and a chip in supply")
        if s.pending == "develop" and owner != s.current_player:
            raise ValueError("game state: a develop's tile decision needs the acting player's station on the planet")
        if s.pending == "discover" and owner == NO_STATION:
            raise ValueError("game state: a discover's tile decision needs a station on the planet")


def check_invariants(s: GameState) -> None:
    """Conservation laws of the components; ValueError naming the first broken one."""
    cards = list(s.draw_pile) + list(s.discard_pile) + [c for pl in s.players for c in pl.hand]
    if len(cards) != NUM_CARDS:
        raise ValueError(f"game state: {len(cards)} cards in draw pile + discard pile + hands, expected {NUM_CARDS}")
    if len(set(cards)) != NUM_CARDS:
        raise ValueError("game state: a card appears twice")
    totals = [sum(s.piles[p][t] for p in range(RING_SIZE)) for t in range(NUM_TILE_TYPES)]
    for t in range(NUM_POINT_TYPES):
        totals[t] += sum(s.reservations[p][q][t] for p in range(RING_SIZE) for q in range(s.num_players))
        totals[t] += sum(pl.collection[t] for pl in s.players)
    for t, name in enumerate(TILE_NAMES):
        if totals[t] != TILE_COUNTS[t]:
            raise ValueError(f"game state: {totals[t]} '{name}' tiles in piles + reservations + collections, expected {TILE_COUNTS[t]}")
    for p in range(RING_SIZE):
        if sum(s.piles[p]) > PILE_SIZE:
            raise ValueError(f"game state: pile at ring position {p} holds more than {PILE_SIZE} tiles")
    for q, pl in enumerate(s.players):
        check_turn_record(pl.last_turn, f"players[{q}].last_turn")
        stations = sum(1 for owner in s.stations if owner == q)
        probes = sum(s.probes_on(p, q) for p in range(RING_SIZE))
        chips = pl.supply + pl.gate_probes + probes + stations
        if chips != CHIPS_PER_PLAYER:
            raise ValueError(
                f"game state: player {q} has {chips} chips (supply {pl.supply} + gate {pl.gate_probes}"
                f" + probes {probes} + stations {stations}), expected {CHIPS_PER_PLAYER}"
            )
    if s.phase == "tile":
        ship = s.players[s.current_player].ship
        if ship == GATE or not any(s.piles[ship][:NUM_POINT_TYPES]):
            raise ValueError("game state: a tile decision needs the acting ship on a planet whose pile holds a point tile")
    check_acting_record(s)


def check_acting_record(s: GameState) -> None:
    """The acting seat's record holds the actions of its turn so far (R-T2, R-I1): after its
    first action one, in a tile decision also the pending action itself. Empty is allowed
    (states of schema 1 and 2 carry no records); before the first action it still shows
    the seat's previous turn."""
    if s.is_over:
        return
    record = s.players[s.current_player].last_turn
    tile = s.phase == "tile"
    if not record or (s.actions_left == 2 and not tile):
        return
    expected = 2 - s.actions_left + tile
    if len(record) != expected:
        raise ValueError(f"game state: players[{s.current_player}].last_turn records {len(record)} actions, but the seat "
                         f"has played {expected} of this turn (actions_left {s.actions_left}, phase {s.phase!r})")
    if tile and (record[-1].kind != s.pending or record[-1].tile):
        raise ValueError(f"game state: the pending {s.pending} is not the last action of players[{s.current_player}]"
                         f".last_turn, or it already took its tile")


