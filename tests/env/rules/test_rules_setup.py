"""Components (R-C1..R-C4), setup (R-S1..R-S5) and turn order (R-T1, R-T2)."""
from collections import Counter

import pytest
from tests.helpers.positions import position, scan, take, top_up

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import (
    CARD_COORDS,
    CARD_LABELS,
    JOKER,
    NUM_CARDS,
    PLANET_JUMP,
    PLANET_LANDING,
    PLANET_NAMES,
    PLANET_SCAN,
    TILE_COUNTS,
    TILE_NAMES,
)
from spacemission_env.space_mission.rules import GATE, apply, legal_actions, new_game

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]

# R-C1: the table of docs/components.md (docs/rules.md R-C1), copied here so a change of the data file is noticed
PLANET_TABLE = [
    ("Freezer", 1, 2, (1, 3)), ("Hazard", 1, 4, (2, 4)), ("Caldera", 1, 3, (3, 4)),
    ("Green Heggar", 2, 1, (1, 2)), ("Ruby Red", 2, 3, (1, 4)), ("Aurora", 2, 4, (2, 3)),
    ("Basalt", 3, 1, (3, 4)), ("Cinder", 3, 2, (1, 2)), ("Drift", 3, 4, (1, 3)),
    ("Echo", 4, 1, (2, 4)), ("Flux", 4, 2, (2, 3)), ("Glacier", 4, 3, (1, 4)),
]


def test_R_C1_planet_table_matches_spec():
    got = [(PLANET_NAMES[i], int(PLANET_JUMP[i]), int(PLANET_SCAN[i]), tuple(int(v) for v in PLANET_LANDING[i]))
           for i in range(len(PLANET_NAMES))]
    assert got == PLANET_TABLE


def test_R_C1_planet_table_is_balanced():
    assert Counter(PLANET_JUMP.tolist()) == {1: 3, 2: 3, 3: 3, 4: 3}
    assert Counter(PLANET_SCAN.tolist()) == {1: 3, 2: 3, 3: 3, 4: 3}
    pairs = Counter(tuple(sorted(p)) for p in PLANET_LANDING.tolist())
    assert all(a != b for a, b in pairs) and set(pairs.values()) == {2} and len(pairs) == 6


def test_R_C2_deck_pairings_jokers_and_values():
    assert NUM_CARDS == 60 and len(set(CARD_LABELS)) == 60
    colours = Counter(tuple(v > 0 for v in row) for row in CARD_COORDS.tolist())
    assert colours == {(True, True, False): 20, (True, False, True): 20, (False, True, True): 20}
    for c in range(3):  # each colour on 40 cards: each value nine times, '?' four times
        values = Counter(v for v in CARD_COORDS[:, c].tolist() if v)
        assert values == {1: 9, 2: 9, 3: 9, 4: 9, JOKER: 4}
    jokers = {lab for lab in CARD_LABELS if "?" in lab}
    assert jokers == {"J?/S1", "J?/S3", "J2/S?", "J4/S?", "J?/L2", "J?/L4", "J1/L?", "J3/L?",
                      "S?/L1", "S?/L3", "S2/L?", "S4/L?"}


def test_R_C3_tile_vocabulary_and_counts():
    assert list(TILE_NAMES) == ["mineral_red", "mineral_purple", "mineral_green", "mineral_blue", "alien_brown",
                                "alien_blue", "matter_green", "matter_blue", "water", "medal", "space"]
    assert TILE_COUNTS.tolist() == [4, 4, 4, 4, 5, 5, 4, 4, 8, 6, 16]
    assert TILE_COUNTS[:10].sum() == 48


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R_C4_R_S3_R_S4_new_game_chips_ships_hands(n):
    s = new_game(n, seed=11)
    for pl in s.players:
        assert pl.supply == 20 and pl.gate_probes == 0  # R-C4
        assert pl.ship == GATE  # R-S3
        assert len(pl.hand) == 5 and pl.hand == sorted(pl.hand)  # R-S4, canonical order
    assert len(s.draw_pile) == 60 - 5 * n and s.discard_pile == []
    assert s.round == 1 and s.actions_left == 2 and s.phase == "main"


def test_R_S1_ring_of_eight_distinct_planets_varies_with_seed():
    rings = set()
    for seed in range(30):
        s = new_game(2, seed=seed)
        assert len(s.ring) == 8 and len(set(s.ring)) == 8 and all(0 <= p < 12 for p in s.ring)
        rings.add(tuple(s.ring))
    assert len(rings) == 30


def test_R_S1_R_A3_neighbours_wrap_around_the_ring():
    s = position(2, ring=RING, ships={0: 7})
    apply(s, A.FLY_CW)
    assert s.players[0].ship == 0
    apply(s, A.FLY_CCW)
    assert s.players[0].ship == 7


def test_R_S2_each_pile_holds_eight_tiles():
    s = new_game(4, seed=5)
    assert [sum(p) for p in s.piles] == [8] * 8
    assert [sum(p[t] for p in s.piles) for t in range(11)] == TILE_COUNTS.tolist()
    assert not any(s.revealed)


def test_R_S3_no_fly_from_the_jump_gate():
    s = new_game(2, seed=1)
    assert A.FLY_CW not in legal_actions(s) and A.FLY_CCW not in legal_actions(s)


def test_R_S5_schmidt_start_player_is_seat_0():
    for seed in range(20):
        s = new_game(4, seed=seed, rules="schmidt")
        assert s.start_player == 0 and s.current_player == 0


def test_R_S5_yucata_start_player_is_random():
    starts = Counter(new_game(4, seed=seed, rules="yucata").start_player for seed in range(60))
    assert set(starts) == {0, 1, 2, 3}
    s = new_game(4, seed=3, rules="yucata")
    assert s.current_player == s.start_player


def test_R_S5_variants_share_the_setup_of_a_seed():
    """Only the start player differs: it is drawn after planets, tiles and cards."""
    a, b = new_game(3, seed=9, rules="yucata"), new_game(3, seed=9, rules="schmidt")
    assert a.ring == b.ring and a.piles == b.piles and a.draw_pile == b.draw_pile
    assert [p.hand for p in a.players] == [p.hand for p in b.players]


def test_R_T1_seat_order_from_start_player_and_round_boundary():
    s = position(3, start=2)
    seen = []
    for _ in range(4):  # four turns of two no-op top ups (R-A1 ruling)
        seen.append((s.round, s.current_player))
        apply(s, top_up())
        apply(s, top_up())
    assert seen == [(1, 2), (1, 0), (1, 1), (2, 2)]


def test_R_T2_two_actions_per_turn_same_action_twice():
    s = position(2, ring=RING, ships={0: 3})
    apply(s, A.FLY_CW)
    assert s.current_player == 0 and s.actions_left == 1
    apply(s, A.FLY_CW)  # the same action twice is allowed
    assert s.current_player == 1 and s.actions_left == 2 and s.players[0].ship == 5


def test_R_T2_tile_choice_is_part_of_the_scan_action():
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]}, piles={0: {"water": 1, "space": 1}})
    apply(s, scan(s, "J1/S2"))
    assert s.phase == "tile" and s.actions_left == 2 and s.current_player == 0
    assert legal_actions(s) == [take("water")]
    apply(s, take("water"))
    assert s.phase == "main" and s.actions_left == 1 and s.current_player == 0
