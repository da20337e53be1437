"""The six actions R-A1..R-A6 (with R-A1a, R-A4a, R-A4b, R-A4c), each from an explicit position.

Ring used throughout (position: planet, jump / scan / landing coordinates, R-C1):
0 Freezer 1/2/(1,3), 1 Hazard 1/4/(2,4), 2 Caldera 1/3/(3,4), 3 Green Heggar 2/1/(1,2),
4 Ruby Red 2/3/(1,4), 5 Aurora 2/4/(2,3), 6 Basalt 3/1/(3,4), 7 Cinder 3/2/(1,2).
"""
import pytest
from tests.helpers.lockstep import lockstep
from tests.helpers.positions import card, develop, jump, labels, position, scan, take, tiles, top_up

from spacemission_env.space_mission import actions as A
from spacemission_env import rng
from spacemission_env.space_mission.rules import apply, legal_actions
from spacemission_env.space_mission.rules.state_json import state_to_dict

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


def kinds(s, kind):
    return [a for a in legal_actions(s) if A.decode(a)[0] == kind]


# --- R-A1 top up ---------------------------------------------------------------------
def test_R_A1_discard_chosen_slots_then_draw_to_five():
    hand = ["J1/S2", "J1/L1", "J3/L3", "S1/L1", "S2/L2"]  # sorted by card id: slots 0..4
    s = position(2, hands={0: hand}, draw_pile=["S3/L3", "J4/L4", "J2/S2"])  # top of the pile is last
    apply(s, top_up(0, 2))
    assert labels(s.discard_pile[-2:]) == ["J1/S2", "J3/L3"]  # face up, in slot order
    assert s.players[0].hand == sorted(card(c) for c in ["J1/L1", "S1/L1", "S2/L2", "J2/S2", "J4/L4"])
    assert labels(s.draw_pile) == ["S3/L3"] and s.actions_left == 1


def test_R_A1_full_hand_no_discard_is_a_legal_no_op():
    s = position(2)
    before = s.to_json()
    assert top_up() in legal_actions(s)
    apply(s, top_up())
    after = s.copy()
    after.actions_left = 2
    assert [a.kind for a in after.players[0].last_turn] == ["top_up"]  # R-I1: the action is on record
    after.players[0].last_turn = []
    assert after.to_json() == before


def test_R_A1_only_subsets_of_held_slots():
    s = position(2, hands={0: ["J1/S2", "J1/L1", "J3/L3"]})
    assert kinds(s, "top_up") == list(range(8))  # 2**3 subsets of three held cards


# --- R-A1a reshuffle -------------------------------------------------------------------
def test_R_A1a_drawing_the_last_card_reshuffles_at_once_and_later_plays_start_a_new_discard_pile():
    s = position(2, ring=RING, hands={0: ["J1/S2", "J1/L1", "J3/L3", "S1/L1"]}, draw_pile=["J4/L4", "J2/S2"])
    expected = list(s.discard_pile) + [card("J1/S2")]  # the card discarded in this top up is included
    g = rng.shuffle(s.rng, expected)
    ref, _ = lockstep(s, [top_up(0)])  # discard 1, draw the 2 left: the pile is used up
    assert ref.draw_pile == expected and ref.discard_pile == [] and ref.rng == g
    assert labels(ref.players[0].hand) == ["J2/S2", "J1/L1", "J3/L3", "J4/L4", "S1/L1"]  # by card id
    ref, _ = lockstep(ref, [jump(ref, "J1/L1", 1)])  # played after the shuffle
    assert labels(ref.discard_pile) == ["J1/L1"] and ref.draw_pile == expected  # onto the NEW discard pile


def test_R_A1a_top_up_goes_on_drawing_from_the_new_pile():
    s = position(2, hands={0: ["J1/S2", "J1/L1", "J3/L3", "S1/L1"]}, draw_pile=["J2/S2"])
    expected = list(s.discard_pile) + [card("J1/L1"), card("J3/L3")]
    g = rng.shuffle(s.rng, expected)
    ref, _ = lockstep(s, [top_up(1, 2)])  # draw the last card, reshuffle, draw 2 more
    assert ref.players[0].hand == sorted([card("J1/S2"), card("S1/L1"), card("J2/S2"), *expected[-2:]])
    assert ref.draw_pile == expected[:-2] and ref.discard_pile == [] and ref.rng == g


