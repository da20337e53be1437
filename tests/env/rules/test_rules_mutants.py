"""Tests that kill mutants of the Space Mission reference rules (rules/game.py, scoring.py)
which the rule tests let through: each one is pinned here from an explicit position, with
the expected values read from RULES.md (quoted in the docstrings), not from the code.

Ring used throughout (position: planet, jump / scan / landing coordinates, R-C1):
0 Freezer 1/2/(1,3), 1 Hazard 1/4/(2,4), 2 Caldera 1/3/(3,4), 3 Green Heggar 2/1/(1,2),
4 Ruby Red 2/3/(1,4), 5 Aurora 2/4/(2,3), 6 Basalt 3/1/(3,4), 7 Cinder 3/2/(1,2).
"""
import pytest

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.rules import GATE, apply, legal_actions
from tests.helpers.positions import develop, jump, labels, position, scan, take, top_up

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


def test_R_A6_R_S3_no_discover_from_the_jump_gate():
    """R-S3: "Every ship starts on the jump gate (not a planet, no neighbours)." and "The
    remaining actions act on the planet where your ship is." R-A6: "The planet has a station
    (anyone's) and its pile holds a point tile." A ship on the gate is on no planet, so it
    cannot discover, whatever stations and piles lie on the ring (here: a station of seat 1
    on Cinder, ring position 7, whose pile holds a water tile)."""
    s = position(2, ring=RING, stations={7: 1}, piles={7: {"water": 1, "space": 2}})
    assert s.players[0].ship == GATE
    assert A.DISCOVER not in legal_actions(s)
    with pytest.raises(ValueError):
        apply(s, A.DISCOVER)


def test_R_A4_R_S3_no_scan_from_the_jump_gate():
    """R-S3 (as above) and R-A4: "The planet has no station. Play a card with its scan
    coordinate". A ship on the gate has no planet to scan, even holding a card whose scan
    coordinate matches a ring planet without station (Cinder, scan 2, at position 7)."""
    s = position(2, ring=RING, hands={0: ["J1/S2", "J2/S?"]}, piles={7: {"water": 1, "space": 2}})
    assert s.players[0].ship == GATE
    assert [a for a in legal_actions(s) if A.decode(a)[0] == "scan"] == []
    with pytest.raises(ValueError):
        apply(s, scan(s, "J1/S2"))


def test_R_I1_a_fly_is_recorded_with_the_planet_flown_to():
    """R-I1: "Every action is taken openly, so also: ... each player's last turn (its
    actions, their targets and the cards played)." A fly from Ruby Red (position 4) to its
    neighbour Green Heggar (position 3) targets position 3 and plays no card."""
    s = position(2, ring=RING, ships={0: 4})
    apply(s, A.FLY_CCW)
    assert s.players[0].ship == 3
    record = s.players[0].last_turn
    assert [(a.kind, a.target, a.cards) for a in record] == [("fly", 3, [])]


def record(s, q):
    """Seat q's last-turn record as (kind, target, card labels sorted)."""
    return [(a.kind, a.target, sorted(labels(a.cards))) for a in s.players[q].last_turn]


def test_R_I1_a_jump_is_recorded_with_the_planet_jumped_to_and_its_card():
    """R-I1: "each player's last turn (its actions, their targets and the cards played)".
    R-A2: "Play one card whose jump coordinate ... matches a planet ...; move there". A jump
    from the gate with J1/S2 to Caldera (position 2, jump 1) targets position 2."""
    s = position(2, ring=RING, hands={0: ["J1/S2", "S1/L1"]})
    apply(s, jump(s, "J1/S2", 2))
    assert s.players[0].ship == 2
    assert record(s, 0) == [("jump", 2, ["J1/S2"])]


def test_R_I1_R_A5_a_develop_is_recorded_with_both_cards_played():
    """R-I1: "... the cards played"; R-A5: "you play two cards that provide its two landing
    coordinates (one each)". Developing Freezer (landing 1 and 3) with J1/L1 and J3/L3
    records both cards, on the planet's position 0."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J1/L1", "J3/L3", "S1/L1"]},
                 piles={0: {"water": 1, "space": 2}})
    apply(s, develop(s, "J1/L1", "J3/L3"))
    apply(s, take("water"))
    assert s.stations[0] == 0
    assert record(s, 0) == [("develop", 0, ["J1/L1", "J3/L3"])]


def test_R_I1_R_T2_the_record_holds_the_last_turn_only():
    """R-T2: "A turn is exactly two actions"; R-I1: "each player's last turn (its actions,
    their targets and the cards played)". After seat 0's second turn its record shows the two
    actions of that turn, not those of its first turn."""
    s = position(2, ring=RING, ships={0: 4, 1: 0})
    apply(s, A.FLY_CCW)  # seat 0: Ruby Red -> Green Heggar (3)
    apply(s, A.FLY_CCW)  # -> Caldera (2); seat 0's turn ends
    apply(s, top_up())  # seat 1's turn
    apply(s, top_up())
    assert s.current_player == 0
    apply(s, A.FLY_CW)  # seat 0's second turn: Caldera -> Green Heggar (3)
    apply(s, A.FLY_CW)  # -> Ruby Red (4)
    assert record(s, 0) == [("fly", 3, []), ("fly", 4, [])]
