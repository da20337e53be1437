"""The nine roles (M-O1..M-O9) with their rulings."""
import pytest

from spacemission_env.red_planet.components import CARD_INDEX
from spacemission_env.red_planet.rules import apply, legal_actions
from tests.helpers.red_planet_positions import ROLE, act, kinds, play, position


def test_M_O1_recruiter_places_one_then_every_used_card_returns():
    s = position(3, phase="place", role="Recruiter", discard={0: ["Pilot", "Soldier", "Explorer"]})
    assert kinds(s) == {"place", "stop"}
    apply(s, act("place", 1))
    assert s.crew[5][0] == 1 and s.players[0].supply == 21  # place 1: the turn goes on at once
    assert s.players[0].hand == list(range(9)) and s.players[0].discard == [] and s.players[0].acted


def test_M_O2_explorer_three_steps_split_among_astronauts():  # M-O2
    s = position(3, phase="place", role="Explorer", mars={0: {0: 1}, 5: {0: 1, 1: 2}}, minerals={0: "ice", 5: "ice"})
    apply(s, act("stop"))
    assert s.phase == "ability" and s.steps_left == 3
    legal_moves = {a for a in legal_actions(s) if kinds_of(a) == "move"}
    assert legal_moves == {act("move", 0, b) for b in (1, 2, 3, 4, 5)} | {act("move", 5, b) for b in (0, 1, 4, 6)}
    play(s, act("move", 0, 1), act("move", 1, 6))  # one astronaut twice
    assert s.steps_left == 1 and s.phase == "ability"
    apply(s, act("move", 5, 4))  # the third step by the other one; the turn ends
    assert s.mars[6][0] == 1 and s.mars[4][0] == 1 and s.mars[5] == [0, 2, 0] and s.players[0].acted


def test_M_O2_explorer_may_stop_early_and_moves_only_his_own():
    s = position(3, phase="ability", role="Explorer", steps_left=3, mars={5: {1: 2}, 3: {0: 1}})
    assert all(kinds_of(a) in ("move", "pass") for a in legal_actions(s))
    assert act("move", 5, 4) not in legal_actions(s)  # seat 1's astronauts
    play(s, act("move", 3, 4), act("pass"))
    assert s.mars[4][0] == 1 and s.players[0].acted


def test_M_O2_explorer_without_astronauts_on_mars_has_no_ability_decision():
    s = position(3, phase="place", role="Explorer")
    apply(s, act("stop"))
    assert s.players[0].acted


def kinds_of(a):
    from spacemission_env.red_planet.actions import decode
    return decode(a)[0]


def test_M_O3_scientist_places_two_into_one_ship():  # M-O3
    s = position(3, phase="place", role="Scientist")
    play(s, act("place", 0), act("place", 0))  # one ship allowed (German text)
    assert s.crew[2][0] == 2 and s.phase == "ability"


def test_M_O3_scientist_draws_a_bonus_card_secretly():
    s = position(3, phase="ability", role="Scientist", event_pile=["Hübscher Felsen 1",
                                                                   "Kolonisation"])
    apply(s, act("draw"))
    assert s.players[0].bonus[-1] == CARD_INDEX["Kolonisation"] and CARD_INDEX["Kolonisation"] in s.players[0].seen
    assert s.players[0].acted


def test_M_O3_scientist_draws_a_discovery_card_and_lays_it_on_a_free_outer_zone():
    s = position(3, phase="ability", role="Scientist", event_pile=["Grubenunglück"],
                 discoveries={3: ("Hübscher Felsen 1", 1)})
    apply(s, act("draw"))
    assert s.phase == "discovery" and s.drawn == CARD_INDEX["Grubenunglück"]
    assert legal_actions(s) == [act("discovery", z) for z in (4, 5, 6, 7, 8, 9)]  # outer, free
    apply(s, act("discovery", 6))
    assert s.discovery[6] == CARD_INDEX["Grubenunglück"] and s.discovery_owner[6] == 0 and s.players[0].acted


def test_M_O3_scientist_looks_at_a_card_on_mars():
    s = position(3, phase="ability", role="Scientist", discoveries={4: ("Meteoritenfeld", 1)})
    assert act("look", 4) in legal_actions(s) and act("look", 5) not in legal_actions(s)
    apply(s, act("look", 4))
    assert CARD_INDEX["Meteoritenfeld"] in s.players[0].seen and s.discovery[4] == CARD_INDEX["Meteoritenfeld"]


def test_M_O3_draw_needs_a_pile_and_look_a_card_on_mars():
    s = position(3, phase="place", role="Scientist", event_pile=[])
    apply(s, act("stop"))
    assert s.players[0].acted  # nothing to draw, nothing to look at: no ability decision
    s = position(3, phase="ability", role="Scientist", event_pile=[], discoveries={4: ("Meteoritenfeld", 1)})
    assert kinds(s) == {"look", "pass"}


def test_M_O4_secret_agent_places_into_two_different_ships():  # M-O4
    s = position(3, phase="place", role="Secret Agent")
    apply(s, act("place", 1))
    assert act("place", 1) not in legal_actions(s) and act("place", 0) in legal_actions(s)
    apply(s, act("place", 2))
    assert s.phase == "ability" and s.crew[5][0] == 1 and s.crew[8][0] == 1


