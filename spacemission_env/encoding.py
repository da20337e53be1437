"""Reference observation encoder: the information state of one seat (R-I1..R-I4).

Plain Python/numpy over a reference ``GameState``; the fast engine's
``engine.observe`` produces the identical int8 vector (tested). Two kinds:

- ``"info"``: what the observer may know under the rule set. Public facts (R-I1),
  own hand and collection (R-I2), the pile being looked at during the observer's
  own tile decision (R-I3), own reservations by type only under ``yucata``
  (R-A4c; under ``schmidt`` only the public probe counts), the last-visit table
  only under ``yucata`` (R-I3). Never the draw order, other hands, unseen piles,
  other players' reservation/collection types (R-I4).
- ``"seer"``: the whole state (all hands, reservations, collections, piles, the
  draw pile's contents as card flags, every last-visit table), for debugging and
  teacher policies; the info blocks come first, filled as if everything were visible.

Egocentric: seat blocks are rotated so the observer is relative seat 0 and padded
to 5 seats, and the size D does not depend on the player count or rule set.
Everything is int8; the round is clipped to 127 and accompanied by the rounds
left before the round limit (also clipped), so nothing overflows silently. Layout:
``observation_layout()``, rendered in docs/observation.md.
"""
from __future__ import annotations

import numpy as np

from .components import (
    CARD_COORDS,
    END_THRESHOLD,
    HAND_SIZE,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_POINT_TYPES,
    NUM_TILE_TYPES,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_SCAN,
    RING_SIZE,
    SPACE,
)

OBSERVATION_TYPES = ("info", "seer")
CLIP = 127
S = MAX_PLAYERS  # seats are padded to 5
CARD_FEATURES = 15  # per card: one-hot jump (1-4, ?), scan (1-4, ?), landing (1-4, ?)