def test_R_A1a_loaded_empty_draw_pile_reshuffles_at_the_next_draw():
    """A state whose draw pile is empty and discard pile is not (as saved under the former
    timing): the next draw finds the draw pile empty and shuffles then."""
    s = position(2, hands={0: ["J1/S2", "J1/L1", "J3/L3", "S1/L1"]}, draw_pile=[])
    expected = list(s.discard_pile) + [card("J1/S2")]
    g = rng.shuffle(s.rng, expected)
    ref, _ = lockstep(s, [top_up(0)])
    assert ref.discard_pile == [] and ref.rng == g and ref.draw_pile == expected[:-2]
    assert ref.players[0].hand == sorted([card("J1/L1"), card("J3/L3"), card("S1/L1"), *expected[-2:]])


def synthetic_piles(hand, draw_pile, seed=4):
    """Seat 0 holds ``hand``, the draw pile is ``draw_pile``, the discard pile is empty and
    seat 1 holds 5 other cards; the remaining cards are left out of the game. Both card
    piles empty at once is unreachable with 60 cards (hands hold at most 25), so the
    R-A1a ruling is tested on such a state (not component-conserving)."""
    s = position(2, ring=RING, seed=seed)
    s.players[0].hand = sorted(card(c) for c in hand)
    s.draw_pile = [card(c) for c in draw_pile]
    s.discard_pile = []
    used = set(s.players[0].hand) | set(s.draw_pile)
    s.players[1].hand = [c for c in range(60) if c not in used][:5]
    return s


def test_R_A1a_empty_discard_pile_defers_the_shuffle_to_the_next_draw():
    s = synthetic_piles(["J1/S2", "J1/L1", "J3/L3"], ["J4/L4", "J2/S2"])
    g0 = s.rng
    ref, _ = lockstep(s, [top_up()], conserved=False)  # the last card goes, nothing to shuffle
    assert ref.draw_pile == [] and ref.discard_pile == [] and ref.rng == g0 and len(ref.players[0].hand) == 5
    ref, _ = lockstep(ref, [jump(ref, "J1/L1", 0)], conserved=False)  # onto the (still) discard pile
    assert labels(ref.discard_pile) == ["J1/L1"] and ref.draw_pile == []
    ref.current_player, ref.actions_left = 0, 2  # seat 0 again, to top up
    expected = [card("J1/L1"), card("J1/S2")]
    g = rng.shuffle(ref.rng, expected)
    ref, _ = lockstep(ref, [top_up(0)], conserved=False)  # finds the draw pile empty: shuffles now
    assert ref.rng == g and ref.draw_pile == [] and ref.discard_pile == []
    assert len(ref.players[0].hand) == 5 and card("J1/L1") in ref.players[0].hand


def test_R_A1a_both_piles_empty_drawing_stops_short():
    s = synthetic_piles(["J1/S2", "J1/L1", "J3/L3"], [])
    ref, _ = lockstep(s, [top_up()], conserved=False)
    assert labels(ref.players[0].hand) == ["J1/S2", "J1/L1", "J3/L3"] and ref.rng == s.rng
    assert ref.draw_pile == [] and ref.discard_pile == [] and ref.actions_left == 1


# --- R-A2 jump --------------------------------------------------------------------------
def test_R_A2_jump_targets_match_the_jump_coordinate_or_joker():
    s = position(2, ring=RING, hands={0: ["J1/S2", "J?/S1", "S1/L1"]})
    legal = set(kinds(s, "jump"))
    want = {jump(s, "J1/S2", p) for p in (0, 1, 2)} | {jump(s, "J?/S1", p) for p in range(8)}
    assert legal == want  # S1/L1 has no jump coordinate


def test_R_A2_jump_moves_ship_puts_probe_on_gate_and_spends_card():
    s = position(2, ring=RING, hands={0: ["J1/S2", "S1/L1"]})
    apply(s, jump(s, "J1/S2", 2))
    pl = s.players[0]
    assert pl.ship == 2 and pl.gate_probes == 1 and pl.supply == 19
    assert labels(pl.hand) == ["S1/L1"] and labels(s.discard_pile[-1:]) == ["J1/S2"]


