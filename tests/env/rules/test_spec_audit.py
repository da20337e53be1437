"""An independent audit of both engines against the rule spec (../shared/spec/RULES.md).

Each test names the rule it checks and quotes the spec sentence; the expected values
are worked out from the spec by hand, never copied from a run. Tests that play actions
go through ``lockstep`` (tests/helpers/lockstep.py), so the fast engine is checked
against the reference after every action as well; scores are compared with
``engine.scores`` of a batch loaded from the same position.

Ring used throughout (position: planet, jump / scan / landing coordinates, R-C1):
0 Freezer 1/2/(1,3), 1 Hazard 1/4/(2,4), 2 Caldera 1/3/(3,4), 3 Green Heggar 2/1/(1,2),
4 Ruby Red 2/3/(1,4), 5 Aurora 2/4/(2,3), 6 Basalt 3/1/(3,4), 7 Cinder 3/2/(1,2).
No planet with jump coordinate 4 is on this ring (Drift, Echo, Flux, Glacier are out).
"""
from __future__ import annotations

import inspect
import json
import re
from importlib import resources

import numpy as np
import pytest

from spacemission_env import rng
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.components import CARD_LABELS, PLANET_NAMES
from spacemission_env.space_mission.engine.state import PLANET_COORDS
from spacemission_env.space_mission.protocol import GAME
from spacemission_env.space_mission.rules import GATE, legal_actions, new_game, scores, winners
from spacemission_env.space_mission.scoring import SCORE_KEYS, rank_rewards
from tests.helpers.lockstep import both_agree, fast_scores, lockstep, of_kind
from tests.helpers.positions import card, develop, jump, labels, position, scan, take, tiles, top_up

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


def kinds(s) -> set[str]:
    return {A.decode(a)[0] for a in legal_actions(s)}





def data_file() -> dict:
    return json.loads(resources.files("spacemission_env.space_mission").joinpath("data/components.json").read_text())


# --- R-C1 .. R-C4 components -----------------------------------------------------------------
def spec_planet_table(spec: str) -> list[tuple]:
    rows = re.findall(r"^\| (\d+)\s*\| ([A-Za-z ]+?)\s*\| (\d)\s*\| (\d)\s*\| (\d), (\d)\s*\|$", spec, re.M)
    return [(name, int(j), int(s), (int(a), int(b))) for _, name, j, s, a, b in rows]


def test_R_C1_the_data_file_holds_the_spec_planet_table(rules_spec):
    """R-C1: "The engine uses the table below ... It must live in one data file of the
    package so that an owner of the box can replace it." The table is read from the spec
    itself; both engines take their coordinates from the data file."""
    table = spec_planet_table(rules_spec)
    assert len(table) == 12 and table[0] == ("Freezer", 1, 2, (1, 3)) and table[11] == ("Glacier", 4, 3, (1, 4))
    data = [(p["name"], p["jump"], p["scan"], tuple(p["landing"])) for p in data_file()["planets"]]
    assert data == table
    assert list(PLANET_NAMES) == [t[0] for t in table]
    assert PLANET_COORDS.tolist() == [[j, s, a, b] for _, j, s, (a, b) in table]  # the fast engine's table


def expected_deck() -> set[str]:
    """R-C2: per pairing the 16 cards (a, b), a, b in 1..4, plus the pairing's four jokers."""
    def plain(x, y):
        return {f"{x}{a}/{y}{b}" for a in range(1, 5) for b in range(1, 5)}
    return (plain("J", "S") | {"J?/S1", "J?/S3", "J2/S?", "J4/S?"}
            | plain("J", "L") | {"J?/L2", "J?/L4", "J1/L?", "J3/L?"}
            | plain("S", "L") | {"S?/L1", "S?/L3", "S2/L?", "S4/L?"})


def test_R_C2_the_deck_is_exactly_the_specified_sixty_cards():
    """R-C2: "Per pairing (A, B): the 16 cards (a, b) for a, b in 1..4, plus 4 joker
    cards" (the joker table), "20 cards of each pairing"; the deck "lives in the data file"."""
    assert len(expected_deck()) == 60
    assert len(CARD_LABELS) == 60 and set(CARD_LABELS) == expected_deck()
    letter = {"jump": "J", "scan": "S", "landing": "L"}
    from_file = {"/".join(f"{letter[c]}{d[c]}" for c in ("jump", "scan", "landing") if c in d)
                 for d in data_file()["cards"]}
    assert from_file == expected_deck()


