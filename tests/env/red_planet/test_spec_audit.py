"""An independent audit of the Red Planet rules engine against RED_PLANET.md: explicit
positions for what the other rule tests leave open, each checked in the reference engine
(rules/) and, step by step, in the fast engine (engine/): the same state, legal mask,
scores and observations after every action. Expected values come from the spec's text
(its tables are written out here, not read from the data file)."""
import numpy as np
import pytest

from spacemission_env.red_planet import encoding as E
from spacemission_env.red_planet import engine
from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.actions import decode as decode_action
from spacemission_env.red_planet.components import CARD_INDEX, CARD_LABELS, DISCOVERY_CARDS, IS_BONUS
from spacemission_env.red_planet.engine.differential import _ref_scores
from spacemission_env.red_planet.rules import apply, legal_actions, new_game, scores
from tests.helpers.red_planet_positions import ROLE, act, card, kinds, position

ICE, SYL, CEL = 0, 1, 2
NONE = -1
# M-C2, written out from the spec's table (not from the data file)
SPEC_NEIGHBOURS = {0: (1, 2, 3, 4, 5), 1: (0, 2, 5, 6, 7), 2: (0, 1, 7, 8, 9), 3: (0, 4, 9), 4: (0, 3, 5),
                   5: (0, 1, 4, 6), 6: (1, 5, 7), 7: (1, 2, 6, 8), 8: (2, 7, 9), 9: (2, 3, 8)}
SPEC_OUTER = (3, 4, 5, 6, 7, 8, 9)


# --- both engines ------------------------------------------------------------------------------
def same_in_fast_engine(ref, st):
    """The fast engine's game 0 equals the reference state: state, mask, scores, observations."""
    assert engine.to_reference(st, 0) == ref
    if not G.is_over(ref):
        assert np.array_equal(engine.legal_action_mask(st)[0], G.legal_action_mask(ref))
    assert np.array_equal(engine.scores(st)[0], _ref_scores(ref))
    for t in E.OBSERVATION_TYPES:
        for q in range(ref.num_players):
            assert np.array_equal(engine.observe(st, q, t)[0], E.observe(ref, q, t)), (t, q)


def both(state, *actions):
    """Play ``actions`` in the reference engine and in the fast engine side by side,
    comparing everything after each; returns the reference state."""
    ref = state.copy()
    st = engine.from_reference([state])
    same_in_fast_engine(ref, st)
    for a in actions:
        apply(ref, a)
        engine.step(st, np.array([a]))
        G.check_invariants(ref)
        same_in_fast_engine(ref, st)
    return ref


def obs(state, seat, kind="info"):
    """The decoded observation of ``seat`` (checked equal in the fast engine)."""
    vec = E.observe(state, seat, kind)
    assert np.array_equal(engine.observe(engine.from_reference([state]), seat, kind)[0], vec)
    return E.decode(vec, kind)


def kind_of(a):
    return decode_action(a)[0]


def moves(state):
    return {a for a in legal_actions(state) if kind_of(a) == "move"}


def drive(state, commit="Recruiter"):
    """Play on with every player committing ``commit`` and declining every placement and
    ability (stop/pass), until the game is over."""
    while not G.is_over(state):
        legal = legal_actions(state)
        if state.phase == "commit":
            a = act("commit", commit)
        elif act("stop") in legal:
            a = act("stop")
        else:
            a = act("pass")
        assert a in legal
        state = both(state, a)
    return state


# --- components -------------------------------------------------------------------------------
@pytest.mark.parametrize("zone", range(10))
def test_M_C2_explorer_steps_follow_exactly_the_spec_border_table(zone):
    """M-C2 "| id | name | kind | neighbours |" (the table) and M-O2 "a step moves one own
    astronaut on Mars to a neighbouring zone (M-C2)"."""
    s = position(3, phase="ability", role="Explorer", steps_left=3, mars={zone: {0: 1}})
    assert moves(s) == {act("move", zone, b) for b in SPEC_NEIGHBOURS[zone]}
    both(s)


def test_M_C2_outer_zones_are_exactly_the_seven_rim_zones():
    """M-C2: ids 0-2 "central", 3-9 "outer"; M-O8 "kill one astronaut in an outer zone
    (LiSM), never in a central zone"."""
    s = position(3, phase="ability", role="Soldier", mars={z: {1: 1} for z in range(10)})
    kills = {a for a in legal_actions(s) if kind_of(a) == "kill"}
    assert kills == {act("kill", z, 1) for z in SPEC_OUTER}


# --- setup ------------------------------------------------------------------------------------
def test_M_S6_M_I2_the_kept_bonus_card_is_secret():
    """M-S6 "each player secretly keeps one bonus card he holds and returns the rest face
    down"; M-I3 "others' bonus cards" are never visible."""
    for seed in range(200):
        s = new_game(3, seed=seed)
        while s.phase == "setup_zone":
            apply(s, legal_actions(s)[0])
        keeper = s.current_player
        options = legal_actions(s)
        if len(options) >= 2:
            break
    others = [q for q in range(3) if q != keeper]
    after = [both(s, a) for a in options[:2]]
    kept = [st.players[keeper].bonus for st in after]
    assert kept[0] != kept[1] and all(len(k) == 1 for k in kept)
    for q in others:
        for t in ("info", "recall"):
            assert np.array_equal(E.observe(after[0], q, t), E.observe(after[1], q, t))
        assert obs(after[0], q)["bonus_count"][(keeper - q) % 3] == 1
    assert not np.array_equal(E.observe(after[0], keeper), E.observe(after[1], keeper))


