"""A second, adversarial audit of the Red Planet rules against RED_PLANET.md: explicit
positions for combinations of rules the other tests check one at a time (interactions
in the final scoring, abilities on hand-piloted and airborne ships, turns where nothing
is possible, the landing order). Each runs in the reference engine and, action by
action, in the fast engine (``both``: the same state, mask, scores and observations).
Expected values are worked out from the spec's text, not read from the code."""
import numpy as np
import pytest

from spacemission_env.red_planet import engine
from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.actions import decode as decode_action
from spacemission_env.red_planet.rules import legal_actions, scores
from spacemission_env.red_planet.components import IS_BONUS, SHIP_DEST
from tests.env.red_planet.test_spec_audit import both, same_in_fast_engine
from tests.helpers.red_planet_positions import ROLE, act, card, position

ICE, SYL, CEL = 0, 1, 2
NONE = -1
OUTER = (3, 4, 5, 6, 7, 8, 9)  # M-C2


def final(n=3, **kw):
    """Round 10, the last turn of step 3 (seat n-1's Pilot, the others have acted): passing
    ends the game, so the final scoring (M-P3) runs on the position's Mars and cards."""
    s = position(n, round=10, phase="ability", role="Pilot", current=n - 1, acted=list(range(n - 1)),
                 commits={q: "Recruiter" for q in range(n - 1)}, **kw)
    s = both(s, act("pass"))
    assert G.is_over(s)
    return s


def totals(s):
    return [row["total"] for row in scores(s)]


def column(s, name):
    return [row[name] for row in scores(s)]


# --- final scoring: discovery and bonus cards together (M-P3) ------------------------------------
def test_M_E8_M_P3_tied_radiation_leaders_both_leave_and_the_third_takes_pot_and_leftover():
    """M-E8 "the player(s) with the most astronauts here remove all of theirs"; M-P3 step 1
    applies it before step 2 "pot = base + leftover ... A single leader takes it"; step 5
    the ice bonus; M-E8 ruling "removed, not killed: not to the LiSM"."""
    s = final(mars={7: {0: 2, 1: 2, 2: 1}}, minerals={7: "ice"}, leftover={7: 1},
              discoveries={7: ("Radioaktive Strahlen", 0)})
    assert s.mars[7] == [0, 0, 1]
    assert [pl.removed for pl in s.players] == [2, 2, 0] and [pl.lism for pl in s.players] == [0, 0, 0]
    assert [pl.counters for pl in s.players] == [[0, 0, 0], [0, 0, 0], [4, 0, 0]]  # 3 + leftover 1
    assert s.leftover[7] == 0
    assert totals(s) == [0, 0, 4 + 9]


def test_M_E2_M_P3_fehlanalyse_retypes_the_leftover_before_a_tied_pot_is_shared():
    """M-E2 "the zone's mineral token is replaced by one drawn at random from the pool ...
    counters lying in the zone take the new type, same number"; M-P3 step 1 before step 2
    "tied leaders ⌊pot/k⌋ each, remainder lost". Ice token, leftover 1, pool top celerium:
    pot 3 + 1 = 4 celerium, 2 each."""
    s = final(mars={4: {0: 2, 1: 2}}, minerals={4: "ice"}, leftover={4: 1},
              discoveries={4: ("Fehlanalyse", 2)},
              mineral_pool=["ice"] * 4 + ["sylvanite"] * 5 + ["celerium"] * 4)
    assert s.mineral[4] == CEL and s.leftover[4] == 0
    assert [pl.counters for pl in s.players] == [[0, 0, 2], [0, 0, 2], [0, 0, 0]]
    assert totals(s) == [6, 6, 0] and G.winners(s) == [0, 1]


def test_M_E4_three_tied_leaders_share_base_two_plus_leftover_remainder_lost():
    """M-E4 "final base 2 instead of 3"; M-P3 step 2 "pot = base + leftover ... tied leaders
    ⌊pot/k⌋ each, remainder lost": 2 + 2 = 4 over three leaders, 1 each, 1 lost."""
    s = final(mars={3: {0: 1, 1: 1, 2: 1}}, minerals={3: "sylvanite"}, leftover={3: 2},
              discoveries={3: ("Mine erschöpft", 1)})
    assert [pl.counters for pl in s.players] == [[0, 1, 0]] * 3 and s.leftover[3] == 0
    assert totals(s) == [2, 2, 2]


