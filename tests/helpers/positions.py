"""A small builder of explicit positions for rule tests.

``position(...)`` starts from ``new_game(...)`` and sets the fields a test names;
everything else is filled in so that the components stay conserved (R-C2..R-C4):

- cards: named hands / draw pile / discard pile are taken out of the 60 cards;
  hands not named keep their cards where possible; the rest goes to the draw
  pile (or to the discard pile when the draw pile is named).
- tiles: named piles, reservations and collections are fixed; the remaining
  tiles of the 64 are dealt round-robin over the piles not named (space tiles
  first); point tiles that do not fit go to the collection of the highest seat
  whose collection is not named (as if taken earlier in the game).
- chips: a player's supply is 20 minus gate probes, probes (one per reserved
  tile) and stations; ``supply={q: n}`` instead moves the difference onto the
  jump gate.
- the end: ``end_triggered`` is set when the revealed space tiles reach R-E1's threshold.
- scans: a seat with a reservation or a station on a planet has scanned it (R-A4, R-A5), and
  a scanned planet has a last visit (R-I3): the pile as it is now, in the current round.

The result goes through ``GameState.from_json(state.to_json())`` so it is
validated by ``check_invariants`` like any loaded state.

Cards are named by their labels (``"J1/S2"``, ``"S?/L1"``), planets and tiles by
their spec names (R-C1, R-C3).
"""
from __future__ import annotations

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import (
    CARD_INDEX,
    CARD_LABELS,
    CHIPS_PER_PLAYER,
    END_THRESHOLD,
    NUM_CARDS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PILE_SIZE,
    PLANET_INDEX,
    RING_SIZE,
    TILE_COUNTS,
    TILE_INDEX,
)
from spacemission_env.space_mission.rules import GATE, NO_STATION, GameState, new_game


def card(label: str) -> int:
    """Card id of a printed label such as ``"J1/S2"``."""
    return CARD_INDEX[label]


def tiles(spec: dict[str, int] | None, size: int = NUM_TILE_TYPES) -> list[int]:
    """Counts in R-C3 order from ``{"water": 2, "space": 1}``."""
    out = [0] * size
    for name, n in (spec or {}).items():
        out[TILE_INDEX[name]] = n
    return out


def position(
    num_players: int = 2,
    *,
    rules: str = "yucata",
    seed: int = 0,
    max_rounds: int = 100,
    ring: list[str] | None = None,
    start: int = 0,
    current: int | None = None,
    round: int = 1,
    actions_left: int = 2,
    ships: dict[int, int | None] | None = None,
    hands: dict[int, list[str]] | None = None,
    draw_pile: list[str] | None = None,
    discard_pile: list[str] | None = None,
    piles: dict[int, dict[str, int]] | None = None,
    revealed: list[int] | None = None,
    stations: dict[int, int] | None = None,
    reservations: dict[tuple[int, int], dict[str, int]] | None = None,
    collections: dict[int, dict[str, int]] | None = None,
    gate_probes: dict[int, int] | None = None,
    supply: dict[int, int] | None = None,
    scanned: dict[int, list[int]] | None = None,
) -> GameState:
    """An explicit, valid position (see the module docstring)."""
    s = new_game(num_players, seed=seed, rules=rules, max_rounds=max_rounds)
    n = num_players
    s.start_player = start
    s.current_player = start if current is None else current
    s.round = round
    s.actions_left = actions_left

    if ring is not None:  # R-S1: ring position p holds planet ring[p]
        s.ring = [PLANET_INDEX[name] for name in ring]
    for q, where in (ships or {}).items():  # None = on the jump gate (R-S3)
        s.players[q].ship = GATE if where is None else where

    _place_cards(s, hands or {}, draw_pile, discard_pile)
    _place_tiles(s, piles or {}, reservations or {}, collections or {})

    s.revealed = [p in (revealed or []) for p in range(RING_SIZE)]
    s.end_triggered = bool(s.revealed_count >= END_THRESHOLD[n])  # R-E1: as soon as the threshold is reached
    s.stations = [NO_STATION] * RING_SIZE
    for p, owner in (stations or {}).items():
        s.stations[p] = owner
    for q, positions in (scanned or {}).items():
        s.players[q].scanned = [p in positions for p in range(RING_SIZE)]
    # as play leaves them (state.py, check_history): a reservation or a station comes with its
    # owner's scan (R-A4, R-A5), and a scan with its visit (R-I3), here the pile as it is now
    for p in range(RING_SIZE):
        for q in range(n):
            if any(s.reservations[p][q]) or s.stations[p] == q:
                s.players[q].scanned[p] = True
    for pl in s.players:
        for p in range(RING_SIZE):
            if pl.scanned[p] and not pl.last_seen_round[p]:
                pl.last_seen[p], pl.last_seen_round[p] = list(s.piles[p]), s.round

    for q in range(n):  # R-C4: 20 chips per player
        pl = s.players[q]
        pl.gate_probes = (gate_probes or {}).get(q, 0)
        on_board = pl.gate_probes + sum(s.probes_on(p, q) for p in range(RING_SIZE)) + s.stations.count(q)
        if supply and q in supply:
            pl.gate_probes += CHIPS_PER_PLAYER - on_board - supply[q]
            on_board = CHIPS_PER_PLAYER - supply[q]
        pl.supply = CHIPS_PER_PLAYER - on_board
        assert pl.supply >= 0 and pl.gate_probes >= 0, f"player {q}: more than 20 chips placed"
    return GameState.from_json(s.to_json())  # validated like any loaded state