# --- the round ----------------------------------------------------------------------------------
def test_M_R2_deck_runs_out_during_the_refill_the_used_ships_landed_this_round_included():
    """M-R2 "draw ships into free pad slots until it holds N ... An empty deck is replaced by
    the shuffled used ships (landed or destroyed)"."""
    s = position(3, round=3, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, crew={2: {0: 1}, 5: {1: 1}}, airborne=[0, 1],
                 ship_deck=[20])
    old_used = list(s.used_ships)
    assert len(old_used) == 34 - 3 - 1
    s = both(s, act("pass"))
    assert s.round == 4 and s.phase == "commit"
    assert s.slots[2] == 8 and None not in s.slots and NONE not in s.slots  # the pad holds N again
    new = [s.slots[0], s.slots[1]]
    assert 20 in new  # the deck's last ship
    other = new[1 - new.index(20)]
    assert s.used_ships == []  # the used pile became the deck
    assert sorted(s.ship_deck + [other]) == sorted(old_used + [2, 5])  # ships landed this round included


def test_M_R3_M_I4_a_later_committer_learns_nothing_of_an_earlier_commit():
    """M-R3 "a commit stays hidden until revealed (M-R4), and later committers learn nothing
    of earlier ones"; M-I4 "Choosing a role, a player sees ... nothing of this round's other
    commits"."""
    views = {}
    for first in ("Recruiter", "Scientist", "Soldier", "Pilot"):
        s = both(position(3, start=0, discard={0: ["Explorer"]}), act("commit", first))
        assert s.current_player == 1 and s.players[0].commit == ROLE[first]
        views[first] = [E.observe(s, q, t) for q in (1, 2) for t in ("info", "recall")]
        mine = obs(s, 0)
        assert mine["own_commit"].tolist() == [int(r == ROLE[first]) for r in range(9)]
        theirs = obs(s, 1)
        assert theirs["own_commit"].sum() == 0 and theirs["revealed_role"].sum() == 0
        assert theirs["roles_left"][2].tolist() == [1, 0] + [1] * 7  # seat 0's (relative 2): all but the Explorer
    first = views["Recruiter"]
    for other in views.values():
        assert all(np.array_equal(a, b) for a, b in zip(first, other))


def test_M_R4_M_I4_a_role_is_revealed_only_when_it_is_called():
    """M-R4 "roles are called 1 to 9. At each call every player who chose it reveals it
    ... A role is revealed only when called"; M-I4 "after role k is called, he also knows
    each revealed role"."""
    s = position(3, start=0)
    s = both(s, act("commit", "Recruiter"), act("commit", "Pilot"), act("commit", "Soldier"))
    assert s.role == ROLE["Recruiter"] and s.current_player == 0
    for q in range(3):
        v = obs(s, q)
        r0 = (0 - q) % 3
        assert v["revealed_role"][r0].tolist() == [int(r == 0) for r in range(9)]  # called: open to all
        for other in (1, 2):
            if other != q:
                assert v["revealed_role"][(other - q) % 3].sum() == 0  # not yet called
                assert v["roles_left"][(other - q) % 3].sum() == 9  # the hidden commit counts as remaining
    s = both(s, act("stop"))  # seat 0's Recruiter; then role 8, the Soldier of seat 2, is called
    assert s.role == ROLE["Soldier"] and s.current_player == 2
    v = obs(s, 0)
    assert v["revealed_role"][2].tolist() == [int(r == ROLE["Soldier"]) for r in range(9)]  # seat 2
    assert v["revealed_role"][1].sum() == 0 and v["roles_left"][1].sum() == 9  # seat 1's Pilot: still hidden
    assert v["roles_left"][2].sum() == 8  # the Soldier left seat 2's remaining cards


@pytest.mark.parametrize("role, kw", [
    ("Explorer", {"steps_left": 3, "mars": {3: {0: 1}}}),
    ("Scientist", {"discoveries": {4: ("Meteoritenfeld", 1)}}),
    ("Secret Agent", {}),
    ("Femme Fatale", {"crew": {2: {1: 1}}}),
    ("Saboteur", {}),
    ("Soldier", {"mars": {4: {1: 1}}}),
    ("Pilot", {}),
])
def test_M_R5_every_ability_but_the_recruiters_may_be_declined(role, kw):
    """M-R5 "abilities are optional, except the Recruiter's: roles "allow" (erlauben) them";
    decisions 5: "Ability, all with "pass" but the Recruiter's"."""
    s = position(3, phase="ability", role=role, **kw)
    assert act("pass") in legal_actions(s) and len(legal_actions(s)) > 1
    mars, crew, slots = [list(r) for r in s.mars], [list(r) for r in s.crew], list(s.slots)
    s = both(s, act("pass"))
    assert s.players[0].acted and s.mars == mars and s.crew == crew and s.slots == slots
    assert s.airborne == [] and s.token_supply == [2] * 10