def test_M_E5_M_E10_M_E15_disaster_loses_pot_and_leftover_and_the_vein_can_tie_the_sylvanite_card():
    """M-E5 "no counters from this zone in the final scoring. Ruling: leftovers are lost
    too"; M-E10 "each player present gets one extra sylvanite counter"; M-E15 "8 if he
    alone has the most sylvanite counters (M-E10's count)". Seat 1 (Sylvanit card) has 2
    sylvanite, seat 0 has 1 and gets one from the vein: a tie, nobody scores the card."""
    s = final(mars={5: {0: 3}, 6: {0: 1}}, minerals={5: "celerium", 6: "ice"}, leftover={5: 3},
              discoveries={5: ("Grubenunglück", 1), 6: ("Sylvanit-Ader", 2)},
              counters={0: {"sylvanite": 1}, 1: {"sylvanite": 2}}, bonus={1: ["Sylvanit"]})
    assert s.leftover[5] == 0 and s.players[0].counters == [3, 2, 0]  # zone 6's pot + the vein's counter
    assert s.players[1].counters == [0, 2, 0]
    assert column(s, "bonus_cards") == [0, 0, 0]  # 2 : 2, "alone" fails
    assert totals(s) == [3 + 4 + 9, 4, 0]


def test_M_E13_M_P3_eisbloecke_make_a_five_way_ice_tie_worth_one_each():
    """M-E13 "2 ice counters at the end" (step 3, before step 5); M-P3 step 5 "tied leaders
    share it rounded down (... 5: 1)". Five players: three hold 2 ice, two reach 2 with
    their Eisblöcke."""
    s = final(5, counters={0: {"ice": 2}, 1: {"ice": 2}, 2: {"ice": 2}},
              bonus={3: ["Eisblöcke 1"], 4: ["Eisblöcke 2"]})
    assert [pl.counters[ICE] for pl in s.players] == [2] * 5
    assert column(s, "ice_bonus") == [1] * 5 and totals(s) == [3] * 5
    assert G.winners(s) == [0, 1, 2, 3, 4]


def test_M_E18_M_E19_a_tie_scores_but_nobody_scores_with_zero():
    """M-E18 "8 if nobody has more astronauts on Mars (ties score)"; M-E19 "6 if nobody has
    more astronauts in the three central zones together (ties score)"; bonus cards: "the
    most" needs at least one of the thing counted. Seats 0 and 1 tie on Mars; nobody is in
    a central zone."""
    s = final(mars={3: {0: 2}, 4: {1: 1}, 5: {1: 1}},
              bonus={0: ["Kolonisation"], 1: ["Strategische Zonen"]})
    assert column(s, "bonus_cards") == [8, 0, 0]


def test_M_E12_M_E17_M_E8_top_secret_counts_zones_held_alone_after_the_radiation():
    """M-E12 "5 per zone where he is the only player present"; M-E17 "1 per zone where he is
    present"; M-P3 "6. Bonus cards ... on this final state", after M-E8 removed the leader
    of zone 5. Seat 0: alone in 3, shares 4, removed from 5 -> 5 and 2."""
    s = final(mars={3: {0: 1}, 4: {0: 1, 1: 1}, 5: {0: 2}},
              discoveries={5: ("Radioaktive Strahlen", 1)},
              bonus={0: ["Supergeheime Mission", "Gute Planung"]})
    assert s.mars[5] == [0, 0, 0] and s.players[0].removed == 2
    assert column(s, "bonus_cards")[0] == 5 + 2


