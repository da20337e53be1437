"""Scoring (M-P1..M-P4) with worked examples."""
import numpy as np
import pytest

from spacemission_env.engine_common import rank_rewards
from spacemission_env.red_planet import engine
from spacemission_env.red_planet.rules import apply, is_over, scores, winners
from spacemission_env.red_planet.rules.scoring import CATEGORIES
from tests.helpers.rank_patterns import check_rank_rewards, levels, tie_patterns
from tests.helpers.red_planet_positions import act, position

ICE, SYL, CEL = 0, 1, 2


def before_end_of_round(round_, n=3, **kw):
    """The last turn of round ``round_``: the last seat's Pilot, about to be declined."""
    commits = {q: "Recruiter" for q in range(n - 1)}
    return position(n, round=round_, phase="ability", role="Pilot", current=n - 1, acted=list(range(n - 1)),
                    commits=commits, **kw)


def end_of_round(round_, n=3, **kw):
    """The last turn of round ``round_`` (the last seat's Pilot) declined: the round ends."""
    s = before_end_of_round(round_, n, **kw)
    apply(s, act("pass"))
    return s


def test_M_P1_single_leader_one_counter_tie_leftover_empty_nothing():
    s = end_of_round(5, mars={0: {0: 2, 1: 1}, 3: {1: 2, 2: 2}, 4: {2: 1}},
                     minerals={0: "celerium", 3: "ice", 4: "sylvanite"}, crew={2: {1: 4}})
    assert s.players[0].counters == [0, 0, 1]  # zone 0: seat 0 leads
    assert s.players[2].counters == [0, 1, 0]  # zone 4
    assert s.players[1].counters == [0, 0, 0]  # the tie in zone 3; astronauts on ships never count
    assert s.leftover[3] == 1 and s.leftover[0] == 0 and sum(s.leftover) == 1


def test_M_P2_pot_two_plus_leftover_shared_by_tied_leaders_remainder_stays():
    s = end_of_round(8, mars={3: {1: 2, 2: 2}, 4: {0: 1}, 5: {0: 1, 1: 1, 2: 1}, 6: {}},
                     minerals={3: "ice", 4: "sylvanite", 5: "celerium", 6: "ice"},
                     leftover={3: 1, 4: 2, 5: 0, 6: 3})
    # zone 3: pot 3, two leaders 1 each, 1 stays; zone 4: pot 4 to seat 0; zone 5: pot 2, three leaders 0 each
    assert s.players[0].counters == [0, 4, 0]
    assert s.players[1].counters == [1, 0, 0] and s.players[2].counters == [1, 0, 0]
    assert s.leftover[3] == 1 and s.leftover[4] == 0 and s.leftover[5] == 2
    assert s.leftover[6] == 3  # an empty zone adds nothing and keeps its leftover


def test_M_P3_worked_example_final_scoring():
    s = end_of_round(
        10,
        mars={0: {0: 3, 1: 3}, 3: {2: 2, 0: 1}, 4: {1: 1}},
        minerals={0: "celerium", 3: "ice", 4: "sylvanite"},
        leftover={0: 1},
        discoveries={4: ("Moose und Flechten", 1)},
        counters={0: {"ice": 1}, 2: {"sylvanite": 1}},
        bonus={0: ["Kolonisation"], 1: ["Celerium"], 2: ["Gute Planung"]},
        crew={2: {2: 4}},  # on a ship at the end: never counts
    )
    assert s.phase == "over"
    # zone 0: pot 3 + 1 = 4, two leaders take 2 celerium each; zone 3: seat 2 takes 3 ice; zone 4: seat 1 3 sylvanite
    assert [pl.counters for pl in s.players] == [[1, 0, 2], [0, 3, 2], [3, 1, 0]]
    sc = scores(s)
    assert sc[0] == {"ice": 1, "sylvanite": 0, "celerium": 6, "ice_bonus": 0, "discovery_cards": 0,
                     "bonus_cards": 8, "total": 15}  # Kolonisation: 4 on Mars, nobody more
    assert sc[1] == {"ice": 0, "sylvanite": 6, "celerium": 6, "ice_bonus": 0, "discovery_cards": 6,
                     "bonus_cards": 0, "total": 18}  # Celerium tied 2-2: not alone
    assert sc[2] == {"ice": 3, "sylvanite": 2, "celerium": 0, "ice_bonus": 9, "discovery_cards": 0,
                     "bonus_cards": 1, "total": 15}  # Gute Planung: present in one zone
    assert winners(s) == [1]
    assert tuple(sc[0]) == CATEGORIES


