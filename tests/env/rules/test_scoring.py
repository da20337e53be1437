"""Scoring R-P1..R-P8: the rulebook examples, edge cases, and scores()/winners() of positions."""
from itertools import groupby, product

import numpy as np
import pytest
from tests.helpers.positions import position
from tests.helpers.rank_patterns import check_rank_rewards, numerators, tie_patterns

from spacemission_env import engine_common

from spacemission_env.space_mission.scoring import jump_gate_points, rank_rewards, tile_points, water_points, winners_of
from spacemission_env.space_mission.rules import scores, winners


# --- R-P1 jump gate ----------------------------------------------------------------
def test_R_P1_rulebook_example():
    """Green 5, red 3, blue 3, yellow 3, black 1 -> 9, 6, 6, 6, 0 (rank 5 scores nothing)."""
    assert jump_gate_points([5, 3, 3, 3, 1]) == [9, 6, 6, 6, 0]


@pytest.mark.parametrize("probes, points", [
    ([4, 3, 2, 1], [9, 6, 3, 1]),
    ([2, 2], [9, 9]),
    ([0, 0, 0], [0, 0, 0]),  # ruling: no probe, no points
    ([0, 1], [0, 9]),
    ([3, 3, 1, 1, 0], [9, 9, 3, 3, 0]),
    ([5, 4, 3, 2, 1], [9, 6, 3, 1, 0]),
])
def test_R_P1_ranks_ties_and_no_probe(probes, points):
    assert jump_gate_points(probes) == points


def test_R_P1_rejects_negative_probe_counts():
    with pytest.raises(ValueError, match="probe"):
        jump_gate_points([1, -1])


# --- R-P2..R-P7 tile categories -------------------------------------------------------------
def test_R_P3_minerals_rulebook_example():
    """R-P3: 3 red, 2 blue, 2 green give 7 x 3 = 21."""
    assert tile_points({"mineral_red": 3, "mineral_blue": 2, "mineral_green": 2})["minerals"] == 21


def test_R_P4_aliens_rulebook_example():
    """R-P4: 4 brown, 2 blue give 6 x 4 = 24."""
    assert tile_points({"alien_brown": 4, "alien_blue": 2})["aliens"] == 24


def test_R_P5_matter_pairs_and_singles():
    """R-P5: each green+blue pair 7, each unpaired matter 2."""
    assert tile_points({"matter_green": 1, "matter_blue": 1})["matter"] == 7
    assert tile_points({"matter_green": 3, "matter_blue": 1})["matter"] == 7 + 2 * 2
    assert tile_points({"matter_blue": 2})["matter"] == 4


def test_R_P6_water_rulebook_examples():
    """R-P6: 1-4 water score 2, 5, 9, 14; 6 water score 14 + 5."""
    assert [water_points(n) for n in range(5)] == [0, 2, 5, 9, 14]
    assert tile_points({"water": 6})["water"] == 19  # 14 + 5
    assert tile_points({"water": 8})["water"] == 28


def test_R_P7_medals_three_each():
    assert tile_points({"medal": 4})["medals"] == 12


def test_tile_points_accepts_counts_in_R_C3_order_and_totals():
    counts = [3, 0, 2, 2, 4, 2, 1, 1, 6, 1]
    p = tile_points(counts)
    assert p == {"minerals": 21, "aliens": 24, "matter": 7, "water": 19, "medals": 3, "total": 74}


@pytest.mark.parametrize("bad", [{"space": 1}, {"gold": 1}, [1] * 9, [1] * 11, [-1] + [0] * 9, {"water": 1.5}])
def test_tile_points_rejects_bad_counts(bad):
    with pytest.raises(ValueError):
        tile_points(bad)


# --- scores() of a position, R-P2, R-P8 -------------------------------------------------------
def test_R_P2_scores_of_a_position_sum_every_category():
    s = position(3, stations={0: 0, 3: 0, 5: 1}, gate_probes={0: 2, 1: 3},
                 collections={0: {"water": 6, "medal": 1}, 1: {"mineral_red": 3, "mineral_blue": 2, "mineral_green": 2}})
    s0, s1 = scores(s)[:2]
    assert s0 == {"jump_gate": 6, "stations": 6, "minerals": 0, "aliens": 0, "matter": 0, "water": 19,
                  "medals": 3, "total": 34}
    assert s1 == {"jump_gate": 9, "stations": 3, "minerals": 21, "aliens": 0, "matter": 0, "water": 0,
                  "medals": 0, "total": 33}