# (name, shape, meaning); sizes multiply out. Info blocks first, then seer-only blocks.
_INFO_BLOCKS = (
    ("tile_decision", (1,), "1 while the acting player must choose a tile (phase 'tile')"),
    ("pending", (3,), "one-hot action awaiting the tile decision: scan, develop, discover"),
    ("actions_left", (1,), "actions left in the acting player's turn (R-T2; 0 once over)"),
    ("round", (1,), "round number (R-T1), clipped to 127"),
    ("rounds_left", (1,), "max_rounds - round: rounds after this one before the round limit (R-E3), clipped to 127"),
    ("end_triggered", (1,), "R-E1 threshold reached; this is the last round"),
    ("game_over", (1,), "the game has ended (R-E1 or R-E3)"),
    ("round_limit", (1,), "the game ended at the round limit max_rounds (R-E3)"),
    ("revealed_count", (1,), "revealed space tiles (R-V1)"),
    ("revealed_to_end", (1,), "revealed space tiles still needed to end the game (R-E1), >= 0"),
    ("draw_pile_size", (1,), "cards in the draw pile (R-I1)"),
    ("discard_pile_size", (1,), "cards in the discard pile (R-I1)"),
    ("seat_present", (S,), "[relative seat] 1 if that seat is in the game (observer = seat 0)"),
    ("acting_seat", (S,), "[relative seat] one-hot acting player"),
    ("start_seat", (S,), "[relative seat] one-hot start player (R-T1, R-S5)"),
    ("ring_planet", (RING_SIZE,), "[position] planet id 0-11 on the ring (R-S1)"),
    ("ring_jump", (RING_SIZE, 4), "[position, value 1-4] one-hot jump coordinate (R-C1)"),
    ("ring_scan", (RING_SIZE, 4), "[position, value 1-4] one-hot scan coordinate"),
    ("ring_landing", (RING_SIZE, 4), "[position, value 1-4] the two landing coordinates (multi-hot)"),
    ("pile_size", (RING_SIZE,), "[position] tiles in the pile (R-I1)"),
    ("revealed", (RING_SIZE,), "[position] 1 if the pile's space tiles are face up (R-V1)"),
    ("revealed_space", (RING_SIZE,), "[position] face-up space tiles in the pile"),
    ("station", (RING_SIZE, S), "[position, relative seat] one-hot station owner (R-A5)"),
    ("probes", (RING_SIZE, S), "[position, relative seat] probes (= reservations) on the planet (R-I1)"),
    ("ship", (S, RING_SIZE), "[relative seat, position] one-hot ship position; all 0 = on the jump gate"),
    ("supply", (S,), "[relative seat] chips in supply (R-C4)"),
    ("gate_probes", (S,), "[relative seat] probes on the jump gate (R-A2, R-P1)"),
    ("hand_size", (S,), "[relative seat] cards in hand (R-I1)"),
    ("collected", (S,), "[relative seat] point tiles collected, all types together (R-I1)"),
    ("scanned", (S, RING_SIZE), "[relative seat, position] has scanned that planet (public action; R-A5)"),
    ("discard_cards", (NUM_CARDS,), "[card id] 1 if the card lies in the discard pile (played since the last reshuffle, R-I1)"),
    ("own_hand", (HAND_SIZE, CARD_FEATURES), "[slot, feature] own card per canonical slot: one-hot jump 1-4,?, scan 1-4,?, landing 1-4,? (R-I2)"),
    ("own_collection", (NUM_POINT_TYPES,), "[tile type] own collected tiles by type (R-I2)"),
    ("own_reservations", (RING_SIZE, NUM_POINT_TYPES), "[position, tile type] own reserved tiles by type; yucata only (R-A4c), zeros under schmidt"),
    ("pile_seen", (NUM_TILE_TYPES,), "[tile type] the pile the observer looks at during its own tile decision (R-I3), else 0"),
    ("last_visit_seen", (RING_SIZE,), "[position] 1 if the observer has visited the pile; yucata only (R-I3)"),
    ("last_visit_age", (RING_SIZE,), "[position] rounds since that visit, clipped to 127; yucata only (R-I3)"),
    ("last_visit_pile", (RING_SIZE, NUM_TILE_TYPES), "[position, tile type] the pile after that visit; yucata only (R-I3)"),
)
_SEER_BLOCKS = (
    ("seer_piles", (RING_SIZE, NUM_TILE_TYPES), "[position, tile type] every pile's contents"),
    ("seer_draw_cards", (NUM_CARDS,), "[card id] 1 if the card is in the draw pile (order not encoded)"),
    ("seer_hands", (S, HAND_SIZE, CARD_FEATURES), "[relative seat, slot, feature] every hand, as own_hand"),
    ("seer_collections", (S, NUM_POINT_TYPES), "[relative seat, tile type] every collection"),
    ("seer_reservations", (RING_SIZE, S, NUM_POINT_TYPES), "[position, relative seat, tile type] every reservation"),
    ("seer_last_visit_seen", (S, RING_SIZE), "[relative seat, position] last-visit flags of every seat"),
    ("seer_last_visit_age", (S, RING_SIZE), "[relative seat, position] rounds since that visit, clipped to 127"),
    ("seer_last_visit_pile", (S, RING_SIZE, NUM_TILE_TYPES), "[relative seat, position, tile type] piles after those visits"),
)


def _blocks(observation_type: str):
    if observation_type == "info":
        return _INFO_BLOCKS
    if observation_type == "seer":
        return _INFO_BLOCKS + _SEER_BLOCKS
    raise ValueError(f"unknown observation_type {observation_type!r}; expected one of {OBSERVATION_TYPES}")


def observation_layout(observation_type: str = "info") -> list[tuple[str, int, int, str]]:
    """(name, start, stop, meaning) per block; the vector is their concatenation."""
    out, k = [], 0
    for name, shape, meaning in _blocks(observation_type):
        n = int(np.prod(shape))
        out.append((name, k, k + n, meaning))
        k += n
    return out


def observation_size(observation_type: str = "info") -> int:
    return observation_layout(observation_type)[-1][2]


