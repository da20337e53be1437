"""Public functions of the fast engine (pgx-style: pure functions over a BatchState,
mutating it in place). Every hot path is one numba kernel over the whole batch."""
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
from ..components import (
    CHIPS_PER_PLAYER,
    GATE_RANK_POINTS,
    MATTER_PAIR_POINTS,
    MATTER_SINGLE_POINTS,
    MEDAL_POINTS,
    STATION_POINTS,
    WATER_TABLE,
)
from ..scoring import ALIENS, MATTER_BLUE, MATTER_GREEN, MEDAL, MINERALS, WATER
from . import fused as F
from . import kernels as K
from . import observe as O
from .state import TABLES, BatchState

NUM_ACTIONS = A.NUM_ACTIONS
_OFFSETS = {t: O.offsets(t) for t in E.OBSERVATION_TYPES}
_SIZES = {t: E.observation_size(t) for t in E.OBSERVATION_TYPES}


def _kernel_fields(st: BatchState) -> tuple:
    return st.arrays()


def init(batch_size: int, num_players: int, seeds=0, rules: str = "yucata", max_rounds: int = 100) -> BatchState:
    """B new games; game i is identical to rules.new_game(num_players, seed=seeds[i], rules=..., max_rounds=...).
    ``seeds`` an int s means seeds s, s+1, ..., s+B-1."""
    st = BatchState(batch_size, num_players, rules, max_rounds)
    seed_arr = _seed_array(seeds, st.batch_size)
    with _quiet():
        K.init_games(np.ones(st.batch_size, np.bool_), seed_arr, *st.arrays(), *TABLES, st.rules_id, CHIPS_PER_PLAYER)
    return st


def reset_finished(st: BatchState, seeds) -> np.ndarray:
    """Re-initialise finished games in place with new seeds
    (int array [B]; only the entries of finished games are used). Returns which were reset."""
    check_batch(st, BatchState, "Space Mission")
    done = st.terminated.copy()
    seed_arr = _seed_array(seeds, st.batch_size)
    if done.any():
        with _quiet():
            K.init_games(done, seed_arr, *st.arrays(), *TABLES, st.rules_id, CHIPS_PER_PLAYER)
    return done


def _legal_args(st: BatchState) -> tuple:
    return (st.ring, st.piles, st.hand, st.hand_len, st.supply, st.ship, st.scanned, st.stations,
            st.current_player, st.phase, st.terminated, TABLES[0], TABLES[1])


def step(st: BatchState, actions, select=None) -> None:
    """Play one action per game for its current player, in place. Finished games and
    games outside ``select`` (bool [B], None = all) are left unchanged, whatever their action.
    Every stepped game's action is validated inside the kernel before any game changes:
    an illegal or out-of-range id raises ValueError naming the first such game."""
    check_batch(st, BatchState, "Space Mission")
    a = _actions(st, actions)
    sel = _select(st, select)
    with _quiet():
        bad = K.step_games(a, sel, *st.arrays(), *TABLES, st.max_rounds)
    if bad >= 0:
        raise illegal_action(a, bad, legal_action_mask(st)[bad])


def legal_action_mask(st: BatchState, out: np.ndarray | None = None, select=None) -> np.ndarray:
    """bool [B, 100]. Rows of finished games are all True (so a masked softmax never
    sees an empty row; stepping a finished game is a no-op whatever the action).
    With ``select`` (bool [B]) only those rows are computed; the others keep what ``out`` held
    (all False when ``out`` is None)."""
    check_batch(st, BatchState, "Space Mission")
    sel = _select(st, select)
    # a new buffer's unselected rows: False, not np.empty's leftovers
    out = output_buffer(out, (st.batch_size, NUM_ACTIONS), np.bool_, zeroed=select is not None)
    K.legal_mask(out, sel, *_legal_args(st))
    return out