def test_R_C2_a_joker_stands_only_for_its_own_colour():
    """R-C2: "`?` is a joker for its colour." J?/S1 jumps anywhere but scans only a 1 and
    gives no landing coordinate; S?/L1 scans anywhere but cannot jump."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J?/S1", "S?/L1"]},
                 piles={0: {"water": 1, "space": 1}})
    assert labels(s.players[0].hand) == ["J?/S1", "S?/L1"]  # slots 0, 1
    want = {top_up(*m) for m in ((), (0,), (1,), (0, 1))}
    want |= {jump(s, "J?/S1", p) for p in range(1, 8)}  # every other planet, not its own
    want |= {A.FLY_CW, A.FLY_CCW, scan(s, "S?/L1")}  # Freezer scans 2: only the green joker
    # no develop: J?/S1 has no landing coordinate, so the pair cannot give Freezer's 1 and 3
    assert set(legal_actions(s)) == want
    both_agree(s)


# --- R-S1 .. R-S4 setup ----------------------------------------------------------------------
def test_R_S1_the_four_planets_off_the_ring_are_not_jump_targets():
    """R-S1: "8 of them ... form a ring at positions 0-7; the other 4 are not used."
    No ring planet has jump coordinate 4, so a J4 card jumps nowhere; the blue joker
    reaches the eight ring positions only (ids address ring positions)."""
    s = position(2, ring=RING, hands={0: ["J4/S1", "J4/L4", "J?/S1"]})
    assert s.players[0].ship == GATE
    assert set(of_kind(s, "jump")) == {jump(s, "J?/S1", p) for p in range(8)}
    both_agree(s)


def test_R_S1_every_planet_can_be_on_the_ring_and_off_it_in_any_position():
    """R-S1: "Shuffle the 12 planets; 8 of them, in random order, form a ring"."""
    rings = [new_game(2, seed=seed).ring for seed in range(240)]
    for planet in range(12):
        assert any(planet in r for r in rings) and any(planet not in r for r in rings)
        assert any(r[0] == planet for r in rings) and any(r[7] == planet for r in rings)


def test_R_S3_on_the_jump_gate_only_top_up_and_jump_are_possible():
    """R-S3: "Every ship starts on the jump gate (not a planet, no neighbours)"; R-A3 "Not
    possible from the jump gate"; R-A4..R-A6 "act on the planet where your ship is".
    Even with every joker, every planet scanned and a station with point tiles, the gate
    offers top up and jump only."""
    s = position(2, ring=RING, ships={0: None}, stations={3: 1}, scanned={0: list(range(8))},
                 hands={0: ["J?/S1", "J1/L?", "J3/L?", "S?/L1", "S2/L?"]}, piles={3: {"water": 2}})
    assert kinds(s) == {"top_up", "jump"}
    assert len(of_kind(s, "top_up")) == 32
    assert set(of_kind(s, "jump")) == ({jump(s, "J?/S1", p) for p in range(8)}  # blue joker: all
                                       | {jump(s, "J1/L?", p) for p in (0, 1, 2)}  # jump 1
                                       | {jump(s, "J3/L?", p) for p in (6, 7)})  # jump 3
    both_agree(s)


@pytest.mark.parametrize("n", [2, 5])
def test_R_S4_the_cards_not_dealt_form_the_draw_pile(n):
    """R-S4: "Shuffle the 60 cards; deal 5 to each player; the rest is the draw pile."
    (the discard pile starts empty)."""
    for rules in ("yucata", "schmidt"):
        s = new_game(n, seed=3, rules=rules)
        dealt = [c for pl in s.players for c in pl.hand]
        assert len(dealt) == 5 * n and len(s.draw_pile) == 60 - 5 * n and s.discard_pile == []
        assert sorted(dealt + s.draw_pile) == list(range(60))


@pytest.mark.parametrize("n", [2, 3, 5])
def test_R_S5_yucata_start_seat_is_any_seat_schmidt_seat_0_in_both_engines(n):
    """R-S5: "`schmidt`: seat 0 ...; `yucata`: a random seat"; the turn begins there (R-T1)."""
    seeds = np.arange(40)
    for rules in ("yucata", "schmidt"):
        ref = [new_game(n, seed=int(x), rules=rules).start_player for x in seeds]
        st = engine.init(len(seeds), n, seeds=seeds, rules=rules)
        assert st.start_player.tolist() == ref and st.current_player.tolist() == ref
        assert set(ref) == (set(range(n)) if rules == "yucata" else {0})


# --- R-T1, R-T2 turns ------------------------------------------------------------------------
def test_R_T1_R_E3_a_round_ends_before_the_start_seat_and_the_limit_counts_rounds():
    """R-T1: "Play goes round in seat order from the start player. A round ends when the
    player before the start player ends a turn." R-E3: the game ends "after a configurable
    number of rounds". Start seat 2 of 3, limit 1 round: seats 2, 0, 1 play, then it ends."""
    s = position(3, start=2, max_rounds=1)
    order = []
    ref, st = s, None
    while not ref.is_over:
        order.append(ref.current_player)
        ref, st = lockstep(ref, [top_up(), top_up()])
        assert ref.round == 1
    assert order == [2, 0, 1]
    assert ref.round_limit and not ref.end_triggered and bool(st.terminated[0]) and bool(st.round_limit[0])


