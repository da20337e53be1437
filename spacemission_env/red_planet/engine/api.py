"""Public functions of the Red Planet fast engine (pgx-style: pure functions over a
BatchState, mutating it in place), with the signatures of Space Mission's
``spacemission_env.space_mission.engine``. Every hot path is one numba kernel over the whole batch."""
from __future__ import annotations

import numpy as np

from ...checks import check_choice, shown
from ...engine_common import check_actions as _actions
from ...engine_common import check_batch, check_masks
from ...engine_common import check_players as _players
from ...engine_common import check_select as _select
from ...engine_common import quiet as _quiet
from ...engine_common import rank_reward_table
from ...engine_common import seed_array as _seed_array
from ...engine_common import illegal_action, kernel_input, output_buffer, step_observe_outputs
from .. import actions as A
from .. import encoding as E
from ..rules.scoring import CATEGORIES
from . import fused as F
from . import observe as O
from . import scoring as SC
from . import step as K
from .state import BatchState

NUM_ACTIONS = A.NUM_ACTIONS
_SIZES = {t: E.observation_size(t) for t in E.OBSERVATION_TYPES}


def init(batch_size: int, num_players: int, seeds=0) -> BatchState:
    """B new games; game i is identical to rules.new_game(num_players, seed=seeds[i]).
    ``seeds`` an int s means seeds s, s+1, ..., s+B-1."""
    st = BatchState(batch_size, num_players)
    seed_arr = _seed_array(seeds, st.batch_size)
    with _quiet():
        K.init_games(np.ones(st.batch_size, np.bool_), seed_arr, st.record, st.rng)
    st.sync()
    return st


def reset_finished(st: BatchState, seeds) -> np.ndarray:
    """Re-initialise finished games in place with new seeds (an int s: s, s+1, ... by
    batch index, or an integer array [B]; only the entries of finished games are used).
    Returns which were reset."""
    check_batch(st, BatchState, "Red Planet")
    seed_arr = _seed_array(seeds, st.batch_size)
    done = st.terminated.copy()
    if done.any():
        with _quiet():
            K.init_games(done, seed_arr, st.record, st.rng)
        st.sync()
    return done


def step(st: BatchState, actions, select=None) -> None:
    """Play one action per game for its current player, in place. Finished games and
    games outside ``select`` (bool [B], None = all) are left unchanged, whatever their action.
    Every stepped game's action is validated inside the kernel before any game changes:
    an illegal or out-of-range id raises ValueError naming the first such game."""
    check_batch(st, BatchState, "Red Planet")
    a = _actions(st, actions)
    sel = _select(st, select)
    with _quiet():
        bad = K.step_games(a, sel, st.record, st.rng)
    st.sync()
    if bad >= 0:
        raise illegal_action(a, bad, legal_action_mask(st)[bad])


def legal_action_mask(st: BatchState, out: np.ndarray | None = None, select=None) -> np.ndarray:
    """bool [B, 243]. Rows of finished games are all True (so a masked softmax never
    sees an empty row; stepping a finished game is a no-op whatever the action).
    With ``select`` (bool [B]) only those rows are computed; the others keep what ``out`` held
    (all False when ``out`` is None)."""
    check_batch(st, BatchState, "Red Planet")
    sel = _select(st, select)
    # a new buffer's unselected rows: False, not np.empty's leftovers
    out = output_buffer(out, (st.batch_size, NUM_ACTIONS), np.bool_, zeroed=select is not None)
    K.legal_mask(out, sel, st.record, st.rng)
    return out


def observation_size(observation_type: str = "info") -> int:
    """D, the same for every player count."""
    return _SIZES[check_choice(observation_type, "observation_type", E.OBSERVATION_TYPES)]


