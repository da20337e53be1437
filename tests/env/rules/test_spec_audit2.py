"""A second, adversarial rule-by-rule audit of both engines against the spec (RULES.md).

Every test names the rule it checks; the expected values are worked out from the spec
by hand. Positions are explicit (tests/helpers/positions.py builds them through the JSON
state); actions are played through ``lockstep`` (tests/helpers/lockstep.py), so after each
one the fast engine, loaded from the same position, must hold the same state, legal mask
and observations. Each test targets a corner that a plausible wrong implementation gets
wrong: ties and skipped ranks, player counts 4 and 5, the order of a develop pair's
cards, a chip-less and card-less player, two actions of one kind in a turn, the end
trigger meeting the round limit.

Ring used throughout (position: planet, jump / scan / landing coordinates, R-C1):
0 Freezer 1/2/(1,3), 1 Hazard 1/4/(2,4), 2 Caldera 1/3/(3,4), 3 Green Heggar 2/1/(1,2),
4 Ruby Red 2/3/(1,4), 5 Aurora 2/4/(2,3), 6 Basalt 3/1/(3,4), 7 Cinder 3/2/(1,2).
"""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.rules import legal_actions, scores, winners
from spacemission_env.space_mission.scoring import SCORE_KEYS, rank_rewards
from tests.helpers.lockstep import both_agree, fast_scores, lockstep, of_kind
from tests.helpers.positions import develop, jump, labels, position, scan, take, tiles, top_up
from tests.helpers.rank_patterns import check_rank_rewards, levels, tie_patterns

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]





def both_scores(s) -> list[dict]:
    ref = scores(s)
    assert fast_scores(s) == ref
    return ref


# --- R-T1 seat order, five players -----------------------------------------------------------
def test_R_T1_five_players_start_seat_4_plays_4_0_1_2_3_then_a_new_round():
    """R-T1: "Play goes round in seat order from the start player. A round ends when the
    player before the start player ends a turn." With five seats and start seat 4 the
    round is 4, 0, 1, 2, 3; round 2 begins with seat 4 again."""
    s = position(5, start=4)
    order = []
    ref = s
    for _ in range(5):
        order.append(ref.current_player)
        assert ref.round == 1
        ref, _ = lockstep(ref, [top_up(), top_up()])
    assert order == [4, 0, 1, 2, 3]
    assert ref.round == 2 and ref.current_player == 4 and ref.actions_left == 2 and not ref.is_over


# --- R-A2 jump, R-T2 the same action twice ---------------------------------------------------
def test_R_A2_R_T2_two_jumps_in_one_turn_never_to_the_planet_the_ship_is_on():
    """R-A2: "Play one card whose jump coordinate (or blue `?`) matches a planet other than
    the one your ship is on; ... put a chip on the jump gate". R-T2: "the same action twice
    allowed". From Freezer (0) the blue jokers reach every position but 0; after jumping to
    Aurora (5), position 0 is a target again and 5 is not. Two probes on the gate, two
    chips spent, both cards on the discard pile in play order."""
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J?/S1", "J?/L2"]}, discard_pile=[])
    assert set(of_kind(s, "jump")) == {jump(s, c, p) for c in ("J?/S1", "J?/L2") for p in range(1, 8)}
    ref, _ = lockstep(s, [jump(s, "J?/S1", 5)])
    assert ref.players[0].ship == 5 and ref.actions_left == 1
    assert set(of_kind(ref, "jump")) == {jump(ref, "J?/L2", p) for p in (0, 1, 2, 3, 4, 6, 7)}
    ref, _ = lockstep(ref, [jump(ref, "J?/L2", 0)])
    pl = ref.players[0]
    assert pl.ship == 0 and pl.gate_probes == 2 and pl.supply == 18 and pl.hand == []
    assert labels(ref.discard_pile) == ["J?/S1", "J?/L2"] and ref.current_player == 1


