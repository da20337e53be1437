"""The search bot's rollouts read the bots' features straight from the world state
(_search_rollout._state_features); they must agree with what _bot_features.extract reads
from the acting seat's own observation, wherever the observation shows the same fact."""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_agents import _bot_features as BF
from spacemission_agents import _search_rollout as SR
from spacemission_env.space_mission import engine


def _random_positions(players: int, seed: int, batch: int = 64, steps: int = 90):
    """A batch of running games after ``steps`` kind-uniform random moves (finished games restarted)."""
    st = engine.init(batch, players, seeds=seed)
    rng = np.random.default_rng(seed)
    for k in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
        engine.reset_finished(st, seed + 1000 + k * batch + np.arange(batch))
    return st


def _state_features(st):
    n = st.batch_size
    f = (np.zeros((n, BF.NSCAL), np.int64), np.zeros((n, 5, 3), np.int64), np.zeros((n, 8, 4), np.int64),
         np.zeros((n, 5, BF.NSEAT), np.int64), np.zeros((n, 5, 8), np.int64), np.zeros((n, 8, BF.NPLANET), np.int64),
         np.zeros((n, 10), np.int64), np.zeros((n, 8, 10), np.int64), np.zeros((n, 8, 10)))
    SR._state_features(st.ring, st.piles, st.revealed, st.hand, st.hand_len, st.supply, st.gate_probes, st.ship,
                       st.collection, st.scanned, st.reservations, st.stations, st.current_player, st.phase,
                       st.pending, st.terminated, st.round, st.actions_left, SR.CARD_TABLE, SR.PLANET_COORDS, *f)
    return f


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 22), (4, 33), (5, 44)])
def test_state_features_equal_observation_features(players, seed):
    st = _random_positions(players, seed)
    scal, hand, ring, seat, scanned, planet, col, res, pres = _state_features(st)
    f = BF.extract(engine.observe(st, observation_type="recall"), "recall")
    live = ~st.terminated
    assert live.sum() > 30
    for k in (BF.F_TILE, BF.F_PENDING, BF.F_LEFT, BF.F_ROUND, BF.F_OVER, BF.F_SHIP, BF.F_NHAND, BF.F_NPLAYERS):
        np.testing.assert_array_equal(scal[live, k], f.scal[live, k], err_msg=f"scal column {k}")
    np.testing.assert_array_equal(hand[live], f.hand[live])
    np.testing.assert_array_equal(ring[live], f.ring[live])
    for k in (BF.S_PRESENT, BF.S_SUPPLY, BF.S_GATE):
        np.testing.assert_array_equal(seat[live, :, k], f.seat[live, :, k], err_msg=f"seat column {k}")
    np.testing.assert_array_equal(scanned[live], f.scanned[live])
    np.testing.assert_array_equal(col[live], f.col[live])
    np.testing.assert_array_equal(res[live], f.res[live])
    for k in (BF.P_SIZE, BF.P_REVEALED, BF.P_OWNER):
        np.testing.assert_array_equal(planet[live, :, k], f.planet[live, :, k], err_msg=f"planet column {k}")
    # where the observer knows a pile exactly, the state and the observation agree on it
    exact = live[:, None] & (f.planet[:, :, BF.P_EXACT] == 1)
    assert exact.sum() > 0
    np.testing.assert_array_equal(planet[:, :, BF.P_POINTS][exact], f.planet[:, :, BF.P_POINTS][exact])
    np.testing.assert_array_equal(pres[exact], f.pres[exact])