# --- abilities on hand-piloted and airborne ships ----------------------------------------------------
def test_M_O6_M_C6_M_E16_saboteur_destroys_a_hand_piloted_ship_its_token_returns_his_own_die_too():
    """M-O6 "destroy one ship on the pad, empty or not, any colours aboard (Ruling: his own
    too) ... Its astronauts are killed (LiSM), its token returns, the ship goes to the used
    pile"; M-E16 "1 per own astronaut in the LiSM"."""
    s = position(3, round=10, phase="ability", role="Saboteur", current=0, acted=[1, 2],
                 commits={1: "Recruiter", 2: "Explorer"}, pad={1: 30}, crew={30: {0: 1, 1: 1}},
                 tokens={30: 7}, bonus={0: ["Lost-in-Space-Memorial"]})
    assert s.token_supply[7] == 1
    assert {a for a in legal_actions(s) if decode_action(a)[0] == "sabotage"} == {act("sabotage", k) for k in range(3)}
    s = both(s, act("sabotage", 1))
    assert G.is_over(s)  # the last turn of round 10
    assert [pl.lism for pl in s.players] == [1, 1, 0] and 30 in s.used_ships
    assert s.token_supply[7] == 2 and s.token[30] == NONE
    assert all(sum(row) == 0 for row in s.mars) and s.mineral[7] == NONE  # killed, never landed
    assert column(s, "bonus_cards") == [1, 0, 0]


def test_M_O9_M_C6_M_L4_pilot_redirects_an_airborne_hand_piloted_ship_old_token_returns():
    """M-O9 "change the destination of one ship on the pad or in the air: lay on it a token
    of another zone (a token already there returns)"; M-L4 "each ship lands in its
    destination (a token overrides a printed zone) ... its token returns to supply"."""
    s = position(3, round=2, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, pad={1: 31}, crew={31: {1: 4}}, tokens={31: 3},
                 airborne=[1])
    pilot = {decode_action(a)[1] for a in legal_actions(s) if decode_action(a)[0] == "pilot"}
    assert (1, 3) not in pilot and (1, 9) in pilot  # "another zone"
    s = both(s, act("pilot", 1, 9))
    assert s.round == 3  # the turn ended, ships landed
    assert s.mars[9] == [0, 4, 0] and s.mars[3] == [0, 0, 0] and s.mineral[3] == NONE and s.mineral[9] != NONE
    assert s.token_supply == [2] * 10 and 31 in s.used_ships


def test_M_L4_M_L5_ships_land_in_launch_order_and_draw_their_tokens_in_that_order():
    """M-L4 "in launch order, each ship lands in its destination"; M-L5 "when astronauts
    enter a zone without a mineral token, one is drawn ... from the pool". Slot 2 was
    launched before slot 0: zone 2 draws the pool's top (celerium), zone 0 the next (ice)."""
    s = position(3, round=2, phase="ability", role="Pilot", current=2, acted=[0, 1],
                 commits={0: "Recruiter", 1: "Recruiter"}, crew={8: {0: 1}, 2: {1: 1}}, airborne=[2, 0],
                 mineral_pool=["ice"] * 4 + ["sylvanite"] * 5 + ["celerium"] * 3 + ["ice", "celerium"])
    s = both(s, act("pass"))
    assert s.mineral[2] == CEL and s.mineral[0] == ICE
    assert s.mars[2] == [1, 0, 0] and s.mars[0] == [0, 1, 0]
    assert s.used_ships[-2:] == [8, 2]  # landed in launch order


def test_M_O2_M_L5_explorer_steps_reveal_each_new_zone_in_step_order_and_leave_tokens_behind():
    """M-O2 "up to 3 steps; a step moves one own astronaut on Mars to a neighbouring zone ...
    each is chosen after the previous"; M-L5 ruling "also on Explorer moves"; the token of a
    zone left empty stays ("it fixes the zone's type")."""
    s = position(3, phase="ability", role="Explorer", current=0, steps_left=3, mars={3: {0: 1}},
                 minerals={3: "sylvanite"},
                 mineral_pool=["ice"] * 4 + ["sylvanite"] * 4 + ["celerium"] * 3 + ["ice", "celerium"])
    s = both(s, act("move", 3, 4), act("move", 4, 5))
    assert s.mineral[3] == SYL and s.mineral[4] == CEL and s.mineral[5] == ICE
    assert s.mars[3] == [0, 0, 0] and s.mars[5] == [1, 0, 0] and s.steps_left == 1
    s = both(s, act("move", 5, 4))  # back into a revealed zone: nothing drawn; the third step ends the turn
    assert len(s.mineral_pool) == 11 and s.mars[4] == [1, 0, 0] and s.players[0].acted