def test_R_A2_not_to_own_planet_and_needs_a_chip():
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]})
    assert set(kinds(s, "jump")) == {jump(s, "J1/S2", 1), jump(s, "J1/S2", 2)}
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]}, supply={0: 0})
    assert kinds(s, "jump") == []


# --- R-A3 fly ------------------------------------------------------------------------------
def test_R_A3_fly_needs_no_card_and_no_chip():
    s = position(2, ring=RING, ships={0: 4}, supply={0: 0}, hands={0: ["S1/L1"]})
    assert kinds(s, "fly") == [A.FLY_CW, A.FLY_CCW]
    apply(s, A.FLY_CCW)
    assert s.players[0].ship == 3 and labels(s.players[0].hand) == ["S1/L1"] and s.players[0].supply == 0


# --- R-A4 scan -----------------------------------------------------------------------------
def scan_position(**kw):
    base = dict(ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J2/S?", "J3/S4"]},
                piles={0: {"medal": 1, "water": 2, "space": 1}})
    base.update(kw)
    return position(2, **base)


def test_R_A4_scan_needs_the_scan_coordinate_or_green_joker():
    s = scan_position()  # Freezer scan coordinate 2
    assert kinds(s, "scan") == sorted([scan(s, "J1/S2"), scan(s, "J2/S?")])


def test_R_A4_scan_reserves_a_tile_of_choice_under_a_probe():
    s = scan_position()
    apply(s, scan(s, "J1/S2"))
    assert legal_actions(s) == [take("water"), take("medal")]  # only point types in the pile
    apply(s, take("medal"))
    assert s.reservations[0][0] == tiles({"medal": 1}, 10)
    assert s.piles[0] == tiles({"water": 2, "space": 1})
    assert s.players[0].supply == 19 and s.players[0].scanned[0]
    assert labels(s.discard_pile[-1:]) == ["J1/S2"] and s.players[0].collection == [0] * 10


def test_R_A4_no_scan_with_a_station_or_without_a_chip():
    assert kinds(scan_position(stations={0: 1}), "scan") == []
    assert kinds(scan_position(supply={0: 0}), "scan") == []


def test_R_A4a_scanning_the_same_planet_again_reserves_another_tile():
    s = scan_position()
    apply(s, scan(s, "J1/S2"))
    apply(s, take("water"))
    apply(s, scan(s, "J2/S?"))
    apply(s, take("water"))
    assert s.reservations[0][0] == tiles({"water": 2}, 10) and s.probes_on(0, 0) == 2
    assert s.players[0].supply == 18


def test_R_A4b_pile_of_only_space_tiles_spends_card_keeps_chip_reveals():
    """Rulebook special case: nothing to take, card spent, chip kept, space tiles revealed;
    it counts as a scan for R-A5."""
    s = scan_position(piles={0: {"space": 3}}, hands={0: ["J1/S2", "J1/L1", "J3/L3"]})
    assert not s.revealed[0]
    apply(s, scan(s, "J1/S2"))
    pl = s.players[0]
    assert s.phase == "main" and s.actions_left == 1  # no tile decision
    assert pl.supply == 20 and s.reservations[0][0] == [0] * 10  # chip kept
    assert labels(pl.hand) == ["J1/L1", "J3/L3"] and labels(s.discard_pile[-1:]) == ["J1/S2"]
    assert s.revealed[0] and s.revealed_count == 3
    assert pl.scanned[0] and develop(s, "J1/L1", "J3/L3") in legal_actions(s)  # counts for develop


def test_R_A4b_revealed_pile_can_be_scanned_nothing_taken():
    s = scan_position(piles={0: {"space": 3}}, revealed=[0], hands={0: ["J1/S2", "J1/L1", "J3/L3"]}, round=4)
    assert kinds(s, "scan") == [scan(s, "J1/S2")]
    ref, _ = lockstep(s, [scan(s, "J1/S2")])
    pl = ref.players[0]
    assert ref.phase == "main" and ref.actions_left == 1 and pl.supply == 20  # no tile decision, chip kept
    assert ref.reservations[0][0] == [0] * 10 and labels(ref.discard_pile[-1:]) == ["J1/S2"]  # card spent
    assert ref.revealed_count == 3 and not ref.end_triggered and ref.piles[0] == tiles({"space": 3})
    assert pl.scanned[0] and pl.last_seen[0] == tiles({"space": 3}) and pl.last_seen_round[0] == 4  # looked


