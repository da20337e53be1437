"""An independent audit of the arena's statistics (docs/arena.md, "Schedule" and "Statistics"):
the duplicate schedule at every player count of both games, the win rates, W-T-L counts, Wilson
intervals with the duplicate design effect and mean ranks recomputed from games.jsonl with a
separate implementation, hand-computed edge cases (0% and 100%, all ties, one deal, clusters of
unequal size, 4 and 5 players), the OpenSkill ratings against the Plackett-Luce formulas written
out here, and the printed tables against the result files.

Nothing here is copied from a run of the code: every expected value is worked out by hand in a
comment or computed by the code of this file (math and numpy only; scipy is not installed)."""
import csv
import itertools
import json
import math
import random
import statistics
from collections import Counter, defaultdict
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
import pytest

from spacemission_agents.arena import ArenaArgumentError, _schedule, _scheduled_games, lineups, run_arena
from spacemission_agents.arena_stats import Games, agent_stats, cluster_variance, fit_ratings, pair_stats, proportion_ci
from spacemission_env.games import GameConfig, get_game

Z = statistics.NormalDist().inv_cdf(0.975)  # 1.959963984540054


# --- an independent implementation ----------------------------------------------------------
# Student t_0.975 by degrees of freedom 1..30, as docs/arena.md lists them
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t_quantile(df: int) -> float:
    """t_0.975: the table, beyond 30 df the Cornish-Fisher expansion of the docs."""
    if df <= 30:
        return T975[df - 1]
    return Z + (Z ** 3 + Z) / (4 * df) + (5 * Z ** 5 + 16 * Z ** 3 + 3 * Z) / (96 * df * df)


