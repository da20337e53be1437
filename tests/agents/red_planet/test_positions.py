"""Explicit Red Planet positions where a bot must make the obviously best choice
(tests/helpers/red_planet_positions.py builds them; the bots see only the observation of
the seat to act and the legal mask)."""
import pytest
from spacemission_agents.red_planet.greedy import GreedyBot
from spacemission_agents.red_planet.heuristic import HeuristicBot

from spacemission_env.red_planet.encoding import observe
from spacemission_env.red_planet.rules import legal_action_mask
from tests.helpers.red_planet_positions import act, position

SMART = [GreedyBot, HeuristicBot]


def choice(bot, state) -> int:
    a = bot.act(observe(state, state.current_player, bot.observation_type), legal_action_mask(state))
    assert legal_action_mask(state)[a]
    return a


@pytest.mark.parametrize("bot_class", SMART)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_places_where_the_astronaut_breaks_a_tie_for_a_celerium_zone(bot_class, seed):
    """M-L1, M-P1..M-P3: seat 1 ties seat 2 in celerium zone 0; the ships of slots 1 and 2 fly
    to zones led by three, where one astronaut changes nothing."""
    s = position(3, phase="place", role="Recruiter", current=1, minerals={0: "celerium", 1: "ice", 2: "ice"},
                 mars={0: {1: 1, 2: 1}, 1: {2: 3}, 2: {0: 3}})
    assert choice(bot_class(seed=seed), s) == act("place", 0)


@pytest.mark.parametrize("bot_class", SMART)
@pytest.mark.parametrize("current", [0, 1, 2])
def test_takes_the_majority_of_the_zone_worth_most(bot_class, current):
    """M-C4, M-P1..M-P3: the same tie broken in an ice, a sylvanite and a celerium zone; the
    celerium one (3 points a counter) is worth most."""
    rival = (current + 1) % 3
    s = position(3, phase="place", role="Explorer", current=current, minerals={0: "ice", 1: "celerium", 2: "sylvanite"},
                 mars={z: {current: 1, rival: 1} for z in range(3)})
    assert choice(bot_class(seed=current), s) == act("place", 1)


@pytest.mark.parametrize("bot_class", SMART)
def test_soldier_kills_the_rival_who_ties_a_celerium_zone(bot_class):
    """M-O8: seat 1 (the observer, not seat 0: colours are absolute seats in the action
    space) kills seat 2's astronaut in outer zone 3 and takes its majority; killing his own
    or seat 0's lone ice astronaut gains less."""
    s = position(3, phase="ability", role="Soldier", current=1, minerals={3: "celerium", 4: "ice"},
                 mars={3: {1: 1, 2: 1}, 4: {0: 1}, 0: {0: 2, 1: 1}})
    assert choice(bot_class(seed=0), s) == act("kill", 3, 2)


@pytest.mark.parametrize("bot_class", SMART)
@pytest.mark.parametrize("current", [0, 2])
def test_lays_a_huge_deposit_where_it_leads_and_a_mine_disaster_where_a_rival_leads(bot_class, current):
    """M-E1, M-E5, M-E6: outer zones 3 (the drawer leads 2-0) and 4 (a rival leads 2-0), both celerium."""
    rival = (current + 1) % 3
    kw = {"phase": "discovery", "role": "Scientist", "current": current, "minerals": {3: "celerium", 4: "celerium"},
          "mars": {3: {current: 2}, 4: {rival: 2}}}
    assert choice(bot_class(seed=0), position(3, drawn="Riesiges Vorkommen", **kw)) == act("discovery", 3)
    assert choice(bot_class(seed=0), position(3, drawn="Grubenunglück", **kw)) == act("discovery", 4)


@pytest.mark.parametrize("bot_class", SMART)
def test_pilot_sends_a_crew_from_a_safe_zone_to_a_zone_it_then_wins(bot_class):
    """M-O9: the observer's three astronauts fly to ice zone 0, which he leads 4-0 already;
    sent to celerium zone 5 (a rival leads 2-0) they win it."""
    s = position(4, phase="ability", role="Pilot", current=0, minerals={0: "ice", 5: "celerium"},
                 mars={0: {0: 4}, 5: {1: 2}}, crew={2: {0: 3}}, airborne=[0])
    assert choice(bot_class(seed=0), s) == act("pilot", 0, 5)


@pytest.mark.parametrize("bot_class", SMART)
def test_hand_piloted_ship_goes_where_it_breaks_a_tie(bot_class):
    """M-L2: the first placer chooses the destination; every zone but 6 is held 2-0 by a rival."""
    mars = {z: {1: 2} for z in range(10) if z != 6}
    mars[6] = {0: 1, 1: 1}
    s = position(3, phase="destination", role="Recruiter", current=0, pad={0: 30}, crew={30: {0: 1}},
                 placed_slots=[0], pending_slot=0, mars=mars, minerals={6: "celerium"})
    assert choice(bot_class(seed=0), s) == act("destination", 6)


@pytest.mark.parametrize("bot_class", SMART)
def test_a_travel_agent_chooses_the_zone_for_his_whole_group(bot_class):
    """M-O7, M-L2: the Travel Agent's first astronaut boarded an empty hand-piloted ship; the
    other two board after the zone is chosen (rules.choose_destination), so the group of three
    goes there. Celerium zone 6 is held 2-0 by seat 1: three take it, one would not; ice zone 7
    is empty. Before, the bots valued the choice with the one astronaut aboard, and greedy
    sent the three to zone 7."""
    mars = {z: {1 + z % 2: 4} for z in range(10) if z not in (6, 7)}
    mars[6] = {1: 2}
    s = position(3, phase="destination", role="Travel Agent", current=0, pad={0: 30}, crew={30: {0: 1}},
                 placed_slots=[0], pending_slot=0, mars=mars, minerals={6: "celerium", 7: "ice"})
    assert choice(bot_class(seed=0), s) == act("destination", 6)


def test_heuristic_plays_the_recruiter_with_seven_cards_used():
    """M-O1: with only the Recruiter and the Travel Agent left and no ship with three free
    seats (M-O7: the Travel Agent's turn would be lost), the Recruiter takes all back."""
    s = position(3, phase="commit", current=0, crew={2: {1: 3}, 5: {1: 3}, 8: {2: 3}},
                 discard={0: ["Explorer", "Scientist", "Secret Agent", "Femme Fatale", "Saboteur", "Soldier", "Pilot"]})
    assert choice(HeuristicBot(seed=0), s) == act("commit", "Recruiter")


