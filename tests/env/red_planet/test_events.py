"""Event cards: discovery cards (M-E1..M-E10) and bonus cards (M-E11..M-E19), each from an
explicit position scored at the end of round 10."""
import pytest

from spacemission_env.red_planet.components import CARD_INDEX
from spacemission_env.red_planet.rules import apply, legal_actions, scores
from tests.env.red_planet.test_scoring import end_of_round
from tests.helpers.red_planet_positions import act, kinds, position

ICE, SYL, CEL = 0, 1, 2
FULL_RIM = {z: (label, 1) for z, label in zip(range(3, 10), ["Hübscher Felsen 1", "Hübscher Felsen 2",
            "Hübscher Felsen 3", "Mine erschöpft", "Grubenunglück", "Riesiges Vorkommen", "Meteoritenfeld"])}


def total(s, q):
    return scores(s)[q]["total"]


# --- discovery cards -------------------------------------------------------------------------
def test_M_E1_discovery_cards_only_on_free_outer_zones_one_per_zone():
    s = position(3, phase="discovery", role="Scientist", drawn="Fehlanalyse",
                 discoveries={5: ("Hübscher Felsen 1", 2)})
    assert sorted(a - act("discovery", 0) for a in legal_actions(s)) == [3, 4, 6, 7, 8, 9]


def test_M_E1_all_outer_zones_taken_the_card_leaves_the_game_seen_by_its_drawer():
    s = position(3, phase="ability", role="Scientist", discoveries=FULL_RIM, event_pile=["Sylvanit-Ader"])
    apply(s, act("draw"))
    card = CARD_INDEX["Sylvanit-Ader"]
    assert s.removed_cards[-1] == card and card in s.players[0].seen and s.players[0].acted
    assert s.removed_by[-1] == 0  # who drew it: only he knows which card left the game
    assert all(s.discovery[z] == CARD_INDEX[label] for z, (label, _q) in FULL_RIM.items())
    assert s.event_pile == [] and "draw" not in kinds(s)  # never reshuffled


def test_M_E2_fehlanalyse_replaces_the_mineral_and_retypes_the_leftovers():  # M-E2
    s = end_of_round(10, mars={4: {0: 1}}, minerals={4: "ice"}, leftover={4: 2},
                     discoveries={4: ("Fehlanalyse", 1)},
                     mineral_pool=["ice"] * 4 + ["sylvanite"] * 5 + ["celerium"] * 4)
    assert s.mineral[4] == CEL and s.players[0].counters == [0, 0, 5]  # pot 3 + 2 of the new type
    assert s.mineral_pool[0] == ICE  # the old token went under the pool


def test_M_E2_fehlanalyse_without_a_token_has_no_effect():
    s = end_of_round(10, discoveries={4: ("Fehlanalyse", 1)})
    assert s.mineral[4] == -1 and sum(total(s, q) for q in range(3)) == 0


def test_M_E3_huebscher_felsen_has_no_effect():  # M-E3
    kw = {"mars": {4: {0: 2, 1: 1}}, "minerals": {4: "sylvanite"}}
    plain = end_of_round(10, **kw)
    rock = end_of_round(10, discoveries={4: ("Hübscher Felsen 2", 1)}, **kw)
    assert scores(rock) == scores(plain) and rock.players[0].counters == [0, 3, 0]


@pytest.mark.parametrize("label, counters", [("Mine erschöpft", 2 + 1), ("Riesiges Vorkommen", 5 + 1),
                                             ("Grubenunglück", 0)])
def test_M_E4_M_E5_M_E6_final_base_of_the_zone(label, counters):  # M-E4, M-E5, M-E6
    s = end_of_round(10, mars={4: {0: 2}}, minerals={4: "sylvanite"}, leftover={4: 1},
                     discoveries={4: (label, 1)})
    assert s.players[0].counters[SYL] == counters


def test_M_E5_grubenunglueck_leftovers_are_lost_too():  # M-E5
    s = end_of_round(10, mars={4: {0: 1, 1: 1}}, minerals={4: "ice"}, leftover={4: 5},
                     discoveries={4: ("Grubenunglück", 1)})
    assert [pl.counters for pl in s.players] == [[0, 0, 0]] * 3 and s.leftover[4] == 0


def test_M_E7_moose_und_flechten_six_per_present_player():  # M-E7
    s = end_of_round(10, mars={6: {0: 1, 2: 4}}, minerals={6: "ice"}, discoveries={6: ("Moose und Flechten", 1)})
    assert [row["discovery_cards"] for row in scores(s)] == [6, 0, 6]


def test_M_E8_radioaktive_strahlen_leaders_remove_all_not_to_the_lism():  # M-E8
    s = end_of_round(10, mars={7: {0: 2, 1: 2, 2: 1}}, minerals={7: "ice"},
                     discoveries={7: ("Radioaktive Strahlen", 2)}, bonus={0: ["Lost-in-Space-Memorial"]})
    assert s.mars[7] == [0, 0, 1] and s.players[0].removed == 2 and s.players[1].removed == 2
    assert s.players[0].lism == 0 and scores(s)[0]["bonus_cards"] == 0  # M-E16 does not count them
    assert s.players[2].counters[ICE] == 3  # the survivor leads the zone


