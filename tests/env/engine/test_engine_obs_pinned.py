"""The engine's observation and mask bytes of a fixed seeded run, pinned.

The hash was computed with the engine as of commit d448310, before any speed work on the
kernels; a speed-up must leave it unchanged (a change of the observation is a new env
version, not a speed-up). Covers 2-5 players, both rule sets, every observation type,
the acting seat and a fixed seat, finished games restarted."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest
from numba import config as numba_config

from spacemission_env.space_mission import engine

PINNED = "5048956127dcbca5b2cac07102dee8f70059ee628f0cd401473c2f7d6ac9fcde"


def _run_hash() -> str:
    h = hashlib.sha256()
    for players, rules in ((2, "yucata"), (3, "yucata"), (4, "schmidt"), (5, "yucata")):
        st = engine.init(64, players, seeds=players * 101, rules=rules, max_rounds=30)
        rng = np.random.default_rng(players)
        for k in range(160):
            m = engine.legal_action_mask(st)
            h.update(np.packbits(m).tobytes())
            for t in ("info", "recall", "seer"):
                h.update(engine.observe(st, observation_type=t).tobytes())
            h.update(engine.observe(st, player=k % players).tobytes())
            engine.step(st, engine.sample_actions(m, rng, by_kind=k % 2 == 0))
            engine.reset_finished(st, 10_000 + 64 * k + np.arange(64))
    return h.hexdigest()


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="minutes as plain Python; the differential tests cover that mode")
def test_observation_and_mask_bytes_are_pinned():
    assert _run_hash() == PINNED
