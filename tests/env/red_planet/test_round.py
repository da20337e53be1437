"""The round (M-R1..M-R8) and ships: placing, launching, landing (M-L1..M-L6)."""
import pytest

from spacemission_env.red_planet.rules import apply, legal_action_mask, legal_actions
from spacemission_env import rng
from tests.helpers.red_planet_positions import ROLE, act, kinds, play, position

ICE = 0


def last_turn(round_, **kw):
    """Round ``round_``, the last turn of step 3: seat 2's Pilot, seats 0 and 1 have acted."""
    return position(3, round=round_, phase="ability", role="Pilot", current=2, acted=[0, 1],
                    commits={0: "Recruiter", 1: "Explorer"}, **kw)


# --- the round ------------------------------------------------------------------------------
@pytest.mark.parametrize("round_, counters", [(4, 0), (5, 1), (6, 0), (7, 0)])
def test_M_R1_first_distribution_only_after_round_5(round_, counters):
    s = last_turn(round_, mars={3: {0: 2, 1: 1}}, minerals={3: "ice"})
    apply(s, act("pass"))
    assert s.players[0].counters[ICE] == counters
    assert s.round == round_ + 1 and s.phase == "commit"


def test_M_R1_second_distribution_after_round_8_and_the_end_after_round_10():
    s = last_turn(8, mars={3: {0: 2, 1: 1}}, minerals={3: "ice"})
    apply(s, act("pass"))
    assert s.players[0].counters[ICE] == 2 and s.round == 9  # M-P2 pot 2
    s = last_turn(10, mars={3: {0: 2, 1: 1}}, minerals={3: "ice"})
    apply(s, act("pass"))
    assert s.phase == "over" and s.round == 10 and s.players[0].counters[ICE] == 3  # M-P3 base 3
    assert legal_actions(s) == [] and not legal_action_mask(s).any()


def test_M_R2_refill_free_slots_from_the_deck_top_unfilled_ships_stay():
    s = last_turn(3, pad={0: 2, 1: None, 2: 8}, crew={2: {0: 1}, 8: {1: 2}}, tokens={8: 6})
    top = s.ship_deck[-1]
    apply(s, act("pass"))
    assert s.slots == [2, top, 8] and s.crew[2][0] == 1 and s.crew[8][1] == 2 and s.token[8] == 6
    assert s.phase == "commit"