def test_M_R5_placement_then_ability_never_interleaved():
    """M-R5 "A turn: the role's placement (M-L1), then its ability, not interleaved"."""
    s = position(3, phase="place", role="Explorer", mars={3: {0: 1}})
    s = both(s, act("stop"))
    assert s.phase == "ability" and kinds(s) == {"move", "pass"}
    s = both(s, act("move", 3, 4))
    assert kinds(s) == {"move", "pass"}  # no placement once the ability has begun
    s = position(3, phase="place", role="Scientist", discoveries={4: ("Meteoritenfeld", 1)})
    s = both(s, act("place", 0))
    assert kinds(s) == {"place", "stop"}  # the second astronaut before the ability


def test_M_R6_M_O1_a_played_card_stays_spent_over_rounds_until_the_recruiter():
    """M-R6 "After his turn the card goes to his face-down discard pile, unusable until he
    plays the Recruiter"; M-O1 "after the turn all used role cards, this one included,
    return to the hand"."""
    # nothing to place, no ability with a target: the turns run on their own
    s = position(3, start=0, supply={0: 0, 1: 0, 2: 0})
    s = both(s, act("commit", "Explorer"), act("commit", "Soldier"), act("commit", "Travel Agent"))
    assert s.round == 2 and s.start_player == 1  # the Soldier (role 8) took the last turn
    assert s.phase == "commit" and s.current_player == 1
    s = both(s, act("commit", "Recruiter"))  # seat 1
    assert s.current_player == 2
    s = both(s, act("commit", "Explorer"))  # seat 2
    assert s.current_player == 0
    assert act("commit", "Explorer") not in legal_actions(s)  # spent in round 1
    assert len(legal_actions(s)) == 8
    s = both(s, act("commit", "Travel Agent"))  # seat 0: his turn is lost (M-O7), still the last
    assert s.round == 3 and s.start_player == 0
    assert s.players[0].hand == [r for r in range(9) if r not in (ROLE["Explorer"], ROLE["Travel Agent"])]
    assert s.players[1].hand == list(range(9)) and s.players[1].discard == []  # the Recruiter took back the Soldier
    assert s.players[2].discard == [ROLE["Explorer"], ROLE["Travel Agent"]]


def test_M_R8_the_start_player_token_follows_the_highest_role_not_the_seat():
    """M-R8 "the player who took the last turn of step 3 (highest role number played; among
    equals, last in turn order) takes the start-player token"; M-R3 the next round's commits
    begin with him."""
    s = position(4, start=1, supply={q: 0 for q in range(4)}, pad={0: 30, 1: 31, 2: 32, 3: 33})  # no Pilot target
    s = both(s, act("commit", "Soldier"), act("commit", "Pilot"), act("commit", "Recruiter"),
             act("commit", "Explorer"))  # seats 1, 2, 3, 0
    assert s.round == 2 and s.start_player == 2 and s.current_player == 2


# --- ships ------------------------------------------------------------------------------------
def test_M_L2_M_O7_travel_agent_on_a_hand_piloted_ship_chooses_its_zone_then_boards_the_group():
    """M-L2 "whoever places the first astronaut on one without destination lays a token of
    his choice on it"; M-O7 "place exactly 3, all into one ship"; M-L3 "a full ship
    launches at once"."""
    s = position(3, phase="place", role="Travel Agent", pad={0: 30})  # ship 30: capacity 3, no zone
    assert legal_actions(s) == [act("place", k) for k in range(3)]
    s = both(s, act("place", 0))
    assert s.phase == "destination" and s.crew[30] == [1, 0, 0] and s.token[30] == NONE
    assert kinds(s) == {"destination"}
    s = both(s, act("destination", 7))
    assert s.crew[30] == [3, 0, 0] and s.players[0].supply == 19 and s.token[30] == 7
    assert s.airborne == [0] and s.token_supply[7] == 1  # full (3 of 3): launched
    assert s.players[0].acted  # no ability


def test_M_L2_M_O8_soldier_pair_on_a_hand_piloted_ship():
    """M-O8 "place exactly 2, into one ship with at least 2 free seats"; M-L2 (the first
    placer chooses the zone)."""
    s = position(3, phase="place", role="Soldier", pad={1: 31})  # ship 31: capacity 4
    s = both(s, act("place", 1), act("destination", 4))
    assert s.crew[31] == [2, 0, 0] and s.token[31] == 4 and s.airborne == []
    assert s.players[0].acted  # nobody on an outer zone: the kill has no target


def test_M_L4_a_ship_the_pilot_redirects_in_the_air_lands_in_the_new_zone():
    """M-O9 "change the destination of one ship on the pad or in the air"; M-L4 "each ship
    lands in its destination (a token overrides a printed zone) ... its token returns"."""
    s = position(3, round=2, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, crew={2: {0: 2}}, airborne=[0])
    top = s.mineral_pool[-1]
    s = both(s, act("pilot", 0, 9))
    assert s.mars[9] == [2, 0, 0] and s.mars[0] == [0, 0, 0]  # printed zone 0 overridden
    assert s.mineral[9] == top and s.mineral[0] == NONE
    assert s.token_supply == [2] * 10 and 2 in s.used_ships and s.token[2] == NONE


def test_M_O5_M_L4_the_femme_fatales_astronaut_flies_with_the_airborne_ship():
    """M-O5 "on a ship on the pad or in the air (launched this round) replace one astronaut
    of another colour with one from her supply"; the ship lands with her astronaut (M-L4)."""
    s = position(3, phase="ability", role="Femme Fatale", crew={2: {1: 2}}, airborne=[0])
    s = both(s, act("seduce", 0, 1), act("stop"), act("pass"), act("stop"), act("pass"))
    assert s.round == 2
    assert s.mars[0] == [1, 1, 0] and s.players[1].supply == 21 and s.players[0].supply == 21


