"""One kernel call for a step, the new legal masks and the acting seats' observations,
as Space Mission's engine/fused.py, for the AEC and Gymnasium envs' batch of one (docs/red_planet/engine.md).

Red Planet's kernels take two arrays (record, rng), so numba's dispatch is cheap here; what
a batch of one saves is two calls' Python checks and dispatch, and ``BatchState.sync``'s
numpy calls (about 2.5 us), whose copies of the acting seats and ``terminated`` the kernel
writes itself. ``step_mask_observe`` calls the kernels of step.py and observe.py; its
results are theirs.
"""
from __future__ import annotations

import numpy as np

from ...jit import njit
from .observe import observe_games
from .state import F_CURRENT_PLAYER, F_TERMINATED
from .step import legal_mask, step_games


@njit
def step_mask_observe(actions, everyone, mask_out, obs_out, current_player, terminated, mode, g, rng):
    """``step_games`` on every game, then, if every action was legal, ``legal_mask`` into
    ``mask_out`` and the acting seats' observations into ``obs_out``, and the state's plain
    ``current_player`` (int8 [B]) and ``terminated`` (bool [B]) refreshed from the record,
    as ``BatchState.sync`` does. Returns -1, or, changing nothing, the first illegal game.
    ``everyone`` is the state's read-only ``all_games`` (the ``select`` of api.py's calls:
    numba types read-only and writable arrays apart, and a second type would compile
    ``step_games`` and ``legal_mask`` a second time)."""
    bad = step_games(actions, everyone, g, rng)
    if bad >= 0:
        return bad
    legal_mask(mask_out, everyone, g, rng)
    players = np.empty(g.shape[0], np.int64)
    for b in range(g.shape[0]):
        players[b] = g[b, F_CURRENT_PLAYER]
        current_player[b] = g[b, F_CURRENT_PLAYER]
        terminated[b] = g[b, F_TERMINATED] != 0
    if mode >= 0:  # mode -1: no observation wanted (step_observe's observation_type=None)
        observe_games(obs_out, players, mode, g, rng)
    return -1