def observation_shapes(observation_type: str = "info") -> dict[str, tuple[int, ...]]:
    return {name: shape for name, shape, _ in _blocks(observation_type)}


def decode(vector: np.ndarray, observation_type: str = "info") -> dict[str, np.ndarray]:
    """Split an observation into its named blocks, reshaped (for tests and debugging)."""
    shapes = observation_shapes(observation_type)
    return {name: np.asarray(vector)[a:b].reshape(shapes[name]) for name, a, b, _ in observation_layout(observation_type)}


def _card_features(card: int) -> np.ndarray:
    f = np.zeros(CARD_FEATURES, dtype=np.int8)
    for colour in range(3):
        v = int(CARD_COORDS[card, colour])
        if v:
            f[colour * 5 + v - 1] = 1  # value 5 = joker '?'
    return f


CARD_FEATURE_TABLE = np.stack([_card_features(c) for c in range(NUM_CARDS)])  # [card id, feature]


def observe(state, player: int | None = None, observation_type: str = "info") -> np.ndarray:
    """The int8 observation vector of ``player`` (default: the acting player)."""
    seer = observation_type == "seer"
    blocks = {name: np.zeros(shape, dtype=np.int64) for name, shape, _ in _blocks(observation_type)}
    n = state.num_players
    me = state.current_player if player is None else int(player)
    if not 0 <= me < n:
        raise ValueError(f"player must be a seat in 0..{n - 1}, got {player!r}")
    rel = lambda q: (q - me) % n  # noqa: E731
    yucata = state.rules == "yucata" or seer
    o = blocks
    o["tile_decision"][0] = state.phase == "tile"
    if state.pending is not None:
        o["pending"][("scan", "develop", "discover").index(state.pending)] = 1
    o["actions_left"][0] = state.actions_left
    o["round"][0] = min(state.round, CLIP)
    o["rounds_left"][0] = min(max(state.max_rounds - state.round, 0), CLIP)
    o["end_triggered"][0] = state.end_triggered
    o["game_over"][0] = state.is_over
    o["round_limit"][0] = state.round_limit
    rc = state.revealed_count
    o["revealed_count"][0] = rc
    o["revealed_to_end"][0] = max(int(END_THRESHOLD[n]) - rc, 0)
    o["draw_pile_size"][0] = len(state.draw_pile)
    o["discard_pile_size"][0] = len(state.discard_pile)
    o["seat_present"][:n] = 1
    o["acting_seat"][rel(state.current_player)] = 1
    o["start_seat"][rel(state.start_player)] = 1
    for p in range(RING_SIZE):
        planet = state.ring[p]
        o["ring_planet"][p] = planet
        o["ring_jump"][p, PLANET_JUMP[planet] - 1] = 1
        o["ring_scan"][p, PLANET_SCAN[planet] - 1] = 1
        for v in PLANET_LANDING[planet]:
            o["ring_landing"][p, v - 1] += 1
        o["pile_size"][p] = sum(state.piles[p])
        o["revealed"][p] = state.revealed[p]
        o["revealed_space"][p] = state.piles[p][SPACE] if state.revealed[p] else 0
        if state.stations[p] >= 0:
            o["station"][p, rel(state.stations[p])] = 1
        for q in range(n):
            o["probes"][p, rel(q)] = sum(state.reservations[p][q])
    for q, pl in enumerate(state.players):
        r = rel(q)
        if pl.ship >= 0:
            o["ship"][r, pl.ship] = 1
        o["supply"][r] = pl.supply
        o["gate_probes"][r] = pl.gate_probes
        o["hand_size"][r] = len(pl.hand)
        o["collected"][r] = sum(pl.collection)
        o["scanned"][r] = pl.scanned
    for c in state.discard_pile:
        o["discard_cards"][c] = 1
    mine = state.players[me]
    for s, c in enumerate(mine.hand):
        o["own_hand"][s] = CARD_FEATURE_TABLE[c]
    o["own_collection"][:] = mine.collection
    if yucata:  # R-A4c: schmidt players may not look at their own reservations
        for p in range(RING_SIZE):
            o["own_reservations"][p] = state.reservations[p][me]
    if state.phase == "tile" and state.current_player == me:  # R-I3: the pile being looked through
        o["pile_seen"][:] = state.piles[mine.ship]
    if yucata:  # R-I3 [variant]: the yucata last-visit table
        _last_visits(state, mine, o["last_visit_seen"], o["last_visit_age"], o["last_visit_pile"])
    if seer:
        for p in range(RING_SIZE):
            o["seer_piles"][p] = state.piles[p]
        for c in state.draw_pile:
            o["seer_draw_cards"][c] = 1
        for q, pl in enumerate(state.players):
            r = rel(q)
            for s, c in enumerate(pl.hand):
                o["seer_hands"][r, s] = CARD_FEATURE_TABLE[c]
            o["seer_collections"][r] = pl.collection
            for p in range(RING_SIZE):
                o["seer_reservations"][p, r] = state.reservations[p][q]
            _last_visits(state, pl, o["seer_last_visit_seen"][r], o["seer_last_visit_age"][r], o["seer_last_visit_pile"][r])
    vec = np.concatenate([blocks[name].reshape(-1) for name, _, _ in _blocks(observation_type)])
    assert vec.min() >= -128 and vec.max() <= 127, "observation feature out of int8 range"
    return vec.astype(np.int8)