# --- R-A4a, R-V1, R-A5: scan twice, reveal, develop the revealed planet ----------------------
def test_R_A4a_R_V1_R_A5_two_scans_reveal_the_pile_then_a_develop_collects_both():
    """R-A4a: "a player may scan the same planet again, reserving another tile (one more
    chip)". R-V1: the second reservation leaves no point tile, so the two space tiles are
    revealed at once. R-A5: the planet stays developable (no station, scanned); step 2
    brings both reserved tiles into the collection and both probes home; step 3 has no
    point tile to offer, so the develop ends without a tile decision. R-P2, R-P6, R-P7:
    station 3 + one water 2 + one medal 3 = 8."""
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2", "J2/S?", "J1/L1", "J3/L3"]},
                 piles={0: {"water": 1, "medal": 1, "space": 2}}, collections={0: {}})
    ref, _ = lockstep(s, [scan(s, "J1/S2"), take("medal")])
    assert not ref.revealed[0] and ref.players[0].supply == 19
    ref, _ = lockstep(ref, [scan(ref, "J2/S?"), take("water")])
    assert ref.revealed[0] and ref.revealed_count == 2 and not ref.end_triggered
    assert ref.reservations[0][0] == tiles({"water": 1, "medal": 1}, 10) and ref.probes_on(0, 0) == 2
    assert ref.players[0].supply == 18 and ref.current_player == 1
    ref, _ = lockstep(ref, [top_up(), top_up()])  # seat 1's turn
    assert of_kind(ref, "develop") == [develop(ref, "J1/L1", "J3/L3")]
    ref, _ = lockstep(ref, [develop(ref, "J1/L1", "J3/L3")])
    pl = ref.players[0]
    assert ref.phase == "main" and ref.actions_left == 1 and ref.stations[0] == 0
    assert pl.collection == tiles({"water": 1, "medal": 1}, 10) and ref.reservations[0][0] == [0] * 10
    assert pl.supply == 18 - 1 + 2
    assert both_scores(ref)[0]["total"] == 3 + 2 + 3


# --- R-A5 landing coordinates, one each --------------------------------------------------------
@pytest.mark.parametrize("hand, legal", [
    (["J3/L3", "S1/L1"], True),  # slot 0 gives Freezer's second coordinate, slot 1 its first
    (["J1/L1", "S1/L1"], False),  # both give 1: the 3 is missing
    (["J3/L3", "S3/L3"], False),  # both give 3: the 1 is missing
    (["J1/L?", "J3/L?"], True),  # "two jokers are fine"
    (["J1/L?", "S1/L1"], True),  # the joker stands for the 3
    (["J?/S1", "S1/L1"], False),  # J?/S1 has no landing coordinate at all
])
def test_R_A5_the_pair_must_give_both_landing_coordinates_in_either_order(hand, legal):
    """R-A5: "you play two cards that provide its two landing coordinates (one each; orange
    `?` stands for either; two jokers are fine)". Freezer lands on 1 and 3. Hands are
    sorted by card id, so in the first case the lower slot gives the 3 and the higher the
    1: a check of one order only would refuse it. Both engines agree on the mask; a legal
    pair develops in both."""
    s = position(2, ring=RING, ships={0: 0}, scanned={0: [0]}, hands={0: hand}, piles={0: {"water": 1, "space": 1}})
    assert of_kind(s, "develop") == ([develop(s, *hand)] if legal else [])
    both_agree(s)
    if legal:
        ref, _ = lockstep(s, [develop(s, *hand), take("water")])
        assert ref.stations[0] == 0 and ref.revealed[0] and ref.players[0].hand == []


