"""Reference rules engine: plain Python, to be read beside docs/rules.md.

Public API: new_game, legal_actions, legal_action_mask, apply, scores, winners,
action_label. One function per rule action; each cites its rule id.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import actions as A
from ..components import (
    CARD_JUMP,
    CARD_LABELS,
    CARD_LANDING,
    CARD_SCAN,
    END_THRESHOLD,
    HAND_SIZE,
    JOKER,
    NUM_CARDS,
    NUM_PLANETS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PILE_SIZE,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_NAMES,
    PLANET_SCAN,
    RING_SIZE,
    TILE_COUNTS,
    TILE_NAMES,
)
from ..config import check_game_config
from ..scoring import jump_gate_points, score_breakdown, winners_of
from ... import rng
from .state import GATE, NO_STATION, GameState, PlayerState, TurnAction, check_state


# --- setup (R-S1..R-S5) ----------------------------------------------------------
def new_game(num_players: int, *, seed: int | None = None, rules: str = "yucata", max_rounds: int = 100) -> GameState:
    """A new game, set up by the per-game generator in this fixed order:
    planets (R-S1), tiles (R-S2), cards (R-S4), start player (R-S5)."""
    num_players, rules, max_rounds = check_game_config(num_players, rules, max_rounds)
    g = rng.seed_state(seed)

    # R-S1: shuffle the 12 planets; the first 8 form the ring
    planets = list(range(NUM_PLANETS))
    g = rng.shuffle(g, planets)
    ring = planets[:RING_SIZE]

    # R-S2: shuffle the 64 tiles; position p gets tiles[8p : 8p+8]
    tiles = [t for t in range(NUM_TILE_TYPES) for _ in range(TILE_COUNTS[t])]
    g = rng.shuffle(g, tiles)
    piles = [[0] * NUM_TILE_TYPES for _ in range(RING_SIZE)]
    for i, t in enumerate(tiles):
        piles[i // PILE_SIZE][t] += 1

    # R-S4: shuffle the 60 cards; deal 5 to each seat in turn, from the top (end) of the pile
    deck = list(range(NUM_CARDS))
    g = rng.shuffle(g, deck)
    players = []
    for _ in range(num_players):
        hand = [deck.pop() for _ in range(HAND_SIZE)]
        players.append(PlayerState(hand=sorted(hand)))  # R-S3: ships start on the gate

    # R-S5 [variant]: schmidt seat 0, yucata a random seat
    if rules == "yucata":
        g, start = rng.below(g, num_players)
    else:
        start = 0

    return GameState(
        num_players=num_players,
        rules=rules,
        max_rounds=max_rounds,
        rng=g,
        ring=ring,
        piles=piles,
        revealed=[False] * RING_SIZE,
        draw_pile=deck,
        discard_pile=[],
        players=players,
        reservations=[[[0] * NUM_POINT_TYPES for _ in range(num_players)] for _ in range(RING_SIZE)],
        stations=[NO_STATION] * RING_SIZE,
        start_player=start,
        current_player=start,
    )


# --- card and planet predicates -------------------------------------------------------
def matches(card_value: int, wanted: int) -> bool:
    """A card coordinate provides ``wanted`` if equal or a joker of its colour (R-C2)."""
    return card_value == wanted or card_value == JOKER


def has_point_tile(pile: list[int]) -> bool:
    return any(pile[:NUM_POINT_TYPES])


def planet_at(state: GameState, position: int) -> int:
    return state.ring[position]


# --- legality, one predicate per action ------------------------------------------------
def can_top_up(state: GameState, player: int, discard_mask: int) -> bool:
    """R-A1: any subset of the held slots (the empty subset included)."""
    return discard_mask < (1 << len(state.players[player].hand))


def can_jump(state: GameState, player: int, slot: int, position: int) -> bool:
    """R-A2: card's jump coordinate matches another planet; a chip in supply."""
    pl = state.players[player]
    return (
        slot < len(pl.hand)
        and position != pl.ship
        and pl.supply > 0
        and matches(CARD_JUMP[pl.hand[slot]], PLANET_JUMP[planet_at(state, position)])
    )


def can_fly(state: GameState, player: int) -> bool:
    """R-A3: only from a planet, never from the jump gate."""
    return state.players[player].ship != GATE


def can_scan(state: GameState, player: int, slot: int) -> bool:
    """R-A4: no station, scan coordinate, a chip. R-A4a: a planet already scanned (by
    anyone, this player too) may be scanned again. R-A4b: whatever the pile holds
    (revealed, empty, face-down space tiles only, or point tiles)."""
    pl = state.players[player]
    p = pl.ship
    return (
        p != GATE
        and slot < len(pl.hand)
        and state.stations[p] == NO_STATION
        and pl.supply > 0
        and matches(CARD_SCAN[pl.hand[slot]], PLANET_SCAN[planet_at(state, p)])
    )