def test_R_T2_R_A6_develop_then_discover_in_one_turn():
    """R-T2: "A turn is exactly two actions ... Choosing which tile to take is part of the
    action that takes it." R-A6: "The planet has a station (anyone's) ... No card, no chip."
    A develop (with its tile) and a discover (with its tile) make one turn; the second
    action empties the pile of point tiles, so the pile is revealed (R-V1)."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J1/L1", "J3/L3"]},
                 piles={0: {"water": 1, "medal": 1, "space": 1}}, collections={0: {}})
    ref, _ = lockstep(s, [develop(s, "J1/L1", "J3/L3")])
    assert ref.phase == "tile" and ref.actions_left == 2 and ref.stations[0] == 0
    ref, _ = lockstep(ref, [take("medal")])
    assert ref.actions_left == 1 and ref.players[0].hand == [] and ref.players[0].supply == 19
    assert of_kind(ref, "discover") == [A.DISCOVER]  # own station, water left; no card needed
    ref, _ = lockstep(ref, [A.DISCOVER, take("water")])
    assert ref.players[0].collection == tiles({"medal": 1, "water": 1}, 10)
    assert ref.piles[0] == tiles({"space": 1}) and ref.revealed[0]
    assert ref.current_player == 1 and ref.actions_left == 2  # two actions: the turn is over


# --- R-A1 top up, R-A1a reshuffle ------------------------------------------------------------
def test_R_A1_an_empty_discard_with_a_short_hand_draws_up_to_five():
    """R-A1: "Discard any subset of your hand ..., then draw until you hold 5." The empty
    subset with three cards draws the top two cards."""
    s = position(2, hands={0: ["J1/S2", "J1/L1", "J3/L3"]}, draw_pile=["S3/L3", "J4/L4", "J2/S2"])
    discard = list(s.discard_pile)
    ref, _ = lockstep(s, [top_up()])
    assert sorted(labels(ref.players[0].hand)) == sorted(["J1/S2", "J1/L1", "J3/L3", "J2/S2", "J4/L4"])
    assert labels(ref.draw_pile) == ["S3/L3"] and ref.discard_pile == discard


def test_R_A1_the_whole_hand_may_be_discarded():
    """R-A1: "Discard any subset of your hand (face up, onto the discard pile)": all five
    go, in slot order, and five are drawn from the top."""
    hand = ["J1/S2", "J1/L1", "J3/L3", "S1/L1", "S2/L2"]  # card ids ascending: slots 0..4
    s = position(2, hands={0: hand}, draw_pile=["S3/L3", "J4/L4", "J2/S2", "J3/S3", "S4/L1", "J2/L2"])
    assert top_up(0, 1, 2, 3, 4) == 31 and 31 in legal_actions(s)
    ref, _ = lockstep(s, [31])
    assert labels(ref.discard_pile[-5:]) == hand
    assert sorted(labels(ref.players[0].hand)) == sorted(["J4/L4", "J2/S2", "J3/S3", "S4/L1", "J2/L2"])
    assert labels(ref.draw_pile) == ["S3/L3"]


def test_R_A1_subsets_of_a_smaller_hand_and_of_an_empty_hand():
    """R-A1: "any subset of your hand": 2**k top-up ids for k cards, the empty subset only
    for an empty hand, which then draws five."""
    s = position(2, hands={0: ["J1/S2", "J1/L1", "J3/L3", "S1/L1"]})
    assert of_kind(s, "top_up") == list(range(16))
    s = position(2, hands={0: []}, draw_pile=["S3/L3", "J4/L4", "J2/S2", "J3/S3", "S4/L1", "J2/L2"])
    assert of_kind(s, "top_up") == [top_up()]
    ref, _ = lockstep(s, [top_up()])
    assert sorted(labels(ref.players[0].hand)) == sorted(["J4/L4", "J2/S2", "J3/S3", "S4/L1", "J2/L2"])


def test_R_A1a_a_top_up_that_draws_nothing_does_not_shuffle():
    """R-A1a Ruling: "the shuffle happens at the next draw that finds the draw pile empty".
    With a full hand and nothing discarded no card is drawn, so an empty draw pile stays
    empty and the generator is not used; the next top up that draws shuffles."""
    s = position(2, hands={0: ["J1/S2", "J1/L1", "J3/L3", "S1/L1", "S2/L2"]}, draw_pile=[])
    assert len(s.discard_pile) == 50
    ref, _ = lockstep(s, [top_up()])
    assert ref.draw_pile == [] and ref.discard_pile == s.discard_pile and ref.rng == s.rng
    expected = list(ref.discard_pile) + [card("J1/S2")]
    g = rng.shuffle(ref.rng, expected)
    ref, _ = lockstep(ref, [top_up(0)])
    assert ref.rng == g and ref.discard_pile == [] and ref.draw_pile == expected[:-1]


# --- R-A2 jump -------------------------------------------------------------------------------
def test_R_A2_the_last_chip_jumps_then_no_chip_action_is_left():
    """R-A2: "put a chip on the jump gate as a probe"; Ruling: "an action that places a
    chip needs one in supply". With one chip: the jump puts it on the gate (it stays
    there); then the J1/S2 left in hand can neither jump nor scan Freezer."""
    s = position(2, ring=RING, hands={0: ["J1/S2", "J?/S1"]}, supply={0: 1}, piles={0: {"water": 1}})
    assert s.players[0].gate_probes == 19
    ref, _ = lockstep(s, [jump(s, "J?/S1", 0)])
    pl = ref.players[0]
    assert pl.ship == 0 and pl.supply == 0 and pl.gate_probes == 20
    assert labels(pl.hand) == ["J1/S2"]
    assert legal_actions(ref) == [top_up(), top_up(0), A.FLY_CW, A.FLY_CCW]


# --- R-A3 fly --------------------------------------------------------------------------------
def test_R_A3_fly_counter_clockwise_from_position_0_wraps_to_7():
    """R-S1: "Position p's neighbours are p-1 and p+1 (mod 8)"; R-A3 "Move to a neighbour"."""
    s = position(2, ring=RING, ships={0: 0})
    ref, _ = lockstep(s, [A.FLY_CCW])
    assert ref.players[0].ship == 7
    ref, _ = lockstep(ref, [A.FLY_CW])
    assert ref.players[0].ship == 0


# --- R-A4 scan -------------------------------------------------------------------------------
def test_R_A4_only_the_scan_coordinate_scans():
    """R-A4: "Play a card with its scan coordinate (or green `?`)". Freezer scans 2:
    S?/L3 scans; S4/L? (scan 4) and J1/L2 (no scan coordinate) do not."""
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/L2", "S?/L3", "S4/L?"]}, piles={0: {"water": 1}})
    assert of_kind(s, "scan") == [scan(s, "S?/L3")]
    both_agree(s)


def test_R_A4_the_tile_choice_offers_every_point_type_in_the_pile_and_nothing_else():
    """R-A4: "take a point tile of your choice out of it"; R-T2: the choice is part of the
    scan. Eight different point types in the pile: eight tile ids, no other id."""
    pile = {"mineral_red": 1, "mineral_purple": 1, "mineral_green": 1, "mineral_blue": 1,
            "alien_brown": 1, "alien_blue": 1, "matter_green": 1, "matter_blue": 1}
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J1/L1"]}, piles={0: pile})
    ref, _ = lockstep(s, [scan(s, "J1/S2")])
    assert legal_actions(ref) == [A.TILE + t for t in range(8)]
    ref, _ = lockstep(ref, [take("alien_blue")])
    assert ref.reservations[0][0] == tiles({"alien_blue": 1}, 10) and ref.piles[0][5] == 0
    assert not ref.revealed[0] and ref.actions_left == 1


def test_R_A4_a_planet_with_another_players_reservation_can_be_scanned():
    """R-A4: "The planet has no station" is the only condition on the planet; the new
    reservation lies beside the other one, each under its owner's probe."""
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]}, reservations={(0, 1): {"medal": 1}},
                 piles={0: {"water": 1, "space": 2}})
    ref, _ = lockstep(s, [scan(s, "J1/S2"), take("water")])
    assert ref.reservations[0][0] == tiles({"water": 1}, 10) and ref.reservations[0][1] == tiles({"medal": 1}, 10)
    assert ref.probes_on(0, 0) == 1 and ref.probes_on(0, 1) == 1
    assert ref.revealed[0] and ref.revealed_count == 2  # R-V1: the last point tile was reserved