# --- R-A6 discover with nothing in hand and no chip ----------------------------------------------
def test_R_A6_R_T2_no_cards_no_chips_discover_twice_then_the_pile_is_revealed():
    """R-A6: "The planet has a station (anyone's) and its pile holds a point tile. No card,
    no chip." A seat with an empty hand and no chip in supply, at seat 1's station, may
    top up (the empty subset only, R-A1), fly (R-A3) or discover; nothing else. Two
    discovers make its turn (R-T2); the second takes the last point tile and reveals the
    pile's three space tiles (R-V1)."""
    s = position(2, ring=RING, ships={0: 3}, stations={3: 1}, hands={0: []}, supply={0: 0},
                 piles={3: {"water": 1, "alien_blue": 1, "space": 3}}, collections={0: {}})
    assert legal_actions(s) == [top_up(), A.FLY_CW, A.FLY_CCW, A.DISCOVER]
    ref, _ = lockstep(s, [A.DISCOVER])
    assert legal_actions(ref) == [take("alien_blue"), take("water")]
    ref, _ = lockstep(ref, [take("alien_blue"), A.DISCOVER, take("water")])
    pl = ref.players[0]
    assert pl.collection == tiles({"alien_blue": 1, "water": 1}, 10) and pl.supply == 0 and pl.hand == []
    assert ref.revealed[3] and ref.revealed_count == 3 and ref.current_player == 1
    assert ref.stations[3] == 1  # the station stays its owner's