def observe(st: BatchState, player=None, observation_type: str = "info", out: np.ndarray | None = None) -> np.ndarray:
    """int8 [B, D]: the observation of ``player`` (None = each game's acting seat; a
    finished game's row is then its last start player's view; an int or int array [B]
    = that seat), identical to encoding.observe on to_reference(st, i)."""
    check_batch(st, BatchState, "Red Planet")
    d = observation_size(observation_type)
    players = _players(st, player)
    out = output_buffer(out, (st.batch_size, d), np.int8)
    O.observe_games(out, players, E.OBSERVATION_TYPES.index(observation_type), st.record, st.rng)
    return out


def step_observe(st: BatchState, actions, mask_out: np.ndarray, obs_out: np.ndarray | None,
                 observation_type: str | None = "info") -> None:
    """``step(st, actions)``, then ``legal_action_mask(st, out=mask_out)`` and
    ``observe(st, None, observation_type, out=obs_out)`` in one kernel call: the same
    results, for loops over a batch of one (the AEC and Gymnasium envs), where the two other calls' checks
    and dispatch and ``BatchState.sync`` cost a fifth of a step (fused.py).
    ``observation_type=None`` (with ``obs_out=None``): step and mask only. An illegal
    action raises as ``step`` does, changing nothing."""
    check_batch(st, BatchState, "Red Planet")
    a = _actions(st, actions)
    mask_out, obs_out = step_observe_outputs(st, mask_out, obs_out, observation_type, NUM_ACTIONS, observation_size)
    mode = -1 if observation_type is None else E.OBSERVATION_TYPES.index(observation_type)
    with _quiet():  # the kernel refreshes st.current_player and st.terminated (st.sync)
        bad = F.step_mask_observe(a, st.all_games, mask_out, obs_out, st.current_player, st.terminated, mode,
                                  st.record, st.rng)
    if bad >= 0:
        raise illegal_action(a, bad, legal_action_mask(st)[bad])


def scores(st: BatchState) -> np.ndarray:
    """int16 [B, P, 7]: rules/scoring.py CATEGORIES (ice, sylvanite, celerium, ice_bonus,
    discovery_cards, bonus_cards, total); provisional while a game runs (counters only)."""
    check_batch(st, BatchState, "Red Planet")
    out = np.zeros((st.batch_size, st.num_players, len(CATEGORIES)), dtype=np.int16)
    SC.scores_kernel(st.record, st.rng, out)
    return out


def rewards(st: BatchState) -> np.ndarray:
    """float32 [B, P]: scoring.rank_rewards of finished games by total (M-P4: tied
    players share; zero-sum in [-1, 1]); 0 for running games."""
    total = scores(st)[..., -1].astype(np.int64)
    better = (total[:, None, :] > total[:, :, None]).sum(axis=2)
    tied = (total[:, None, :] == total[:, :, None]).sum(axis=2)
    r = rank_reward_table(st.num_players)[better, tied]  # [better, tied] -> the rank reward (M-P4: by total alone)
    return np.where(st.terminated[:, None], r, 0.0).astype(np.float32)


def sample_actions(mask: np.ndarray, rng: np.random.Generator | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """int64 [B]: one random legal action per row of ``mask`` (bool or 0/1 int8, [B, 243]),
    uniform over the row's True entries. ValueError if a row has no legal action."""
    m = np.asarray(mask)
    if m.ndim != 2 or m.shape[1] != NUM_ACTIONS:
        raise ValueError(f"mask must have shape [B, {NUM_ACTIONS}], got {m.shape}")
    # bool, or numbers that are all 0 or 1 (a NaN or a 2 is not read as legal); a slice, a
    # transpose or a read-only mask as a C-contiguous copy (kernel_input: else another compile)
    m = kernel_input(check_masks(m), np.bool_)
    if rng is None:
        rng = np.random.default_rng()
    elif not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator or None, got {shown(rng)}")
    out = output_buffer(out, (m.shape[0],), np.int64)  # a read-only one failed inside numba
    K.sample_mask(m, rng.random(m.shape[0]), out)
    if m.shape[0] and out.min() < 0:
        raise ValueError(f"mask row {int(np.argmin(out))} has no legal action")
    return out