@pytest.mark.parametrize("pile, revealed", [({}, [0]), ({"space": 2}, [0]), ({"space": 2}, [])])
def test_R_A4b_a_pile_without_point_tiles_still_needs_a_chip(pile, revealed):
    """R-A4b: "the conditions of a scan are the rulebook's (an undeveloped planet, a
    matching card, a chip)". With no chip the scan is illegal; with the last chip it is
    legal and "keeps the chip"."""
    base = dict(ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J3/S4"]}, piles={0: pile}, revealed=revealed)
    assert of_kind(position(2, supply={0: 0}, **base), "scan") == []
    s = position(2, supply={0: 1}, **base)
    assert of_kind(s, "scan") == [scan(s, "J1/S2")]  # J3/S4 does not match Freezer's 2
    ref, _ = lockstep(s, [scan(s, "J1/S2")])
    assert ref.players[0].supply == 1 and ref.players[0].scanned[0] and ref.revealed[0]
    assert ref.revealed_count == pile.get("space", 0) and labels(ref.players[0].hand) == ["J3/S4"]


# --- R-A5 develop ----------------------------------------------------------------------------
def test_R_A5_no_chip_no_develop_even_with_own_probes_on_the_planet():
    """R-A5: "... and you have a chip. Then, in this order: 1. Place your station. 2. ...
    those probes go back". The chip is a condition; probes come back only after the
    station is placed, so they cannot pay for it."""
    base = dict(ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J1/L1", "J3/L3"]},
                reservations={(0, 0): {"medal": 2}}, piles={0: {"water": 1}})
    assert of_kind(position(2, supply={0: 0}, **base), "develop") == []
    s = position(2, supply={0: 1}, **base)
    ref, _ = lockstep(s, [develop(s, "J1/L1", "J3/L3")])
    assert ref.players[0].supply == 1 - 1 + 2 and ref.stations[0] == 0


def test_R_A5_only_the_reservations_on_this_planet_go_home():
    """R-A5 step 2: "Every reservation on this planet goes to its owner's collection; those
    probes go back to their owners' supplies." R-C4: probes on the gate stay there;
    reservations on another planet stay where they are."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J1/L1", "J3/L3"]},
                 piles={0: {"space": 1}}, revealed=[0], gate_probes={0: 3, 1: 2}, collections={0: {}},
                 reservations={(0, 0): {"medal": 1}, (0, 1): {"water": 1, "medal": 1}, (1, 0): {"alien_blue": 1},
                               (1, 1): {"mineral_red": 1}})
    assert [pl.supply for pl in s.players] == [20 - 3 - 2, 20 - 2 - 3]
    before = list(s.players[1].collection)  # tiles the helper put there (taken earlier)
    ref, _ = lockstep(s, [develop(s, "J1/L1", "J3/L3")])
    p0, p1 = ref.players
    assert p0.collection == tiles({"medal": 1}, 10)
    assert [a - b for a, b in zip(p1.collection, before)] == tiles({"water": 1, "medal": 1}, 10)
    assert p0.supply == 15 - 1 + 1 and p1.supply == 15 + 2
    assert p0.gate_probes == 3 and p1.gate_probes == 2
    assert ref.reservations[1] == [tiles({"alien_blue": 1}, 10), tiles({"mineral_red": 1}, 10)]
    assert ref.reservations[0] == [[0] * 10, [0] * 10]
    assert ref.phase == "main" and ref.actions_left == 1  # step 3: the pile holds no point tile


def test_R_A5_a_card_without_a_landing_coordinate_gives_none():
    """R-A5: "you play two cards that provide its two landing coordinates (one each)";
    R-C2: "A played card counts for one of its two coordinates only". Freezer lands on 1
    and 3: J?/S1 shows no landing coordinate, so only J3/L3 + S?/L1 develops."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J?/S1", "J3/L3", "S?/L1"]},
                 piles={0: {"water": 1}})
    assert of_kind(s, "develop") == [develop(s, "J3/L3", "S?/L1")]
    both_agree(s)