def test_M_R2_destroyed_ship_slot_is_refilled_and_an_empty_deck_is_replaced_by_the_shuffled_used_ships():
    s = position(3, round=3, phase="ability", role="Saboteur", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Explorer"}, ship_deck=[])
    used = list(s.used_ships) + [s.slots[1]]  # the sabotaged ship joins the used pile first
    g = rng.shuffle(s.rng, used)
    apply(s, act("sabotage", 1))  # M-O6; then the round ends and step 1 of round 4 refills
    assert s.rng == g and s.slots[1] == used[-1] and s.ship_deck == used[:-1] and s.used_ships == []


def test_M_R3_commits_one_after_another_in_seat_order_from_the_start_player():
    s = position(3, start=1)
    assert s.phase == "commit" and s.current_player == 1 and kinds(s) == {"commit"}
    apply(s, act("commit", "Scientist"))
    assert s.current_player == 2 and s.players[1].commit == ROLE["Scientist"]
    assert ROLE["Scientist"] not in s.players[1].hand
    apply(s, act("commit", "Scientist"))  # two players may choose the same role
    assert s.current_player == 0
    apply(s, act("commit", "Pilot"))
    assert s.phase != "commit"


def test_M_R3_only_cards_in_hand_can_be_committed_and_the_hand_is_never_empty():
    s = position(3, discard={0: ["Explorer", "Scientist", "Secret Agent", "Femme Fatale", "Saboteur",
                                 "Travel Agent", "Soldier", "Pilot"]})
    assert legal_actions(s) == [act("commit", "Recruiter")]  # M-O1: the Recruiter remains
    with pytest.raises(ValueError):
        apply(s, act("commit", "Pilot"))


def test_M_R4_roles_called_in_order_players_of_one_role_in_seat_order_from_the_start():
    s = position(3, start=1)
    play(s, act("commit", "Pilot"), act("commit", "Recruiter"), act("commit", "Recruiter"))
    assert s.role == ROLE["Recruiter"] and s.current_player == 2  # seat order from start player 1: 1, 2, 0
    apply(s, act("stop"))
    assert s.role == ROLE["Recruiter"] and s.current_player == 0
    apply(s, act("stop"))
    assert s.role == ROLE["Pilot"] and s.current_player == 1


def test_M_R5_placement_first_then_the_ability_which_is_optional():  # M-R5
    s = position(3, phase="place", role="Saboteur")
    assert kinds(s) == {"place", "stop"}
    apply(s, act("place", 0))
    assert s.phase == "ability" and kinds(s) == {"sabotage", "pass"}
    apply(s, act("pass"))  # declined
    assert s.players[0].acted and all(sl != -1 for sl in s.slots)


def test_M_R5_the_recruiters_ability_is_not_optional():
    s = position(3, phase="place", role="Recruiter", discard={0: ["Pilot", "Soldier"]})
    apply(s, act("stop"))  # no ability decision: the cards return at once
    assert s.players[0].hand == list(range(9)) and s.players[0].discard == []


def test_M_R6_a_played_card_goes_to_the_discard_pile():  # M-R6
    s = position(3, phase="place", role="Scientist")
    play(s, act("stop"), act("pass"))
    assert ROLE["Scientist"] in s.players[0].discard and ROLE["Scientist"] not in s.players[0].hand


def test_M_R7_launched_ships_land_only_in_step_4():  # M-R7
    s = position(3, phase="ability", role="Secret Agent", current=0, crew={2: {1: 2}})
    apply(s, act("launch", 0))
    assert s.airborne == [0] and s.mars[0] == [0, 0, 0]  # seats 1 and 2 (Pilot) still to act
    play(s, act("stop"), act("pass"))  # seat 1's Pilot
    assert s.mars[0] == [0, 0, 0]
    play(s, act("stop"), act("pass"))  # seat 2's Pilot: step 3 is over, the ship lands
    assert s.mars[0] == [0, 2, 0] and s.airborne == [] and 2 in s.used_ships


def test_M_R8_last_to_act_takes_the_start_player_token():
    s = position(3, start=2)
    play(s, act("commit", "Recruiter"), act("commit", "Soldier"), act("commit", "Soldier"))  # seats 2, 0, 1
    while s.phase != "commit":
        apply(s, legal_actions(s)[-1] if "pass" in kinds(s) else legal_actions(s)[0])
    # M-R8 "among equals, last in turn order": seats 0 and 1 both played the Soldier, the highest role
    assert s.start_player == 1 and s.round == 2 and s.current_player == 1


def test_M_R8_a_lost_travel_agent_turn_counts():
    # every pad ship has fewer than 3 free seats: the Travel Agent loses his turn (M-O7), still the last
    s = position(3, start=0, crew={2: {1: 3}, 5: {1: 3}, 8: {2: 3}})
    play(s, act("commit", "Travel Agent"), act("commit", "Recruiter"), act("commit", "Recruiter"))
    play(s, act("stop"), act("stop"))
    assert s.round == 2 and s.start_player == 0 and s.players[0].supply == 22


# --- ships ---------------------------------------------------------------------------------
def test_M_L1_one_astronaut_at_a_time_each_may_launch_before_the_next():
    s = position(3, phase="place", role="Scientist", crew={2: {1: 4}})  # slot 0: one free seat
    apply(s, act("place", 0))
    assert s.airborne == [0] and s.crew[2] == [1, 4, 0]
    assert act("place", 0) not in legal_actions(s)  # in the air: nobody boards it
    apply(s, act("place", 1))
    assert s.crew[5][0] == 1 and s.phase == "ability"


def test_M_L1_fewer_than_allowed_down_to_none():
    s = position(3, phase="place", role="Pilot")
    apply(s, act("stop"))
    assert s.players[0].supply == 22 and s.phase == "ability"


def test_M_L1_with_an_empty_supply_nothing_is_placed():
    s = position(3, phase="ability", role="Pilot", supply={0: 0})
    assert s.phase == "ability"  # no placement decision is offered
    s = position(3, start=0, supply={0: 0})
    play(s, act("commit", "Scientist"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.current_player == 0 and s.phase == "ability" and s.players[0].supply == 0


def test_M_L2_first_placer_on_a_hand_piloted_ship_chooses_its_destination():
    s = position(3, phase="place", role="Scientist", pad={0: 30})
    apply(s, act("place", 0))
    assert s.phase == "destination" and s.pending_slot == 0 and kinds(s) == {"destination"}
    apply(s, act("destination", 9))
    assert s.token[30] == 9 and s.destination(30) == 9 and s.phase == "place"
    apply(s, act("place", 0))  # a second astronaut: the destination stands
    assert s.phase == "ability" and s.crew[30][0] == 2


def test_M_L3_a_full_ship_launches_at_once():
    s = position(3, phase="place", role="Travel Agent", pad={0: 0}, crew={})  # ship 0: capacity 3
    apply(s, act("place", 0))
    assert s.airborne == [0] and s.crew[0][0] == 3


def test_M_L4_landing_in_launch_order_token_overrides_printed_zone():  # M-L4
    s = position(3, round=2, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Secret Agent", 1: "Secret Agent"}, crew={2: {0: 2}, 5: {1: 1}, 8: {2: 1}},
                 airborne=[1, 0], tokens={5: 7}, mineral_pool=["ice", "ice", "ice", "sylvanite", "sylvanite",
                 "sylvanite", "sylvanite", "sylvanite", "ice", "celerium", "celerium", "celerium", "celerium", "ice"])
    apply(s, act("pass"))
    assert s.mars[7] == [0, 1, 0] and s.mars[0] == [2, 0, 0]  # ship 5 flew to the token's zone 7
    assert s.mineral[7] == 0 and s.mineral[0] == 2  # slot 1 landed first: it drew the pool's top (ice)
    assert s.used_ships[-2:] == [5, 2] and s.token_supply[7] == 2
    assert s.slots[2] == 8 and s.crew[8][2] == 1  # not launched: stays on the pad


def test_M_L5_mineral_revealed_when_astronauts_first_enter_a_zone():  # M-L5
    s = position(3, round=2, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Secret Agent", 1: "Secret Agent"}, crew={2: {0: 2}, 5: {1: 1}},
                 airborne=[0, 1], minerals={1: "celerium"}, mineral_pool=["ice"] * 5 + ["sylvanite"] * 5 + ["celerium"] * 3)
    pool = list(s.mineral_pool)
    apply(s, act("pass"))
    assert s.mineral[0] == pool[-1] and s.mineral[1] == 2 and s.mineral_pool == pool[:-1]


def test_M_L5_explorer_moves_reveal_too():
    s = position(3, phase="ability", role="Explorer", steps_left=3, mars={0: {0: 1}}, minerals={0: "ice"})
    top = s.mineral_pool[-1]
    apply(s, act("move", 0, 3))
    assert s.mineral[3] == top and s.mars[3][0] == 1


def test_M_L6_an_empty_ship_lands_nothing_and_reveals_nothing():
    s = position(3, round=2, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Secret Agent", 1: "Secret Agent"}, pad={0: 2, 1: 30, 2: 8}, airborne=[0, 1],
                 tokens={2: 4})
    pool = list(s.mineral_pool)
    apply(s, act("pass"))
    assert s.mineral == [-1] * 10 and s.mineral_pool == pool and s.used_ships[-2:] == [2, 30]
    assert s.token_supply[4] == 2 and all(sum(row) == 0 for row in s.mars)