def wilson_roots(p: float, n: float, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval as the two roots in x of (p - x)^2 = z^2 x (1 - x) / n."""
    a, b, c = 1 + z * z / n, -(2 * p + z * z / n), p * p
    d = math.sqrt(max(b * b - 4 * a * c, 0.0))
    return max(0.0, (-b - d) / (2 * a)), min(1.0, (-b + d) / (2 * a))


def _stratum_residuals(values: list, strata: list | None) -> list:
    """Each value minus its stratum's mean (the overall mean without strata)."""
    strata = strata or [0] * len(values)
    by_stratum = defaultdict(list)
    for v, h in zip(values, strata):
        by_stratum[h].append(v)
    mean = {h: sum(vs) / len(vs) for h, vs in by_stratum.items()}
    return [v - mean[h] for v, h in zip(values, strata)]


def _stratified_cluster_variance(values: list, clusters: list, strata: list | None) -> float:
    """C/(C-1) sum_c (sum_{i in c} e_i)^2 / n^2, e_i the value minus its stratum's mean
    (the overall mean without strata); None with fewer than 2 clusters."""
    n = len(values)
    e = defaultdict(float)
    for r, c in zip(_stratum_residuals(values, strata), clusters):
        e[c] += r
    C = len(e)
    return C / (C - 1) * sum(x * x for x in e.values()) / n ** 2 if C >= 2 else None


def clustered_interval(values: list, clusters: list, strata: list | None = None,
                       units: list | None = None) -> tuple[float, float, float, float]:
    """(p, low, high, deff) as docs/arena.md states it: Wilson on n / deff outcomes,
    deff = max(1, V_cluster / V_binomial), V_cluster the cluster-robust variance with the
    residuals taken from each lineup's (stratum's) mean and a deal as the cluster;
    deff = 1 where V_cluster is undefined (one cluster) or V_binomial is 0. With the game of
    each outcome (units) and fewer than 5 deals, one deal or V_binomial 0, deff is at
    least outcomes / games. With C >= 2 deals the Wilson interval takes t_0.975 with C - 1 df
    for z (the variance is chosen by V_cluster, estimated from C deals); z with one deal."""
    n = len(values)
    p = sum(values) / n
    vb = p * (1 - p) / n
    deff = 1.0
    vc = _stratified_cluster_variance(values, clusters, strata)
    if vc is not None and vb > 0:
        deff = max(1.0, vc / vb)
    floor = 1.0
    if units is not None and (len(set(clusters)) < 5 or vb == 0 or vc is None):
        floor = n / len(set(units))
    q = t_quantile(len(set(clusters)) - 1) if len(set(clusters)) >= 2 else Z
    deff = max(deff, floor)
    lo, hi = wilson_roots(p, n / deff, q)
    return p, lo, hi, deff


def _per_stratum_variance(values: list, groups: list, strata: list | None) -> float:
    """sum_h C_h/(C_h - 1) sum_{g in h} (sum_{i in g} e_i)^2 / n^2: groups (a game, or a value
    on its own) nested in strata, e_i the value minus its stratum's mean, C_h the groups of
    stratum h; a stratum of one group adds nothing."""
    strata = strata or [0] * len(values)
    total, stratum_of = defaultdict(float), {}
    for r, g, h in zip(_stratum_residuals(values, strata), groups, strata):
        total[g] += r
        stratum_of[g] = h
    count = Counter(stratum_of.values())
    return sum(count[stratum_of[g]] / (count[stratum_of[g]] - 1) * x * x
               for g, x in total.items() if count[stratum_of[g]] > 1) / len(values) ** 2


def rank_interval(ranks: list, clusters: list, places: int, strata: list | None = None,
                  games: list | None = None) -> tuple[float, float, float]:
    """Mean rank and its 95% interval as docs/arena.md states it: var the larger of the
    cluster-robust and the plain variance of the mean (residuals from the lineup's mean;
    the plain one (n - 1)/n times sum_h n_h/(n_h - 1) SS_h / n^2, which is sum e^2 / n^2
    with one lineup), t_0.975 with C - 1 df (n - H with one deal, H lineups), Wilson with t
    on q = (P - rank) / (P - 1) and n_eff = q (1 - q) / var_q (n where either is 0), mapped
    back to ranks. ``games``: each rank's game; where some game gives several ranks, the G
    games count instead of the n ranks (G - H df with one deal, n_eff G where it would be n)
    and var is at least the variance clustered by game (C_h/(C_h - 1) per lineup)."""
    n = len(ranks)
    mean = sum(ranks) / n
    if n == 1:
        return mean, 1.0, float(places)
    v_plain = (n - 1) / n * _per_stratum_variance(ranks, list(range(n)), strata)
    v_cluster = _stratified_cluster_variance(ranks, clusters, strata)
    var = v_plain if v_cluster is None else max(v_cluster, v_plain)
    size = n
    if games is not None and len(set(games)) < n:
        size = len(set(games))
        if size >= 2:
            var = max(var, _per_stratum_variance(ranks, games, strata))
    C = len(set(clusters))
    H = len(set(strata)) if strata else 1
    t = t_quantile(C - 1 if C >= 2 else max(size - H, 1))
    q = (places - mean) / (places - 1)
    var_q = var / (places - 1) ** 2
    n_eff = q * (1 - q) / var_q if var_q > 0 and q * (1 - q) > 0 else size
    lo, hi = wilson_roots(q, n_eff, t)
    return mean, places - hi * (places - 1), places - lo * (places - 1)


def outcome(rank_a: int, rank_b: int) -> float:
    return 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0


def stats_from_records(records: list, names: list) -> tuple[dict, dict]:
    """Pair and agent statistics from the games.jsonl records alone (their `ranks`, `agents`,
    `lineup`, `deal`): a deal is a cluster (the same seed in every lineup), a lineup a stratum."""
    pairs, agents = {}, {}
    for a, b in itertools.permutations(names, 2):
        vals, cl, st, un, games = [], [], [], [], 0
        for k, g in enumerate(records):
            sa = [i for i, x in enumerate(g["agents"]) if x == a]
            sb = [j for j, x in enumerate(g["agents"]) if x == b]
            games += bool(sa and sb)
            for i in sa:
                for j in sb:
                    vals.append(outcome(g["ranks"][i], g["ranks"][j]))
                    cl.append(g["deal"])
                    st.append(g["lineup"])
                    un.append(k)
        if vals:
            p, lo, hi, deff = clustered_interval(vals, cl, st, un)
            c = Counter(vals)
            pairs[(a, b)] = dict(games=games, outcomes=len(vals), wins=c[1.0], ties=c[0.5], losses=c[0.0],
                                 win_rate=p, ci_low=lo, ci_high=hi)
    for a in names:
        vals, cl, st, un, ranks, rcl, rst, rgame, games = [], [], [], [], [], [], [], [], 0
        for k, g in enumerate(records):
            P = len(g["agents"])
            games += a in g["agents"]
            for i, x in enumerate(g["agents"]):
                if x != a:
                    continue
                r = g["ranks"][i]  # 1 + seats strictly ahead; ties share the mean of their places
                ranks.append(r + (sum(q == r for q in g["ranks"]) - 1) / 2)
                rcl.append(g["deal"])
                rst.append(g["lineup"])
                rgame.append(k)
                for j, y in enumerate(g["agents"]):
                    if y != a:
                        vals.append(outcome(r, g["ranks"][j]))
                        cl.append(g["deal"])
                        st.append(g["lineup"])
                        un.append(k)
        p, lo, hi, _ = clustered_interval(vals, cl, st, un)
        m, rlo, rhi = rank_interval(ranks, rcl, P, rst, rgame)
        agents[a] = dict(games=games, seats=len(ranks), win_rate=p, win_ci_low=lo, win_ci_high=hi,
                         mean_rank=m, rank_ci_low=rlo, rank_ci_high=rhi)
    return pairs, agents


def pl_update(mus: list, sigmas: list, ranks: list, beta=25 / 6, tau=25 / 300, kappa=1e-4) -> list:
    """One Plackett-Luce update of one-player teams (Weng & Lin 2011, algorithm 4; ties as
    OpenSkill shares them: A_q teams of equal rank), written out from the paper."""
    s2 = [s * s + tau * tau for s in sigmas]
    c = math.sqrt(sum(v + beta * beta for v in s2))
    e = [math.exp(m / c) for m in mus]
    k = len(mus)
    S = [sum(e[s] for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    A = [sum(ranks[s] == ranks[q] for s in range(k)) for q in range(k)]
    out = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                pq = e[i] / S[q]
                omega += ((q == i) - pq) / A[q]
                delta += pq * (1 - pq) / A[q]
        omega *= s2[i] / c
        delta *= math.sqrt(s2[i]) / c * s2[i] / c ** 2  # gamma = sigma_i / c
        out.append((mus[i] + omega, math.sqrt(s2[i]) * math.sqrt(max(1 - delta, kappa))))
    return out


def table(totals, seats, deal, lineup=None, stations=None, forfeit=None, seating=None) -> Games:
    """A hand-built per-game table: all points as jump-gate points."""
    totals = np.asarray(totals)
    G, P = totals.shape
    scores = np.zeros((G, P, 8), np.int16)
    scores[..., 0] = totals
    scores[..., 7] = totals
    return Games(seeds=np.arange(G, dtype=np.uint64), lineup=np.zeros(G, int) if lineup is None else np.asarray(lineup),
                 deal=np.asarray(deal), seating=np.arange(G) % P if seating is None else np.asarray(seating),
                 seats=np.asarray(seats), start_player=np.zeros(G, np.int8), scores=scores,
                 tiebreak=np.zeros((G, P), np.int8) if stations is None else np.asarray(stations, np.int8),
                 round_limit=np.zeros(G, bool), rounds=np.full(G, 20, np.int32), num_actions=np.full(G, 100, np.int32),
                 forfeit_seat=np.full(G, -1, np.int8) if forfeit is None else np.asarray(forfeit, np.int8))


# --- 1. the duplicate schedule --------------------------------------------------------------
def compositions(total: int, parts: int):
    """Every way to write total as an ordered sum of `parts` positive integers."""
    if parts == 1:
        yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


@pytest.mark.parametrize("num_agents", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_lineups_are_balanced_as_documented(num_agents, num_players):
    ups = lineups(num_agents, num_players)
    if num_agents >= num_players:  # every set of P distinct agents, once
        assert sorted(map(tuple, map(sorted, ups))) == sorted(itertools.combinations(range(num_agents), num_players))
        together = Counter(p for u in ups for p in itertools.combinations(u, 2))
        assert set(together.values()) == {math.comb(num_agents - 2, num_players - 2)}  # every pair meets alike
    else:  # every multiset holding each agent at least once: one lineup per composition of P
        assert sorted(tuple(Counter(u)[k] for k in range(num_agents)) for u in ups) == sorted(compositions(num_players, num_agents))
        assert all(set(u) == set(range(num_agents)) for u in ups)
        # each agent holds each number of seats (so is the majority) equally often
        held = [sorted(Counter(u)[k] for u in ups) for k in range(num_agents)]
        assert all(h == held[0] for h in held)


@pytest.mark.parametrize("mode", ["rotations", "permutations"])
@pytest.mark.parametrize("num_agents, num_players", [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (2, 4), (3, 4), (5, 4),
                                                     (2, 5), (3, 5), (4, 5), (6, 5)])
def test_every_deal_is_played_with_every_seating_and_every_seat(mode, num_agents, num_players):
    games, seed = 7, 5  # an odd count: rounded up to whole deals
    sched, deals, ups = _schedule(num_agents, num_players, games, seed, mode)
    per_lineup = Counter(sched["lineup"].tolist())
    R = per_lineup[0] // deals
    assert set(per_lineup.values()) == {deals * R} and deals == math.ceil(games / R) and deals * R >= games > (deals - 1) * R
    assert _scheduled_games(num_agents, num_players, games, mode) == (deals, len(sched["seeds"]))
    for L, u in enumerate(ups):
        for d in range(deals):
            rows = np.flatnonzero((sched["lineup"] == L) & (sched["deal"] == d))
            assert len(rows) == R
            assert set(sched["seeds"][rows].tolist()) == {seed * 2**32 + d}  # one deal, one game seed
            orders = Counter(map(tuple, sched["seats"][rows].tolist()))
            assert all(sorted(o) == sorted(u) for o in orders)
            if mode == "rotations":
                assert set(orders) == {tuple(u[(s + r) % num_players] for s in range(num_players)) for r in range(num_players)}
            else:  # every distinct order, each equally often
                assert set(orders) == set(itertools.permutations(u)) and len(set(orders.values())) == 1
            # seat luck hits every agent alike: each agent of the lineup sits in every seat equally often
            seats = sched["seats"][rows]
            for agent in set(u):
                assert len(set((seats == agent).sum(axis=0).tolist())) == 1, (u, agent, seats.tolist())


def test_permutations_with_repeats_are_balanced_per_deal():
    """Before: the 4 orders of AAAB were padded to AABB's 6 by cycling (AAAB, AABA, ABAA,
    BAAA, AAAB, AABA), so B sat in seats 2 and 3 twice as often as in seat 0 (the start seat
    under schmidt). Now each lineup's orders repeat to the least common multiple (12)."""
    sched, deals, ups = _schedule(2, 4, 1, 0, "permutations")
    assert deals == 1 and len(sched["seeds"]) == 3 * 12
    rows = sched["lineup"] == ups.index((0, 0, 0, 1))
    assert (sched["seats"][rows] == 1).sum(axis=0).tolist() == [3, 3, 3, 3]
    sched, deals, ups = _schedule(3, 5, 1, 0, "permutations")  # AAABC: 20 orders, AABBC: 30 -> 60
    assert len(sched["seeds"]) == len(ups) * 60


@pytest.mark.parametrize("game, players", [("spacemission", 2), ("spacemission", 5), ("red_planet", 3), ("red_planet", 5)])
def test_a_deal_is_the_same_game_in_every_row_of_a_batch(game, players):
    """The deal is the seed: every array of the fast engine's new state is equal in rows
    that share a seed, wherever they sit in the batch."""
    g = get_game(game)
    seeds = np.array([9 * 2**32 + 1, 9 * 2**32 + 2, 9 * 2**32 + 1, 3, 9 * 2**32 + 1], dtype=np.uint64)
    st = g.new_batch(len(seeds), GameConfig(players, game=game), seeds=seeds)
    arrays = {k: v for k, v in vars(st).items() if isinstance(v, np.ndarray) and v.ndim and v.shape[0] == len(seeds)}
    assert len(arrays) > 5
    for k, v in arrays.items():
        assert (v[0] == v[2]).all() and (v[0] == v[4]).all(), k
    assert any((v[0] != v[1]).any() for v in arrays.values())  # another seed, another deal


def test_red_planet_takes_3_to_5_players():
    for bad in (2, 6):
        with pytest.raises(ArenaArgumentError) as info:
            run_arena(["random", "greedy"], num_players=bad, games=1, progress=False, game="red_planet")
        assert info.value.argument == "num_players" and "3..5" in str(info.value)


@pytest.mark.parametrize("game, fewest", [("spacemission", 2), ("red_planet", 3)])
def test_num_players_left_out_is_the_games_fewest(game, fewest):
    """As the command's --players: Red Planet's API default was 2, which it refuses."""
    r = run_arena(["random", "greedy"], games=fewest, seed=1, max_rounds=None if game == "red_planet" else 3,
                  progress=False, game=game)
    assert r.config["num_players"] == fewest


# --- 2. statistics recomputed from the recorded games ---------------------------------------
@pytest.fixture(scope="module")
def spacemission3(tmp_path_factory):
    """3 agents, 2 players: 9 games per pair -> 5 deals x 2 seatings = 10."""
    out = tmp_path_factory.mktemp("audit_sm")
    r = run_arena(["random", "kind-random", "greedy"], num_players=2, games=9, seed=5, max_rounds=20, out=out,
                  progress=False, chunk_size=8)
    return r, out


@pytest.fixture(scope="module")
def red_planet4(tmp_path_factory):
    """Red Planet, 3 agents at 4 players: 3 lineups with one agent twice, 4 games -> 1 deal x 4 rotations."""
    out = tmp_path_factory.mktemp("audit_rp")
    r = run_arena(["random", "greedy", "heuristic"], num_players=4, games=4, seed=11, out=out, progress=False,
                  game="red_planet")
    return r, out


def _records(out):
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("fixture", ["spacemission3", "red_planet4"])
def test_statistics_equal_an_independent_computation_from_games_jsonl(fixture, request):
    result, out = request.getfixturevalue(fixture)
    records = _records(out)
    data = json.loads((out / "results.json").read_text())
    names = data["config"]["agents"]
    pairs, agents = stats_from_records(records, names)
    got_pairs = {(p["agent"], p["opponent"]): p for p in data["pairs"]}
    assert set(got_pairs) == set(pairs)
    for key, want in pairs.items():
        got = got_pairs[key]
        for k in ("games", "outcomes", "wins", "ties", "losses"):
            assert got[k] == want[k], (key, k)
        assert got["wins"] + got["ties"] + got["losses"] == got["outcomes"]
        for k in ("win_rate", "ci_low", "ci_high"):
            assert got[k] == pytest.approx(want[k], abs=1e-12), (key, k)
    for a in data["agents"]:
        want = agents[a["name"]]
        for k, v in want.items():
            assert a[k] == pytest.approx(v, abs=1e-12), (a["name"], k)


def test_schedule_of_the_recorded_games(spacemission3, red_planet4):
    for (result, out), players, per_lineup in ((spacemission3, 2, 10), (red_planet4, 4, 4)):
        records = _records(out)
        cfg = result.config
        assert cfg["games_per_lineup"] == per_lineup and len(records) == per_lineup * len(cfg["lineups"])
        by_deal = defaultdict(list)
        for g in records:
            by_deal[(g["lineup"], g["deal"])].append(g)
            assert g["seed"] == cfg["seed"] * 2**32 + g["deal"] and g["config"]["num_players"] == players
        for games in by_deal.values():
            assert len(games) == players
            for seat in range(players):  # each agent of the lineup at each seat once (a rotation)
                assert sorted(g["agents"][seat] for g in games) == sorted(games[0]["agents"])
            assert len({g["start_player"] for g in games}) == 1  # the deal fixes the start seat


def test_red_planet_recorded_games_replay_from_their_deal(red_planet4):
    """Every recorded game is the reference engine's new_game(seed) played on: so all seatings
    of a deal start from the same shuffles."""
    result, out = red_planet4
    g = get_game("red_planet")
    for rec in _records(out):
        c = rec["config"]
        s = g.new_reference_game(GameConfig(c["num_players"], c["rules"], c["max_rounds"], "red_planet"), rec["seed"])
        assert s.start_player == rec["start_player"]
        for seat, action, _ in rec["actions"]:
            assert g.rules.current_player(s) == seat
            g.rules.apply(s, action)
        assert g.rules.is_over(s) and g.rules.scores(s) == rec["scores"]
        totals = [sc["total"] for sc in rec["scores"]]  # M-P4: equal totals share the place
        assert rec["ranks"] == [1 + sum(t > mine for t in totals) for mine in totals]


# --- 2. hand-computed edge cases -------------------------------------------------------------
def test_unequal_clusters_design_effect_by_hand():
    # clusters {1}, {1, 1}, {0, 0, 1}: n = 6, p = 2/3, y - p m = (1/3, 2/3, -1),
    # V_cluster = 3/2 * (1/9 + 4/9 + 1) / 36 = 7/108, V_binomial = (2/3)(1/3)/6 = 1/27, deff = 7/4
    values = np.array([1, 1, 1, 0, 0, 1], float)
    clusters = np.array([0, 1, 1, 2, 2, 2])
    assert cluster_variance(values, clusters) == pytest.approx(7 / 108, rel=1e-12)
    p, lo, hi = proportion_ci(values, clusters)
    assert p == pytest.approx(2 / 3)
    # the variance is estimated from 3 clusters: t(2) = 4.303 for z (with z: [0.2248, 0.9324])
    assert (lo, hi) == pytest.approx(wilson_roots(2 / 3, 6 / 1.75, 4.303), abs=1e-12)
    # by hand: t^2/n = 5.40044, centre (2/3 + 2.70022) / 6.40044 = 0.52604,
    # half t sqrt(0.064815 + 0.393739) / 6.40044 = 0.45528 -> 0.0708, 0.9813
    assert (lo, hi) == pytest.approx((0.07076, 0.98132), abs=5e-5)


def test_lineups_are_strata_and_a_deal_is_one_cluster_across_them():
    """Lineups are fixed by the design (each played as often), so the pooled rate's variance
    counts no difference between them: one lineup always won and one always lost, 10 deals of
    2 outcomes each. Before, the residuals were taken from the pooled mean (each cluster
    +-1 off), deff 2.1 instead of 1. And a deal's luck is shared by every lineup (the same
    seed), so a deal is one cluster across lineups."""
    values = np.array([1.0] * 20 + [0.0] * 20)
    deal = np.tile(np.arange(10).repeat(2), 2)
    lineup = np.arange(40) // 20
    assert cluster_variance(values, deal, lineup) == 0.0
    assert proportion_ci(values, deal, strata=lineup)[1:] == pytest.approx(wilson_roots(0.5, 40, t_quantile(9)),
                                                                           abs=1e-12)
    # without strata, a cluster per deal and lineup: C = 20, each cluster's sum off by 1
    old = cluster_variance(values, lineup * 10 + deal)
    assert old == pytest.approx(20 / 19 * 20 / 40 ** 2) and old / (0.25 / 40) > 2
    # shared deal luck: both lineups win the even deals and lose the odd ones; residuals
    # +-0.5 per outcome, 4 per deal across the two lineups: sum +-2 per deal,
    # V = 10/9 * 10 * 4 / 40^2 = 1/36 (against 20/19 * 20 * 1 / 40^2 = 1/76 per lineup-deal)
    luck = np.tile(np.repeat([1.0, 0.0] * 5, 2), 2)
    assert cluster_variance(luck, deal, lineup) == pytest.approx(1 / 36, rel=1e-12)
    assert cluster_variance(luck, lineup * 10 + deal, lineup) == pytest.approx(1 / 76, rel=1e-12)


def test_zero_and_full_win_rates_and_all_ties():
    # 2 players, 5 deals x 2 seatings; a always wins: 100% [n/(n+t^2), 1] = [10/17.7063, 1], t(4) = 2.776
    # (before: z for z, [0.72246, 1], beside a mean rank interval of [1, 1.43523], 2 minus [0.56477, 1])
    seats = [[0, 1], [1, 0]] * 5
    deal = np.arange(10) // 2
    totals = [[30, 10], [10, 30]] * 5
    pairs = pair_stats(table(totals, seats, deal), ["a", "b"])
    ab, ba = pairs[("a", "b")], pairs[("b", "a")]
    assert (ab.wins, ab.ties, ab.losses, ab.win_rate) == (10, 0, 0, 1.0)
    T4 = t_quantile(4)
    assert (ab.ci_low, ab.ci_high) == pytest.approx((10 / (10 + T4 * T4), 1.0), abs=1e-12)
    assert ab.ci_low == pytest.approx(0.56477, abs=1e-5)
    assert (ba.win_rate, ba.ci_low) == (0.0, 0.0) and ba.ci_high == pytest.approx(T4 * T4 / (10 + T4 * T4), abs=1e-12)
    # every game tied (points and stations): 0-10-0, 50%, Wilson on 10 with t(4) (the outcomes have
    # no spread, so the cluster variance is 0 and the design effect stays 1): 0.17014, 0.82986, the
    # mean rank's 2 - q below (before: z, 0.2366, 0.7634)
    tied = table([[20, 20]] * 10, seats, deal, stations=[[2, 2]] * 10)
    pairs = pair_stats(tied, ["a", "b"])
    ab = pairs[("a", "b")]
    assert (ab.wins, ab.ties, ab.losses, ab.win_rate) == (0, 10, 0, 0.5)
    assert (ab.ci_low, ab.ci_high) == pytest.approx((0.17014, 0.82986), abs=1e-5)
    stats = agent_stats(tied, ["a", "b"], ["a", "b"])
    # mean rank 1.5 with no spread: var 0, so n_eff = n = 10; 5 deals -> t(4) = 2.776, q = 0.5:
    # t^2/n = 0.77063, half = 2.776 sqrt(0.025 + 0.019265) / 1.77063 = 0.32986 -> q in
    # [0.17014, 0.82986], ranks 2 - q: [1.1701, 1.8299] (before: [1.5, 1.5], zero width)
    for s in stats:
        assert (s.mean_rank, s.rank_ci_low, s.rank_ci_high) == pytest.approx((1.5, 1.17014, 1.82986), abs=1e-5)
        assert (s.rank_ci_low, s.rank_ci_high) == pytest.approx(rank_interval([1.5] * 10, list(deal), 2)[1:], abs=1e-12)
    # the all-won a: rank 1 in every game, q = 1, n_eff = 10: [1, 1 + (1 - 10 / (10 + t^2))] = [1, 1.4352]
    a, b = agent_stats(table(totals, seats, deal), ["a", "b"], ["a", "b"])
    assert (a.mean_rank, a.rank_ci_low) == (1.0, 1.0) and a.rank_ci_high == pytest.approx(1 + (1 - 10 / (10 + 2.776 ** 2)))
    assert a.rank_ci_high == pytest.approx(1.43523, abs=1e-5) and (b.rank_ci_low, b.rank_ci_high) == pytest.approx((1.56477, 2.0), abs=1e-5)
    # the same points, different stations: no tie (R-P8)
    pairs = pair_stats(table([[20, 20]] * 10, seats, deal, stations=[[3, 2], [2, 3]] * 5), ["a", "b"])
    assert (pairs[("a", "b")].wins, pairs[("a", "b")].ties) == (10, 0)


def test_a_single_deal_is_plain_wilson():
    # 2 players, 1 deal: a wins one seating, loses the other; one cluster -> deff 1, Wilson(0.5, 2)
    g = table([[30, 10], [30, 10]], [[0, 1], [1, 0]], deal=[0, 0])
    ab = pair_stats(g, ["a", "b"])[("a", "b")]
    assert (ab.wins, ab.losses, ab.win_rate) == (1, 1, 0.5)
    # by hand: centre 0.5, half = z sqrt(1/8 + z^2/16) / (1 + z^2/2) = 0.4093 -> [0.0945, 0.9055]
    assert (ab.ci_low, ab.ci_high) == pytest.approx((0.09453, 0.90547), abs=1e-5)
    a, b = agent_stats(g, ["a", "b"], ["a", "b"])
    # ranks of a: 1 and 2, one cluster: V_plain = (0.25 + 0.25) / 4 = 0.125, df n - 1 = 1, t 12.706;
    # q = 0.5, n_eff = 0.25 / 0.125 = 2: t^2/2 = 80.72, half = 12.706 sqrt(0.125 + 10.0902) / 81.721
    # = 0.49694 -> q in [0.00307, 0.99694], ranks [1.0031, 1.9969] (before: 1.5 -+ 0.98 cut to [1, 2])
    assert a.mean_rank == 1.5 and (a.rank_ci_low, a.rank_ci_high) == pytest.approx((1.00307, 1.99693), abs=1e-5)


def test_mean_rank_interval_stays_within_the_places():
    # 2 players, 3 deals: a first in 5 of 6 games. ranks of a by deal: (1,1), (1,1), (1,2);
    # mean 7/6; y - mean m = (-1/3, -1/3, 2/3); V_cluster = 3/2 * (6/9) / 36 = 1/36; V_plain =
    # (5/36 + 25/36) / 36 = 5/216 < 1/36, so var = 1/36; t(2) = 4.303. q = 2 - 7/6 = 5/6, n_eff =
    # (5/36) / (1/36) = 5: t^2/n = 3.70316, centre (5/6 + 1.85158) / 4.70316 = 0.57087, half
    # 4.303 sqrt(1/36 + 0.18516) / 4.70316 = 0.42219 -> q in [0.14869, 0.99306]: a [1.0069, 1.8513]
    # and b (q = 1/6) [1.1487, 1.9931]. (Before: 7/6 -+ z/6 = [0.840, 1.493] cut to [1, 1.493].)
    totals = [[30, 10], [10, 30], [30, 10], [10, 30], [30, 10], [30, 10]]
    seats = [[0, 1], [1, 0]] * 3
    a, b = agent_stats(table(totals, seats, deal=[0, 0, 1, 1, 2, 2]), ["a", "b"], ["a", "b"])
    assert a.mean_rank == pytest.approx(7 / 6) and b.mean_rank == pytest.approx(11 / 6)
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((1.00694, 1.85131), abs=1e-5)
    assert (b.rank_ci_low, b.rank_ci_high) == pytest.approx((1.14869, 1.99306), abs=1e-5)
    assert a.win_rate == pytest.approx(5 / 6)
    # the win rate has the same size: deff = V_cluster / V_binomial = (1/36) / (5/216) = 6/5, 6 / deff = 5,
    # and, its variance being the clusters', the same t(2): the rank interval is 2 minus it
    lo_t, hi_t = wilson_roots(5 / 6, 5, 4.303)
    assert (a.win_ci_low, a.win_ci_high) == pytest.approx((lo_t, hi_t), abs=1e-12)
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((2 - hi_t, 2 - lo_t), abs=1e-12)


def test_four_players_win_rate_is_over_seat_pairs():
    # 4 players, agents a b c d; one deal in 4 rotations. Totals by agent: c 40 > a 30 > d 20 > b 10,
    # except in the last game where a and b tie at 25 (same stations): a vs b is then 0.5
    names = ["a", "b", "c", "d"]
    rot = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
    by_agent = [[30, 10, 40, 20]] * 3 + [[25, 25, 40, 20]]
    totals = [[by_agent[g][k] for k in rot[g]] for g in range(4)]
    g = table(totals, rot, deal=[0] * 4)
    pairs = pair_stats(g, names)
    ab = pairs[("a", "b")]
    assert (ab.games, ab.outcomes, ab.wins, ab.ties, ab.losses) == (4, 4, 3, 1, 0) and ab.win_rate == pytest.approx(3.5 / 4)
    assert pairs[("a", "c")].win_rate == 0.0 and pairs[("d", "b")].win_rate == pytest.approx(3 / 4)  # 20 < 25 at the end
    # a pooled against b, c, d: 3.5 + 0 + 4 = 7.5 of 12
    stats = agent_stats(g, names, names)
    assert stats[0].win_rate == pytest.approx(7.5 / 12)
    # mean ranks: a 2nd thrice and 2.5 (shares 2nd-3rd with b) once; b 4th thrice and 2.5 once
    assert stats[0].mean_rank == pytest.approx((2 * 3 + 2.5) / 4) and stats[1].mean_rank == pytest.approx((4 * 3 + 2.5) / 4)
    # c first in all 4 games of one deal: q = 1, n_eff = n = 4, df n - 1 = 3, t 3.182:
    # q in [4 / (4 + 10.1251), 1] = [0.28318, 1] -> ranks [1, 4 - 3 * 0.28318] = [1, 3.1504] (before [1, 1])
    assert stats[2].mean_rank == 1.0 and stats[2].rank_ci_low == 1.0
    assert stats[2].rank_ci_high == pytest.approx(4 - 3 * 4 / (4 + 3.182 ** 2), abs=1e-12)


def test_five_players_with_repeats_compare_every_seat_pair():
    # 5 players, lineup AAABB (agents 0 x3, 1 x2): each game gives 3 x 2 = 6 outcomes for a vs b.
    # game 0: A seats score 50, 10, 30; B seats 40, 20 -> A wins 50>40, 50>20, 30>20 = 3 of 6
    # game 1: A 10, 10, 10; B 10 (same stations: tie), 5 -> ties 3 (10 = 10), wins 3 (10 > 5)
    seats = [[0, 0, 0, 1, 1], [0, 1, 0, 0, 1]]
    totals = [[50, 10, 30, 40, 20], [10, 10, 10, 10, 5]]
    g = table(totals, seats, deal=[0, 1], seating=[0, 0])
    ab = pair_stats(g, ["a", "b"])[("a", "b")]
    assert (ab.games, ab.outcomes, ab.wins, ab.ties, ab.losses) == (2, 12, 6, 3, 3)
    assert ab.win_rate == pytest.approx(7.5 / 12)
    # deal clusters: y = (3, 4.5), m = (6, 6), p = 0.625: y - p m = (-0.75, 0.75); V_c = 2 * 1.125 / 144
    # = 1/64; V_b = 0.625 * 0.375 / 12 = 0.01953; deff = 0.8 -> 1 (never narrower than Wilson on 12);
    # 2 deals (< 5): at least 12 outcomes / 2 games = 6 -> Wilson on 2 (before: on 12, [0.354, 0.835]),
    # with t(1) = 12.706 for z, as wherever there are 2 deals or more (before: z, [0.14169, 0.94390])
    assert (ab.ci_low, ab.ci_high) == pytest.approx(wilson_roots(0.625, 2, 12.706), abs=1e-12)
    assert (ab.ci_low, ab.ci_high) == pytest.approx((0.00479, 0.99827), abs=1e-5)
    a, b = agent_stats(g, ["a", "b"], ["a", "b"])
    assert (a.games, a.seats, b.seats) == (2, 6, 4)
    # a's average ranks: game 0: 1, 5, 3; game 1: four-way tie at 10 for places 1..4 -> 2.5 each
    assert a.mean_rank == pytest.approx((1 + 5 + 3 + 2.5 * 3) / 6)


# --- 3. ratings -----------------------------------------------------------------------------
def test_one_game_rating_update_by_hand():
    # defaults mu 25, sigma 25/3, beta 25/6, tau 25/300: sigma^2 = 69.4514, c = sqrt(2 (69.4514 + 17.3611))
    # = 13.1767; winner: omega = sigma^2 / c * 1/2 = 2.6354, delta = gamma sigma^2 / c^2 / 4 = 0.06325
    # -> mu 27.6354, sigma 8.33375 sqrt(1 - 0.06325) = 8.0659; the loser mu 22.3646, same sigma
    g = table([[30, 10]], [[0, 1]], deal=[0])
    (mu0, s0, o0), (mu1, s1, o1) = fit_ratings(g, 2)
    assert (mu0, mu1) == pytest.approx((27.63539, 22.36461), abs=1e-4) and s0 == s1 == pytest.approx(8.06590, abs=1e-4)
    assert o0 == pytest.approx(mu0 - 3 * s0)
    (w, sw), (l, sl) = pl_update([25, 25], [25 / 3, 25 / 3], [1, 2])
    assert (mu0, s0, mu1, s1) == pytest.approx((w, sw, l, sl), abs=1e-10)
    # a tie (points and stations): mu unchanged, sigma shrinks alike
    (mu0, s0, _), (mu1, s1, _) = fit_ratings(table([[20, 20]], [[0, 1]], deal=[0]), 2)
    assert (mu0, mu1) == pytest.approx((25, 25), abs=1e-12) and s0 == pytest.approx(s1) and s0 < 25 / 3
    # a forfeit ranks last whatever its points: the same update as a plain loss
    forfeit = fit_ratings(table([[10, 90]], [[0, 1]], deal=[0], forfeit=[1]), 2)
    assert [m for m, _, _ in forfeit] == pytest.approx([w, l], abs=1e-10)


def test_an_agent_in_two_seats_gets_the_mean_of_its_seats_updates():
    """Before: the same rating object was passed for both seats; OpenSkill deep-copies the
    teams with a memo, so both seats were one object: tau was added to its sigma twice and
    the second seat's update was applied on top of the first (mu 24.39 instead of the mean
    24.64 here, and the opponent's update changed too)."""
    # 3 players, lineup AAB; A first and third, B second
    g = table([[30, 20, 10]], [[0, 1, 0]], deal=[0], seating=[0])
    (muA, sA, _), (muB, sB, _) = fit_ratings(g, 2)
    (m1, s1), (mb, sb), (m3, s3) = pl_update([25] * 3, [25 / 3] * 3, [1, 2, 3])
    assert muA == pytest.approx((m1 + m3) / 2, abs=1e-10) and sA == pytest.approx((s1 + s3) / 2, abs=1e-10)
    assert (muB, sB) == pytest.approx((mb, sb), abs=1e-10)
    assert muA == pytest.approx(24.64137, abs=1e-4)  # by hand: (27.8690 + 21.4137) / 2


def _random_table(seed: int, lineup_list, deals: int) -> Games:
    rng = np.random.default_rng(seed)
    rows = []
    for L, u in enumerate(lineup_list):
        P = len(u)
        for d in range(deals):
            for r in range(P):
                rows.append((L, d, r, [u[(s + r) % P] for s in range(P)]))
    seats = np.array([s for *_, s in rows])
    strength = np.array([0, 8, 16, 24])  # agent k scores about 8 k more
    totals = strength[seats] + rng.integers(0, 20, size=seats.shape)
    return table(totals, seats, deal=[d for _, d, _, _ in rows], lineup=[L for L, *_ in rows],
                 seating=[r for _, _, r, _ in rows], stations=rng.integers(0, 2, size=seats.shape))


def test_ratings_follow_the_documented_order_and_not_the_row_order():
    ups = lineups(4, 3)
    g = _random_table(1, ups, deals=4)
    got = fit_ratings(g, 4)
    # the same table with its rows shuffled: the ratings still go deal-major
    perm = np.random.default_rng(2).permutation(len(g))
    shuffled = Games(**{k: (v[perm] if isinstance(v, np.ndarray) else v) for k, v in vars(g).items()})
    assert np.asarray(fit_ratings(shuffled, 4)) == pytest.approx(np.asarray(got), abs=1e-12)
    # independently: one Plackett-Luce update per game, deal by deal, then lineup, then seating
    _, comp = g.ranks()
    mu, sigma = [25.0] * 4, [25 / 3] * 4
    for i in sorted(range(len(g)), key=lambda i: (g.deal[i], g.lineup[i], g.seating[i])):
        ks = g.seats[i].tolist()
        for k, (m, s) in zip(ks, pl_update([mu[k] for k in ks], [sigma[k] for k in ks], comp[i].tolist())):
            mu[k], sigma[k] = m, s
    assert [m for m, _, _ in got] == pytest.approx(mu, abs=1e-9)
    assert [s for _, s, _ in got] == pytest.approx(sigma, abs=1e-9)
    # and the order matters (so the check above can fail): lineup-major gives other ratings
    mu2, sigma2 = [25.0] * 4, [25 / 3] * 4
    for i in range(len(g)):
        ks = g.seats[i].tolist()
        for k, (m, s) in zip(ks, pl_update([mu2[k] for k in ks], [sigma2[k] for k in ks], comp[i].tolist())):
            mu2[k], sigma2[k] = m, s
    assert max(abs(a - b) for a, b in zip(mu, mu2)) > 1e-3
    assert mu[3] > mu[2] > mu[1] > mu[0]


def test_ratings_do_not_depend_on_the_seat_order_within_a_game():
    g = _random_table(3, lineups(4, 3), deals=3)
    flipped = Games(**{k: (v[:, ::-1].copy() if k in ("seats", "scores", "tiebreak") else v) for k, v in vars(g).items()})
    assert np.asarray(fit_ratings(flipped, 4)) == pytest.approx(np.asarray(fit_ratings(g, 4)), abs=1e-9)


# --- 4. the printed tables and the files ----------------------------------------------------
def _round(x: float, digits: int) -> str:
    """The value as results.json writes it (repr), rounded half to even."""
    return f"{Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN):f}"


def pct(x: float) -> str:
    """A share as a percentage with one decimal, from the written value, half to even."""
    return f"{(Decimal(repr(x)) * 100).quantize(Decimal('0.1'), rounding=ROUND_HALF_EVEN):f}"


def test_formatting_rounds_the_written_value():
    from spacemission_agents.arena_output import _fmt, _pct

    # 0.2875 = 11.5 / 40 is 28.75%: half to even -> 28.8 (100 * 0.2875 is 28.749999... in binary)
    assert _pct(0.2875) == "28.8" and _pct(0.6125) == "61.2" and _pct(0.0625) == "6.2"
    assert _fmt(2.675, 2) == "2.68" and _fmt(1.125, 2) == "1.12" and _fmt(-8.45, 1) == "-8.4"
    assert _pct(1.0) == "100.0" and _pct(0.0) == "0.0" and _fmt(float("nan")) == "-" and _pct(float("nan")) == "-"
    for k, n in [(k, n) for n in (8, 40, 80, 120, 1000) for k in range(2 * n + 1)] + [(x, 10**6) for x in random.Random(0).sample(range(10**6), 300)]:
        v = k / 2 / n  # a win rate with ties half: every exact tie of the last digit among them
        assert _pct(v) == pct(v), (k, n)


def _rows(t) -> list[list[str]]:
    import rich.console

    console = rich.console.Console(width=400, record=True, color_system=None)
    console.print(t)
    text = console.export_text()
    return [[c.strip() for c in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]


def _header(t) -> list[str]:
    return [str(c.header) for c in t.columns]


@pytest.mark.parametrize("fixture", ["spacemission3", "red_planet4"])
def test_printed_tables_equal_the_result_files(fixture, request):
    result, out = request.getfixturevalue(fixture)
    data = json.loads((out / "results.json").read_text())
    agents_t, pairs_t = result.table()
    rows = _rows(agents_t)
    # the round-limit column (R-E3) only where a game can end at one: not in Red Planet's ten rounds
    limit = fixture != "red_planet4"
    assert ("R-E3" in _header(agents_t)) == limit and ("R-E3" in _header(pairs_t)) == limit
    if not limit:  # the same checks below, on the rows as if the column were there
        rows = [r[:7] + [f"{pct(0.0)}%"] + r[7:] for r in rows]
    by_name = {a["name"]: a for a in data["agents"]}
    assert [r[0] for r in rows] == [a["name"] for a in sorted(data["agents"], key=lambda a: -a["ordinal"])]
    for r in rows:
        a = by_name[r[0]]
        assert r[1] == str(a["games"])
        assert r[2] == f"{pct(a['win_rate'])} [{pct(a['win_ci_low'])}, {pct(a['win_ci_high'])}]"
        assert r[3] == f"{_round(a['mean_rank'], 2)} [{_round(a['rank_ci_low'], 2)}, {_round(a['rank_ci_high'], 2)}]"
        assert r[4] == _round(a["mean_score"]["total"], 1)
        assert r[5] == f"{_round(a['mu'], 1)} +- {_round(a['sigma'], 1)}" and r[6] == _round(a["ordinal"], 1)
        assert r[7] == f"{pct(a['round_limit_share'])}%" and r[8] == str(a["forfeits"])
        # the interval holds the estimate, also as printed
        p, lo, hi = (float(x) for x in r[2].replace("[", "").replace("]", "").replace(",", "").split())
        assert lo <= p <= hi and a["win_ci_low"] <= a["win_rate"] <= a["win_ci_high"]
        assert 1 <= a["rank_ci_low"] <= a["mean_rank"] <= a["rank_ci_high"] <= data["config"]["num_players"]
    pairs = {(p["agent"], p["opponent"]): p for p in data["pairs"]}
    prow = _rows(pairs_t)
    if not limit:
        prow = [r[:5] + [f"{pct(0.0)}%"] + r[5:] for r in prow]
    names = data["config"]["agents"]
    assert len(prow) == math.comb(len(names), 2)
    for r in prow:
        x, y = r[0].split(" vs ")
        p = pairs[(x, y)]
        assert names.index(x) < names.index(y)
        assert r[1] == str(p["games"]) and r[3] == f"{p['wins']}-{p['ties']}-{p['losses']}"
        assert r[2] == f"{pct(p['win_rate'])} [{pct(p['ci_low'])}, {pct(p['ci_high'])}]"
        w, lo, hi = (float(v) for v in r[2].replace("[", "").replace("]", "").replace(",", "").split())
        assert lo <= w <= hi and abs(w - 100 * p["win_rate"]) <= 0.05 + 1e-9
        assert r[4] == f"{_round(p['mean_score']['total'], 1)} : {_round(p['opponent_mean_score']['total'], 1)}"
        assert r[5] == f"{pct(p['round_limit_share'])}%" and r[6] == f"{p['forfeits']} : {p['opponent_forfeits']}"
    # the CSV files hold the JSON's numbers
    with open(out / "pairs.csv") as fh:
        for row in csv.DictReader(fh):
            p = pairs[(row["agent"], row["opponent"])]
            for k in ("win_rate", "ci_low", "ci_high"):
                assert float(row[k]) == p[k]
            assert (int(row["wins"]), int(row["ties"]), int(row["losses"])) == (p["wins"], p["ties"], p["losses"])
    with open(out / "agents.csv") as fh:
        for row in csv.DictReader(fh):
            a = by_name[row["name"]]
            for k in ("win_rate", "win_ci_low", "win_ci_high", "mean_rank", "rank_ci_low", "rank_ci_high", "mu", "sigma"):
                assert float(row[k]) == a[k]


# --- 2b. the 2026-11-27 interval fixes, each failing on the earlier code ---------------------
def test_t_quantile_table_and_expansion():
    from spacemission_agents.arena_stats import t975

    assert [t975(df) for df in range(1, 31)] == T975
    # Cornish-Fisher at 30: 1.95996 + 9.48872 / 120 + 270.950 / 86400 = 2.04218 (table 2.042)
    z = Z
    assert z + (z ** 3 + z) / 120 + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 86400 == pytest.approx(2.042, abs=3e-4)
    for df in (31, 40, 60, 120, 10 ** 6):
        assert t975(df) == pytest.approx(t_quantile(df), abs=1e-12)
    assert 2.042 > t975(31) > t975(60) > t975(10 ** 6) > Z and t975(60) == pytest.approx(2.0003, abs=1e-4)


def test_mean_rank_interval_of_an_agent_first_in_every_game_is_not_zero_width():
    # 2 players, 40 deals x 2 seatings, a always first. Before: 1.00 [1.00, 1.00] beside a win
    # rate of 100% [95.4, 100]. Now q = 1, n_eff = 80, t(39) = 1.95996 + 0.06083 + 0.00186 = 2.02265
    # (Cornish-Fisher; exact 2.02269): ranks [1, 1 + (1 - 80 / (80 + 4.09110))] = [1, 1.04865]
    seats = [[0, 1], [1, 0]] * 40
    deal = np.arange(80) // 2
    a, b = agent_stats(table([[30, 10], [10, 30]] * 40, seats, deal), ["a", "b"], ["a", "b"])
    t = t_quantile(39)
    assert t == pytest.approx(2.02265, abs=1e-5)
    assert (a.mean_rank, a.rank_ci_low) == (1.0, 1.0)
    assert a.rank_ci_high == pytest.approx(1 + (1 - wilson_roots(1.0, 80, t)[0]), abs=1e-12)
    assert a.rank_ci_high == pytest.approx(1.04865, abs=1e-5)
    assert (b.rank_ci_low, b.rank_ci_high) == pytest.approx((2 - (a.rank_ci_high - 1), 2.0), abs=1e-12)


@pytest.mark.parametrize("pattern", ["deal_luck", "seat_luck"])
def test_two_player_mean_rank_interval_is_two_minus_the_win_rate_interval(pattern):
    # 2 players, 40 deals x 2 seatings, no ties: a's rank is 2 - its outcome, so q = the outcome,
    # V_plain = p (1 - p) / n = V_binomial and n_eff = n / deff. deal_luck: a wins both games of
    # deals 0-23, loses both of 24-29, splits 30-39 (deff 1.41); seat_luck: a wins seat 0 of every
    # deal and seat 1 of deals 0-15 (deff = 1: every deal's sum is 1 or 2, less spread than binomial;
    # before, the win rate took z there and the rank interval t, so they differed)
    seats = [[0, 1], [1, 0]] * 40
    deal = np.arange(80) // 2
    if pattern == "deal_luck":
        a_wins = [d < 24 or (d >= 30 and s == 0) for d in range(40) for s in range(2)]
    else:
        a_wins = [s == 0 or d < 16 for d in range(40) for s in range(2)]
    totals = [([30, 10] if w else [10, 30])[:: 1 if s[0] == 0 else -1] for w, s in zip(a_wins, seats)]
    a, _ = agent_stats(table(totals, seats, deal), ["a", "b"], ["a", "b"])
    outcomes = [float(w) for w in a_wins]
    p, lo, hi, deff = clustered_interval(outcomes, list(deal))
    assert 0 < p < 1 and a.win_rate == pytest.approx(p) and (deff > 1.2) == (pattern == "deal_luck")
    assert (a.win_ci_low, a.win_ci_high) == pytest.approx((lo, hi), abs=1e-12)
    lo_t, hi_t = wilson_roots(p, 80 / deff, t_quantile(39))
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((2 - hi_t, 2 - lo_t), abs=1e-12)
    assert a.mean_rank == pytest.approx(2 - p)


def test_mean_rank_interval_with_two_deals_uses_t_and_the_plain_variance():
    # 4 players, agents a b c d, 2 deals x 4 rotations. a's ranks 1, 2, 3, 4 in deal 0 and 4, 3,
    # 2, 1 in deal 1: mean 2.5, each deal's residuals sum to 0, V_cluster = 0. Before: [2.5, 2.5].
    # Now var = V_plain = 2 (2.25 + 0.25 + 0.25 + 2.25) / 64 = 0.15625, var_q = var / 9 = 0.017361,
    # q = 0.5, n_eff = 0.25 / 0.017361 = 14.4, t(1) = 12.706: t^2/n = 11.2113, half =
    # 12.706 sqrt(0.017361 + 0.19464) / 12.2113 = 0.47909 -> q in [0.02091, 0.97909],
    # ranks 4 - 3 q: [1.0627, 3.9373]
    rot = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]] * 2
    a_rank = [1, 2, 3, 4, 4, 3, 2, 1]
    totals = []
    for g, seat_row in enumerate(rot):
        others = iter(r for r in (1, 2, 3, 4) if r != a_rank[g])  # b, c, d take the other places in order
        place = {k: (a_rank[g] if k == 0 else next(others)) for k in (0, 1, 2, 3)}
        totals.append([50 - 10 * place[k] for k in seat_row])
    g = table(totals, rot, deal=[0] * 4 + [1] * 4)
    a = agent_stats(g, list("abcd"), list("abcd"))[0]
    assert a.mean_rank == 2.5 and cluster_variance(np.array(a_rank, float), np.array([0] * 4 + [1] * 4)) == 0.0
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((1.06273, 3.93727), abs=1e-5)
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx(rank_interval(a_rank, [0] * 4 + [1] * 4, 4)[1:], abs=1e-12)


def test_seat_pairs_of_one_deal_count_as_games_not_comparisons():
    # Red Planet-like 5 players, lineup AAAAB rotated over 5 seatings of ONE deal: 4 a-b outcomes
    # per game. B (50 points) beats the four A seats (10, 20, 30, 40) in games 0-3; in game 4 B has
    # 35: ahead of three. B's rate 19/20 = 0.95. One deal: no design effect, so before it was
    # Wilson on 20 outcomes, [0.764, 0.991]; now deff = 20 outcomes / 5 games = 4: Wilson on 5:
    # z^2/5 = 0.76829, centre (0.95 + 0.38415) / 1.76829 = 0.75448, half 1.96 sqrt(0.0095 + 0.03841)
    # / 1.76829 = 0.24262 -> [0.5119, 0.9971]
    u = [0, 0, 0, 0, 1]
    seats = [[u[(s + r) % 5] for s in range(5)] for r in range(5)]
    totals = []
    for r, row in enumerate(seats):
        a_pts = iter([10, 20, 30, 40])
        totals.append([(35 if r == 4 else 50) if k == 1 else next(a_pts) for k in row])
    g = table(totals, seats, deal=[0] * 5, seating=list(range(5)))
    ba = pair_stats(g, ["a", "b"])[("b", "a")]
    assert (ba.games, ba.outcomes, ba.wins, ba.losses) == (5, 20, 19, 1) and ba.win_rate == pytest.approx(0.95)
    assert (ba.ci_low, ba.ci_high) == pytest.approx(wilson_roots(0.95, 5), abs=1e-12)
    assert (ba.ci_low, ba.ci_high) == pytest.approx((0.51186, 0.99710), abs=1e-5)
    a, b = agent_stats(g, ["a", "b"], ["a", "b"])
    assert (b.win_ci_low, b.win_ci_high) == pytest.approx((ba.ci_low, ba.ci_high), abs=1e-12)
    assert (a.win_ci_low, a.win_ci_high) == pytest.approx(wilson_roots(0.05, 5), abs=1e-12)
    # without the games (as the benchmarks call it) it stays Wilson on the 20 outcomes
    out = np.array([1.0] * 19 + [0.0])
    assert proportion_ci(out, np.zeros(20))[1:] == pytest.approx(wilson_roots(0.95, 20), abs=1e-12)


def test_mean_rank_counts_games_not_seats_when_an_agent_sits_twice():
    """3 players, lineup a a b, one deal in 3 rotations: a's 6 ranks come from 3 games, and
    a's two seats in a game are one observation (their ranks are tied together: if one is
    first the other is not). Before, one deal gave n - 1 = 5 degrees of freedom and the
    plain variance of 6 ranks; now 3 games: t(2) and the variance clustered by game."""
    seats = [[0, 0, 1], [0, 1, 0], [1, 0, 0]]
    totals = [[30, 20, 10], [30, 40, 10], [5, 30, 20]]  # a's ranks (1, 2), (2, 3), (1, 2)
    g = table(totals, seats, deal=[0, 0, 0])
    a = agent_stats(g, ["a", "b"], ["a", "b"])[0]
    ranks, games = [1, 2, 2, 3, 1, 2], [0, 0, 1, 1, 2, 2]
    assert a.mean_rank == pytest.approx(11 / 6)
    expected = rank_interval(ranks, [0] * 6, 3, games=games)
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx(expected[1:], abs=1e-12)
    seats_only = rank_interval(ranks, [0] * 6, 3)  # the old count: 6 independent ranks
    assert a.rank_ci_high - a.rank_ci_low > seats_only[2] - seats_only[1] + 0.1


def test_one_deal_mean_rank_variance_gives_each_lineup_its_degree_of_freedom():
    """2 players, agents a b c d, ONE deal in 6 lineups of 2 games (seat-swapped). a: won
    both games against b and d, split with c: ranks 1 1 | 1 2 | 1 1, mean 7/6, q = 5/6. The
    residuals from each lineup's mean are 0 except +-1/2 against c: SS = 1/2. Before: V_plain
    = SS / n^2 = 0.5 / 36 = 0.013889 (n_eff = (5/36) / V = 10) with t(n - 1 = 5) = 2.571:
    ranks [1.0294, 1.5693]. But each lineup's mean takes a degree of freedom: with 2 games a
    lineup, SS / n^2 holds half a lineup's variance (real games: 6 random agents, one deal,
    the interval covered 86% of 1800 agent-runs, runs/). Now V_plain = (n - 1)/n sum_h
    n_h/(n_h - 1) SS_h / n^2 = 5/6 * 2 * 0.5 / 36 = 0.023148, n_eff = 6, t(n - H = 3) =
    3.182: q in wilson(5/6, 6, 3.182) = [0.26207, 0.98599] -> ranks [1.0140, 1.7379]."""
    ups = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    seats = [list(u)[::s] for u in ups for s in (1, -1)]
    first_wins = {(0, 1): (1, 1), (0, 2): (1, 0), (0, 3): (1, 1), (1, 2): (1, 0), (1, 3): (0, 0), (2, 3): (1, 1)}
    totals = []
    for u in ups:
        for s, w in zip((1, -1), first_wins[u]):  # w: the lineup's first agent beat the second
            pts = {u[0]: 30 if w else 10, u[1]: 10 if w else 30}
            totals.append([pts[k] for k in list(u)[::s]])
    g = table(totals, seats, deal=[0] * 12, lineup=np.arange(12) // 2, seating=np.arange(12) % 2)
    a = agent_stats(g, list("abcd"), list("abcd"))[0]
    assert a.mean_rank == pytest.approx(7 / 6)
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((1.01401, 1.73793), abs=1e-5)
    lo, hi = wilson_roots(5 / 6, 6, t_quantile(3))
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((2 - hi, 2 - lo), abs=1e-12)
    ranks = [1, 1, 1, 2, 1, 1]
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx(
        rank_interval(ranks, [0] * 6, 2, strata=[0, 0, 1, 1, 2, 2])[1:], abs=1e-12)
    # one lineup (H = 1) is as before: sum e^2 / n^2 and n - 1 degrees of freedom
    two = table([[30, 10], [10, 30], [10, 30], [30, 10]], [[0, 1], [1, 0], [0, 1], [1, 0]], deal=[0] * 4)
    x = agent_stats(two, ["x", "y"], ["x", "y"])[0]  # ranks 1 1 2 2: q = 1/2, V = 1/16, n_eff 4, t(3)
    lo, hi = wilson_roots(0.5, 4, t_quantile(3))
    assert (x.rank_ci_low, x.rank_ci_high) == pytest.approx((2 - hi, 2 - lo), abs=1e-12)


def test_one_deal_mean_rank_per_game_variance_is_per_lineup():
    """3 players, agents a b, ONE deal: lineups a a b and a b b, 3 rotations each. a sits
    twice in the first lineup's games, so its ranks there are clustered by game; the games
    lie in their lineup, so each lineup's C_h/(C_h - 1) = 3/2, not C/(C - 1) = 6/5 over all
    six games, and the degrees of freedom are G - H = 4, not G - 1 = 5."""
    seats = [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1], [1, 1, 0], [1, 0, 1]]
    totals = [[30, 20, 10], [30, 40, 10], [5, 30, 20], [10, 20, 30], [10, 20, 30], [10, 30, 20]]
    g = table(totals, seats, deal=[0] * 6, lineup=[0, 0, 0, 1, 1, 1], seating=[0, 1, 2] * 2)
    a = agent_stats(g, ["a", "b"], ["a", "b"])[0]
    # a's ranks: game 0: 1, 2; game 1: 2, 3; game 2: 1, 2; game 3: 3; game 4: 1; game 5: 1
    ranks, games, strata = [1, 2, 2, 3, 1, 2, 3, 1, 1], [0, 0, 1, 1, 2, 2, 3, 4, 5], [0] * 6 + [1] * 3
    assert a.mean_rank == pytest.approx(16 / 9)
    expected = rank_interval(ranks, [0] * 9, 3, strata=strata, games=games)
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx(expected[1:], abs=1e-12)
    # by hand: lineup means 11/6 and 5/3; each game's residuals summed, C_h/(C_h - 1) = 3/2 in both
    e0 = [1 + 2 - 2 * 11 / 6, 2 + 3 - 2 * 11 / 6, 1 + 2 - 2 * 11 / 6]
    e1 = [3 - 5 / 3, 1 - 5 / 3, 1 - 5 / 3]
    var = 1.5 * (sum(x * x for x in e0) + sum(x * x for x in e1)) / 81
    q = (3 - 16 / 9) / 2
    lo, hi = wilson_roots(q, q * (1 - q) / (var / 4), t_quantile(4))
    assert (a.rank_ci_low, a.rank_ci_high) == pytest.approx((3 - 2 * hi, 3 - 2 * lo), abs=1e-12)


def test_tables_say_when_one_deal_hides_the_deal_to_deal_variance():
    """With one deal per lineup (games <= seatings per deal) no interval can see how the
    results vary from deal to deal: the agents table says so under it; with two it does not."""
    one = run_arena(["random", "random"], num_players=2, games=2, seed=5, progress=False, record=False)
    agents_t, _ = one.table()
    assert one.config["deals_per_lineup"] == 1
    assert "one deal per lineup" in str(agents_t.caption) and "more than 2 games per lineup" in str(agents_t.caption)
    two = run_arena(["random", "random"], num_players=2, games=3, seed=5, progress=False, record=False)
    assert two.config["deals_per_lineup"] == 2 and two.table()[0].caption is None


@pytest.mark.slow
def test_pooled_win_rate_interval_covers_at_ten_deals():
    """Five exchangeable agents at 5 players, 10 deals x 5 rotations, the order of every game
    uniformly random: each agent's true pooled win rate is 1/2. Its 4 seat-pair outcomes in a
    game move together (deff about 5/3), a variance estimated from 10 deals: with z the
    interval held 1/2 in 1,846 of these 2,000 agent-runs, 92.3% (five Red Planet randoms in
    real games: 1,836 of 2,000); with t(9) for z 1,899, 95.0%."""
    rng = np.random.default_rng(2026)
    rot = [[(s + r) % 5 for s in range(5)] for r in range(5)]
    seats = np.array(rot * 10)
    deal = np.repeat(np.arange(10), 5)
    names = list("abcde")
    covered = total = 0
    for _ in range(400):
        totals = np.argsort(rng.random((50, 5)), axis=1) * 10  # distinct points: a random order
        for a in agent_stats(table(totals, seats, deal, seating=np.tile(np.arange(5), 10)), names, names):
            covered += a.win_ci_low <= 0.5 <= a.win_ci_high
            total += 1
    assert total == 2000 and covered / total >= 0.935, covered / total


def test_one_more_win_never_lowers_the_win_rate_interval():
    """Before: the Wilson interval took Student's t only where V_cluster exceeded V_binomial and z
    elsewhere, so it jumped wider as V_cluster passed V_binomial: 5 deals x 2 seatings, 9 wins
    of 10 got [44.1, 99.0] and 8 of 10, the losses in two deals, [49.0, 94.3]. Now t(C-1)
    wherever there are 2 deals or more (as the mean rank's): turning any one loss of a 2-player
    arena of 2..6 deals into a win never lowers either end of the interval."""
    nine = proportion_ci(np.array([1.0] * 9 + [0.0]), np.arange(10) // 2, units=np.arange(10))
    eight = proportion_ci(np.array([0.0, 1.0] * 2 + [1.0] * 6), np.arange(10) // 2, units=np.arange(10))
    assert nine[1] > eight[1] and nine[2] > eight[2]
    assert nine[1:] == pytest.approx(wilson_roots(0.9, 9, 2.776), abs=1e-12)  # deff (5/4 * 0.8 / 100) / 0.009 = 10/9
    assert eight[1:] == pytest.approx(wilson_roots(0.8, 10, 2.776), abs=1e-12)  # deff 0.9375 -> 1
    for deals in range(2, 7):
        n = 2 * deals
        clusters, units = np.arange(n) // 2, np.arange(n)
        ci = {bits: proportion_ci(np.array(bits, float), clusters, units=units)[1:]
              for bits in itertools.product((0, 1), repeat=n)}
        for bits, (lo, hi) in ci.items():
            for i in np.flatnonzero(np.array(bits) == 0):
                lo2, hi2 = ci[bits[:i] + (1,) + bits[i + 1:]]
                assert lo2 >= lo - 1e-12 and hi2 >= hi - 1e-12, (bits, i)