def test_R_A5_another_players_scan_does_not_count():
    """R-A5: "you have scanned it before": seat 1's scan of Freezer does not let seat 0
    develop it."""
    base = dict(ring=RING, ships={0: 0}, hands={0: ["J1/L1", "J3/L3"]}, piles={0: {"water": 1}})
    assert of_kind(position(2, scanned={1: [0]}, **base), "develop") == []
    assert of_kind(position(2, scanned={0: [0]}, **base), "develop") == [develop(position(2, **base), "J1/L1", "J3/L3")]


def test_R_A5_scan_then_develop_in_the_same_turn():
    """R-A5: "you have scanned it before (R-A4 ...)": the scan may be the turn's first
    action. The develop brings the tile just reserved into the collection, takes the
    last point tile and reveals the pile (R-V1)."""
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J1/L1", "J3/L3"]},
                 piles={0: {"water": 2, "space": 1}}, collections={0: {}})
    assert of_kind(s, "develop") == []
    ref, _ = lockstep(s, [scan(s, "J1/S2"), take("water")])
    assert ref.players[0].supply == 19
    ref, _ = lockstep(ref, [develop(ref, "J1/L1", "J3/L3"), take("water")])
    pl = ref.players[0]
    assert ref.stations[0] == 0 and pl.collection == tiles({"water": 2}, 10) and pl.supply == 19
    assert ref.revealed[0] and ref.revealed_count == 1 and ref.current_player == 1


# --- R-V1 reveal -----------------------------------------------------------------------------
def test_R_V1_a_pile_without_space_tiles_is_revealed_with_nothing_to_count():
    """R-V1: "the pile now holds no point tile, its space tiles are turned face up and
    added to the revealed count": none here, so the count stays and R-E1 is not reached."""
    s = position(2, ring=RING, ships={0: 0}, stations={0: 1}, piles={0: {"water": 1}, 1: {"space": 5}}, revealed=[1])
    ref, _ = lockstep(s, [A.DISCOVER, take("water")])
    assert ref.revealed[0] and ref.revealed_count == 5 and not ref.end_triggered
    assert A.DISCOVER not in legal_actions(ref)  # R-A6: no point tile left


