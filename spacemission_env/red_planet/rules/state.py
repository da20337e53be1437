"""The complete game state of the Red Planet reference engine and the invariants it keeps.

Plain lists and ints, so it reads beside RED_PLANET.md and compares with ``==``. Piles
keep their order (the top is the *last* element): ship deck, event pile, mineral pool
(M-I3: their order is hidden, but it is part of the state). Per-zone lists are indexed
by zone id (M-C2), per-ship lists by ship id (M-C3), per-seat lists by seat.
The JSON form and the validation of loaded states are in state_json.py.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field

from ..components import (
    ASTRONAUTS,
    CARD_LABELS,
    EXPLORER,
    EXPLORER_STEPS,
    IS_BONUS,
    MINERAL_NAMES,
    MINERAL_TOKENS,
    NUM_EVENTS,
    NUM_MINERALS,
    NUM_ROLES,
    NUM_ROUNDS,
    NUM_SHIPS,
    NUM_ZONES,
    OUTER_ZONES,
    ROLE_NAMES,
    ROLE_PLACE,
    SCIENTIST,
    SECRET_AGENT,
    SETUP_HAND,
    SHIP_CAPACITY,
    SHIP_DEST,
    SOLDIER,
    TOKENS_PER_ZONE,
    TRAVEL_AGENT,
)

NONE = -1  # no card, ship, zone, seat or role
# setup_zone (M-S4), keep (M-S6), commit (M-R3), place (M-L1), destination (M-L2),
# ability (M-R5), discovery (M-E1: where the Scientist lays a drawn card), over (M-X1)
PHASES = ("setup_zone", "keep", "commit", "place", "destination", "ability", "discovery", "over")
TURN_PHASES = ("place", "destination", "ability", "discovery")


@dataclass
class PlayerState:
    supply: int = ASTRONAUTS  # astronauts not yet placed (M-S1)
    lism: int = 0  # killed astronauts, Lost-in-Space-Memorial (M-O6, M-O8)
    removed: int = 0  # astronauts removed by Radioaktive Strahlen (M-E8), not killed
    hand: list[int] = field(default_factory=lambda: list(range(NUM_ROLES)))  # role cards in hand, sorted
    discard: list[int] = field(default_factory=list)  # used role cards, sorted (M-R6)
    commit: int = NONE  # this round's role: hidden until called (M-R3, M-R4), then its revealed role
    acted: bool = False  # took (or lost, M-O7) his turn of this round's step 3
    bonus: list[int] = field(default_factory=list)  # bonus cards held, in the order received (M-S6, M-O3)
    counters: list[int] = field(default_factory=lambda: [0] * NUM_MINERALS)  # per mineral type (M-C5)
    setup_hand: list[int] = field(default_factory=list)  # event cards held in setup until the keep (M-S5, M-S6)
    seen: list[int] = field(default_factory=list)  # event cards he has seen, sorted (M-I2)


@dataclass
class GameState:
    num_players: int
    rng: int  # SplitMix64 state (spacemission_env/rng.py)
    players: list[PlayerState]
    start_player: int
    current_player: int  # NONE once the game is over
    phase: str
    round: int = 1  # 1..10 (M-R1)
    # Mars (M-C2, M-L5, M-P1..M-P3)
    mars: list[list[int]] = field(default_factory=list)  # [zone][seat] astronauts
    mineral: list[int] = field(default_factory=lambda: [NONE] * NUM_ZONES)  # [zone] revealed token type
    leftover: list[int] = field(default_factory=lambda: [0] * NUM_ZONES)  # [zone] counters lying there (zone's type)
    discovery: list[int] = field(default_factory=lambda: [NONE] * NUM_ZONES)  # [zone] face-down card (M-E1)
    discovery_owner: list[int] = field(default_factory=lambda: [NONE] * NUM_ZONES)  # [zone] who laid it
    looked: list[list[int]] = field(default_factory=lambda: [[] for _ in range(NUM_ZONES)])  # [zone] seats that
    # looked at its card (M-O3(b)), sorted: public, as the laying is (M-I1)
    removed_cards: list[int] = field(default_factory=list)  # discovery cards drawn with every outer zone taken
    removed_by: list[int] = field(default_factory=list)  # [i] who drew removed_cards[i] (M-E1: only he saw
    # which card left the game); NONE where a schema-1 state document did not say
    mineral_pool: list[int] = field(default_factory=list)  # token types, face down; top = last (M-S1)
    # event cards (M-S5, M-S6, M-E1)
    event_pile: list[int] = field(default_factory=list)  # top = last; in setup: the undealt cards
    set_aside: list[int] = field(default_factory=list)  # setup only: set-aside and returned cards (M-S5, M-S6)
    # ships (M-C3, M-C6, M-L1..M-L6)
    ship_deck: list[int] = field(default_factory=list)  # top = last (M-S2, M-R2)
    slots: list[int] = field(default_factory=list)  # [pad slot] ship id or NONE; a launched ship keeps its slot
    airborne: list[int] = field(default_factory=list)  # slots whose ship is in the air, in launch order (M-L4)
    used_ships: list[int] = field(default_factory=list)  # landed or destroyed, in the order they arrived (M-R2)
    crew: list[list[int]] = field(default_factory=list)  # [ship][seat] astronauts aboard
    token: list[int] = field(default_factory=lambda: [NONE] * NUM_SHIPS)  # [ship] zone of the token laid on it
    token_supply: list[int] = field(default_factory=lambda: [TOKENS_PER_ZONE] * NUM_ZONES)  # [zone] (M-C6)
    # the turn in progress (step 3)
    role: int = NONE  # role of the turn in progress
    placed_slots: list[int] = field(default_factory=list)  # slot of each astronaut placed this turn
    steps_left: int = 0  # Explorer steps left (M-O2)
    drawn: int = NONE  # discovery card the Scientist is about to lay (M-E1)
    pending_slot: int = NONE  # slot whose ship awaits its destination (M-S4, M-L2)
    last_actor: int = NONE  # who took this round's latest turn of step 3 (M-R8)

    # --- derived views ------------------------------------------------------
    def destination(self, ship: int) -> int:
        """The zone a ship flies to: its token, else its printed zone (M-L4); NONE for a
        hand-piloted ship without token (M-L2)."""
        return self.token[ship] if self.token[ship] != NONE else SHIP_DEST[ship]

    def free_seats(self, ship: int) -> int:
        return SHIP_CAPACITY[ship] - sum(self.crew[ship])

    def on_pad(self, slot: int) -> bool:
        return self.slots[slot] != NONE and slot not in self.airborne

    def seat_order(self) -> list[int]:
        """Seats in turn order from the start player."""
        n = self.num_players
        return [(self.start_player + i) % n for i in range(n)]

    def copy(self) -> GameState:
        return copy.deepcopy(self)

    def to_json(self, indent: int | None = None) -> str:
        from .state_json import state_to_json
        return state_to_json(self, indent)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        from .state_json import state_from_json
        return state_from_json(text)


def check_state(state) -> None:
    """TypeError unless ``state`` is a Red Planet GameState (the entry points' first check)."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a red planet GameState, got {type(state).__name__}")


def _fail(msg: str) -> None:
    raise ValueError(f"red planet state: {msg}")


# the messages name roles, event cards and minerals as the JSON document does (state_json.py)
def _label(i: int, names) -> str:
    return "null" if i == NONE else names[i] if 0 <= i < len(names) else str(i)


def _labels(ids, names) -> str:
    return json.dumps([_label(i, names) for i in ids], ensure_ascii=False)


def _role(r: int) -> str:
    return _label(r, ROLE_NAMES)


def _card(c: int) -> str:
    return _label(c, CARD_LABELS)


def _cards(cards) -> str:
    return _labels(cards, CARD_LABELS)


def check_invariants(s: GameState) -> None:
    """Conservation of every component and the consistency of the turn; ValueError
    naming the first broken law."""
    n = s.num_players
    # every count of components is a count: never negative (M-C1)
    if min(min(min(pl.supply, pl.lism, pl.removed, *pl.counters) for pl in s.players),
           min(map(min, s.mars)), min(map(min, s.crew)), min(s.leftover)) < 0:
        counts = [(f"player {q} {name}", v) for q, pl in enumerate(s.players)
                  for name, v in (("supply", pl.supply), ("lism", pl.lism), ("removed", pl.removed),
                                  *((f"counters.{_label(t, MINERAL_NAMES)}", c) for t, c in enumerate(pl.counters)))]
        counts += [(f"zone {z} astronauts of player {q}", v) for z, row in enumerate(s.mars) for q, v in enumerate(row)]
        counts += [(f"ship {ship} crew of player {q}", v) for ship, row in enumerate(s.crew) for q, v in enumerate(row)]
        counts += [(f"zone {z} leftover", v) for z, v in enumerate(s.leftover)]
        what, v = next((w, v) for w, v in counts if v < 0)
        _fail(f"{what} is {v}: a count of components cannot be negative (M-C1)")
    # astronauts: 22 per colour over supply, ships, Mars, LiSM and removed (M-C1, M-X3)
    for q, pl in enumerate(s.players):
        aboard = sum(s.crew[ship][q] for ship in range(NUM_SHIPS))
        on_mars = sum(s.mars[z][q] for z in range(NUM_ZONES))
        total = pl.supply + aboard + on_mars + pl.lism + pl.removed
        if total != ASTRONAUTS:
            _fail(f"player {q} has {total} astronauts (supply {pl.supply} + ships {aboard} + Mars {on_mars} + "
                  f"LiSM {pl.lism} + removed {pl.removed}), expected {ASTRONAUTS}")
    # ships: 34 over deck, pad/air and used pile (M-C3)
    in_slots = [ship for ship in s.slots if ship != NONE]
    ships = s.ship_deck + in_slots + s.used_ships
    if sorted(ships) != list(range(NUM_SHIPS)):
        _fail(f"{len(ships)} ships in deck + slots + used pile, or a ship twice; expected each of {NUM_SHIPS} once")
    if len(set(s.airborne)) != len(s.airborne) or any(s.slots[k] == NONE for k in s.airborne):
        _fail(f"airborne lists slots {s.airborne}; each must hold a ship and appear once")
    for ship in range(NUM_SHIPS):
        if ship not in in_slots and (any(s.crew[ship]) or s.token[ship] != NONE):
            _fail(f"ship {ship} is not on the pad or in the air but has a crew or a token")
        if sum(s.crew[ship]) > SHIP_CAPACITY[ship]:
            _fail(f"ship {ship} carries {sum(s.crew[ship])} astronauts, capacity {SHIP_CAPACITY[ship]}")
    for k, ship in enumerate(s.slots):
        if ship == NONE:
            continue
        if k not in s.airborne and s.free_seats(ship) == 0:
            _fail(f"the full ship {ship} in slot {k} is still on the pad (M-L3: a full ship launches at once)")
        # M-S4: in setup the choices go in slot order, so later slots may still wait for theirs
        waiting = s.pending_slot == k or (s.phase == "setup_zone" and k > s.pending_slot)
        if s.destination(ship) == NONE and any(s.crew[ship]) and not waiting:
            _fail(f"ship {ship} in slot {k} carries astronauts but has no destination (M-L2)")
    # M-L3, M-L4: ships are in the air only between their launch in step 3 and the landing of
    # step 4 of the same round; M-S2, M-R2: from setup to the end of step 2 the pad holds N ships
    if s.airborne and s.phase not in TURN_PHASES:
        _fail(f"ships in the air (slots {s.airborne}) in phase {s.phase!r}: they land in step 4 of their round (M-L4)")
    if s.phase in ("setup_zone", "keep", "commit") and NONE in s.slots:
        _fail(f"pad slots {s.slots} in phase {s.phase!r}: the pad holds {n} ships until step 3 (M-S2, M-R2)")
    # destination tokens: 20 over supply and ships (M-C6)
    for z in range(NUM_ZONES):
        laid = sum(1 for ship in range(NUM_SHIPS) if s.token[ship] == z)
        if not 0 <= s.token_supply[z] or s.token_supply[z] + laid != TOKENS_PER_ZONE:
            _fail(f"zone {z} has {s.token_supply[z]} destination tokens in supply + {laid} on ships, "
                  f"expected {TOKENS_PER_ZONE}")
    # mineral tokens: 14 over pool and zones, 5/5/4 by type (M-C4)
    for t in range(NUM_MINERALS):
        count = s.mineral_pool.count(t) + s.mineral.count(t)
        if count != MINERAL_TOKENS[t]:
            _fail(f"{count} {MINERAL_NAMES[t]} mineral tokens in pool + zones, expected {MINERAL_TOKENS[t]} (M-C4)")
    for z in range(NUM_ZONES):
        if s.mineral[z] == NONE and (any(s.mars[z]) or s.leftover[z]):
            _fail(f"zone {z} holds astronauts or counters but no mineral token (M-L5)")
    # event cards: 24 over pile, set-aside, hands, Mars, removed and the drawn card (M-E1)
    cards = s.event_pile + s.set_aside + s.removed_cards + [c for c in s.discovery if c != NONE]
    cards += [c for pl in s.players for c in pl.bonus + pl.setup_hand] + ([s.drawn] if s.drawn != NONE else [])
    if sorted(cards) != list(range(NUM_EVENTS)):
        _fail(f"{len(cards)} event cards in pile + set aside + hands + Mars + removed, or a card twice; "
              f"expected each of {NUM_EVENTS} once")
    for z in range(NUM_ZONES):
        c = s.discovery[z]
        if c != NONE and (z not in OUTER_ZONES or IS_BONUS[c] or not 0 <= s.discovery_owner[z] < n):
            _fail(f"zone {z}: discovery card {_card(c)} laid by {_label(s.discovery_owner[z], ())} "
                  f"(outer zones, discovery cards, a seat)")
        if c == NONE and s.discovery_owner[z] != NONE:
            _fail(f"zone {z} has a discovery owner but no card")
        if (c == NONE and s.looked[z]) or s.looked[z] != sorted(set(s.looked[z])) or \
                any(not 0 <= q < n or c not in s.players[q].seen for q in s.looked[z]):
            _fail(f"zone {z}: looked {s.looked[z]} lists, sorted, seats that have seen its card")
    for z in range(NUM_ZONES):  # M-I2: whoever laid a discovery card has seen it
        if s.discovery[z] != NONE and s.discovery[z] not in s.players[s.discovery_owner[z]].seen:
            _fail(f"zone {z}: its discovery card was laid by player {s.discovery_owner[z]}, who has not seen it (M-I2)")
    if any(IS_BONUS[c] for c in s.removed_cards) or any(not IS_BONUS[c] for pl in s.players for c in pl.bonus):
        _fail("removed_cards holds only discovery cards and players' bonus lists only bonus cards")
    if len(s.removed_by) != len(s.removed_cards) or any(
            q != NONE and (not 0 <= q < n or c not in s.players[q].seen) for c, q in zip(s.removed_cards, s.removed_by)):
        _fail(f"removed_by {s.removed_by} names, for each removed card, the seat that drew it and has seen it "
              f"(M-E1), or null; removed_cards {_cards(s.removed_cards)}")
    # role cards: 9 per player over hand, discard and the unplayed commit (M-C7, M-R6)
    for q, pl in enumerate(s.players):
        roles = pl.hand + pl.discard + ([pl.commit] if pl.commit != NONE and not pl.acted else [])
        if sorted(roles) != list(range(NUM_ROLES)):
            _fail(f"player {q}: role cards hand {_labels(pl.hand, ROLE_NAMES)} + "
                  f"discard {_labels(pl.discard, ROLE_NAMES)} + commit {_role(pl.commit)} "
                  f"are not the {NUM_ROLES} roles once each")
        if pl.hand != sorted(pl.hand) or pl.discard != sorted(pl.discard) or pl.seen != sorted(set(pl.seen)):
            _fail(f"player {q}: hand, discard and seen are kept sorted (seen without repeats)")
        unseen = [c for c in pl.bonus + pl.setup_hand if c not in pl.seen]
        if unseen:  # M-I2: a player has seen the event cards he holds
            _fail(f"player {q} holds event card {_card(unseen[0])} but has not seen it (M-I2); seen {_cards(pl.seen)}")
    check_turn(s)


def check_turn(s: GameState) -> None:
    """The phase and the turn fields agree (what play leaves behind)."""
    n = s.num_players
    if s.phase not in PHASES:
        _fail(f"unknown phase {s.phase!r}")
    if not 1 <= s.round <= NUM_ROUNDS:
        _fail(f"round {s.round} outside 1..{NUM_ROUNDS}")
    over = s.phase == "over"
    if over != (s.current_player == NONE) or not (over or 0 <= s.current_player < n):
        _fail(f"current_player {s.current_player} in phase {s.phase!r} (NONE exactly when the game is over)")
    setup = s.phase in ("setup_zone", "keep")
    if (s.set_aside or any(pl.setup_hand for pl in s.players)) and s.phase != "keep":
        _fail("setup cards (set_aside, setup_hand) exist only while bonus cards are kept (M-S6)")
    if s.phase == "keep":
        if not s.players[s.current_player].setup_hand or s.players[s.current_player].bonus:
            _fail("the player keeping a bonus card holds his setup cards and no bonus card yet")
        if not any(IS_BONUS[c] for c in s.players[s.current_player].setup_hand):
            _fail("the player keeping a bonus card holds one (M-S5)")
    if over and s.round != NUM_ROUNDS:
        _fail(f"the game is over in round {s.round}: it ends only after round {NUM_ROUNDS} (M-X1)")
    if s.phase == "setup_zone" and any(pl.bonus or pl.setup_hand or pl.seen for pl in s.players):
        _fail("event cards are dealt only after the setup destinations are chosen (M-S4, M-S5)")
    if s.phase == "keep":  # M-S6: in seat order, those before the current player have kept one card
        order = s.seat_order()
        i = order.index(s.current_player)
        for q in order:
            pl = s.players[q]
            kept = len(pl.bonus) == 1 and not pl.setup_hand
            waiting = not pl.bonus and len(pl.setup_hand) == SETUP_HAND
            if not (kept if order.index(q) < i else waiting):
                _fail(f"player {q} holds bonus {_cards(pl.bonus)} and setup cards {_cards(pl.setup_hand)} while player "
                      f"{s.current_player} keeps: those before him kept one card, the rest hold {SETUP_HAND} (M-S6)")
    if s.phase == "commit" and any(pl.acted for pl in s.players):
        _fail("a player has acted in step 2: turns are taken only after every commit (M-R3, M-R4)")
    if s.last_actor != NONE and not (0 <= s.last_actor < n and (s.players[s.last_actor].acted
                                                                or s.last_actor == s.current_player)):
        _fail(f"last_actor {s.last_actor} has taken no turn this round (M-R8)")
    if s.steps_left and s.role != EXPLORER:
        _fail(f"steps_left {s.steps_left} outside an Explorer's turn (M-O2)")
    if s.phase == "discovery" and s.role != SCIENTIST:
        _fail(f"a drawn discovery card is laid only by the Scientist (M-O3, M-E1), not the {_role(s.role)}")
    in_turn = s.phase in TURN_PHASES
    if in_turn != (s.role != NONE):
        _fail(f"role {_role(s.role)} in phase {s.phase!r}: a role is in execution exactly in a turn phase")
    if in_turn:
        pl = s.players[s.current_player]
        if pl.commit != s.role or pl.acted:
            _fail(f"player {s.current_player} executes role {_role(s.role)} but committed {_role(pl.commit)} "
                  f"(acted {pl.acted})")
        if len(s.placed_slots) > ROLE_PLACE[s.role] or any(not 0 <= k < n for k in s.placed_slots):
            _fail(f"placed_slots {s.placed_slots}: at most {ROLE_PLACE[s.role]} pad slots this turn")
        if s.role == SECRET_AGENT and len(set(s.placed_slots)) != len(s.placed_slots):
            _fail(f"placed_slots {s.placed_slots}: the Secret Agent places into two different ships (M-O4)")
        if s.role in (TRAVEL_AGENT, SOLDIER) and len(set(s.placed_slots)) > 1:
            _fail(f"placed_slots {s.placed_slots}: the Travel Agent and the Soldier place their group into one "
                  f"ship (M-O7, M-O8)")
        check_placements(s)
        if s.last_actor != s.current_player:
            _fail(f"last_actor {s.last_actor}: the player taking the turn is the latest to act (M-R8)")
        # M-R4: roles are called in order, ties in seat order from the start player: exactly
        # the players called before the one acting have acted
        order = s.seat_order()
        key = lambda q: (s.players[q].commit, order.index(q))  # noqa: E731
        for q in range(n):
            if q != s.current_player and s.players[q].acted != (key(q) < key(s.current_player)):
                _fail(f"player {q} (role {_role(s.players[q].commit)}) {'has' if s.players[q].acted else 'has not'} "
                      f"acted while player {s.current_player} executes role {_role(s.role)} (M-R4: roles are called "
                      f"in order)")
    elif s.placed_slots or s.steps_left or s.drawn != NONE:
        _fail("placed_slots, steps_left and drawn belong to a turn in progress")
    if not 0 <= s.steps_left <= EXPLORER_STEPS or (s.steps_left and s.phase != "ability"):
        _fail(f"steps_left {s.steps_left}: Explorer steps are counted only in his ability")
    if (s.drawn != NONE) != (s.phase == "discovery") or (s.drawn != NONE and IS_BONUS[s.drawn]):
        _fail(f"drawn card {_card(s.drawn)} in phase {s.phase!r}: a drawn discovery card waits exactly in 'discovery'")
    if (s.pending_slot != NONE) != (s.phase in ("setup_zone", "destination")):
        _fail(f"pending_slot {s.pending_slot} in phase {s.phase!r}")
    if s.pending_slot != NONE:
        ship = s.slots[s.pending_slot] if 0 <= s.pending_slot < n else NONE
        if ship == NONE or s.destination(ship) != NONE or s.crew[ship][s.current_player] == 0:
            _fail(f"pending slot {s.pending_slot}: a ship without destination carrying the chooser's astronaut")
    if setup and (s.round != 1 or any(pl.commit != NONE for pl in s.players)):
        _fail("setup happens before round 1's commits")
    if len(s.slots) != n or len(s.players) != n:
        _fail(f"{len(s.slots)} pad slots and {len(s.players)} players for {n} players")
    if s.phase in ("setup_zone", "keep", "commit") and s.last_actor != NONE:
        _fail(f"last_actor {s.last_actor} before any turn of step 3")
    if s.phase == "commit":
        order = s.seat_order()
        i = order.index(s.current_player)
        if any(s.players[q].commit == NONE for q in order[:i]) or any(s.players[q].commit != NONE for q in order[i:]):
            _fail("in step 2 the players before the current one (from the start player) have committed, the rest not")
    if s.phase in ("commit",) + TURN_PHASES and any(pl.commit == NONE for pl in s.players) and s.phase != "commit":
        _fail("every player has committed before roles are executed (M-R3)")
    for q, pl in enumerate(s.players):
        if pl.acted and pl.commit == NONE:
            _fail(f"player {q} acted without a commit")
    if any(len(row) != n for row in s.mars + s.crew):
        _fail("mars and crew rows have one entry per seat")


def check_placements(s: GameState) -> None:
    """The turn's placements (``placed_slots``: the slot of each astronaut placed this turn,
    M-L1) agree with the ships: each placed astronaut is still aboard, as nothing takes it
    off before the turn ends (an ability that takes astronauts off a ship ends the turn:
    M-O5 replaces another colour's, M-O6 destroys the ship; ships land in step 4, M-R7)."""
    q = s.current_player
    for k in sorted(set(s.placed_slots)):
        ship, placed = s.slots[k], s.placed_slots.count(k)
        aboard = s.crew[ship][q] if ship != NONE else 0
        if aboard < placed:
            where = "holds no ship" if ship == NONE else f"holds ship {ship}, which carries {aboard} of them"
            _fail(f"placed_slots {s.placed_slots}: player {q} placed {placed} astronaut(s) into slot {k} this turn, "
                  f"but slot {k} {where} (M-L1: placed astronauts stay aboard until the turn ends)")
    # M-L2: the chooser of a destination has just placed the first astronaut on that ship
    if s.phase == "destination" and s.placed_slots[-1:] != [s.pending_slot]:
        _fail(f"placed_slots {s.placed_slots}, pending_slot {s.pending_slot}: a destination is chosen right after "
              f"the placement onto its ship (M-L2)")
    # M-O7, M-O8: the group boards at once, paused only after its first astronaut for a destination (M-L2)
    if s.role in (TRAVEL_AGENT, SOLDIER):
        sizes = (1,) if s.phase == "destination" else (0, ROLE_PLACE[s.role])
        if len(s.placed_slots) not in sizes:
            _fail(f"placed_slots {s.placed_slots}: the {_role(s.role)} "
                  f"places his group of {ROLE_PLACE[s.role]} at once, or none (M-O7, M-O8)"
                  + (" and only the first waits for a destination (M-L2)" if s.phase == "destination" else ""))


_NO_ACTION = {  # why a player to act might have no choice; play never leaves him there
    "setup_zone": "no destination token in supply (M-C6)",
    "destination": "no destination token in supply (M-C6)",
    "commit": "an empty hand; the Recruiter always remains (M-O1, M-R3)",
    "discovery": "no free outer zone; the card would have been removed from the game (M-E1)",
}


def check_can_act(s: GameState) -> None:
    """A loaded running game's player to act has a legal action: play never stops elsewhere
    (M-O1, M-E1, M-C6), and a game without one could never end (M-X1). Checked when a state
    is loaded (state_json.py), not by check_invariants: a hand-built position may lead to a
    role hand running out (tests/helpers/red_planet_positions.py). A placement with no ship
    left to board is not checked either: hand-built positions show a turn whose placement
    is done still in the phase 'place' (play would have gone on to the ability, M-R5)."""
    from .game import legal_actions  # game.py builds on this module

    if s.phase in _NO_ACTION and not legal_actions(s):
        _fail(f"player {s.current_player} is to act in phase {s.phase!r} but has no legal action: "
              f"{_NO_ACTION[s.phase]}; the game could not go on (M-X1)")