def provides_landing(card_a: int, card_b: int, planet: int) -> bool:
    """R-A5: the two cards provide the planet's two landing coordinates, one each."""
    l1, l2 = PLANET_LANDING[planet]
    la, lb = CARD_LANDING[card_a], CARD_LANDING[card_b]
    return (matches(la, l1) and matches(lb, l2)) or (matches(la, l2) and matches(lb, l1))


def can_develop(state: GameState, player: int, slot_a: int, slot_b: int) -> bool:
    """R-A5: no station, scanned here before, landing cards, a chip."""
    pl = state.players[player]
    p = pl.ship
    return (
        p != GATE
        and slot_b < len(pl.hand)
        and state.stations[p] == NO_STATION
        and pl.scanned[p]
        and pl.supply > 0
        and provides_landing(pl.hand[slot_a], pl.hand[slot_b], planet_at(state, p))
    )


def can_discover(state: GameState, player: int) -> bool:
    """R-A6: a station on the planet (anyone's) and a point tile in its pile."""
    p = state.players[player].ship
    return p != GATE and state.stations[p] != NO_STATION and has_point_tile(state.piles[p])


def can_take_tile(state: GameState, player: int, tile: int) -> bool:
    """Tile decision of R-A4/R-A5/R-A6: a point tile of that type lies in the pile."""
    return state.piles[state.players[player].ship][tile] > 0


def is_legal(state: GameState, action: int) -> bool:
    check_state(state)
    kind, args = A.decode(action)
    if state.is_over:
        return False
    player = state.current_player
    if state.phase == "tile":
        return kind == "tile" and can_take_tile(state, player, *args)
    checks: dict[str, Callable[..., bool]] = {
        "top_up": can_top_up,
        "jump": can_jump,
        "fly": lambda s, q, _d: can_fly(s, q),
        "scan": can_scan,
        "develop": can_develop,
        "discover": can_discover,
        "tile": lambda s, q, _t: False,
    }
    return checks[kind](state, player, *args)


def legal_actions(state: GameState) -> list[int]:
    """Legal action ids for the current player, ascending (empty once the game is over)."""
    check_state(state)
    if state.is_over:
        return []
    q = state.current_player
    if state.phase == "tile":
        return [A.TILE + t for t in range(NUM_POINT_TYPES) if can_take_tile(state, q, t)]
    held = range(len(state.players[q].hand))
    legal = [A.TOPUP + m for m in range(A.NUM_TOPUP) if can_top_up(state, q, m)]
    legal += [A.JUMP + i * RING_SIZE + p for i in held for p in range(RING_SIZE) if can_jump(state, q, i, p)]
    if can_fly(state, q):
        legal += [A.FLY_CW, A.FLY_CCW]
    legal += [A.SCAN + i for i in held if can_scan(state, q, i)]
    legal += [A.DEVELOP + k for k, (i, j) in enumerate(A.DEVELOP_PAIRS) if can_develop(state, q, i, j)]
    if can_discover(state, q):
        legal.append(A.DISCOVER)
    return legal


def legal_action_mask(state: GameState) -> np.ndarray:
    """bool[100]; all False once the game is over."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    mask[legal_actions(state)] = True
    return mask


# --- the actions ---------------------------------------------------------------------
def play_cards(state: GameState, player: int, slots: list[int]) -> None:
    """Played and discarded cards go face up onto the discard pile, in slot order."""
    hand = state.players[player].hand
    for slot in slots:
        state.discard_pile.append(hand[slot])
    for slot in sorted(slots, reverse=True):
        del hand[slot]


def reshuffle(state: GameState) -> None:
    """R-A1a: the discard pile, shuffled by the game's generator, becomes the draw pile."""
    state.draw_pile, state.discard_pile = state.discard_pile, []
    state.rng = rng.shuffle(state.rng, state.draw_pile)


def draw_card(state: GameState) -> int | None:
    """Top card of the draw pile. R-A1a: the draw that takes the last card replaces the
    pile at once by the shuffled discard pile; if that was empty then, the next draw
    that finds the draw pile empty does it; with both piles empty drawing stops short."""
    if not state.draw_pile:
        if not state.discard_pile:
            return None  # R-A1a ruling: both empty, drawing stops short
        reshuffle(state)  # deferred: the discard pile was empty when the last card went
    card = state.draw_pile.pop()
    if not state.draw_pile and state.discard_pile:
        reshuffle(state)  # used up: replaced at once, so later plays start a new discard pile
    return card


