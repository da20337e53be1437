"""The complete game state of the reference engine and the invariants it keeps.

Plain lists and ints, so it reads like the rulebook and compares with ``==``.
Tiles are counted per type (a face-down pile's order never matters: players
choose tiles by type); cards keep their order where it matters (draw pile, whose
top is the *last* element, and discard pile, in the order cards were put on it).
Its JSON form, the schema and the validation of loaded states, are in state_json.py.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..actions import ACTION_KINDS
from ..components import (
    CARD_LABELS,
    CHIPS_PER_PLAYER,
    END_THRESHOLD,
    HAND_SIZE,
    NUM_CARDS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PILE_SIZE,
    RING_SIZE,
    SPACE,
    TILE_COUNTS,
    TILE_NAMES,
)

GATE = -1  # ship position of a ship on the jump gate (R-S3)
NO_STATION = -1
PHASES = ("main", "tile")
PENDING = ("scan", "develop", "discover")
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
    rng: int  # SplitMix64 state (spacemission_env/rng.py)
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

    # --- JSON (state_json.py) -------------------------------------------------
    def to_json(self, indent: int | None = None) -> str:
        from .state_json import state_to_json
        return state_to_json(self, indent)

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        """The state written by ``to_json``; ValueError naming the problem for anything
        else (docs/state_json.md, Validation)."""
        from .state_json import state_from_json
        return state_from_json(text)


def check_state(state) -> None:
    """TypeError unless ``state`` is a Space Mission GameState (the reference API's first
    check, as Red Planet's: another object raised AttributeError from deep inside)."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a Space Mission GameState, got {type(state).__name__}")


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
    threshold = int(END_THRESHOLD[s.num_players])
    if (s.revealed_count >= threshold) != s.end_triggered:  # R-E1: triggered as soon as it is reached
        raise ValueError(f"game state: {s.revealed_count} space tiles are revealed and the end is triggered at "
                         f"{threshold} ({s.num_players} players, R-E1), but end_triggered is {s.end_triggered}")
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
        seen: dict[int, str] = {}
        places = [("draw_pile", s.draw_pile), ("discard_pile", s.discard_pile)]
        places += [(f"players[{q}].hand", pl.hand) for q, pl in enumerate(s.players)]
        for name, pile in places:
            for i, c in enumerate(pile):
                if c in seen:
                    raise ValueError(f"game state: card {CARD_LABELS[c]} appears twice, at {seen[c]} and at "
                                     f"{name}[{i}] (a card, R-C2, lies in one place)")
                seen[c] = f"{name}[{i}]"
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


def check_last_views(s: GameState) -> None:
    """R-I3: a player's last view of a pile holds every tile the pile holds now, as piles
    only lose tiles (R-A4..R-A6). Checked when a state is loaded (state_json.py), not by
    check_invariants: tests build worlds that trade hidden tiles behind another seat's memory."""
    for q, pl in enumerate(s.players):
        for p in range(RING_SIZE):
            if pl.last_seen_round[p] and any(now > seen for now, seen in zip(s.piles[p], pl.last_seen[p])):
                raise ValueError(f"game state: player {q} last saw the pile at ring position {p} as {pl.last_seen[p]}, but "
                                 f"it holds {s.piles[p]} now; a pile only loses tiles (R-I3)")


def check_acting_record(s: GameState) -> None:
    """The acting seat's record holds the actions of its turn so far (R-T2, R-I1): after its
    first action one, in a tile decision also the pending action itself. Empty is allowed and
    reads as unknown: states of schema 1 and 2 carry no records, and a turn that was in
    progress when such a state was loaded stays unrecorded to its end (game.record_turn), as
    its first action is unknown. A record short of the turn so far is refused. Before the
    first action it still shows the seat's previous turn."""
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


def check_history(s: GameState) -> None:
    """Cross-checks between fields that play keeps in step, each a consequence of the rules in
    both rule sets unless marked (checked when a state is loaded, state_json.py; not by
    check_invariants, as tests build worlds field by field). ValueError naming the field path
    and the rule for the first contradiction."""
    for p in range(RING_SIZE):
        where = f"ring[{p}]"
        if s.revealed[p] and any(s.piles[p][:NUM_POINT_TYPES]):
            # R-V1 reveals a pile only once it holds no point tile; piles only lose tiles (R-A4..R-A6)
            raise ValueError(f"game state: {where}.revealed is true but its pile still holds point tiles; a pile is "
                             f"revealed only once it holds none, and no tile ever goes back (R-V1)")
        for q in range(s.num_players):
            if not any(s.reservations[p][q]):
                continue
            if s.stations[p] != NO_STATION:
                # R-A5 step 2 moves every seat's reservations there to their collections; R-A4 needs no station
                raise ValueError(f"game state: {where}.reservations.{q} holds tiles on a planet with a station "
                                 f"(seat {s.stations[p]}'s); developing moves every reservation there into its owner's "
                                 f"collection (R-A5) and a scan needs a planet without a station (R-A4)")
            if not s.players[q].scanned[p]:
                raise ValueError(f"game state: {where}.reservations.{q} holds tiles, but players[{q}].scanned lacks "
                                 f"position {p}; a reservation comes from a scan, and a scan is never forgotten (R-A4)")
        owner = s.stations[p]
        if owner != NO_STATION and not s.players[owner].scanned[p]:
            raise ValueError(f"game state: {where}.station is seat {owner}'s, but players[{owner}].scanned lacks position "
                             f"{p}; a seat develops only a planet it has scanned (R-A5)")
    if s.rules == "yucata":
        # R-I3 [yucata]: every scan shows the pile and records the visit, once its tile decision is taken
        for q, pl in enumerate(s.players):
            for p in range(RING_SIZE):
                if pl.scanned[p] and not pl.last_seen_round[p] and not _scan_pending(s, q, p):
                    raise ValueError(f"game state: players[{q}].scanned lists position {p}, but players[{q}].last_visits "
                                     f"has no entry for it; a scan records the visit (R-I3, yucata)")
    for q, pl in enumerate(s.players):
        check_record_positions(pl.last_turn, pl.ship, f"players[{q}]")
    check_played_cards(s)
    check_record_order(s)


def _scan_pending(s: GameState, q: int, p: int) -> bool:
    """Seat q's scan of position p awaits its tile decision: the visit is recorded after it."""
    return s.phase == "tile" and s.pending == "scan" and s.current_player == q and s.players[q].ship == p


def check_record_positions(turn: list[TurnAction], ship: int, where: str) -> None:
    """A seat's record ends where its ship is: only its owner moves a ship (R-A2 jump, R-A3 fly
    to a neighbour), and scan, develop and discover act on the ship's planet (R-A4..R-A6).
    Walked backwards from the ship: the positions the ship can have been at before each action."""
    at: set[int] | None = {ship}  # None: anywhere (before a jump)
    for i in range(len(turn) - 1, -1, -1):
        a = turn[i]
        if a.kind == "top_up" or at is None:
            continue
        if a.target not in at:
            if at == {ship}:
                was = f"{where}.ship is {'null (the jump gate)' if ship == GATE else ship}"
            else:
                was = f"the record's later actions need the ship at {' or '.join(map(str, sorted(at)))} then"
            why = ("a move ends at its target, and only its owner moves a ship" if a.kind in ("jump", "fly")
                   else "it acts on the planet where the ship is")
            raise ValueError(f"game state: {where}.last_turn[{i}].target is {a.target} ({a.kind}), but {was}; {why} "
                             f"({_KIND_RULE[a.kind]})")
        if a.kind == "fly":
            at = {(a.target - 1) % RING_SIZE, (a.target + 1) % RING_SIZE}
        elif a.kind == "jump":
            at = None
        else:
            at = {a.target}


_KIND_RULE = {"jump": "R-A2", "fly": "R-A3", "scan": "R-A4", "develop": "R-A5", "discover": "R-A6"}


def check_played_cards(s: GameState) -> None:
    """The cards the acting seat played in its turn so far (jump, scan, develop) went to the discard
    pile (R-A2, R-A4, R-A5); only its own top up later in the turn can draw one back (R-A1, R-A1a).
    Other seats' records are not checked: a reshuffle since may have dealt their cards anywhere."""
    if s.actions_left == 2 and s.phase == "main" and not s.is_over:
        return  # the record is the seat's previous turn
    q = s.current_player
    turn, hand = s.players[q].last_turn, s.players[q].hand
    for i, a in enumerate(turn):
        if a.kind in ("jump", "scan", "develop") and not any(b.kind == "top_up" for b in turn[i + 1:]):
            for c in a.cards:
                if c in hand:
                    raise ValueError(f"game state: players[{q}].hand holds {CARD_LABELS[c]}, which players[{q}]"
                                     f".last_turn[{i}] ({a.kind}) played this turn; a played card goes to the discard "
                                     f"pile and only a top up draws (R-A1, {_KIND_RULE[a.kind]})")


def check_record_order(s: GameState) -> None:
    """Turn records fill in seat order (R-T1, R-I1). A seat that has had no turn yet (round 1,
    after the acting seat) has none; and since states of schema 1 and 2 load with every record
    empty, the seats with a record are exactly the most recent ones to act: no seat has one
    while a seat that acted after it has none."""
    n = s.num_players
    in_progress = s.is_over or s.actions_left == 1 or s.phase == "tile"
    c = s.current_player
    # seats by their latest turn, latest first: the acting seat first if its turn has begun
    order = [(c - k) % n for k in range(n)] if in_progress else [(c - k) % n for k in range(1, n)] + [c]
    if s.round == 1:  # R-T1: round 1 began with the start player; seats after the acting one have not played
        played = {(s.start_player + k) % n for k in range((c - s.start_player) % n + (1 if in_progress else 0))}
        for q in range(n):
            if q not in played and s.players[q].last_turn:
                raise ValueError(f"game state: players[{q}].last_turn records actions, but in round 1 with start_player "
                                 f"{s.start_player} and current_player {c} seat {q} has not had a turn yet (R-T1, R-I1)")
        order = [q for q in order if q in played]
    empty = None
    for q in order:
        if not s.players[q].last_turn:
            if empty is None:
                empty = q
        elif empty is not None:
            raise ValueError(f"game state: players[{q}].last_turn records actions but players[{empty}].last_turn, of a "
                             f"seat that acted after it (start_player {s.start_player}, current_player {c}, round "
                             f"{s.round}), is empty; records fill in seat order (R-T1, R-I1)")