def test_M_L5_entering_a_zone_that_has_its_token_draws_nothing():
    """M-L5 "when astronauts enter a zone without a mineral token, one is drawn"; only
    then."""
    s = position(3, phase="ability", role="Explorer", steps_left=3, mars={3: {0: 1}, 4: {1: 1}},
                 minerals={3: "ice", 4: "celerium"})
    pool = list(s.mineral_pool)
    s = both(s, act("move", 3, 4))
    assert s.mineral_pool == pool and s.mineral[4] == CEL
    s = both(s, act("move", 4, 5))
    assert s.mineral_pool == pool[:-1] and s.mineral[5] == pool[-1]


def test_M_L1_a_scientist_places_into_two_different_ships_too():
    """M-O3 "place 2, into one or two ships"; M-L1 one astronaut at a time."""
    s = position(3, phase="place", role="Scientist")
    s = both(s, act("place", 0), act("place", 2))
    assert s.crew[2][0] == 1 and s.crew[8][0] == 1 and s.players[0].supply == 20


# --- roles --------------------------------------------------------------------------------------
def test_M_O1_recruiter_with_nothing_to_place_still_takes_every_card_back():
    """M-O1 "Ability (always): after the turn all used role cards, this one included,
    return to the hand"; M-L1 "with an empty supply nothing is placed"."""
    spent = ["Explorer", "Scientist", "Secret Agent", "Femme Fatale", "Saboteur", "Travel Agent", "Soldier",
             "Pilot"]
    s = position(3, start=0, supply={0: 0}, discard={0: spent})
    assert legal_actions(s) == [act("commit", "Recruiter")]
    s = both(s, act("commit", "Recruiter"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.players[0].acted and s.players[0].hand == list(range(9)) and s.players[0].discard == []
    assert s.current_player == 1  # no decision for seat 0: the Pilot of seat 1 follows


def test_M_O4_secret_agent_launches_only_a_ship_still_on_the_pad():
    """M-O4 "launch one pad ship that is not full"."""
    s = position(3, phase="ability", role="Secret Agent", crew={5: {1: 2}}, airborne=[1])
    assert {a for a in legal_actions(s) if kind_of(a) == "launch"} == {act("launch", 0), act("launch", 2)}
    s = both(s, act("launch", 2))
    assert s.airborne == [1, 2]  # launch order (M-L4)


def test_M_O5_femme_fatale_has_no_victim_among_her_own_colour():
    """M-O5 "replace one astronaut of another colour"."""
    s = position(3, phase="place", role="Femme Fatale", crew={2: {0: 2}})
    s = both(s, act("place", 0))
    assert s.crew[2] == [3, 0, 0] and s.players[0].acted  # no other colour aboard: no ability decision


def test_M_O6_saboteur_destroys_an_empty_ship_and_its_slot_is_refilled_next_round():
    """M-O6 "destroy one ship on the pad, empty or not"; M-R2 "destroyed ships (M-O6) count
    as having left"."""
    s = position(3, round=4, phase="ability", role="Saboteur", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, pad={1: 30})
    top = s.ship_deck[-1]
    s = both(s, act("sabotage", 1))
    assert 30 in s.used_ships and s.round == 5 and s.slots == [2, top, 8]
    assert [pl.lism for pl in s.players] == [0, 0, 0]


def test_M_O8_soldier_without_a_ship_for_his_pair_still_kills():
    """M-O8 "place exactly 2, into one ship with at least 2 free seats; if impossible ...
    none ... he may kill without having placed"."""
    s = position(3, start=0, crew={2: {1: 4}, 5: {1: 4}, 8: {2: 4}}, mars={6: {1: 2}})  # one free seat each
    s = both(s, act("commit", "Soldier"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.current_player == 0 and s.phase == "ability" and s.players[0].supply == 22
    assert legal_actions(s) == [act("kill", 6, 1), act("pass")]
    s = both(s, act("kill", 6, 1))
    assert s.mars[6] == [0, 1, 0] and s.players[1].lism == 1


def test_M_O8_soldier_never_kills_on_a_ship_or_in_a_central_zone():
    """M-O8 "kill one astronaut in an outer zone (LiSM), never in a central zone or on a
    ship"."""
    s = position(3, start=0, crew={2: {1: 4}}, mars={0: {1: 2}, 1: {2: 1}, 2: {1: 1}})
    s = both(s, act("commit", "Soldier"), act("commit", "Pilot"), act("commit", "Pilot"))
    assert s.phase == "place" and legal_actions(s) == [act("place", 1), act("place", 2)]
    s = both(s, act("place", 1))
    assert s.players[0].acted and s.crew[5][0] == 2  # no kill was offered
    assert [sum(r) for r in s.mars[:3]] == [2, 1, 1]


def test_M_O9_pilot_may_redirect_an_empty_ship_with_a_printed_zone():
    """M-O9 "only a ship that has a destination": a printed zone is one, crew or not."""
    s = position(3, phase="ability", role="Pilot")
    legal = {a for a in legal_actions(s) if kind_of(a) == "pilot"}
    assert legal == {act("pilot", k, z) for k in range(3) for z in range(10) if z != k}
    s = both(s, act("pilot", 1, 6))
    assert s.token[5] == 6 and s.destination(5) == 6 and s.token_supply[6] == 1


# --- event cards ----------------------------------------------------------------------------------
def test_M_E1_M_I2_only_the_drawer_knows_the_discovery_card_he_laid():
    """M-E1 "A drawn discovery card goes at once, face down, onto an outer zone the drawer
    chooses"; M-I1 "which zones hold a discovery card and who laid it" is public; M-I2
    "discovery cards he laid" private; M-I3 "discovery cards one neither laid nor saw"."""
    c = CARD_INDEX["Grubenunglück"]
    i = DISCOVERY_CARDS.index(c)
    s = position(3, phase="ability", role="Scientist", current=1, acted=[0], commits={0: "Recruiter"},
                 event_pile=[label for label in CARD_LABELS if label not in ("Grubenunglück",)
                             and not label.startswith("Kolonisation")] + ["Grubenunglück"],
                 bonus={2: ["Kolonisation"]})
    s = both(s, act("draw"))
    assert s.phase == "discovery" and s.drawn == c
    assert obs(s, 1)["drawn"][i] == 1 and obs(s, 0)["drawn"].sum() == 0 and obs(s, 2)["drawn"].sum() == 0
    s = both(s, act("discovery", 5))
    for q in range(3):
        v = obs(s, q, "recall")
        assert v["discovery_present"][5] == 1 and v["discovery_owner"][5, (1 - q) % 3] == 1
        assert v["known_discovery"][5].sum() == int(q == 1)
        assert v["seen_cards"][c] == int(q == 1)
    assert obs(s, 1)["known_discovery"][5, i] == 1


def test_M_E1_M_I5_a_removed_discovery_card_is_remembered_by_its_drawer_alone():
    """M-E1 "If all 7 outer zones hold one, the card is removed from the game face down
    (seen by its drawer)"; M-I5 "all a player has seen so far"."""
    full = {z: (label, 2) for z, label in zip(SPEC_OUTER, ["Hübscher Felsen 1", "Hübscher Felsen 2",
            "Hübscher Felsen 3", "Mine erschöpft", "Grubenunglück", "Riesiges Vorkommen", "Meteoritenfeld"])}
    c = CARD_INDEX["Sylvanit-Ader"]
    s = position(3, phase="ability", role="Scientist", discoveries=full, event_pile=["Sylvanit-Ader"])
    s = both(s, act("draw"))  # both engines: the fast one records the drawer too
    assert s.removed_cards[-1] == c and s.event_pile == [] and s.removed_by[-1] == 0
    for q in range(3):
        assert obs(s, q, "recall")["seen_cards"][c] == int(q == 0)
        assert obs(s, q, "info")["seen_cards"].sum() == 0  # recall only
        assert obs(s, q)["removed_cards_count"][0] == len(s.removed_cards)


def test_M_E8_M_E11_M_E17_radiation_victims_are_absent_for_the_bonus_cards():
    """M-P3 "1. Reveal discovery cards; apply M-E8 ... 6. Bonus cards M-E11, M-E12, M-E14 to
    M-E19 on this final state"; M-E8 "the player(s) with the most astronauts here remove
    all of theirs"."""
    s = position(3, round=10, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, mars={0: {0: 1}, 6: {0: 2, 1: 1}, 8: {0: 1}},
                 discoveries={6: ("Radioaktive Strahlen", 1)},
                 bonus={0: ["Geheime Mission GM1", "Gute Planung", "Supergeheime Mission"]})
    s = both(s, act("pass"))
    assert s.mars[6] == [0, 1, 0] and s.players[0].removed == 2
    # GM1 (0, 6, 8): absent from zone 6 now -> 0; Gute Planung: zones 0, 8 -> 2; alone in 0 and 8 -> 10
    assert scores(s)[0]["bonus_cards"] == 0 + 2 + 10


def test_M_E2_M_P3_fehlanalyse_in_an_empty_zone_retypes_nothing_that_scores():
    """M-E2 "the zone's mineral token is replaced by one drawn at random from the pool;
    counters lying in the zone take the new type"; M-P3 step 2 hands a pot only to a leader,
    so the leftover of a zone nobody occupies never scores, whatever its type."""
    s = position(3, round=10, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, minerals={4: "ice"}, leftover={4: 2},
                 discoveries={4: ("Fehlanalyse", 1)},
                 mineral_pool=["ice"] * 4 + ["sylvanite"] * 5 + ["celerium"] * 4)
    s = both(s, act("pass"))
    assert s.mineral[4] == CEL and [row["total"] for row in scores(s)] == [0, 0, 0]


# --- scoring ----------------------------------------------------------------------------------------
def test_M_P1_M_P2_M_P3_a_tied_zone_from_round_5_to_the_end():
    """M-P1 "a tie for most lays it in the zone as leftover"; M-P2 "pot = 2 + leftover ...
    k tied leaders take ⌊pot/k⌋ each and the remainder stays"; M-P3 "pot = base + leftover
    ... tied leaders ⌊pot/k⌋ each, remainder lost"; step 5 ice bonus shared."""
    s = position(3, round=5, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Explorer", 1: "Explorer"}, mars={3: {0: 2, 1: 2, 2: 1}}, minerals={3: "ice"})
    s = both(s, act("pass"))
    assert s.round == 6 and s.leftover[3] == 1 and [pl.counters for pl in s.players] == [[0, 0, 0]] * 3
    while s.round < 9:
        s = both(s, *[act("commit", "Recruiter")] * 3, *[act("stop")] * 3)
    # round 8: pot 2 + 1 = 3, two leaders 1 each, 1 stays
    assert s.round == 9 and s.leftover[3] == 1 and [pl.counters[ICE] for pl in s.players] == [1, 1, 0]
    s = drive(s)
    # final: pot 3 + 1 = 4, 2 each, nothing left; ice 3 : 3 : 0 -> ice bonus 9 // 2 = 4 each
    assert [pl.counters[ICE] for pl in s.players] == [3, 3, 0] and s.leftover[3] == 0
    assert [row["total"] for row in scores(s)] == [3 + 4, 3 + 4, 0]
    assert G.winners(s) == [0, 1]


def test_M_P3_an_empty_zone_hands_out_nothing_even_with_a_huge_deposit():
    """M-P3 "Per zone: pot = base + leftover, base 3 (... M-E6: 5) ... A single leader takes
    it": without a leader nobody does; Scoring: "Only astronauts on Mars count, never those
    on ships"."""
    s = position(3, round=10, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, minerals={5: "celerium"}, leftover={5: 3},
                 discoveries={5: ("Riesiges Vorkommen", 0)}, crew={2: {0: 4}, 5: {1: 4}, 8: {2: 4}})
    s = both(s, act("pass"))
    assert [pl.counters for pl in s.players] == [[0, 0, 0]] * 3  # astronauts on ships never count


# --- information ----------------------------------------------------------------------------------
def test_M_I1_M_I2_public_and_own_information_in_the_observation():
    """M-I1 "per player: supply, LiSM count, counters by type, number of bonus cards ...
    each player's remaining role cards are public"; M-I2 "Private: own bonus cards; own
    commits"."""
    s = position(3, start=0, discard={1: ["Soldier", "Pilot", "Explorer"]}, lism={1: 2}, supply={1: 7},
                 counters={1: {"ice": 1, "celerium": 4}}, bonus={0: ["Celerium"], 1: ["Kolonisation", "Eisblöcke 1"]},
                 mars={3: {1: 3}})
    s = both(s, act("commit", "Scientist"))
    v = obs(s, 1)  # seat 1 commits now; seat 0 is relative seat 2
    assert v["supply"][0] == 7 and v["lism"][0] == 2 and v["counters"][0].tolist() == [1, 0, 4]
    assert v["bonus_count"].tolist()[:3] == [2, 0, 1]
    assert v["roles_left"][0].tolist() == [int(r not in (ROLE["Soldier"], ROLE["Pilot"], ROLE["Explorer"]))
                                           for r in range(9)]
    assert v["roles_left"][2].sum() == 9  # seat 0's commit is hidden among his remaining cards
    assert np.flatnonzero(v["own_bonus"]).tolist() == sorted([card("Kolonisation"), card("Eisblöcke 1")])
    assert v["mars"][3].tolist()[:3] == [3, 0, 0]
    w = obs(s, 0)
    assert np.flatnonzero(w["own_bonus"]).tolist() == [card("Celerium")]
    assert w["own_commit"][ROLE["Scientist"]] == 1


def permuted_position(seat1_commit, seat1_bonus, reverse):
    """Seat 0 executes his Recruiter; seat 1 committed ``seat1_commit`` (hidden) and holds
    ``seat1_bonus``; the piles in some order."""
    held = {"Celerium", "Kolonisation"} - {seat1_bonus}
    pile = [label for label in CARD_LABELS if IS_BONUS[CARD_INDEX[label]] or label.startswith("Hübscher")]
    pile = [label for label in pile if label not in ("Celerium", "Kolonisation", "Gute Planung")] + sorted(held)
    pool = ["ice"] * 4 + ["sylvanite"] * 5 + ["celerium"] * 4
    deck = [x for x in range(34) if x not in (2, 5, 8, 30)]
    if reverse:
        pile, pool, deck = pile[::-1], pool[::-1], deck[::-1]
    return position(3, phase="place", role="Recruiter", commits={1: seat1_commit, 2: "Pilot"},
                    bonus={0: ["Gute Planung"], 1: [seat1_bonus]}, event_pile=pile, mineral_pool=pool,
                    ship_deck=deck, mars={3: {1: 1}}, minerals={3: "ice"})


def test_M_I3_hidden_orders_others_bonus_cards_and_unrevealed_commits_leave_the_view_unchanged():
    """M-I3 "Never visible ...: order of ship deck, event pile and mineral pool; others'
    bonus cards and unrevealed commits"."""
    base = permuted_position("Pilot", "Celerium", False)
    views = [E.observe(base, 0, t) for t in ("info", "recall")]
    for args in (("Soldier", "Celerium", False), ("Pilot", "Kolonisation", False), ("Pilot", "Celerium", True),
                 ("Saboteur", "Kolonisation", True)):
        other = permuted_position(*args)
        assert other != base
        for t, view in zip(("info", "recall"), views):
            assert np.array_equal(E.observe(other, 0, t), view), (args, t)
            assert np.array_equal(engine.observe(engine.from_reference([other]), 0, t)[0], view)
    assert not np.array_equal(E.observe(permuted_position("Soldier", "Celerium", False), 1), E.observe(base, 1))


# --- limits in both engines ---------------------------------------------------------------------
def test_M_C6_a_zone_without_a_token_in_supply_cannot_be_chosen_by_a_placer_or_the_pilot():
    """M-C6 "a zone can be chosen only while one of its tokens is in supply" (M-L2, M-O9)."""
    s = position(3, phase="place", role="Pilot", pad={0: 30, 1: 4, 2: 13}, crew={4: {1: 1}, 13: {2: 1}},
                 tokens={4: 3, 13: 3})
    s = both(s, act("place", 0))
    assert s.phase == "destination"
    assert legal_actions(s) == [act("destination", z) for z in range(10) if z != 3]
    s = both(s, act("destination", 8), act("stop"))
    pilots = {a for a in legal_actions(s) if kind_of(a) == "pilot"}
    assert not any(act("pilot", k, 3) in pilots for k in range(3))
    assert act("pilot", 0, 8) not in pilots and act("pilot", 0, 9) in pilots  # 8: its own destination
    s = both(s, act("pilot", 1, 8))  # the last zone-8 token; the zone-3 token on ship 4 returns
    assert s.token_supply[3] == 1 and s.token_supply[8] == 0 and s.destination(4) == 8


def test_M_L2_M_O4_secret_agent_first_astronaut_on_a_hand_piloted_ship_then_another_ship():
    """M-O4 "place 2, into two different ships"; M-L2 the first placer chooses the zone."""
    s = position(3, phase="place", role="Secret Agent", pad={2: 33})
    s = both(s, act("place", 2), act("destination", 2))
    assert s.phase == "place" and act("place", 2) not in legal_actions(s)
    s = both(s, act("place", 0))
    assert s.crew[33][0] == 1 and s.crew[2][0] == 1 and s.phase == "ability"
    s = both(s, act("launch", 2))
    assert s.airborne == [2] and s.destination(33) == 2


def test_M_O3_M_E1_with_the_pile_empty_the_scientist_may_only_look():
    """M-E1 "the pile has no discards and is never reshuffled; when empty, M-O3(a) is
    unavailable"; M-O3 "(b) a card on Mars"."""
    s = position(3, phase="ability", role="Scientist", event_pile=[], discoveries={8: ("Moose und Flechten", 1)})
    assert legal_actions(s) == [act("look", 8), act("pass")]
    s = both(s, act("look", 8))
    assert s.looked[8] == [0] and card("Moose und Flechten") in s.players[0].seen


def test_M_O5_M_O8_colours_are_seats_with_five_players():
    """M-O5 "replace one astronaut of another colour"; M-O8 "any colour, his own too";
    decisions 5: "Femme Fatale ship + colour ... Soldier outer zone + colour"."""
    s = position(5, phase="ability", role="Femme Fatale", current=3, acted=[0, 1, 2],
                 commits={0: "Recruiter", 1: "Recruiter", 2: "Recruiter", 4: "Soldier"}, crew={14: {4: 2, 3: 1}})
    assert {a for a in legal_actions(s) if kind_of(a) == "seduce"} == {act("seduce", 4, 4)}
    s = both(s, act("seduce", 4, 4))
    assert s.crew[14] == [0, 0, 0, 2, 1] and s.players[4].supply == 22 - 1
    s = position(5, phase="ability", role="Soldier", current=4, acted=[0, 1, 2, 3],
                 commits={q: "Recruiter" for q in range(4)}, mars={9: {4: 1, 0: 1}, 2: {3: 4}})
    assert {a for a in legal_actions(s) if kind_of(a) == "kill"} == {act("kill", 9, 4), act("kill", 9, 0)}
    s = both(s, act("kill", 9, 4))
    assert s.players[4].lism == 1 and s.mars[9] == [1, 0, 0, 0, 0]


# --- random games against the spec's own arithmetic --------------------------------------------
def leaders_of(counts):
    top = max(counts)
    return [q for q, c in enumerate(counts) if c == top] if top > 0 else []


@pytest.mark.parametrize("n", [3, 4, 5])
def test_M_R4_M_R8_M_P1_M_P2_random_games_follow_the_turn_order_and_distributions(n):
    """M-R4 "roles are called 1 to 9 ... several act in seat order from the start player";
    M-R8 "the player who took the last turn of step 3 ... takes the start-player token";
    M-P1 and M-P2 recomputed from Mars after rounds 5 and 8."""
    import random
    for seed in range(4):
        s = new_game(n, seed=seed)
        pick = random.Random(seed)
        expected, turns = [], []
        while not G.is_over(s):
            prev_round = s.round
            last_commit = s.phase == "commit" and s.current_player == s.seat_order()[-1]
            order, commits = s.seat_order(), [pl.commit for pl in s.players]
            a = pick.choice(legal_actions(s))
            if last_commit:  # every role of the round is known: the calling order follows
                commits[s.current_player] = decode_action(a)[1][0]
                expected, turns = sorted(range(n), key=lambda q: (commits[q], order.index(q))), []
            apply(s, a)
            if s.phase in ("place", "destination", "ability", "discovery") and (not turns or turns[-1] != s.current_player):
                turns.append(s.current_player)
            if s.round != prev_round or G.is_over(s):
                # the decision turns came in the called order; the last turn's player starts next
                it = iter(expected)
                assert all(q in it for q in turns), (turns, expected)
                assert s.start_player == expected[-1]
            if s.round == 6 and prev_round == 5:
                for z in range(10):
                    top = leaders_of(s.mars[z])
                    assert s.leftover[z] == int(len(top) > 1)
                assert sum(sum(pl.counters) for pl in s.players) == sum(
                    1 for z in range(10) if len(leaders_of(s.mars[z])) == 1)
                for q, pl in enumerate(s.players):
                    assert pl.counters == [sum(1 for z in range(10) if leaders_of(s.mars[z]) == [q]
                                               and s.mineral[z] == t) for t in range(3)]
                after5 = s.copy()
            if s.round == 9 and prev_round == 8:
                for z in range(10):
                    top = leaders_of(s.mars[z])
                    pot = 2 + after5.leftover[z] if top else 0
                    assert s.leftover[z] == (pot % len(top) if top else after5.leftover[z])
                for q, pl in enumerate(s.players):
                    gain = [0, 0, 0]
                    for z in range(10):
                        top = leaders_of(s.mars[z])
                        if q in top:
                            gain[s.mineral[z]] += (2 + after5.leftover[z]) // len(top)
                    assert [c - c0 for c, c0 in zip(pl.counters, after5.players[q].counters)] == gain


SPEC_MISSIONS = {"Geheime Mission GM1": (0, 6, 8), "Geheime Mission GM2": (1, 4, 9),
                 "Geheime Mission GM3": (2, 3, 5), "Geheime Mission GM4": (0, 7, 9)}  # M-C8, from the spec


def spec_final_scores(after8, final):
    """M-P3 steps 2-6 written from the spec's text: the counters after round 8, the final
    Mars (after M-E8) and the final mineral types (after M-E2) give every seat's score."""
    n = final.num_players
    label = {z: CARD_LABELS[final.discovery[z]] for z in range(10) if final.discovery[z] != NONE}
    counters = [list(pl.counters) for pl in after8.players]
    for z in range(10):  # step 2
        top = leaders_of(final.mars[z])
        if not top:
            continue
        name = label.get(z, "")
        base = 2 if name == "Mine erschöpft" else 5 if name == "Riesiges Vorkommen" else 3
        pot = 0 if name == "Grubenunglück" else base + after8.leftover[z]
        for q in top:
            counters[q][final.mineral[z]] += pot // len(top)
    points = [0] * n
    for z, name in label.items():  # step 3
        for q in range(n):
            here = final.mars[z][q]
            if name == "Moose und Flechten" and here:
                points[q] += 6
            if name == "Meteoritenfeld":
                points[q] += here
            if name == "Sylvanit-Ader" and here:
                counters[q][SYL] += 1
    for q, pl in enumerate(final.players):
        counters[q][ICE] += 2 * sum(1 for c in pl.bonus if CARD_LABELS[c].startswith("Eisblöcke"))
    ice_top = leaders_of([c[ICE] for c in counters])  # step 5
    on_mars = [sum(final.mars[z][q] for z in range(10)) for q in range(n)]
    central = [sum(final.mars[z][q] for z in (0, 1, 2)) for q in range(n)]
    totals = []
    for q, pl in enumerate(final.players):
        total = counters[q][ICE] + 2 * counters[q][SYL] + 3 * counters[q][CEL] + points[q]  # step 4
        total += 9 // len(ice_top) if q in ice_top else 0
        present = [z for z in range(10) if final.mars[z][q] > 0]
        for c in pl.bonus:  # step 6
            name = CARD_LABELS[c]
            if name in SPEC_MISSIONS:
                total += 8 if all(z in present for z in SPEC_MISSIONS[name]) else 0
            elif name == "Supergeheime Mission":
                total += 5 * sum(1 for z in present if all(final.mars[z][o] == 0 for o in range(n) if o != q))
            elif name == "Celerium":
                total += 8 if leaders_of([c[CEL] for c in counters]) == [q] else 0
            elif name == "Sylvanit":
                total += 8 if leaders_of([c[SYL] for c in counters]) == [q] else 0
            elif name == "Lost-in-Space-Memorial":
                total += pl.lism
            elif name == "Gute Planung":
                total += len(present)
            elif name == "Kolonisation":
                total += 8 if q in leaders_of(on_mars) else 0
            elif name == "Strategische Zonen":
                total += 6 if q in leaders_of(central) else 0
        totals.append(total)
    return counters, totals


@pytest.mark.parametrize("n", [3, 4, 5])
def test_M_P3_M_P4_random_games_final_scores_recomputed_from_the_spec(n):
    """M-P3 "After round 10, in this order: ..." (steps 2-6) and M-P4 "Highest total wins ...
    tied players share the win", recomputed from the final board."""
    import random
    for seed in range(6):
        s = new_game(n, seed=seed)
        pick = random.Random(100 + seed)
        after8 = None
        while not G.is_over(s):
            apply(s, pick.choice(legal_actions(s)))
            if s.round == 9 and after8 is None:
                after8 = s.copy()
        counters, totals = spec_final_scores(after8, s)
        assert [pl.counters for pl in s.players] == counters
        assert [row["total"] for row in scores(s)] == totals
        assert G.winners(s) == [q for q in range(n) if totals[q] == max(totals)]