def observation_size(observation_type: str = "info") -> int:
    """D, the same for every player count and rule set."""
    return _SIZES[check_choice(observation_type, "observation_type", E.OBSERVATION_TYPES)]


def observe(st: BatchState, player=None, observation_type: str = "info", out: np.ndarray | None = None) -> np.ndarray:
    """int8 [B, D]: the observation of ``player`` (None = each game's acting player; an
    int or int array [B] = that seat), identical to encoding.observe on to_reference(st, i)."""
    check_batch(st, BatchState, "Space Mission")
    d = observation_size(observation_type)
    out = output_buffer(out, (st.batch_size, d), np.int8)
    mode = E.OBSERVATION_TYPES.index(observation_type)  # observe.MODE_INFO / MODE_RECALL / MODE_SEER
    O.observe_games(out, _players(st, player), _OFFSETS[observation_type], mode, st.rules_id, st.max_rounds,
                    *st.arrays()[1:], TABLES[0], TABLES[1], TABLES[3])
    return out


def step_observe(st: BatchState, actions, mask_out: np.ndarray, obs_out: np.ndarray | None,
                 observation_type: str | None = "info") -> None:
    """``step(st, actions)``, then ``legal_action_mask(st, out=mask_out)`` and
    ``observe(st, None, observation_type, out=obs_out)`` in one kernel call: the same
    results, for loops over a batch of one where each call's dispatch costs as much as
    its work (fused.py). ``observation_type=None`` (with ``obs_out=None``): step and mask
    only. An illegal action raises as ``step`` does, changing nothing."""
    check_batch(st, BatchState, "Space Mission")
    a = _actions(st, actions)
    mask_out, obs_out = step_observe_outputs(st, mask_out, obs_out, observation_type, NUM_ACTIONS, observation_size)
    players = np.empty(st.batch_size, np.int64)
    t = observation_type or "info"  # the offsets of None's mode -1 are never read
    mode = -1 if observation_type is None else E.OBSERVATION_TYPES.index(observation_type)
    with _quiet():
        bad = F.step_mask_observe(a, st.all_games, mask_out, obs_out, players, _OFFSETS[t], mode, st.rules_id,
                                  st.max_rounds, *st.arrays(), *TABLES)
    if bad >= 0:
        raise illegal_action(a, bad, legal_action_mask(st)[bad])


# the largest count collection_points takes: every kind at 2**30 scores below 2**63 (int64)
MAX_COLLECTION_COUNT = 2**30


