"""Differential tests: the fast engine against the reference engine.

Random legal play with the same seeds in both engines, every player count and both
rule sets; after every action the full state (to_reference == reference GameState),
the legal mask, observations (every type: info, recall, seer), scores, rewards and terminal flags are
compared (spacemission_env/space_mission/engine/differential.py). Default run: 1,016 games;
under NUMBA_DISABLE_JIT=1 the counts shrink tenfold. ``pytest -m slow`` plays 2,016 (twice
as many of each kind but the full-length games) and 100,000 short ones (as
benchmarks/differential.py does).
"""
import os

import numpy as np
import pytest

from spacemission_env.space_mission.engine import differential as D

NO_JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
SCALE = 10 if NO_JIT else 1
CONFIGS = [(n, r) for n in (2, 3, 4, 5) for r in ("yucata", "schmidt")]
# (games, max_rounds, observations) per configuration: 127 games x 8 configurations = 1,016 in the
# default suite, 252 x 8 = 2,016 in the slow set (the default's deals are the first of the
# larger plan's)
PLANS = {"default": [(75, 3, "acting"), (20, 3, "all"), (10, 12, "acting"), (20, 8, "none"), (2, 100, "none")],
         "larger": [(150, 3, "acting"), (40, 3, "all"), (20, 12, "acting"), (40, 8, "none"), (2, 100, "none")]}


def _seeds(n_players, rules, k, count):
    base = 1_000_000 * n_players + (0 if rules == "yucata" else 500_000) + 10_000 * k
    return np.arange(base, base + count)


@pytest.mark.parametrize("plan", ["default", pytest.param("larger", marks=pytest.mark.slow)])
@pytest.mark.parametrize("num_players,rules", CONFIGS)
def test_random_play_identical(num_players, rules, plan):
    rep = D.Report()
    for k, (games, max_rounds, obs) in enumerate(PLANS[plan]):
        count = max(1, games // SCALE)
        rep.merge(D.run(num_players, rules, _seeds(num_players, rules, k, count), max_rounds=max_rounds,
                        action_seed=k, observations=obs))
    assert rep.divergences == []
    assert rep.games == sum(max(1, g // SCALE) for g, _, _ in PLANS[plan])
    assert rep.steps > 0


def test_harness_detects_a_divergence(monkeypatch):
    """The comparison can fail: corrupt the engine's mask and the harness reports it."""
    from spacemission_env.space_mission.engine import api

    real = api.legal_action_mask

    def broken(st, out=None):
        m = real(st, out)
        m[:, 0] = False  # top up without discarding is always legal (R-A1 ruling)
        return m

    monkeypatch.setattr(api, "legal_action_mask", broken)
    rep = D.run(2, "yucata", [1, 2], max_rounds=2)
    assert rep.divergences and rep.divergences[0][3] in ("legal mask", "mask of finished game not all True")


@pytest.mark.slow
def test_random_play_identical_100k():
    """100,000 short games (max_rounds 2, 3, 4, 6) over every configuration, about 30
    minutes of one core here (29 min 31 s alone; far longer beside other work); the same run
    with progress output: make differential. Full-length games: the default suite's 100-round games and
    benchmarks/differential.py --player kind."""
    rep = D.run_many(100_000, max_rounds_cycle=(2, 3, 4, 6))
    assert rep.games == 100_000
    assert rep.divergences == []