def top_up(state: GameState, player: int, discard_mask: int) -> None:
    """R-A1: discard the chosen slots, then draw until 5 cards are held."""
    play_cards(state, player, A.slots_of_mask(discard_mask))
    hand = state.players[player].hand
    while len(hand) < HAND_SIZE:
        card = draw_card(state)
        if card is None:
            break
        hand.append(card)
    hand.sort()
    finish_action(state)


def jump(state: GameState, player: int, slot: int, position: int) -> None:
    """R-A2: play the card, move the ship, put a probe on the jump gate."""
    play_cards(state, player, [slot])
    pl = state.players[player]
    pl.ship = position
    pl.supply -= 1
    pl.gate_probes += 1
    finish_action(state)


def fly(state: GameState, player: int, direction: int) -> None:
    """R-A3: move to a neighbour on the ring."""
    pl = state.players[player]
    pl.ship = (pl.ship + direction) % RING_SIZE
    finish_action(state)


def scan(state: GameState, player: int, slot: int) -> None:
    """R-A4: play the card; choose a point tile next. R-A4b: with no point tile in the
    pile nothing is taken, the chip stays, face-down space tiles are revealed."""
    play_cards(state, player, [slot])
    p = state.players[player].ship
    state.players[player].scanned[p] = True  # R-A4b scans count for R-A5 too
    if has_point_tile(state.piles[p]):
        begin_tile_decision(state, "scan")
    else:
        reveal_check(state, p)  # R-V1 (an already revealed pile stays as it is)
        remember_visit(state, player, p)  # the player looked through the pile (R-I3)
        finish_action(state)


def develop(state: GameState, player: int, slot_a: int, slot_b: int) -> None:
    """R-A5: station, reservations to collections, a tile of choice, reveal check."""
    play_cards(state, player, [slot_a, slot_b])
    p = state.players[player].ship
    # 1. place the station
    state.players[player].supply -= 1
    state.stations[p] = player
    # 2. every reservation here goes to its owner's collection; the probes go home
    for q in range(state.num_players):
        reserved = state.reservations[p][q]
        owner = state.players[q]
        owner.supply += sum(reserved)
        owner.collection = [c + r for c, r in zip(owner.collection, reserved)]
        state.reservations[p][q] = [0] * NUM_POINT_TYPES
    # 3. a point tile of choice, if the pile holds one (4. follows the take)
    if has_point_tile(state.piles[p]):
        begin_tile_decision(state, "develop")
    else:
        reveal_check(state, p)
        remember_visit(state, player, p)
        finish_action(state)


def discover(state: GameState, player: int) -> None:
    """R-A6: no card, no chip; a point tile of choice follows."""
    begin_tile_decision(state, "discover")


def begin_tile_decision(state: GameState, pending: str) -> None:
    state.phase = "tile"
    state.pending = pending


def take_tile(state: GameState, player: int, tile: int) -> None:
    """The tile decision: a scan reserves the tile under a probe (R-A4); develop and
    discover put it in the collection (R-A5, R-A6). Then the reveal check (R-V1)."""
    pl = state.players[player]
    p = pl.ship
    state.piles[p][tile] -= 1
    if state.pending == "scan":
        pl.supply -= 1
        state.reservations[p][player][tile] += 1
    else:
        pl.collection[tile] += 1
    state.phase = "main"
    state.pending = None
    reveal_check(state, p)
    remember_visit(state, player, p)
    finish_action(state)


def remember_visit(state: GameState, player: int, position: int) -> None:
    """R-I3: the pile as the player saw it after this visit, and when (used by yucata)."""
    pl = state.players[player]
    pl.last_seen[position] = list(state.piles[position])
    pl.last_seen_round[position] = state.round


# --- reveal and end (R-V1, R-E1, R-T1, R-E3) -------------------------------------------
def reveal(state: GameState, position: int) -> None:
    """R-V1: turn the pile's space tiles face up; R-E1 watches the revealed count."""
    state.revealed[position] = True
    if state.revealed_count >= END_THRESHOLD[state.num_players]:
        state.end_triggered = True


def reveal_check(state: GameState, position: int) -> None:
    """R-V1: after a tile left the pile, reveal it if it holds no point tile."""
    if not state.revealed[position] and not has_point_tile(state.piles[position]):
        reveal(state, position)


def finish_action(state: GameState) -> None:
    """R-T2: two actions make a turn."""
    state.actions_left -= 1
    if state.actions_left == 0:
        end_turn(state)