def _place_cards(s: GameState, hands: dict, draw_pile: list | None, discard_pile: list | None) -> None:
    claimed = [card(c) for h in hands.values() for c in h]
    claimed += [card(c) for c in (draw_pile or []) + (discard_pile or [])]
    assert len(set(claimed)) == len(claimed), "a card is named twice"
    for q, pl in enumerate(s.players):
        if q in hands:
            pl.hand = sorted(card(c) for c in hands[q])
        else:  # keep the dealt cards that nobody else claimed
            pl.hand = sorted(c for c in pl.hand if c not in claimed)
    in_hands = {c for pl in s.players for c in pl.hand}
    rest = [c for c in s.draw_pile + s.discard_pile + list(range(NUM_CARDS))
            if c not in in_hands and c not in claimed]
    rest = list(dict.fromkeys(rest))  # unique, keeping the draw pile's order first
    s.draw_pile = rest if draw_pile is None else [card(c) for c in draw_pile]
    s.discard_pile = [card(c) for c in discard_pile] if discard_pile is not None else []
    if draw_pile is not None:
        s.discard_pile += rest


def _place_tiles(s: GameState, piles: dict, reservations: dict, collections: dict) -> None:
    left = [int(c) for c in TILE_COUNTS]
    s.reservations = [[[0] * NUM_POINT_TYPES for _ in range(s.num_players)] for _ in range(RING_SIZE)]
    for (p, q), spec in reservations.items():
        s.reservations[p][q] = tiles(spec, NUM_POINT_TYPES)
    for pl in s.players:
        pl.collection = [0] * NUM_POINT_TYPES
    for q, spec in collections.items():
        s.players[q].collection = tiles(spec, NUM_POINT_TYPES)
    s.piles = [[0] * NUM_TILE_TYPES for _ in range(RING_SIZE)]
    for p, spec in piles.items():
        s.piles[p] = tiles(spec)
    for t in range(NUM_POINT_TYPES):
        left[t] -= sum(s.reservations[p][q][t] for p in range(RING_SIZE) for q in range(s.num_players))
        left[t] -= sum(pl.collection[t] for pl in s.players)
    for t in range(NUM_TILE_TYPES):
        left[t] -= sum(s.piles[p][t] for p in range(RING_SIZE))
    assert min(left) >= 0, f"more tiles placed than exist: {left}"
    free = [p for p in range(RING_SIZE) if p not in piles]
    # space tiles first so they spread over the free piles; point tiles after
    deal = [t for t in [NUM_TILE_TYPES - 1, *range(NUM_POINT_TYPES)] for _ in range(left[t])]
    k = 0
    for t in deal:  # round-robin over the piles not named, at most 8 each (R-S2)
        for _ in range(len(free)):
            p = free[k % len(free)]
            k += 1
            if sum(s.piles[p]) < PILE_SIZE:
                s.piles[p][t] += 1
                break
        else:  # the piles are full: the tile was taken earlier in the game
            assert t < NUM_POINT_TYPES, "the space tiles do not fit in the piles not named"
            spare = [q for q in reversed(range(s.num_players)) if q not in collections]
            assert spare, "tiles left over and every collection is named"
            s.players[spare[0]].collection[t] += 1


# --- action ids (docs/actions.md) -------------------------------------------------
def slot(s: GameState, label: str, player: int | None = None) -> int:
    """Hand slot of the card ``label`` (hands are sorted by card id)."""
    q = s.current_player if player is None else player
    return s.players[q].hand.index(card(label))


def top_up(*slots: int) -> int:
    return A.TOPUP + sum(1 << i for i in slots)


def jump(s: GameState, label: str, to: int) -> int:
    return A.JUMP + slot(s, label) * RING_SIZE + to


def scan(s: GameState, label: str) -> int:
    return A.SCAN + slot(s, label)


def develop(s: GameState, label_a: str, label_b: str) -> int:
    pair = tuple(sorted((slot(s, label_a), slot(s, label_b))))
    return A.DEVELOP + A.DEVELOP_PAIRS.index(pair)


def take(name: str) -> int:
    return A.TILE + TILE_INDEX[name]


def labels(cards: list[int]) -> list[str]:
    return [CARD_LABELS[c] for c in cards]


def swap_hidden_cards(s, p):
    """``s`` (a Space Mission reference state) with a rival's hand card swapped with a draw
    pile card, the draw pile reversed and another generator state: nothing seat ``p`` may
    see changes (R-I1..R-I5), so a bot or a person's view must not change either. Validated
    by a JSON round trip."""
    t = s.copy()
    t.draw_pile.reverse()
    t.rng = (t.rng * 6364136223846793005 + 1442695040888963407) % 2**64
    for q in range(t.num_players):
        hand = t.players[q].hand
        if q != p and hand and t.draw_pile:
            hand[0], t.draw_pile[0] = t.draw_pile[0], hand[0]
            hand.sort()
            break
    return type(t).from_json(t.to_json())