# --- placement constraints ------------------------------------------------------------------------------
def test_M_O7_travel_agent_must_take_the_only_ship_with_three_free_seats_and_it_launches():
    """M-O7 "place exactly 3, all into one ship with at least 3 free seats ... compulsory
    when possible"; M-L3 "a full ship launches at once"; "No ability"."""
    s = position(3, phase="place", role="Travel Agent", current=0,
                 crew={2: {1: 3}, 5: {2: 2}, 8: {1: 4}})  # free seats 2, 3, 1
    assert legal_actions(s) == [act("place", 1)]  # no stop, no other ship
    s = both(s, act("place", 1))
    assert s.crew[5] == [3, 0, 2] and s.airborne == [1] and s.players[0].acted and s.current_player == 1


def test_M_O4_secret_agent_second_astronaut_never_into_the_same_ship_then_launches_one():
    """M-O4 "place 2, into two different ships. Ability: launch one pad ship that is not
    full" (a ship he just boarded too)."""
    s = position(3, phase="place", role="Secret Agent", current=0)
    s = both(s, act("place", 0))
    assert act("place", 0) not in legal_actions(s)
    assert set(legal_actions(s)) == {act("place", 1), act("place", 2), act("stop")}
    s = both(s, act("place", 2))
    assert s.phase == "ability"
    assert set(legal_actions(s)) == {act("launch", k) for k in range(3)} | {act("pass")}
    s = both(s, act("launch", 0))
    assert s.airborne == [0] and s.crew[2] == [1, 0, 0] and s.crew[8] == [1, 0, 0]


def test_M_R8_M_L1_M_O5_M_O2_M_O7_a_round_where_no_turn_is_possible_still_passes_the_token():
    """M-L1 "with an empty supply nothing is placed"; M-O5 "she needs one"; M-O2 with nobody
    on Mars nothing to move; M-O7 "or he has fewer than 3 in supply) the whole turn is
    lost"; M-R6 each card still goes to the discard; M-R8 "the player who took the last
    turn ... a Travel Agent whose turn was lost (M-O7) counts". No decision is asked until
    round 4's commits."""
    s = position(3, round=3, phase="commit", start=0, current=2, commits={0: "Femme Fatale", 1: "Explorer"},
                 supply={0: 0, 1: 0, 2: 2}, crew={2: {2: 1}})
    s = both(s, act("commit", "Travel Agent"))
    assert s.round == 4 and s.phase == "commit" and s.start_player == 2 and s.current_player == 2
    assert [pl.discard for pl in s.players] == [[ROLE["Femme Fatale"]], [ROLE["Explorer"]], [ROLE["Travel Agent"]]]
    assert s.crew[2] == [0, 0, 1] and [pl.supply for pl in s.players] == [0, 0, 2]


def test_M_E1_a_drawn_discovery_card_can_go_only_on_the_last_free_outer_zone():
    """M-E1 "onto an outer zone the drawer chooses (the text forbids central zones) ... at
    most one discovery card per zone"."""
    taken = ["Hübscher Felsen 1", "Hübscher Felsen 2", "Hübscher Felsen 3", "Mine erschöpft",
             "Grubenunglück", "Riesiges Vorkommen"]
    s = position(3, phase="ability", role="Scientist", current=0,
                 discoveries={z: (label, 1) for z, label in zip((3, 4, 5, 6, 8, 9), taken)},
                 event_pile=["Meteoritenfeld", "Fehlanalyse"])
    s = both(s, act("draw"))
    assert s.phase == "discovery" and legal_actions(s) == [act("discovery", 7)]
    s = both(s, act("discovery", 7))
    assert s.discovery[7] == card("Fehlanalyse") and s.discovery_owner[7] == 0
    assert card("Fehlanalyse") in s.players[0].seen and card("Fehlanalyse") not in s.players[1].seen