def test_R_V1_R_E1_a_develop_taking_the_last_point_tile_can_end_the_game():
    """R-V1: a tile "taken by ... develop"; R-E1: "As soon as the revealed space tiles
    reach 6 ... (for 2 ... players)". The count goes from 4 to 4 + 3 = 7 >= 6."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: ["J1/L1", "J3/L3"]},
                 piles={0: {"water": 1, "space": 3}, 1: {"space": 4}}, revealed=[1])
    ref, _ = lockstep(s, [develop(s, "J1/L1", "J3/L3")])
    assert not ref.revealed[0] and not ref.end_triggered  # step 3 comes before the reveal check
    ref, _ = lockstep(ref, [take("water")])
    assert ref.revealed[0] and ref.revealed_count == 7 and ref.end_triggered and not ref.is_over


# --- R-E1 .. R-E3 end ------------------------------------------------------------------------
def trigger_position(n, start, current, **kw):
    """Seat ``current`` stands at Freezer (seat 0's station there, one water left); the
    revealed count is one below the threshold, and the water's pile holds one space tile."""
    t = {2: 6, 3: 8, 4: 10, 5: 12}[n]  # R-E1, from the spec
    return position(n, ring=RING, start=start, current=current, ships={current: 0},
                    stations={0: 0}, piles={0: {"water": 1, "space": 1}, 1: {"space": t - 1 - (t - 1) // 2},
                                            2: {"space": (t - 1) // 2}}, revealed=[1, 2], **kw)


def test_R_E1_with_start_seat_2_the_round_ends_after_seat_1():
    """R-E1: "the current round is finished (the acting player completes the turn, and so
    do the players after it up to the end of the round)"; R-T1: the round ends with "the
    player before the start player". Start seat 2 of 3, triggered by seat 0: seat 0
    completes its turn, seat 1 plays, and the game ends before seat 2 plays again."""
    s = trigger_position(3, start=2, current=0)
    ref, _ = lockstep(s, [A.DISCOVER, take("water")])
    assert ref.end_triggered and ref.current_player == 0 and ref.actions_left == 1
    ref, _ = lockstep(ref, [top_up()])
    assert ref.current_player == 1 and not ref.is_over
    ref, st = lockstep(ref, [top_up(), top_up()])
    assert ref.is_over and not ref.round_limit and ref.round == 1 and bool(st.terminated[0])
    assert legal_actions(ref) == []


def test_R_E1_triggered_by_the_start_seat_every_other_seat_still_plays():
    """R-E1 with start seat 2 of 3, triggered by seat 2 (the round's first turn): seats 0
    and 1 complete the round."""
    s = trigger_position(3, start=2, current=2)
    ref, _ = lockstep(s, [A.DISCOVER, take("water"), top_up()])
    assert ref.end_triggered and ref.current_player == 0 and not ref.is_over
    ref, _ = lockstep(ref, [top_up()] * 3)
    assert ref.current_player == 1 and not ref.is_over
    ref, _ = lockstep(ref, [top_up()])
    assert ref.is_over and ref.round == 1


def test_R_E1_triggered_by_the_last_action_of_the_round_ends_at_once():
    """R-E1: the acting player completes its turn and nobody is after it in the round:
    the game is over with the tile that reached the threshold."""
    s = trigger_position(2, start=0, current=1)
    ref, _ = lockstep(s, [top_up(), A.DISCOVER])
    assert not ref.is_over and ref.phase == "tile" and ref.actions_left == 1
    ref, st = lockstep(ref, [take("water")])
    assert ref.is_over and ref.end_triggered and not ref.round_limit and bool(st.terminated[0])
    assert ref.actions_left == 0 and legal_actions(ref) == []


def test_R_E1_a_reveal_past_the_threshold_also_ends_the_game():
    """R-E1: "reach 6": a count that jumps from 5 to 8 has reached it."""
    s = position(2, ring=RING, ships={0: 0}, stations={0: 1}, piles={0: {"water": 1, "space": 3}, 1: {"space": 5}},
                 revealed=[1])
    ref, _ = lockstep(s, [A.DISCOVER, take("water")])
    assert ref.revealed_count == 8 and ref.end_triggered


def test_R_E1_R_E2_reservations_on_undeveloped_planets_are_lost_at_the_end():
    """R-E2: "Reservations on undeveloped planets are lost." Three players, start seat 1,
    so seat 0 ends the round; it discovers the water that ends the game. Seat 1 holds two
    medals reserved on Green Heggar: they score nothing, in either engine, while seat 0
    scores its station (R-P2: 3) and the water (R-P6: 1 tile = 2). (Seat 2 holds the
    tiles the position builder counts as taken earlier; its score is not checked.)"""
    s = trigger_position(3, start=1, current=0, collections={0: {}, 1: {}}, reservations={(3, 1): {"medal": 2}})
    ref, _ = lockstep(s, [top_up(), A.DISCOVER, take("water")])
    assert ref.is_over and ref.end_triggered and ref.reservations[3][1] == tiles({"medal": 2}, 10)
    expect = [dict.fromkeys(SCORE_KEYS, 0), dict.fromkeys(SCORE_KEYS, 0)]
    expect[0].update(stations=3, water=2, total=5)
    assert scores(ref)[:2] == expect and fast_scores(ref)[:2] == expect


def test_R_E3_the_default_round_limit_is_100():
    """R-E3: "an environment may end a game after a configurable number of rounds
    (default 100 ...)"."""
    assert inspect.signature(new_game).parameters["max_rounds"].default == 100
    assert new_game(2, seed=0).max_rounds == 100
    assert engine.init(1, 2).max_rounds == 100
    assert GAME.default_max_rounds == 100


def test_R_E3_the_remaining_rounds_are_seen_by_every_player():
    """R-E3: "the remaining rounds are part of what every player sees"."""
    s = position(3, max_rounds=10, round=4)
    for q in range(3):
        for kind in ("info", "recall"):
            assert E.decode(E.observe(s, q, kind), kind)["rounds_left"][0] == 6
    both_agree(s)


# --- R-P1 .. R-P8 scoring --------------------------------------------------------------------
@pytest.mark.parametrize("probes, points", [
    ({0: 5, 1: 3, 2: 3, 3: 3, 4: 1}, [9, 6, 6, 6, 0]),  # the rulebook example
    ({0: 1, 1: 1, 2: 1, 3: 1}, [9, 9, 9, 9, 0]),  # four tied at rank 1; no probe, no points
    ({0: 2, 1: 2, 2: 1, 3: 1, 4: 1}, [9, 9, 3, 3, 3]),  # "1, 1, 3, 3, 3"
    ({0: 4, 1: 3, 2: 2, 3: 1, 4: 1}, [9, 6, 3, 1, 1]),  # rank 4 shared: 1 each
    ({1: 7}, [0, 9, 0, 0, 0]),
])
def test_R_P1_jump_gate_ranks_in_positions_of_both_engines(probes, points):
    """R-P1: "ties share a rank and the next rank is skipped ("1, 2, 2, 2, 5"); ranks 1-4
    score 9, 6, 3, 1. Ruling: a player with no probe there scores 0"."""
    s = position(5, gate_probes=probes)
    assert [x["jump_gate"] for x in scores(s)] == points
    assert [x["jump_gate"] for x in fast_scores(s)] == points


def test_R_P2_to_R_P7_every_category_in_positions_of_both_engines():
    """R-P2 "Each station: 3"; R-P3 "(number of mineral tiles) x (count of the most
    numerous colour)"; R-P4 "the same rule"; R-P5 "each green+blue pair 7; each unpaired
    matter 2"; R-P6 "every full four scores 14 and the rest by the table"; R-P7 "3 each"."""
    s = position(2, stations={2: 0, 5: 1, 6: 1},
                 collections={0: {"mineral_red": 1, "mineral_purple": 1, "mineral_green": 1, "mineral_blue": 1,
                                  "alien_brown": 5, "matter_green": 2, "matter_blue": 2, "water": 5, "medal": 2},
                              1: {"mineral_purple": 3, "alien_blue": 2, "matter_green": 2, "water": 3}})
    expect = [
        {"jump_gate": 0, "stations": 3, "minerals": 4 * 1, "aliens": 5 * 5, "matter": 2 * 7, "water": 14 + 2,
         "medals": 6, "total": 3 + 4 + 25 + 14 + 16 + 6},
        {"jump_gate": 0, "stations": 6, "minerals": 3 * 3, "aliens": 2 * 2, "matter": 2 * 2, "water": 9,
         "medals": 0, "total": 6 + 9 + 4 + 4 + 9},
    ]
    assert scores(s) == expect and fast_scores(s) == expect
    assert winners(s) == [0]


def test_R_P6_eight_and_seven_water():
    """R-P6: "every full four scores 14 and the rest by the table": 8 -> 28, 7 -> 14 + 9."""
    s = position(2, collections={0: {"water": 8}, 1: {}})
    assert scores(s)[0]["water"] == fast_scores(s)[0]["water"] == 28
    s = position(2, collections={0: {"water": 7}, 1: {}})
    assert scores(s)[0]["water"] == fast_scores(s)[0]["water"] == 23


def test_R_P8_three_way_tie_broken_by_stations_in_both_engines():
    """R-P8: "most points; tie: most stations; still tied: shared win". All three seats
    score 6 (two medals / two stations / a station and a medal): seat 1 wins on stations;
    the final rewards rank 1 (seat 1), 2 (seat 2), 3 (seat 0)."""
    s = position(3, stations={0: 1, 1: 1, 2: 2}, max_rounds=1, collections={0: {"medal": 2}, 1: {}, 2: {"medal": 1}})
    ref, st = lockstep(s, [top_up()] * 6)
    assert ref.is_over and [x["total"] for x in scores(ref)] == [6, 6, 6]
    assert winners(ref) == [1]
    assert engine.rewards(st)[0].tolist() == [-1.0, 1.0, 0.0]
    assert rank_rewards([6, 6, 6], [0, 2, 1]) == [-1.0, 1.0, 0.0]


def test_R_P8_equal_points_and_stations_share_the_win():
    """R-P8: "still tied: shared win": two players with 3 points and one station each."""
    s = position(2, stations={0: 0, 4: 1}, max_rounds=1, collections={0: {}, 1: {}})
    ref, st = lockstep(s, [top_up()] * 4)
    assert ref.is_over and winners(ref) == [0, 1]
    assert engine.rewards(st)[0].tolist() == [0.0, 0.0]


# --- R-I1 .. R-I5 information ------------------------------------------------------------------
def test_R_I4_the_contents_of_unseen_piles_are_invisible():
    """R-I4: "Never visible: ... unseen piles". Swapping a space tile of Freezer's pile
    with a water tile of Hazard's (both face down, never looked through) changes no
    seat's table view or perfect-recall view; pile sizes stay public (R-I1)."""
    a = position(3, ring=RING, piles={0: {"water": 2, "space": 2}, 1: {"water": 1, "medal": 1, "space": 1}})
    b = position(3, ring=RING, piles={0: {"water": 3, "space": 1}, 1: {"medal": 1, "space": 2}})
    assert [sum(p) for p in a.piles] == [sum(p) for p in b.piles]
    for q in range(3):
        for kind in ("info", "recall"):
            assert np.array_equal(E.observe(a, q, kind), E.observe(b, q, kind)), (q, kind)
        assert not np.array_equal(E.observe(a, q, "seer"), E.observe(b, q, "seer"))
    fa, fb = engine.from_reference([a]), engine.from_reference([b])
    assert np.array_equal(engine.observe(fa, 1, "info"), engine.observe(fb, 1, "info"))


def test_R_I3_R_I4_a_pile_is_seen_while_looking_through_it_then_only_its_public_part():
    """R-I3: "When you scan, develop or discover, you see the whole pile of that planet at
    that moment" (space tiles included); the other seats see only its size (R-I1) and not
    its contents (R-I4)."""
    s = position(2, rules="schmidt", ring=RING, ships={0: 0}, stations={0: 1},
                 piles={0: {"water": 1, "medal": 1, "space": 2}})
    ref, _ = lockstep(s, [A.DISCOVER])
    mine, other = E.decode(E.observe(ref, 0)), E.decode(E.observe(ref, 1))
    assert mine["pile_seen"].tolist() == tiles({"water": 1, "medal": 1, "space": 2})
    assert not other["pile_seen"].any() and other["pile_size"][0] == 4 and other["revealed_space"][0] == 0


def test_R_I1_what_a_seat_sees_of_another_seat():
    """R-I1: "Public: ... ships, chips on the gate and on planets (whose probe, how many),
    stations, pile sizes, revealed space tiles, ... hand sizes, how many tiles each player
    has collected, the draw pile size." Seat 1 looks at seat 0 (relative seat 1)."""
    s = position(2, ring=RING, ships={0: 5, 1: None}, stations={2: 0, 6: 1}, gate_probes={0: 4},
                 reservations={(3, 0): {"water": 1, "medal": 1}, (4, 1): {"medal": 1}},
                 hands={0: ["J1/S2", "J1/L1", "J3/L3"], 1: ["S1/L1"]},
                 piles={7: {"space": 3}, 3: {"water": 1, "space": 1}}, revealed=[7],
                 collections={0: {"water": 3, "alien_blue": 1}})
    v = E.decode(E.observe(s, 1))
    assert v["ship"][1].tolist() == [0, 0, 0, 0, 0, 1, 0, 0] and not v["ship"][0].any()  # seat 1 on the gate
    assert v["gate_probes"][1] == 4 and v["gate_probes"][0] == 0
    assert v["probes"][3, 1] == 2 and v["probes"][4, 0] == 1 and v["probes"][3, 0] == 0
    assert v["station"][2].tolist() == [0, 1, 0, 0, 0] and v["station"][6].tolist() == [1, 0, 0, 0, 0]
    assert v["pile_size"][7] == 3 and v["pile_size"][3] == 2
    assert v["revealed_space"][7] == 3 and v["revealed_space"][3] == 0 and v["revealed_count"][0] == 3
    assert v["hand_size"][1] == 3 and v["hand_size"][0] == 1
    assert v["collected"][1] == 4 and v["draw_pile_size"][0] == len(s.draw_pile)
    assert v["supply"][1] == 20 - 4 - 2 - 1
    both_agree(s)