def end_turn(state: GameState) -> None:
    """R-T1: seat order; a round ends with the seat before the start player.
    R-E1: once triggered, the game ends when the round ends. R-E3: the round limit ends it too."""
    n = state.num_players
    if state.current_player == (state.start_player - 1) % n:
        if state.end_triggered:
            state.is_over = True
        elif state.round >= state.max_rounds:
            state.is_over = True  # R-E3: a real end, scored as at R-E1
            state.round_limit = True
        else:
            state.round += 1
    if not state.is_over:
        state.current_player = (state.current_player + 1) % n
        state.actions_left = 2


def apply(state: GameState, action: int) -> None:
    """Play ``action`` for the current player. Raises ValueError (state unchanged)
    when the game is over, the id is out of range or the action is not legal now."""
    check_state(state)
    kind, args = A.decode(action)
    if state.is_over:
        raise ValueError("the game is over; no action can be applied")
    if not is_legal(state, action):
        raise ValueError(f"action {int(action)} ({action_label(action, state)}) is not legal now")
    player = state.current_player
    record_turn(state, player, kind, args)
    handlers: dict[str, Callable[..., None]] = {
        "top_up": top_up,
        "jump": jump,
        "fly": fly,
        "scan": scan,
        "develop": develop,
        "discover": discover,
        "tile": take_tile,
    }
    handlers[kind](state, player, *args)


def record_turn(state: GameState, player: int, kind: str, args: tuple) -> None:
    """R-I1: every action is taken openly. Called before the action runs (its cards are
    still in hand): a turn's first action starts a new record; the tile decision marks
    that its action took a tile (the pile shrank); its type stays private."""
    pl = state.players[player]
    if kind == "tile":
        if pl.last_turn:  # a state loaded from schema 1/2 may have no record of the pending action
            pl.last_turn[-1].tile = True
        return
    if state.actions_left == 2:  # R-T2: the turn's first action
        pl.last_turn = []
    elif not pl.last_turn:
        # The turn began before a state of schema 1 or 2 (no turn records) was loaded: its first
        # action is unknown, so the record stays empty, which reads as unknown. The second action
        # alone would read as the turn's first, and after a scan, develop or discover (a tile
        # decision pending) its state was refused on reload (check_acting_record: 1 of 2 actions).
        return
    if kind == "top_up":
        target, slots = -1, A.slots_of_mask(args[0])
    elif kind == "jump":
        target, slots = args[1], [args[0]]
    elif kind == "fly":
        target, slots = (pl.ship + args[0]) % RING_SIZE, []
    else:  # scan (one slot), develop (two), discover (none) act on the ship's planet
        target, slots = pl.ship, list(args)
    pl.last_turn.append(TurnAction(kind, target, [pl.hand[i] for i in slots]))


# --- scoring (R-P1..R-P8, R-E2) --------------------------------------------------------
def scores(state: GameState) -> list[dict]:
    """Score breakdown per seat; provisional before the end. Reservations never
    count (R-E2: those on undeveloped planets are lost)."""
    check_state(state)
    gate = jump_gate_points([pl.gate_probes for pl in state.players])
    return [
        score_breakdown(gate[q], sum(1 for o in state.stations if o == q), pl.collection)
        for q, pl in enumerate(state.players)
    ]


def winners(state: GameState) -> list[int]:
    totals = [s["total"] for s in scores(state)]
    stations = [sum(1 for o in state.stations if o == q) for q in range(state.num_players)]
    return winners_of(totals, stations)


# --- labels ---------------------------------------------------------------------------
def action_label(action: int, state: GameState | None = None) -> str:
    """Human-readable label; with a state it names cards and planets."""
    kind, args = A.decode(action)
    hand = state.players[state.current_player].hand if state is not None else None

    def card(slot: int) -> str:
        if hand is not None and slot < len(hand):
            return f"card {slot} ({CARD_LABELS[hand[slot]]})"
        return f"card {slot}"

    def where(position: int) -> str:
        if state is not None:
            return PLANET_NAMES[state.ring[position]]
        return f"ring position {position}"

    if kind == "top_up":
        slots = A.slots_of_mask(args[0])
        return "top up, discarding " + ", ".join(card(s) for s in slots) if slots else "top up, discarding nothing"
    if kind == "jump":
        return f"jump with {card(args[0])} to {where(args[1])}"
    if kind == "fly":
        return "fly clockwise" if args[0] == 1 else "fly counter-clockwise"
    if kind == "scan":
        return f"scan with {card(args[0])}"
    if kind == "develop":
        return f"develop with {card(args[0])} and {card(args[1])}"
    if kind == "discover":
        return "discover"
    return f"take tile {TILE_NAMES[args[0]]}"