@pytest.mark.parametrize("role, kw, kind", [
    ("Femme Fatale", {"crew": {2: {1: 1, 2: 1}}}, "seduce"),
    ("Soldier", {"mars": {z: {0: 1, 1: 1, 2: 1} for z in OUTER}}, "kill"),
    ("Pilot", {}, "pilot"),
    ("Saboteur", {}, "sabotage"),
    ("Secret Agent", {}, "launch"),
])
def test_M_X2_M_O5_M_O8_with_three_players_no_ability_names_an_absent_colour_or_slot(role, kw, kind):
    """M-X2 "3, 4 or 5 players"; M-S2 "draw N onto pad slots 0..N-1": with three players the
    action ids of colours and slots 3 and 4 (which exist for five) are never legal."""
    s = position(3, phase="ability", role=role, current=0, **kw)
    args = [decode_action(a)[1] for a in legal_actions(s) if decode_action(a)[0] == kind]
    assert args
    for a in args:
        slot_or_zone, *rest = a
        if kind in ("seduce", "pilot", "sabotage", "launch"):
            assert slot_or_zone < 3
        if kind in ("seduce", "kill"):
            assert rest[0] < 3
    both(s)  # the fast engine's mask agrees


# --- seeded setup (M-S2..M-S6), the fast engine started from the same seed -------------------------
def seeded(n, seed):
    """new_game(n, seed) in both engines: the fast engine's game 0 equals the reference."""
    ref = G.new_game(n, seed=seed)
    st = engine.init(1, n, seeds=seed)
    same_in_fast_engine(ref, st)
    return ref, st


def step_both(ref, st, a):
    G.apply(ref, a)
    engine.step(st, np.array([a]))
    G.check_invariants(ref)
    same_in_fast_engine(ref, st)


def test_M_S3_M_S4_two_hand_piloted_setup_ships_get_their_zones_in_slot_order_from_their_owners():
    """M-S3 "an astronaut of seat π[k] goes onto the ship in slot k. The start player is π[0]";
    M-S4 "a hand-piloted ship given a setup astronaut gets its destination now (M-L2), chosen
    by that astronaut's owner, in slot order"; M-C6 the token comes from supply. Seed 34,
    five players: slots 2 and 4 hold hand-piloted ships."""
    ref, st = seeded(5, 34)
    hand_piloted = [k for k, ship in enumerate(ref.slots) if SHIP_DEST[ship] == NONE]
    assert hand_piloted == [2, 4]
    assert all(sum(ref.crew[ship]) == 1 for ship in ref.slots)  # one setup astronaut per ship
    owner = [ref.crew[ship].index(1) for ship in ref.slots]  # π
    assert sorted(owner) == [0, 1, 2, 3, 4] and ref.start_player == owner[0]
    assert ref.phase == "setup_zone" and ref.pending_slot == 2 and ref.current_player == owner[2]
    step_both(ref, st, act("setup_zone", 6))
    assert ref.token[ref.slots[2]] == 6 and ref.token_supply[6] == 1
    assert ref.phase == "setup_zone" and ref.pending_slot == 4 and ref.current_player == owner[4]
    step_both(ref, st, act("setup_zone", 6))  # the zone's second token
    assert ref.token_supply[6] == 0 and ref.phase == "keep" and ref.current_player == ref.start_player
    assert [len(pl.setup_hand) for pl in ref.players] == [3] * 5  # M-S5 follows


def test_M_S5_M_S6_an_all_discovery_hand_is_shown_set_aside_and_not_redealt_before_the_keep():
    """M-S5 "a player without a bonus card shows his cards, sets them aside and gets 3 new
    ones, until he holds one. Ruling: set-aside cards are not redealt before M-S6"; M-S6
    "Returned, set-aside and undealt cards are shuffled into the event draw pile"; M-I2 "the
    cards he saw". Seed 15, five players: two hands are set aside."""
    ref, st = seeded(5, 15)
    assert ref.phase == "keep" and len(ref.set_aside) == 6
    assert not any(IS_BONUS[c] for c in ref.set_aside)  # only all-discovery hands are set aside
    for pl in ref.players:  # shown: every player saw them
        assert set(ref.set_aside) <= set(pl.seen)
        assert any(IS_BONUS[c] for c in pl.setup_hand) and not set(pl.setup_hand) & set(ref.set_aside)
    assert len(ref.event_pile) == 24 - 15 - 6
    while ref.phase == "keep":
        q = ref.current_player
        keep = next(c for c in ref.players[q].setup_hand if IS_BONUS[c])
        step_both(ref, st, act("keep", keep))
        assert ref.players[q].bonus == [keep]
    assert ref.phase == "commit" and ref.round == 1 and len(ref.event_pile) == 24 - 5