def test_M_E9_meteoritenfeld_one_per_own_astronaut():  # M-E9
    s = end_of_round(10, mars={8: {0: 3, 1: 1}}, minerals={8: "ice"}, discoveries={8: ("Meteoritenfeld", 2)})
    assert [row["discovery_cards"] for row in scores(s)] == [3, 1, 0]


def test_M_E10_sylvanit_ader_an_extra_sylvanite_counter_for_each_present_player():
    s = end_of_round(10, mars={9: {0: 3, 1: 1}}, minerals={9: "ice"}, discoveries={9: ("Sylvanit-Ader", 2)},
                     bonus={1: ["Sylvanit"]}, counters={0: {"sylvanite": 1}})
    assert [pl.counters[SYL] for pl in s.players] == [2, 1, 0]
    assert scores(s)[1]["bonus_cards"] == 0  # seat 0 has the most sylvanite


# --- bonus cards ------------------------------------------------------------------------------
@pytest.mark.parametrize("label, zones, points", [
    ("Geheime Mission GM1", (0, 6, 8), 8), ("Geheime Mission GM2", (1, 4, 9), 8),
    ("Geheime Mission GM3", (2, 3, 5), 8), ("Geheime Mission GM4", (0, 7, 9), 8),
    ("Geheime Mission GM1", (0, 6), 0),
])
def test_M_E11_geheime_mission_present_in_every_red_zone(label, zones, points):
    s = end_of_round(10, mars={z: {0: 1, 1: 2} for z in zones}, bonus={0: [label]})
    assert scores(s)[0]["bonus_cards"] == points


def test_M_E12_supergeheime_mission_five_per_zone_where_alone():  # M-E12
    s = end_of_round(10, mars={0: {0: 1}, 3: {0: 2}, 4: {0: 1, 1: 1}, 5: {1: 1}}, bonus={0: ["Supergeheime Mission"]})
    assert scores(s)[0]["bonus_cards"] == 10


def test_M_E13_eisbloecke_two_ice_counters_each():  # M-E13
    s = end_of_round(10, bonus={2: ["Eisblöcke 1"]})
    assert s.players[2].counters[ICE] == 2 and scores(s)[2]["total"] == 2 + 9


@pytest.mark.parametrize("cel, points", [((2, 1, 0), 8), ((2, 2, 0), 0), ((0, 0, 0), 0)])
def test_M_E14_celerium_eight_if_alone_with_the_most(cel, points):  # M-E14
    s = end_of_round(10, counters={q: {"celerium": k} for q, k in enumerate(cel)}, bonus={0: ["Celerium"]})
    assert scores(s)[0]["bonus_cards"] == points


@pytest.mark.parametrize("syl, points", [((1, 0, 0), 8), ((3, 3, 0), 0), ((0, 0, 0), 0)])
def test_M_E15_sylvanit_eight_if_alone_with_the_most(syl, points):  # M-E15
    s = end_of_round(10, counters={q: {"sylvanite": k} for q, k in enumerate(syl)}, bonus={0: ["Sylvanit"]})
    assert scores(s)[0]["bonus_cards"] == points


def test_M_E16_lost_in_space_memorial_one_per_own_astronaut_in_the_lism():
    s = end_of_round(10, lism={0: 4, 1: 7}, bonus={0: ["Lost-in-Space-Memorial"]})
    assert scores(s)[0]["bonus_cards"] == 4


def test_M_E17_gute_planung_one_per_zone_present():  # M-E17
    s = end_of_round(10, mars={0: {0: 1}, 3: {0: 2, 1: 5}, 9: {0: 1}}, bonus={0: ["Gute Planung"]})
    assert scores(s)[0]["bonus_cards"] == 3


@pytest.mark.parametrize("mars, points", [({0: {0: 2, 1: 2}}, 8), ({0: {0: 2}, 3: {1: 3}}, 0), ({}, 0)])
def test_M_E18_kolonisation_eight_if_nobody_has_more_on_mars(mars, points):  # M-E18
    s = end_of_round(10, mars=mars, bonus={0: ["Kolonisation"]})
    assert scores(s)[0]["bonus_cards"] == points


@pytest.mark.parametrize("mars, points", [({0: {0: 1}, 1: {0: 1}, 3: {1: 5}, 2: {1: 2}}, 6),
                                          ({0: {0: 1}, 2: {1: 2}}, 0), ({3: {0: 4}}, 0)])
def test_M_E19_strategische_zonen_six_if_nobody_has_more_in_the_central_zones(mars, points):
    s = end_of_round(10, mars=mars, bonus={0: ["Strategische Zonen"]})
    assert scores(s)[0]["bonus_cards"] == points


def test_M_E11_to_M_E19_several_bonus_cards_each_score():
    s = end_of_round(10, mars={0: {0: 1}, 6: {0: 1}, 8: {0: 1}},
                     bonus={0: ["Geheime Mission GM1", "Gute Planung", "Kolonisation"]})
    assert scores(s)[0]["bonus_cards"] == 8 + 3 + 8


def test_M_E2_fehlanalyse_may_draw_the_same_type():
    s = end_of_round(10, mars={4: {0: 1}}, minerals={4: "ice"}, leftover={4: 1},
                     discoveries={4: ("Fehlanalyse", 1)},
                     mineral_pool=["celerium"] * 4 + ["sylvanite"] * 5 + ["ice"] * 4)
    assert s.mineral[4] == ICE and s.players[0].counters == [4, 0, 0]