def test_M_O4_secret_agent_launches_a_ship_that_is_not_full_even_an_empty_one():
    s = position(3, phase="ability", role="Secret Agent", crew={2: {1: 1}})
    assert {a for a in legal_actions(s) if kinds_of(a) == "launch"} == {act("launch", k) for k in range(3)}
    apply(s, act("launch", 2))  # empty ship 8
    assert s.airborne == [2]
    play(s, act("stop"), act("pass"), act("stop"), act("pass"))  # the two Pilots; then landing
    assert 8 in s.used_ships and all(sum(row) == 0 for row in s.mars)  # M-L6
    assert s.round == 2 and s.slots[2] not in (-1, 8)  # its slot is refilled in round 2 (M-R2)


def test_M_O5_femme_fatale_replaces_an_astronaut_on_the_pad_or_in_the_air():  # M-O5
    s = position(3, phase="ability", role="Femme Fatale", crew={2: {1: 2}, 5: {2: 5}}, airborne=[1])
    legal = set(legal_actions(s))
    assert legal == {act("seduce", 0, 1), act("seduce", 1, 2), act("pass")}  # other colours only
    apply(s, act("seduce", 1, 2))
    assert s.crew[5] == [1, 0, 4] and s.players[2].supply == 22 - 4 and s.players[2].lism == 0
    assert s.players[0].supply == 21 and s.airborne == [1]  # count unchanged


def test_M_O5_femme_fatale_needs_an_astronaut_in_supply():
    s = position(3, start=0, crew={2: {1: 2}}, supply={0: 0})
    play(s, act("commit", "Femme Fatale"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.players[0].acted and s.crew[2] == [0, 2, 0]


def test_M_O5_no_launch_when_the_ship_is_full():
    s = position(3, phase="ability", role="Femme Fatale", pad={0: 0}, crew={0: {1: 2}})
    apply(s, act("seduce", 0, 1))
    assert s.crew[0] == [1, 1, 0] and s.airborne == []


def test_M_O6_saboteur_destroys_a_pad_ship_own_astronauts_too():
    s = position(3, phase="ability", role="Saboteur", crew={2: {0: 1, 1: 2}, 5: {2: 1}}, tokens={2: 9},
                 airborne=[1])
    assert act("sabotage", 1) not in legal_actions(s)  # in the air
    apply(s, act("sabotage", 0))
    assert s.players[0].lism == 1 and s.players[1].lism == 2 and s.slots[0] == -1
    assert s.used_ships[-1] == 2 and s.token_supply[9] == 2 and s.crew[2] == [0, 0, 0]


@pytest.mark.parametrize("free, supply", [(3, 22), (5, 3)])
def test_M_O7_travel_agent_places_exactly_three_into_one_ship(free, supply):
    s = position(3, phase="place", role="Travel Agent", crew={2: {1: 5 - free}, 5: {1: 3}, 8: {2: 4}},
                 supply={0: supply})
    assert legal_actions(s) == [act("place", 0)]  # compulsory: no stop; only ship 2 has 3 free seats
    apply(s, act("place", 0))
    assert s.crew[2][0] == 3 and s.players[0].supply == supply - 3 and s.players[0].acted


def test_M_O7_travel_agent_loses_his_turn_with_fewer_than_three_astronauts():
    s = position(3, start=0, supply={0: 2})
    play(s, act("commit", "Travel Agent"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.players[0].acted and s.players[0].supply == 2 and ROLE["Travel Agent"] in s.players[0].discard


def test_M_O8_soldier_places_two_into_one_ship_compulsorily():  # M-O8
    s = position(3, phase="place", role="Soldier", crew={2: {1: 4}})
    assert legal_actions(s) == [act("place", 1), act("place", 2)]
    apply(s, act("place", 2))
    assert s.crew[8][0] == 2


def test_M_O8_soldier_kills_in_an_outer_zone_any_colour_even_without_placing():
    s = position(3, phase="ability", role="Soldier", supply={0: 1},
                 mars={0: {1: 3}, 4: {0: 1, 2: 2}})
    legal = set(legal_actions(s))
    assert legal == {act("kill", 4, 0), act("kill", 4, 2), act("pass")}  # never in a central zone
    apply(s, act("kill", 4, 0))  # his own
    assert s.mars[4] == [0, 0, 2] and s.players[0].lism == 1
    s = position(3, start=0, supply={0: 1}, mars={4: {2: 2}})
    play(s, act("commit", "Soldier"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.current_player == 0 and s.phase == "ability" and s.players[0].supply == 1  # no placement
    apply(s, act("kill", 4, 2))
    assert s.players[2].lism == 1


def test_M_O9_pilot_changes_the_destination_of_a_pad_or_air_ship():
    s = position(3, phase="ability", role="Pilot", pad={0: 2, 1: 30, 2: 8}, crew={2: {1: 1}, 8: {0: 2}},
                 tokens={8: 6}, airborne=[2])
    legal = {a for a in legal_actions(s) if kinds_of(a) == "pilot"}
    assert act("pilot", 0, 0) not in legal and act("pilot", 0, 5) in legal  # another zone
    assert not any(act("pilot", 1, z) in legal for z in range(10))  # empty hand-piloted: no destination
    assert act("pilot", 2, 2) in legal and act("pilot", 2, 6) not in legal  # in the air; printed zone again
    apply(s, act("pilot", 2, 9))
    assert s.token[8] == 9 and s.token_supply[6] == 2 and s.token_supply[9] == 1 and s.destination(8) == 9


def test_M_O9_pilot_needs_a_token_in_supply():
    s = position(3, phase="ability", role="Pilot", crew={5: {1: 1}, 8: {2: 1}}, tokens={5: 4, 8: 4})
    assert act("pilot", 0, 4) not in legal_actions(s)