def test_R_P8_winner_tie_broken_by_stations_then_shared():
    assert winners_of([30, 30, 10], [1, 2, 5]) == [1]
    assert winners_of([30, 30, 10], [2, 2, 5]) == [0, 1]
    assert winners_of([10, 31], [3, 0]) == [1]


def test_R_P8_winners_of_a_position():
    s = position(2, stations={p: 0 for p in range(6)}, collections={0: {}, 1: {"medal": 6}})
    assert [x["total"] for x in scores(s)] == [18, 18]  # 6 stations vs 6 medals
    assert winners(s) == [0]  # tie broken by stations


def test_rank_rewards_are_zero_sum_and_share_ties():
    assert rank_rewards([10, 5], [0, 0]) == [1.0, -1.0]
    assert rank_rewards([10, 10], [0, 0]) == [0.0, 0.0]
    r = rank_rewards([10, 20, 20], [0, 1, 1])
    assert r == [-1.0, 0.5, 0.5] and sum(r) == 0.0


def test_rank_rewards_four_players_tied_in_the_middle_get_exactly_zero():
    """R-P8: the two tied middle seats of four share ranks 2 and 3, worth 1/3 and -1/3: the
    mean is 0. The mean of the float values gave 5.551115123125783e-17 (and to four tied
    seats), so the rewards summed to 1.1e-16, and float32 kept it (5.551115e-17)."""
    assert rank_rewards([9, 6, 6, 3], [0, 0, 0, 0]) == [1.0, 0.0, 0.0, -1.0]
    assert rank_rewards([6, 6, 6, 6], [1, 1, 1, 1]) == [0.0] * 4
    assert rank_rewards([6, 6, 6, 6], [2, 1, 1, 0]) == [1.0, 0.0, 0.0, -1.0]  # tied on points, then stations
    assert rank_rewards([9, 9, 3, 3], [0, 0, 0, 0]) == [2 / 3, 2 / 3, -2 / 3, -2 / 3]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rank_rewards_of_every_key_tuple_are_the_closed_form_and_sum_to_zero_where_floats_allow(n):
    """R-P8 / M-P4 for every key tuple of n players (each seat's key in 0..n-1): each reward
    is (n - 2*better - tied) / (n - 1) with one rounding, in float64 and in the engines'
    float32; the exact sum is 0.0 for every pattern whose places mirror each other (all at
    2, 3 and 5 players), see tests/helpers/rank_patterns.py. The fast engines' table holds
    the same values."""
    table = engine_common.rank_reward_table(n)
    for keys in product(range(n), repeat=n):
        r = engine_common.rank_rewards(list(keys))
        order = sorted(range(n), key=lambda q: -keys[q])  # best place first, as check_rank_rewards reads
        pattern = tuple(len(list(g)) for _, g in groupby(sorted(keys, reverse=True)))
        for dtype in (np.float64, np.float32):
            check_rank_rewards(pattern, np.array([r[q] for q in order], dtype=dtype))
        better = [sum(k > keys[q] for k in keys) for q in range(n)]
        tied = [keys.count(keys[q]) for q in range(n)]
        assert table[better, tied].tolist() == r
    assert sorted(tie_patterns(n)) == sorted({tuple(len(list(g)) for _, g in groupby(sorted(k, reverse=True)))
                                              for k in product(range(n), repeat=n)})
    assert numerators((1, 2, 1)) == [4 - 0 - 1, 4 - 2 - 2, 4 - 2 - 2, 4 - 6 - 1]


def test_the_rank_reward_table_is_built_once_and_cannot_be_changed_by_a_caller():
    """Both fast engines' ``rewards`` read one table per player count (R-P8 / M-P4); it is
    shared, so a caller writing into it would change every later game's rewards."""
    table = engine_common.rank_reward_table(4)
    assert engine_common.rank_reward_table(4) is table
    with pytest.raises(ValueError, match="read-only"):
        table[0, 1] = 0.5
    assert table[0, 1] == 1.0