def _collection_terms(col: np.ndarray) -> tuple:
    """int64 points of collections [..., 10]: minerals, aliens, matter, water, medals (R-P3..R-P7)."""
    col = np.asarray(col)
    if col.dtype.kind not in "iu" or col.ndim < 1 or col.shape[-1] != 10:  # 1.7 is not read as 1
        raise ValueError(f"collections must be an integer array [..., 10], got shape {col.shape} dtype {col.dtype}")
    col = col.astype(np.int64)
    mins = col[..., list(MINERALS)]
    alis = col[..., list(ALIENS)]
    g, bl = col[..., MATTER_GREEN], col[..., MATTER_BLUE]
    pairs = np.minimum(g, bl)
    w = col[..., WATER]
    return (mins.sum(axis=-1) * mins.max(axis=-1),  # R-P3
            alis.sum(axis=-1) * alis.max(axis=-1),  # R-P4
            pairs * MATTER_PAIR_POINTS + (g + bl - 2 * pairs) * MATTER_SINGLE_POINTS,  # R-P5
            (w // 4) * int(WATER_TABLE[4]) + WATER_TABLE[w % 4],  # R-P6
            col[..., MEDAL] * MEDAL_POINTS)  # R-P7


def collection_points(col: np.ndarray) -> np.ndarray:
    """int64 [...]: R-P3..R-P7 points of collections [..., 10] (any integer dtype), as
    :func:`scores` counts them. ValueError on a negative count (no collection holds one;
    the formulas would score it, a water count of -1 as -5 points) or one past
    ``MAX_COLLECTION_COUNT`` (the int64 products of R-P3/R-P4 overflowed: 2**62 of each
    kind scored negative; a uint64 count past int64 was read as a negative one)."""
    arr = np.asarray(col)
    if arr.dtype.kind in "iu" and arr.size:
        bad = (arr < 0 if arr.dtype.kind == "i" else False) | (arr > MAX_COLLECTION_COUNT)
        if bad.any():
            at = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValueError(f"collections must hold counts from 0 up to {MAX_COLLECTION_COUNT}, got {int(arr[at])} "
                             f"at index {at}")
    return sum(_collection_terms(arr))


def scores(st: BatchState) -> np.ndarray:
    """int16 [B, P, 8]: jump_gate, stations, minerals, aliens, matter, water, medals, total
    (R-P1..R-P7; provisional while a game runs; reservations never count, R-E2)."""
    check_batch(st, BatchState, "Space Mission")
    gate = st.gate_probes.astype(np.int32)
    rank = (gate[:, None, :] > gate[:, :, None]).sum(axis=2)  # R-P1 competition rank
    table = np.zeros(st.num_players + 1, dtype=np.int32)
    table[:len(GATE_RANK_POINTS)] = GATE_RANK_POINTS[:st.num_players + 1]
    gate_pts = np.where(gate > 0, table[np.minimum(rank, st.num_players)], 0)
    stations = (st.stations[:, :, None] == np.arange(st.num_players)[None, None, :]).sum(axis=1)
    out = np.zeros(st.collection.shape[:2] + (8,), dtype=np.int16)
    out[..., 0] = gate_pts
    out[..., 1] = stations * STATION_POINTS
    for k, term in enumerate(_collection_terms(st.collection)):
        out[..., 2 + k] = term
    out[..., 7] = out[..., :7].sum(axis=2)
    return out


def rewards(st: BatchState) -> np.ndarray:
    """float32 [B, P]: scoring.rank_rewards of finished games (R-P8 order: points, then
    stations; zero-sum in [-1, 1]); 0 for running games."""
    sc = scores(st)
    n = st.num_players
    stations = (st.stations[:, :, None] == np.arange(n)[None, None, :]).sum(axis=1).astype(np.int64)
    key = sc[..., 7].astype(np.int64) * 64 + stations
    better = (key[:, None, :] > key[:, :, None]).sum(axis=2)
    tied = (key[:, None, :] == key[:, :, None]).sum(axis=2)
    r = rank_reward_table(n)[better, tied]  # rank_rewards' value for (players ranked better, players tied)
    done = st.terminated
    return np.where(done[:, None], r, 0.0).astype(np.float32)


def sample_actions(mask: np.ndarray, rng: np.random.Generator | None = None, out: np.ndarray | None = None,
                   by_kind: bool = False) -> np.ndarray:
    """int64 [B]: one random legal action per row of ``mask`` (bool or 0/1 int8, [B, 100]).
    Uniform over the row's True entries; with ``by_kind`` an action kind (top up, jump,
    fly, scan, develop, discover, tile) uniformly among the legal kinds, then an id
    uniformly within it -- random play that finishes games far more often.
    ValueError if a row has no legal action."""
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
    if not isinstance(by_kind, (bool, np.bool_)):
        raise TypeError(f"by_kind must be a bool, got {by_kind!r}")
    out = output_buffer(out, (m.shape[0],), np.int64)  # a read-only one failed inside numba
    if by_kind:
        K.sample_legal_by_kind(m, rng.random(m.shape[0]), rng.random(m.shape[0]), out)
    else:
        K.sample_legal(m, rng.random(m.shape[0]), out)
    if m.shape[0] and out.min() < 0:
        raise ValueError(f"mask row {int(np.argmin(out))} has no legal action")
    return out