def test_M_P3_tied_leaders_floor_and_the_remainder_is_lost():
    s = end_of_round(10, mars={3: {0: 1, 1: 1, 2: 1}}, minerals={3: "sylvanite"}, leftover={3: 1})
    assert [pl.counters[SYL] for pl in s.players] == [1, 1, 1] and s.leftover[3] == 0  # pot 4, 3 leaders


@pytest.mark.parametrize("ice, bonus", [
    ((3, 3, 0), (4, 4, 0)),
    ((2, 2, 2), (3, 3, 3)),
    ((0, 5, 1), (0, 9, 0)),
    ((0, 0, 0), (0, 0, 0)),  # nobody has ice: nobody scores it
])
def test_M_P3_ice_bonus_shared_rounded_down(ice, bonus):
    s = end_of_round(10, counters={q: {"ice": k} for q, k in enumerate(ice)})
    assert [row["ice_bonus"] for row in scores(s)] == list(bonus)


def test_M_P3_ice_bonus_with_four_and_five_tied_leaders():
    s = end_of_round(10, n=5, counters={q: {"ice": 1} for q in range(5)})
    assert [row["ice_bonus"] for row in scores(s)] == [1] * 5
    s = end_of_round(10, n=5, counters={q: {"ice": 1} for q in range(4)})
    assert [row["ice_bonus"] for row in scores(s)] == [2, 2, 2, 2, 0]


def test_M_P3_eisbloecke_count_before_the_ice_bonus():
    s = end_of_round(10, counters={0: {"ice": 3}, 1: {"ice": 2}}, bonus={1: ["Eisblöcke 1", "Eisblöcke 2"]})
    assert s.players[1].counters[ICE] == 6
    assert [row["ice_bonus"] for row in scores(s)] == [0, 9, 0]


def test_M_P3_counter_values():
    s = position(3, counters={0: {"ice": 2, "sylvanite": 3, "celerium": 4}})
    assert scores(s)[0]["total"] == 2 + 6 + 12  # provisional: counters only before the end


def test_M_P3_radiation_before_faulty_analysis_before_the_pots():
    s = end_of_round(10, mars={4: {0: 3, 1: 1}}, minerals={4: "ice"},
                     discoveries={4: ("Radioaktive Strahlen", 2)},
                     mineral_pool=["ice"] * 4 + ["sylvanite"] * 5 + ["celerium"] * 4)
    assert s.players[0].removed == 3 and s.players[1].counters[ICE] == 3  # seat 1 leads after the removal


def test_M_P4_the_highest_total_wins_ties_share():
    s = end_of_round(10, counters={0: {"celerium": 2}, 1: {"ice": 6}, 2: {"sylvanite": 1}})
    # seat 0: 6; seat 1: 6 + ice bonus 9 = 15
    assert winners(s) == [1]
    s = end_of_round(10, counters={0: {"celerium": 5}, 1: {"ice": 6}, 2: {"sylvanite": 1}})
    assert [row["total"] for row in scores(s)] == [15, 15, 2] and winners(s) == [0, 1]


@pytest.mark.parametrize("pattern", [p for n in (3, 4, 5) for p in tie_patterns(n)], ids=str)
def test_M_P4_every_tie_pattern_gets_exact_rank_rewards_in_both_engines(pattern):
    """M-P4 and the zero-sum "win" reward, for every way 3-5 seats can finish (pattern: the
    tied groups' sizes from the best place down): seats at level L hold L sylvanite counters
    (2L points, M-P3 step 4; no ice, so no ice bonus) as round 10 ends, in both engines; the
    fast engine's float32 rewards (and engine_common.rank_rewards) are the closed form, tied
    seats alike, a place worth 0 exactly 0.0, summing to exactly 0.0 where floats allow
    (tests/helpers/rank_patterns.py). Before, 4 players' patterns (1, 2, 1) and (4,) gave
    5.551115e-17 instead of 0.0."""
    n = sum(pattern)
    level = levels(pattern)
    s = before_end_of_round(10, n, counters={q: {"sylvanite": level[q]} for q in range(n)})
    st = engine.from_reference([s])
    apply(s, act("pass"))
    engine.step(st, np.array([act("pass")]))
    assert is_over(s) and st.terminated[0] and engine.to_reference(st, 0) == s
    totals = [row["total"] for row in scores(s)]
    assert totals == [2 * x for x in level] and engine.scores(st)[0, :, -1].tolist() == totals
    check_rank_rewards(pattern, engine.rewards(st)[0])
    check_rank_rewards(pattern, np.array(rank_rewards(totals)))
    assert engine.rewards(st)[0].tolist() == np.float32(rank_rewards(totals)).tolist()
