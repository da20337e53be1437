"""agents/spacemission_agents/arena_stats.py on hand-built game tables: final order (R-P8, forfeits last),
win rates with ties half, the duplicate-aware interval, mean ranks and ratings."""
import numpy as np
import pytest

from spacemission_agents.arena_stats import (Games, agent_stats, cluster_variance, fit_ratings, pair_stats,
                                             proportion_ci, t975, wilson)


def _games(totals, stations, seats, deal, forfeit=None, lineup=None):
    totals = np.asarray(totals)
    G, P = totals.shape
    scores = np.zeros((G, P, 8), np.int16)
    scores[..., 0] = totals  # all points as jump gate points
    scores[..., 7] = totals
    return Games(seeds=np.arange(G, dtype=np.uint64), lineup=np.zeros(G, int) if lineup is None else np.asarray(lineup),
                 deal=np.asarray(deal), seating=np.arange(G) % P, seats=np.asarray(seats), start_player=np.zeros(G, np.int8),
                 scores=scores, tiebreak=np.asarray(stations, np.int8), round_limit=np.zeros(G, bool),
                 rounds=np.full(G, 20, np.int32), num_actions=np.full(G, 100, np.int32),
                 forfeit_seat=np.full(G, -1, np.int8) if forfeit is None else np.asarray(forfeit, np.int8))


def test_ranks_follow_points_then_stations_and_forfeits_are_last():
    g = _games(totals=[[30, 30, 10], [30, 30, 30], [50, 10, 20]], stations=[[2, 1, 0], [1, 1, 1], [0, 0, 0]],
               seats=[[0, 1, 2]] * 3, deal=[0, 1, 2], forfeit=[-1, -1, 0])
    avg, comp = g.ranks()
    assert avg.tolist() == [[1, 2, 3], [2, 2, 2], [3, 2, 1]]  # stations break the tie; a full tie shares places
    assert comp.tolist() == [[1, 2, 3], [1, 1, 1], [3, 2, 1]]  # 50 points but forfeited: last


def test_pair_win_rate_counts_ties_half_and_forfeits_as_losses():
    # 2 players, 3 deals x 2 seatings; agent a wins 3 (the last because b, ahead on points, forfeits),
    # ties 1 (same points and stations), loses 2
    totals = [[20, 10], [10, 20], [15, 15], [30, 10], [5, 9], [40, 10]]
    seats = [[0, 1], [1, 0], [0, 1], [1, 0], [0, 1], [1, 0]]
    g = _games(totals, np.zeros((6, 2)), seats, deal=[0, 0, 1, 1, 2, 2], forfeit=[-1, -1, -1, -1, -1, 0])
    pairs = pair_stats(g, ["a", "b"])
    ab = pairs[("a", "b")]
    assert (ab.wins, ab.ties, ab.losses) == (3, 1, 2)
    assert ab.win_rate == pytest.approx(3.5 / 6) and pairs[("b", "a")].win_rate == pytest.approx(2.5 / 6)
    assert (ab.forfeits, ab.opponent_forfeits) == (0, 1) and ab.games == 6
    # mean scores leave the forfeited game out: a's seats in games 0-4
    assert ab.mean_score["total"] == pytest.approx(np.mean([20, 20, 15, 10, 5]))
    stats = agent_stats(g, ["a", "b"], ["a", "b"])
    assert stats[1].forfeits == 1 and stats[0].forfeits == 0
    assert stats[0].mean_rank == pytest.approx(1 + (2.5 / 6))  # rank 1 when winning, 1.5 tied, 2 losing


def test_intervals():
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(1.0, 20)[1] == 1.0 and wilson(1.0, 20)[0] == pytest.approx(0.8389, abs=1e-3)
    # independent games in distinct clusters: the plain Wilson interval (up to the C/(C-1) correction,
    # deff = 100/99, which makes it the clusters' variance: t(99) = 1.984 for z)
    out = np.array([1, 0] * 50, float)
    p, lo, hi = proportion_ci(out, np.arange(100))
    assert (p, lo, hi) == pytest.approx((0.5, *wilson(0.5, 99, t975(99))), abs=1e-12)
    assert (lo, hi) == pytest.approx(wilson(0.5, 100), abs=2e-3)
    # perfectly correlated pairs (both games of a deal alike): twice as wide in variance -> n_eff halves
    # (49/50 of it with C/(C-1)), t(49) for z
    p2, lo2, hi2 = proportion_ci(out.repeat(2)[:100], np.arange(100) // 2)
    assert (lo2, hi2) == pytest.approx(wilson(0.5, 49, t975(49)), abs=1e-12)
    # anti-correlated pairs (seat luck cancelling): never narrower than plain Wilson, t(49) for z
    # (as wherever there are 2 deals or more; it was z where the binomial variance won)
    p3, lo3, hi3 = proportion_ci(out, np.arange(100) // 2)
    assert (lo3, hi3) == pytest.approx(wilson(0.5, 100, t975(49)))
    assert cluster_variance(out, np.zeros(100)) != cluster_variance(out, np.zeros(100))  # NaN with one cluster
    assert proportion_ci(np.ones(10), np.arange(10))[1:] == pytest.approx(wilson(1.0, 10, t975(9)))
    assert proportion_ci(np.ones(10), np.zeros(10))[1:] == pytest.approx(wilson(1.0, 10))  # one deal: z
    # the games of the outcomes (units) only matter where the design effect is not estimated:
    # 50 deals, p = 0.5 -> as without; 3 deals (< 5) of 2 games of 2 outcomes each: y - p m =
    # (2/3, -1/3, -1/3), V_c = 1.5 * (6/9) / 144 = 0.0069 < V_b = (35/144) / 12 = 0.0203, deff 1 -> 12 / 6 = 2
    units = np.arange(100) // 2
    assert proportion_ci(out, np.arange(100) // 2, units=units) == proportion_ci(out, np.arange(100) // 2)
    few = np.array([1, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0], float)
    p4, lo4, hi4 = proportion_ci(few, np.arange(12) // 4, units=np.arange(12) // 2)
    assert (lo4, hi4) == pytest.approx(wilson(p4, 6, t975(2)))
    assert proportion_ci(np.ones(10), np.arange(10), units=np.arange(10) // 5)[1:] == \
        pytest.approx(wilson(1.0, 2, t975(9)))


def test_ratings_rank_the_stronger_agent_higher_and_share_repeated_seats():
    # 3 players, agent 1 always first, agent 0 always last; lineups with agent 0 twice
    G = 30
    seats = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0]] * (G // 3))
    totals = np.where(seats == 1, 50, 10) + np.arange(3)[None, :]  # distinct totals among agent 0's seats
    g = _games(totals, np.zeros((G, 3)), seats, deal=np.arange(G) // 3)
    (mu0, s0, o0), (mu1, s1, o1) = fit_ratings(g, 2)
    assert mu1 > mu0 and o1 > o0 and 0 < s1 < 25 / 3 and 0 < s0 < 25 / 3
