"""Statistics of an arena run: ranks, pairwise win rates with confidence intervals,
mean scores, mean ranks and OpenSkill ratings (docs/arena.md, "Statistics").

Everything is computed from the per-game table (:class:`Games`) in canonical game
order, so it does not depend on how the games were spread over workers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spacemission_env.extras import require
from spacemission_env.space_mission.scoring import SCORE_KEYS  # the default score names

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass
class Games:
    """One row per game, in canonical order (lineup, deal, seating). ``seats[g, s]`` is
    the index of the agent at seat s; ``scores[g, s]`` the engine.scores breakdown
    (``score_names`` order, total last; provisional at a forfeit); ``tiebreak[g, s]`` what
    orders equal totals (Space Mission's stations; 0 where ties share the place);
    ``forfeit_seat[g]`` -1 or the seat that forfeited."""

    seeds: np.ndarray
    lineup: np.ndarray
    deal: np.ndarray
    seating: np.ndarray
    seats: np.ndarray
    start_player: np.ndarray
    scores: np.ndarray
    tiebreak: np.ndarray
    round_limit: np.ndarray
    rounds: np.ndarray
    num_actions: np.ndarray
    forfeit_seat: np.ndarray
    score_names: tuple = SCORE_KEYS

    def __len__(self) -> int:
        return len(self.seeds)

    def keys(self) -> np.ndarray:
        """int64 [G, P] final order key: points, then the tie-break (Space Mission's stations,
        R-P8); -1 for a forfeiting seat."""
        key = self.scores[..., -1].astype(np.int64) * 64 + self.tiebreak.astype(np.int64)
        g = np.flatnonzero(self.forfeit_seat >= 0)
        key[g, self.forfeit_seat[g]] = -1
        return key

    def ranks(self) -> tuple[np.ndarray, np.ndarray]:
        """(average ranks float [G, P]: 1 = best, tied seats share the mean of their places;
        competition ranks int [G, P]: 1 + seats strictly better)."""
        key = self.keys()
        better = (key[:, None, :] > key[:, :, None]).sum(axis=2)
        tied = (key[:, None, :] == key[:, :, None]).sum(axis=2)
        return 1.0 + better + (tied - 1) / 2.0, 1 + better


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion p over n trials (n may be fractional)."""
    if n <= 0:
        return 0.0, 1.0
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# Student t_{0.975} for 1..30 degrees of freedom (scipy is not a dependency)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def t975(df: int) -> float:
    """Two-sided 95% Student t quantile: the table up to 30 degrees of freedom, beyond it
    the Cornish-Fisher expansion around the normal quantile (2.0422 at 30, table 2.042)."""
    if df < 1:
        raise ValueError(f"t975 needs df >= 1, got {df}")
    if df <= 30:
        return _T975[int(df) - 1]
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def _residuals(values: np.ndarray, strata: np.ndarray | None) -> np.ndarray:
    """Each value minus its stratum's mean (the overall mean without strata)."""
    if strata is None:
        return values - values.mean()
    _, s_inv = np.unique(strata, return_inverse=True)
    means = np.bincount(s_inv, weights=values) / np.bincount(s_inv)
    return values - means[s_inv]


def cluster_variance(values: np.ndarray, clusters: np.ndarray, strata: np.ndarray | None = None) -> float:
    """Variance of the mean of ``values`` when observations sharing a cluster (a deal
    played with every seating) are correlated: the ratio estimator's cluster-robust
    variance, C/(C-1) * sum_c (sum_{i in c} e_i)^2 / n^2, with e_i = value - mean. With
    ``strata`` (each value's lineup: fixed by the design, every lineup played as often)
    e_i = value - its stratum's mean, so that the differences between lineups (against
    random in one, the heuristic in another) are not counted as noise; a cluster may then
    span strata (a deal is played in every lineup, and its luck is shared). NaN with fewer
    than 2 clusters."""
    n = len(values)
    _, inv = np.unique(clusters, return_inverse=True)
    c = inv.max() + 1 if n else 0
    if c < 2:
        return float("nan")
    e = np.bincount(inv, weights=_residuals(values, strata), minlength=c)
    return float(c / (c - 1) * (e ** 2).sum() / n ** 2)


def _nested_variance(values: np.ndarray, clusters: np.ndarray, strata: np.ndarray | None) -> float:
    """Variance of the mean when each cluster lies in one stratum (a game in one lineup; a
    value on its own): sum_h C_h/(C_h-1) sum_{c in h} (sum_{i in c} e_i)^2 / n^2, e_i = value
    minus its stratum's mean, C_h the clusters of stratum h (one stratum without ``strata``).
    Each stratum's mean costs a degree of freedom, so the correction is per stratum: with
    C/(C-1) over all clusters, 20 lineups of 3 games of one deal gave 2/3 of the variance.
    A stratum of one cluster adds nothing (its residual is 0)."""
    n = len(values)
    _, inv = np.unique(clusters, return_inverse=True)
    e = np.bincount(inv, weights=_residuals(values, strata))
    if strata is None:
        h = np.zeros(len(e), np.int64)
    else:
        _, s_inv = np.unique(strata, return_inverse=True)
        h = np.zeros(len(e), np.int64)
        h[inv] = s_inv  # each cluster's stratum
    c_h = np.bincount(h)
    factor = np.where(c_h > 1, c_h / np.maximum(c_h - 1, 1), 0.0)
    return float((factor[h] * e ** 2).sum() / n ** 2)


def proportion_ci(outcomes: np.ndarray, clusters: np.ndarray, strata: np.ndarray | None = None,
                  units: np.ndarray | None = None) -> tuple[float, float, float]:
    """(estimate, low, high): a Wilson 95% interval on per-game outcomes (1 win, 0.5 tie,
    0 loss) with the number of games shrunk by the design effect of the duplicate
    clusters, deff = max(1, cluster variance / binomial variance). The interval is never
    narrower than plain Wilson: with few deals the cluster variance is too noisy to trust
    the variance reduction that seat rotation brings, and it widens when the games of a
    deal are positively correlated. ``strata``: as in :func:`cluster_variance`.
    ``units`` (each outcome's game): where the design effect cannot be trusted (fewer than
    5 clusters, p of 0 or 1, one cluster) deff is at least outcomes per game, since the
    seat pairs of one game are nearly one observation. Without it, as before (benchmarks).
    With C >= 2 deals the interval uses Student's t with C-1 degrees of freedom for z, as
    :func:`mean_ci` does: the variance, max(cluster, binomial), is chosen by one estimated from
    C deals (with z, 10 deals of five Red Planet randoms covered 91.8%). It was t only where
    the cluster variance won, z elsewhere: the interval jumped wider as V_cluster passed
    V_binomial, so 9 wins of 10 (5 deals) got [44.1, 99.0] and 8 of 10, its two losses in
    two deals, [49.0, 94.3]. Z with a single deal."""
    n = len(outcomes)
    if n == 0:
        return float("nan"), 0.0, 1.0
    p = float(outcomes.mean())
    deff = 1.0
    vb = p * (1 - p) / n
    vc = cluster_variance(outcomes, clusters, strata)
    c = len(np.unique(clusters))
    if vb > 0 and np.isfinite(vc):
        deff = max(1.0, vc / vb)
    floor = n / len(np.unique(units)) if units is not None and (c < 5 or vb == 0 or not np.isfinite(vc)) else 1.0
    # Student's t with C-1 degrees of freedom (as the mean rank's) wherever there are C >= 2 deals, whichever
    # variance is the larger: t only where the cluster one won made the interval jump as it passed the other
    z = t975(c - 1) if c >= 2 else Z95
    low, high = wilson(p, n / max(deff, floor), z)
    return p, min(low, p), max(high, p)


def mean_ci(values: np.ndarray, clusters: np.ndarray, bounds: tuple[float, float] | None = None,
            strata: np.ndarray | None = None, units: np.ndarray | None = None) -> tuple[float, float, float]:
    """(mean, low, high), 95%: variance max(cluster-robust, plain) (never narrower than
    ignoring the clusters: few deals give a noisy, often too small estimate), Student t
    quantile with C-1 degrees of freedom for C clusters (n-H with one, H strata). The plain
    variance is per stratum (each lineup's mean costs a degree of freedom: :func:`_nested_variance`),
    scaled by (n-1)/n so that without strata it is sum e^2 / n^2. Without ``bounds``
    mean -+ t sd. With ``bounds`` (lo, hi) (e.g. the places 1..P of a mean rank) a Wilson
    interval on q = (hi - value)/(hi - lo) with n_eff = q(1-q)/var, mapped back: it stays
    within the bounds and is not zero-width at them (2 players, no ties, 2 deals
    or more: 2 - the win rate's interval). ``strata``: as in :func:`cluster_variance`. ``units``: each
    value's game; where a game gives several values (an agent in several seats) they are
    one observation: the variance is at least the one clustered by game (per stratum), and
    with one cluster the degrees of freedom and the size at the bounds count games."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    if n == 1:  # no spread to measure: the whole range
        return (mean, float(bounds[0]), float(bounds[1])) if bounds is not None else (mean, mean, mean)
    c = len(np.unique(clusters))
    h = 1 if strata is None else len(np.unique(strata))
    # the plain variance sum e^2 / n^2, with the degrees of freedom the lineup means take given
    # back: (n-1)/n times the per-stratum unbiased estimate (one lineup: sum e^2 / n^2 as before)
    var = (n - 1) / n * _nested_variance(values, np.arange(n), strata)
    if c >= 2:
        var = max(var, cluster_variance(values, clusters, strata))
    size = n  # independent observations, at most
    if units is not None and len(np.unique(units)) < n:  # several seats of one game: correlated
        size = len(np.unique(units))
        if size >= 2:
            var = max(var, _nested_variance(values, units, strata))
    t = t975(c - 1 if c >= 2 else max(size - h, 1))  # one deal: each lineup's mean costs a degree of freedom
    if bounds is None:
        half = t * float(np.sqrt(var))
        return mean, mean - half, mean + half
    lo, hi = float(bounds[0]), float(bounds[1])
    q = (hi - mean) / (hi - lo)
    var_q = var / (hi - lo) ** 2
    n_eff = q * (1 - q) / var_q if var_q > 0 and q * (1 - q) > 0 else size
    q_low, q_high = wilson(q, n_eff, t)
    return mean, float(min(hi - q_high * (hi - lo), mean)), float(max(hi - q_low * (hi - lo), mean))


def _breakdown(rows: np.ndarray, names: tuple = SCORE_KEYS) -> dict[str, float]:
    """Mean score breakdown of score rows [n, len(names)] (NaN when there are none)."""
    if len(rows) == 0:
        return {k: float("nan") for k in names}
    m = rows.astype(np.float64).mean(axis=0)
    return {k: round(float(v), 4) for k, v in zip(names, m)}


@dataclass
class PairStats:
    """Agent ``agent`` against ``opponent``. Outcomes are per pair of seats in a game:
    1 if agent finished ahead (R-P8 order, a forfeit last), 0.5 tied, 0 behind; with two
    players that is one outcome per game."""

    agent: str
    opponent: str
    games: int  # games with both in them
    outcomes: int  # seat pairs compared (= games for two players)
    wins: int
    ties: int
    losses: int
    win_rate: float  # ties count half
    ci_low: float
    ci_high: float
    mean_score: dict  # the agent's mean breakdown over those games (forfeited games left out)
    opponent_mean_score: dict
    round_limit_share: float  # of those games (forfeited ones left out) that ended at the round limit (R-E3)
    forfeits: int  # games the agent forfeited
    opponent_forfeits: int


@dataclass
class AgentStats:
    name: str
    spec: str
    games: int
    seats: int  # seats played (more than games when it sits twice in a lineup)
    win_rate: float  # against every other agent, per seat pair; ties half
    win_ci_low: float
    win_ci_high: float
    mean_rank: float  # 1 = first; ties share the mean of their places
    rank_ci_low: float
    rank_ci_high: float
    mean_score: dict
    round_limit_share: float
    forfeits: int
    mu: float = float("nan")
    sigma: float = float("nan")
    ordinal: float = float("nan")  # mu - 3 sigma: a conservative rating


def _pair_outcomes(games: Games, key: np.ndarray, a: int, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(outcomes, game index, seat of a) over every seat pair (seat of a, seat of b)."""
    P = games.seats.shape[1]
    outs, gidx, aseat = [], [], []
    for i in range(P):
        for j in range(P):
            if i == j:
                continue
            g = np.flatnonzero((games.seats[:, i] == a) & (games.seats[:, j] == b))
            outs.append(np.where(key[g, i] > key[g, j], 1.0, np.where(key[g, i] == key[g, j], 0.5, 0.0)))
            gidx.append(g)
            aseat.append(np.full(g.size, i))
    return np.concatenate(outs), np.concatenate(gidx), np.concatenate(aseat)


def _agent_seat_scores(games: Games, g: np.ndarray, agent: int) -> np.ndarray:
    """Score rows [n, 8] of ``agent``'s seats in games ``g`` (each seat once)."""
    sel = games.seats[g] == agent
    return games.scores[g][sel]


def pair_stats(games: Games, names: list[str]) -> dict[tuple[str, str], PairStats]:
    """Every ordered pair of distinct agents that met."""
    key = games.keys()
    done = games.forfeit_seat < 0
    out = {}
    for a in range(len(names)):
        for b in range(len(names)):
            if a == b:
                continue
            outcomes, gidx, _ = _pair_outcomes(games, key, a, b)
            if outcomes.size == 0:
                continue
            both = np.flatnonzero((games.seats == a).any(axis=1) & (games.seats == b).any(axis=1))
            p, low, high = proportion_ci(outcomes, games.deal[gidx], strata=games.lineup[gidx], units=gidx)
            fin = both[done[both]]
            fa = both[~done[both]]
            forf_agent = games.seats[fa, games.forfeit_seat[fa]]
            out[(names[a], names[b])] = PairStats(
                agent=names[a], opponent=names[b], games=int(both.size), outcomes=int(outcomes.size),
                wins=int((outcomes == 1).sum()), ties=int((outcomes == 0.5).sum()), losses=int((outcomes == 0).sum()),
                win_rate=p, ci_low=low, ci_high=high,
                mean_score=_breakdown(_agent_seat_scores(games, fin, a), games.score_names),
                opponent_mean_score=_breakdown(_agent_seat_scores(games, fin, b), games.score_names),
                round_limit_share=float(games.round_limit[fin].mean()) if fin.size else float("nan"),
                forfeits=int((forf_agent == a).sum()), opponent_forfeits=int((forf_agent == b).sum()),
            )
    return out


def agent_stats(games: Games, names: list[str], specs: list[str]) -> list[AgentStats]:
    key = games.keys()
    avg_rank, _ = games.ranks()
    done = games.forfeit_seat < 0
    out = []
    for a, name in enumerate(names):
        sel = games.seats == a
        g_in = np.flatnonzero(sel.any(axis=1))
        gs, ss = np.nonzero(sel)
        outcomes, where = [], []
        for b in range(len(names)):
            if b != a:
                o, gidx, _ = _pair_outcomes(games, key, a, b)
                outcomes.append(o)
                where.append(gidx)
        o = np.concatenate(outcomes) if outcomes else np.zeros(0)
        g = np.concatenate(where) if where else np.zeros(0, np.int64)
        p, low, high = proportion_ci(o, games.deal[g], strata=games.lineup[g], units=g)
        r, rlow, rhigh = mean_ci(avg_rank[gs, ss], games.deal[gs], bounds=(1.0, float(games.seats.shape[1])),
                                 strata=games.lineup[gs], units=gs)
        fin = g_in[done[g_in]]
        forf = np.flatnonzero(~done)
        out.append(AgentStats(
            name=name, spec=specs[a], games=int(g_in.size), seats=int(gs.size), win_rate=p, win_ci_low=low,
            win_ci_high=high, mean_rank=r, rank_ci_low=rlow, rank_ci_high=rhigh,
            mean_score=_breakdown(_agent_seat_scores(games, fin, a), games.score_names),
            round_limit_share=float(games.round_limit[fin].mean()) if fin.size else float("nan"),
            forfeits=int((games.seats[forf, games.forfeit_seat[forf]] == a).sum()),
        ))
    return out


def fit_ratings(games: Games, num_agents: int) -> list[tuple[float, float, float]]:
    """(mu, sigma, ordinal) per agent: OpenSkill's Plackett-Luce model updated game by
    game in deal-major order (every lineup advances together, so no lineup comes "late"),
    ranks from the final order (R-P8; ties share a rank; a forfeit is last). An agent that
    sits in several seats of one game gets the mean of its seats' updated ratings."""
    PlackettLuce = require("openskill.models", "agents", "the arena's ratings").PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(num_agents)]
    _, comp = games.ranks()
    order = np.lexsort((games.seating, games.lineup, games.deal))
    seats = games.seats.tolist()
    comp_l = comp.tolist()
    for g in order.tolist():
        lineup = seats[g]
        # one fresh rating object per seat: OpenSkill deep-copies the teams with a memo, so an
        # agent's one object passed for two seats stayed one object there (tau added twice, the
        # second seat's update applied on top of the first, the others' updates skewed too)
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in lineup]
        new = model.rate(teams, ranks=comp_l[g])
        if len(set(lineup)) == len(lineup):
            for k, team in zip(lineup, new):
                ratings[k] = team[0]
        else:
            for k in set(lineup):
                mine = [team[0] for kk, team in zip(lineup, new) if kk == k]
                ratings[k] = model.rating(mu=float(np.mean([r.mu for r in mine])), sigma=float(np.mean([r.sigma for r in mine])))
    return [(float(r.mu), float(r.sigma), float(r.ordinal())) for r in ratings]
