"""Bad arguments to the batched engines' public functions (both games): a clear
ValueError naming the argument, nothing silently converted, the state unchanged."""
import re

import numpy as np
import pytest

from spacemission_env.red_planet import engine as RP
from spacemission_env.space_mission import engine as SM

ENGINES = [SM, RP]


def _snap(st):
    if hasattr(st, "record"):
        return [st.record.copy(), st.rng.copy(), st.current_player.copy(), st.terminated.copy()]
    return [a.copy() for a in st.arrays()]


def _same(st, snap):
    return all(np.array_equal(a, b) for a, b in zip(_snap(st), snap))


@pytest.mark.parametrize("eng", ENGINES, ids=["space_mission", "red_planet"])
def test_sample_actions_rejects_a_read_only_out(eng):
    n = eng.api.NUM_ACTIONS
    out = np.zeros(2, np.int64)
    out.flags.writeable = False
    with pytest.raises(ValueError, match=r"out must be a writeable C-contiguous int64 array of shape \(2,\)"):
        eng.sample_actions(np.ones((2, n), bool), out=out)  # was a numba TypingError (after a compile)


@pytest.mark.parametrize("eng", ENGINES, ids=["space_mission", "red_planet"])
def test_legal_mask_with_select_and_no_out_has_false_unselected_rows(eng):
    st = eng.init(4, 3, seeds=0)
    full = eng.legal_action_mask(st)
    for _ in range(3):  # np.empty reuses freed memory: the rows held whatever was there
        garbage = np.ones((4, eng.api.NUM_ACTIONS), np.uint8) * 7
        del garbage
        mask = eng.legal_action_mask(st, select=np.array([True, False, True, False]))
        assert mask.dtype == np.bool_
        assert not mask[[1, 3]].view(np.uint8).any()
        assert np.array_equal(mask[[0, 2]], full[[0, 2]])


def test_step_observe_rejects_none_buffers_and_changes_nothing():
    st = SM.init(2, 3, seeds=0)
    snap = _snap(st)
    acts = SM.sample_actions(SM.legal_action_mask(st), np.random.default_rng(0))
    d = SM.observation_size()
    with pytest.raises(ValueError, match="mask_out must be an array"):
        SM.step_observe(st, acts, None, np.zeros((2, d), np.int8))  # was: stepped, results lost
    with pytest.raises(ValueError, match="obs_out must be an array"):
        SM.step_observe(st, acts, np.zeros((2, SM.api.NUM_ACTIONS), bool), None)
    assert _same(st, snap)


@pytest.mark.parametrize("bad", [np.full((2, 10), 1.7), np.ones((2, 3), np.int64), np.ones((2, 10), object)])
def test_collection_points_rejects_non_integer_or_misshapen_collections(bad):
    with pytest.raises(ValueError, match=r"collections must be an integer array \[\.\.\., 10\]"):
        SM.collection_points(bad)  # 1.7 was read as 1; a width of 3 was an IndexError


def test_collection_points_of_integer_collections():
    col = np.zeros((2, 10), np.int8)
    assert SM.collection_points(col).tolist() == [0, 0]
    assert np.array_equal(SM.collection_points(col.astype(np.uint16)), SM.collection_points(col))



@pytest.mark.parametrize("dtype, value, shown", [(np.int64, -1, -1), (np.int8, -128, -128),
                                                 (np.uint64, 2**64 - 1, 2**64 - 1)])
def test_collection_points_refuses_negative_counts(dtype, value, shown):
    """Before the fix a water count of -1 scored -5 points (R-P6's table read from the end)
    and a uint64 count past int64 was read as a negative one."""
    col = np.zeros((2, 10), dtype)
    col[1, 8] = value
    with pytest.raises(ValueError, match=re.escape(f"collections must hold counts from 0 up to {2**30}, got {shown} "
                                                   f"at index (1, 8)")):
        SM.collection_points(col)
    col[1, 8] = 5
    assert SM.collection_points(col).tolist() == [0, 16]  # R-P6: four water 14, one more 2


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_collection_points_refuses_counts_whose_points_overflow(dtype):
    """R-P3/R-P4 multiply a kind's sum by its largest count in int64: every kind at
    2**63 - 1 scored -4611686018427387913 points, silently. Counts up to 2**30 are exact."""
    col = np.full((1, 10), 2**30, dtype)
    exact = 4 * 2**30 * 2**30 + 2 * 2**30 * 2**30 + 2**30 * 7 + (2**30 // 4) * 14 + 2**30 * 3  # R-P3..R-P7
    assert SM.collection_points(col).tolist() == [exact]
    for value in (2**30 + 1, 2**62 - 1, np.iinfo(np.int64).max):
        col[0, 3] = value
        with pytest.raises(ValueError, match=re.escape(f"up to {2**30}, got {value} at index (0, 3)")):
            SM.collection_points(col)

@pytest.mark.parametrize("eng", ENGINES, ids=["space_mission", "red_planet"])
def test_observe_names_a_huge_uint64_seat_as_given(eng):
    st = eng.init(2, 3, seeds=0)
    with pytest.raises(ValueError, match=f"player must be a seat in 0..2, got {2**64 - 1}"):
        eng.observe(st, np.full(2, 2**64 - 1, np.uint64))  # was shown as -1
    assert eng.observe(st, np.array([1, 2], np.uint64)).shape[0] == 2