# --- R-E1 with four and five players ------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("reach", [False, True])
def test_R_E1_four_and_five_players_threshold_and_the_rest_of_the_round(n, reach):
    """R-E1: "As soon as the revealed space tiles reach 6 / 8 / 10 / 12 (for 2 / 3 / 4 / 5
    players), the current round is finished ... and the game ends." Start seat 2, seat 3
    discovers the last water of Freezer, revealing one space tile. With the count at
    threshold - 1 before, it reaches the threshold: seat 3 completes its turn, the seats
    after it up to seat 1 (the seat before the start seat) play, and the game is over.
    With the count one lower, it stays one short: nothing ends, round 2 begins."""
    t = {4: 10, 5: 12}[n]  # from the spec, not from the data file
    before = t - 1 if reach else t - 2
    s = position(n, ring=RING, start=2, current=3, ships={3: 0}, stations={0: 0},
                 piles={0: {"water": 1, "space": 1}, 1: {"space": before - before // 2}, 2: {"space": before // 2}},
                 revealed=[1, 2])
    assert s.revealed_count == before and not s.end_triggered
    ref, _ = lockstep(s, [A.DISCOVER, take("water")])
    assert ref.revealed_count == before + 1 and ref.end_triggered is reach
    ref, _ = lockstep(ref, [top_up()])  # seat 3 completes its turn
    later = [4, 0, 1] if n == 5 else [0, 1]
    for q in later:
        assert ref.current_player == q and not ref.is_over
        ref, st = lockstep(ref, [top_up(), top_up()])
    if reach:
        assert ref.is_over and not ref.round_limit and ref.round == 1 and bool(st.terminated[0])
        assert legal_actions(ref) == []
    else:
        assert not ref.is_over and ref.round == 2 and ref.current_player == 2


def test_R_E1_R_E3_the_threshold_reached_in_the_last_allowed_round_is_an_R_E1_end():
    """R-E1 and R-E3 at once: the threshold is reached in round max_rounds. The game ends
    at the end of that round either way; it ended by R-E1 (end_triggered), not by the round
    limit (R-E3 flags only a game "ended by the round limit"), in both engines."""
    s = position(2, ring=RING, start=0, current=1, max_rounds=3, round=3, ships={1: 0}, stations={0: 0},
                 piles={0: {"water": 1, "space": 2}, 1: {"space": 4}}, revealed=[1])
    ref, st = lockstep(s, [A.DISCOVER, take("water"), top_up()])
    assert ref.is_over and ref.end_triggered and not ref.round_limit and ref.round == 3
    assert bool(st.terminated[0]) and not bool(st.round_limit[0])
    v = E.decode(E.observe(ref, 0))
    assert v["game_over"][0] == 1 and v["round_limit"][0] == 0 and v["rounds_left"][0] == 0


# --- R-P1 .. R-P8 scoring corner cases, both engines ------------------------------------------------
@pytest.mark.parametrize("n, probes, points", [
    (2, {0: 3, 1: 1}, [9, 6]),
    (2, {0: 2, 1: 2}, [9, 9]),
    (2, {}, [0, 0]),  # nobody on the gate: nobody scores
    (3, {1: 1}, [0, 9, 0]),  # a single probe is rank 1
    (4, {0: 1, 2: 5, 3: 1}, [6, 0, 9, 6]),  # "1, 2, 2"; no probe, no rank
    (4, {0: 3, 1: 3, 2: 3, 3: 2}, [9, 9, 9, 1]),  # ranks 1, 1, 1, 4: the 4th scores 1, not 6
    (5, {0: 2, 1: 2, 2: 2, 3: 2, 4: 1}, [9, 9, 9, 9, 0]),  # rank 5 scores nothing
    (5, {0: 5, 1: 4, 2: 3, 3: 2, 4: 1}, [9, 6, 3, 1, 0]),
])
def test_R_P1_ranks_with_ties_skips_and_empty_gates_for_every_player_count(n, probes, points):
    """R-P1: "players with at least one probe there are ranked by probe count; ties share a
    rank and the next rank is skipped ("1, 2, 2, 2, 5"); ranks 1-4 score 9, 6, 3, 1.
    Ruling: a player with no probe there scores 0"."""
    s = position(n, gate_probes=probes)
    assert [x["jump_gate"] for x in both_scores(s)] == points


def test_R_P3_to_R_P7_ties_in_the_most_numerous_colour_and_unpaired_matter():
    """R-P3: "(number of mineral tiles) x (count of the most numerous colour)": 2 red,
    2 blue, 1 green -> 5 x 2 = 10 (a tie for the most numerous colour counts once).
    R-P4 "the same rule": 3 brown, 3 blue -> 6 x 3 = 18. R-P5: 3 green + 1 blue matter ->
    one pair 7 + two unpaired 2 x 2 = 11; 2 blue alone -> 4. R-P6: 5 water -> 14 + 2 = 16,
    3 -> 9, 0 -> 0. R-P7: a medal 3. R-P1: both seats 2 probes -> 9 each. R-P2: none."""
    s = position(3, gate_probes={0: 2, 1: 2},
                 collections={0: {"mineral_red": 2, "mineral_blue": 2, "mineral_green": 1, "alien_brown": 3,
                                  "alien_blue": 3, "matter_green": 3, "matter_blue": 1, "water": 5},
                              1: {"mineral_purple": 1, "alien_blue": 1, "matter_blue": 2, "water": 3, "medal": 1},
                              2: {}})
    expect = [
        {"jump_gate": 9, "stations": 0, "minerals": 10, "aliens": 18, "matter": 11, "water": 16, "medals": 0,
         "total": 9 + 10 + 18 + 11 + 16},
        {"jump_gate": 9, "stations": 0, "minerals": 1, "aliens": 1, "matter": 4, "water": 9, "medals": 3,
         "total": 9 + 1 + 1 + 4 + 9 + 3},
        dict.fromkeys(SCORE_KEYS, 0),
    ]
    assert both_scores(s) == expect
    assert winners(s) == [0]


def test_R_P8_four_players_tie_on_points_and_stations_share_the_win_in_both_engines():
    """R-P8: "most points; tie: most stations; still tied: shared win". Four seats at the
    end: seats 0 and 1 score 3 with one station each, seat 2 scores 3 with a medal and no
    station, seat 3 scores 0. Seats 0 and 1 share the win; seat 2 loses the tie on
    stations. The fast engine's rank rewards follow the same order: the two winners share
    ranks 1-2, seat 2 is third, seat 3 last."""
    s = position(4, ring=RING, max_rounds=1, stations={0: 0, 5: 1},
                 collections={0: {}, 1: {}, 2: {"medal": 1}, 3: {}})
    ref, st = lockstep(s, [top_up()] * 8)
    assert ref.is_over and ref.round_limit
    assert [x["total"] for x in both_scores(ref)] == [3, 3, 3, 0]
    assert winners(ref) == [0, 1]
    np.testing.assert_allclose(engine.rewards(st)[0], [2 / 3, 2 / 3, -1 / 3, -1], rtol=1e-6)


# a collection worth 0..4 points, no station: the rank of a seat is its level (R-P1..R-P7)
LEVEL_COLLECTION = [{}, {"mineral_red": 1}, {"matter_green": 1}, {"medal": 1}, {"medal": 1, "mineral_purple": 1}]


@pytest.mark.parametrize("pattern", [p for n in (2, 3, 4, 5) for p in tie_patterns(n)], ids=str)
def test_R_P8_every_tie_pattern_gets_exact_rank_rewards_in_both_engines(pattern):
    """R-P8 and the zero-sum "win" reward, for every way 2-5 seats can finish (pattern: the
    tied groups' sizes from the best place down): seats at level L hold a collection worth
    L points and no station, the game ends at the round limit, and the fast engine's float32
    rewards (and the reference's rank_rewards) are the closed form, tied seats alike, a
    place worth 0 exactly 0.0, summing to exactly 0.0 where floats allow
    (tests/helpers/rank_patterns.py). Before, 4 players' patterns (1, 2, 1) and (4,) gave
    5.551115e-17 instead of 0.0."""
    n = sum(pattern)
    level = levels(pattern)
    s = position(n, ring=RING, max_rounds=1, collections={q: LEVEL_COLLECTION[level[q]] for q in range(n)})
    ref, st = lockstep(s, [top_up()] * (2 * n))
    assert ref.is_over and st.terminated[0]
    sc = both_scores(ref)
    assert [x["total"] for x in sc] == level and all(x["stations"] == 0 for x in sc)
    check_rank_rewards(pattern, engine.rewards(st)[0])
    check_rank_rewards(pattern, np.array(rank_rewards(level, [0] * n)))
    assert engine.rewards(st)[0].tolist() == np.float32(rank_rewards(level, [0] * n)).tolist()


def test_R_P8_two_players_equal_points_more_stations_wins_in_both_engines():
    """R-P8 "tie: most stations": 6 points each, seat 1 from two stations, seat 0 from one
    station and a medal: seat 1 wins alone, +1 / -1."""
    s = position(2, ring=RING, max_rounds=1, stations={0: 0, 3: 1, 6: 1}, collections={0: {"medal": 1}, 1: {}})
    ref, st = lockstep(s, [top_up()] * 4)
    assert [x["total"] for x in both_scores(ref)] == [6, 6]
    assert winners(ref) == [1]
    assert engine.rewards(st)[0].tolist() == [-1.0, 1.0]


# --- R-A4c, R-I3, R-I5: what each rule set shows of one's own reservations ------------------------
def test_R_A4c_R_I3_R_I5_own_reservations_and_last_visits_by_rule_set_in_both_engines():
    """R-A4c: under schmidt "you may not look at your own reservations afterwards (a table
    view shows only how many you have where ...)"; under yucata "you may". R-I3: the yucata
    table view also shows the pile after the player's last visit; schmidt "no such aid".
    R-I5: the perfect-recall view is "the same for both rule sets". The same scan under
    both rule sets, then seat 1 to act (lockstep compares every seat's observations of
    every type with the fast engine's)."""
    views = {}
    for rules in ("schmidt", "yucata"):
        s = position(2, rules=rules, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]},
                     piles={0: {"water": 1, "medal": 1, "space": 2}})
        ref, _ = lockstep(s, [scan(s, "J1/S2"), take("medal"), top_up()])
        assert ref.current_player == 1
        info = E.decode(E.observe(ref, 0, "info"))
        recall = E.decode(E.observe(ref, 0, "recall"))
        assert info["probes"][0, 0] == 1  # how many, where: public (R-I1)
        assert info["visited"][0, 0] == 1  # that seat 0 looked through the pile: public (R-I1)
        assert recall["own_reservations"][0].tolist() == tiles({"medal": 1}, 10)
        assert recall["last_visit_pile"][0].tolist() == tiles({"water": 1, "space": 2})
        if rules == "schmidt":
            assert not info["own_reservations"].any() and not info["last_visit_pile"].any()
        else:
            assert np.array_equal(info["own_reservations"], recall["own_reservations"])
            assert np.array_equal(info["last_visit_pile"], recall["last_visit_pile"])
        other = E.decode(E.observe(ref, 1, "recall"))  # R-I4: never another seat's reservation types
        assert not other["own_reservations"].any() and other["probes"][0, 1] == 1
        views[rules] = E.observe(ref, 0, "recall")
    assert np.array_equal(views["schmidt"], views["yucata"])