@pytest.mark.parametrize("revealed", [[0], []])
def test_R_A4b_empty_pile_can_be_scanned(revealed):
    """An emptied pile is revealed in play; a loaded one may not be: scanning reveals it (0 space tiles)."""
    s = scan_position(piles={0: {}}, revealed=revealed)
    assert kinds(s, "scan") == sorted([scan(s, "J1/S2"), scan(s, "J2/S?")])
    ref, _ = lockstep(s, [scan(s, "J2/S?")])
    assert ref.phase == "main" and ref.players[0].supply == 20 and ref.players[0].scanned[0]
    assert ref.revealed[0] and ref.revealed_count == 0 and ref.players[0].last_seen_round[0] == 1


def test_R_A4b_face_down_space_tiles_are_revealed_and_can_trigger_R_E1():
    """A pile dealt without point tiles (8 space tiles): revealing it reaches the 3-player
    threshold of 8; the round is finished and the game ends (R-E1)."""
    s = position(3, ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J1/L1"]}, piles={0: {"space": 8}})
    assert not s.revealed[0] and s.revealed_count == 0
    ref, _ = lockstep(s, [scan(s, "J1/S2")])
    assert ref.revealed[0] and ref.revealed_count == 8 and ref.end_triggered and not ref.is_over
    assert ref.players[0].supply == 20 and ref.players[0].scanned[0]
    ref, _ = lockstep(ref, [top_up(), top_up(), top_up()])  # seat 0 ends its turn, seat 1 plays
    assert not ref.is_over and ref.current_player == 2
    ref, st = lockstep(ref, [top_up(), top_up()])  # seat 2 ends the round
    assert ref.is_over and not ref.round_limit and st.terminated[0] and not st.round_limit[0]


def test_R_A4b_pile_with_point_tiles_gives_a_tile_decision():
    s = scan_position()  # medal, 2 water, 1 space
    ref, _ = lockstep(s, [scan(s, "J1/S2")])
    assert ref.phase == "tile" and ref.pending == "scan" and ref.players[0].supply == 20
    assert legal_actions(ref) == [take("water"), take("medal")]
    ref, _ = lockstep(ref, [take("medal")])
    assert ref.players[0].supply == 19 and ref.reservations[0][0] == tiles({"medal": 1}, 10)
    assert not ref.revealed[0]  # water is left


def test_R_A4b_no_tile_scan_counts_as_scanned_for_R_A5():
    s = scan_position(piles={0: {"space": 2}}, revealed=[0], hands={0: ["J1/S2", "J1/L1", "J3/L3"]})
    assert kinds(s, "develop") == []  # not scanned yet
    ref, _ = lockstep(s, [scan(s, "J1/S2")])
    assert ref.players[0].scanned[0] and kinds(ref, "develop") == [develop(ref, "J1/L1", "J3/L3")]
    ref, _ = lockstep(ref, [develop(ref, "J1/L1", "J3/L3")])
    assert ref.stations[0] == 0 and ref.players[0].supply == 19 and ref.phase == "main"  # no tile to take


@pytest.mark.parametrize("rules", ["yucata", "schmidt"])
def test_R_A4c_R_I2_reservations_are_private_state_per_owner(rules):
    """Both variants keep the type of every reservation per owner in the state; only the
    observation differs (schmidt hides the owner's own types, R-A4c)."""
    s = scan_position(rules=rules, ships={0: 0, 1: 0}, hands={0: ["J1/S2"], 1: ["S2/L1"]})
    apply(s, scan(s, "J1/S2"))
    apply(s, take("medal"))
    apply(s, top_up())
    apply(s, scan(s, "S2/L1"))
    apply(s, take("water"))
    assert s.reservations[0][0] == tiles({"medal": 1}, 10)
    assert s.reservations[0][1] == tiles({"water": 1}, 10)
    assert s.probes_on(0, 0) == s.probes_on(0, 1) == 1
    assert state_to_dict(s)["ring"][0]["reservations"] == {"0": {"medal": 1}, "1": {"water": 1}}


# --- R-A5 develop -----------------------------------------------------------------------
def develop_position(**kw):
    base = dict(ring=RING, ships={0: 0}, scanned={0: [0]},
                hands={0: ["J1/L1", "J1/L?", "J3/L3", "J3/L?", "S1/L1"]},
                piles={0: {"water": 1, "space": 2}})
    base.update(kw)
    return position(2, **base)


def test_R_A5_landing_cards_one_each_joker_for_either():
    s = develop_position()  # Freezer landing (1, 3)
    legal = set(kinds(s, "develop"))
    want = {develop(s, a, b) for a, b in [
        ("J1/L1", "J3/L3"), ("J1/L1", "J1/L?"), ("J1/L1", "J3/L?"), ("J1/L?", "J3/L3"),
        ("J1/L?", "J3/L?"), ("J3/L3", "J3/L?"), ("S1/L1", "J3/L3"), ("S1/L1", "J1/L?"), ("S1/L1", "J3/L?"),
    ]}  # two jokers are fine; L1+L1 is not
    assert legal == want and develop(s, "J1/L1", "S1/L1") not in legal


def test_R_A5_needs_a_scan_before_no_station_and_a_chip():
    assert kinds(develop_position(scanned={}), "develop") == []
    assert kinds(develop_position(stations={0: 1}), "develop") == []
    assert kinds(develop_position(supply={0: 0}), "develop") == []


def test_R_A5_station_then_reservations_home_then_tile_then_reveal():
    s = develop_position(reservations={(0, 0): {"medal": 1}, (0, 1): {"alien_blue": 2}})
    assert s.players[0].supply == 19 and s.players[1].supply == 18
    before = [list(pl.collection) for pl in s.players]
    apply(s, develop(s, "J1/L1", "J3/L3"))
    p0, p1 = s.players
    gained = [[a - b for a, b in zip(pl.collection, old)] for pl, old in zip(s.players, before)]
    assert s.stations[0] == 0 and p0.supply == 19  # station placed, probe back
    assert gained == [tiles({"medal": 1}, 10), tiles({"alien_blue": 2}, 10)]
    assert p1.supply == 20 and s.reservations[0] == [[0] * 10, [0] * 10]
    assert s.phase == "tile" and legal_actions(s) == [take("water")]
    apply(s, take("water"))
    assert p0.collection == [a + b for a, b in zip(before[0], tiles({"medal": 1, "water": 1}, 10))]
    assert s.revealed[0] and s.revealed_count == 2  # R-V1 after the take
    assert labels(s.discard_pile[-2:]) == ["J1/L1", "J3/L3"]


def test_R_A5_develop_without_point_tile_ends_the_action():
    s = develop_position(piles={0: {"space": 2}}, revealed=[0])
    apply(s, develop(s, "J1/L1", "J3/L3"))
    assert s.stations[0] == 0 and s.phase == "main" and s.actions_left == 1


# --- R-A6 discover -----------------------------------------------------------------------
def test_R_A6_discover_needs_any_station_and_a_point_tile():
    base = dict(ring=RING, ships={0: 0}, piles={0: {"water": 1, "space": 1}})
    assert A.DISCOVER not in legal_actions(position(2, **base))
    assert A.DISCOVER in legal_actions(position(2, stations={0: 1}, **base))  # someone else's
    assert A.DISCOVER in legal_actions(position(2, stations={0: 0}, **base))
    base["piles"] = {0: {"space": 1}}
    assert A.DISCOVER not in legal_actions(position(2, stations={0: 1}, revealed=[0], **base))


def test_R_A6_discover_takes_a_tile_without_card_or_chip():
    s = position(2, ring=RING, ships={0: 0}, stations={0: 1}, piles={0: {"water": 1, "medal": 1, "space": 1}},
                 supply={0: 0})
    hand = list(s.players[0].hand)
    apply(s, A.DISCOVER)
    assert legal_actions(s) == [take("water"), take("medal")]
    apply(s, take("medal"))
    pl = s.players[0]
    assert pl.collection == tiles({"medal": 1}, 10) and pl.hand == hand and pl.supply == 0
    assert not s.revealed[0]  # a point tile is left
