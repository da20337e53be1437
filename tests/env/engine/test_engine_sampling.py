"""engine.sample_actions: uniform and kind-uniform random play, and a differential run
of full-length kind-uniform games, which end by R-E1 far more often than uniform play."""
import os

import numpy as np
import pytest

from spacemission_env.space_mission import engine
from spacemission_env.space_mission.actions import ACTION_KINDS, decode
from spacemission_env.space_mission.engine import differential as D

SCALE = 4 if os.environ.get("NUMBA_DISABLE_JIT") == "1" else 1


def test_samples_are_legal_and_kind_uniform():
    rng = np.random.default_rng(0)
    mask = np.zeros((20000, 100), dtype=bool)
    mask[:, [0, 1, 2, 3, 40, 72, 89]] = True  # 4 top-up ids, 1 jump, 1 fly, discover
    for by_kind in (False, True):
        a = engine.sample_actions(mask, rng, by_kind=by_kind)
        assert mask[np.arange(len(a)), a].all()
        kinds = np.array([ACTION_KINDS.index(decode(int(x))[0]) for x in a])
        share_top_up = (kinds == 0).mean()
        # uniform: 4 of 7 ids are top-ups; by kind: 1 of 4 kinds
        expected = 4 / 7 if by_kind is False else 1 / 4
        assert abs(share_top_up - expected) < 0.02, (by_kind, share_top_up)
        if by_kind:
            for k in (1, 2, 5):
                assert abs((kinds == k).mean() - 0.25) < 0.02


def test_a_row_without_legal_action_is_an_error():
    mask = np.ones((3, 100), dtype=bool)
    mask[2] = False
    for by_kind in (False, True):
        with pytest.raises(ValueError, match="row 2"):
            engine.sample_actions(mask, np.random.default_rng(0), by_kind=by_kind)
    with pytest.raises(ValueError, match="shape"):
        engine.sample_actions(np.ones((3, 99), dtype=bool))


@pytest.mark.parametrize("games", [6, pytest.param(12, marks=pytest.mark.slow)])
def test_kind_uniform_full_games_match_reference_and_end_by_r_e1(games):
    """R-E1 endings (not only R-E3 truncation) in lock-step with the reference engine: 6 games
    of each size in the default suite (11 of the 18 end by R-E1), 12 in the slow set."""
    terminated = 0
    for n, rules in ((2, "yucata"), (3, "schmidt"), (4, "yucata")):
        seeds = range(700_000 + 100 * n, 700_000 + 100 * n + max(3, games // SCALE))
        rep = D.run(n, rules, seeds, max_rounds=100, action_seed=n, observations="acting", by_kind=True)
        assert rep.divergences == []
        terminated += rep.ended
    assert terminated >= 5  # some games ended by R-E1 rather than by truncation