def _last_visits(state, pl, seen, age, pile) -> None:
    for p in range(RING_SIZE):
        if pl.last_seen_round[p]:
            seen[p] = 1
            age[p] = min(state.round - pl.last_seen_round[p], CLIP)
            pile[p] = pl.last_seen[p]


def layout_markdown() -> str:
    """docs/observation.md, generated from observation_layout() (a test checks it)."""
    lines = [
        "# Observation layout",
        "",
        "Generated by `python -m spacemission_env.encoding > docs/observation.md` from",
        "`spacemission_env.encoding.observation_layout()`; `tests/test_encoding.py` fails if this file drifts.",
        "",
        "One int8 vector per observer, identical from `engine.observe` (batched) and",
        "`encoding.observe` (reference `GameState`). Egocentric: *relative seat* r is seat",
        "(observer + r) mod num_players; seats are padded to 5 (absent seats are all 0), so the",
        "size does not depend on the player count or the rule set. Multi-dimensional blocks are",
        "flattened in C order (last index fastest). Tile types follow R-C3 (0 mineral_red ..",
        "9 medal, 10 space); card ids follow `data/components.json`.",
        "",
        "- `info` (default): the observer's information state (R-I1..R-I4). Blocks marked",
        "  *yucata only* are zero under `schmidt` (R-A4c own reservation types; R-I3 last-visit",
        "  table); `pile_seen` is non-zero only during the observer's own tile decision (R-I3).",
        "- `seer`: the whole state (debugging, teacher policies): the info blocks, filled as if every",
        "  rule set showed everything, followed by the `seer_*` blocks.",
        "- Values that can exceed int8 are clipped: `round` and `rounds_left` to 127 (both",
        "  are given, so the distance to the round limit stays exact near the end of a long game), ages of",
        "  last visits to 127. Every other feature is a count <= 64 or a flag.",
        "",
        f"Sizes: info D = {observation_size('info')}, seer D = {observation_size('seer')}.",
        "",
    ]
    for kind in OBSERVATION_TYPES:
        lines += [f"## `{kind}`", "", "| name | indices | size | meaning |", "|---|---|---|---|"]
        info_names = {r[0] for r in observation_layout("info")}
        for name, a, b, meaning in observation_layout(kind):
            if kind == "seer" and name in info_names:
                continue
            lines.append(f"| `{name}` | {a}-{b - 1} | {b - a} | {meaning} |")
        if kind == "seer":
            lines.insert(len(lines) - len(_SEER_BLOCKS), "| (info blocks) | 0-%d | %d | as above |" % (
                observation_size("info") - 1, observation_size("info")))
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(layout_markdown(), end="")
