"""``engine.step_observe`` (one fused kernel call, engine/fused.py) equals ``step`` followed by
``legal_action_mask`` and ``observe`` of the acting seats, for every observation type and
player count (``observation_type=None``: step and mask only), and an illegal action raises
naming the game and changes nothing."""
import numpy as np
import pytest
from numba.core import config as numba_config

from spacemission_env.space_mission import engine as E


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("observation_type", ["info", "recall", "seer", None])
def test_step_observe_equals_step_mask_observe(players, observation_type):
    B = 16
    a, b = E.init(B, players, seeds=11, max_rounds=6), E.init(B, players, seeds=11, max_rounds=6)
    mask_out = np.zeros((B, 100), bool)
    obs_out = None if observation_type is None else np.zeros((B, E.observation_size(observation_type)), np.int8)
    rng = np.random.default_rng(players)
    finished = 0
    for t in range(400):
        masks = E.legal_action_mask(a)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        E.step(a, actions)
        E.step_observe(b, actions, mask_out, obs_out, observation_type)
        assert np.array_equal(mask_out, E.legal_action_mask(a))
        if observation_type is not None:
            assert np.array_equal(obs_out, E.observe(a, None, observation_type))
        assert all(np.array_equal(x, y) for x, y in zip(a.arrays(), b.arrays()))
        finished += int(a.terminated.sum())
        E.reset_finished(a, np.arange(B) + 100 * t)
        E.reset_finished(b, np.arange(B) + 100 * t)
    assert finished > 0  # finished games (all-True mask rows) were met along the way


def test_an_illegal_action_raises_and_changes_nothing():
    st = E.init(4, 3, seeds=5)
    before = [x.copy() for x in st.arrays()]
    masks = E.legal_action_mask(st)
    actions = np.array([np.flatnonzero(row)[0] for row in masks])
    actions[2] = int(np.flatnonzero(~masks[2])[0])
    mask_out, obs_out = np.zeros((4, 100), bool), np.zeros((4, E.observation_size("info")), np.int8)
    with pytest.raises(ValueError, match="game 2: action"):
        E.step_observe(st, actions, mask_out, obs_out)
    assert all(np.array_equal(x, y) for x, y in zip(before, st.arrays()))
    with pytest.raises(ValueError, match="^obs_out must be a writeable C-contiguous int8 array"):
        E.step_observe(st, actions, mask_out, np.zeros((4, 5), np.int8))  # it said "out", no argument of it
    with pytest.raises(ValueError, match="^mask_out must be a writeable C-contiguous bool array"):
        E.step_observe(st, actions, mask_out.view(np.uint8), obs_out)
    with pytest.raises(ValueError, match="unknown observation_type"):
        E.step_observe(st, actions, mask_out, obs_out, "full")
    actions[2] = int(np.flatnonzero(masks[2])[0])
    with pytest.raises(ValueError, match=r"^obs_out must be None with observation_type=None \(no observation is "
                                         r"written\), got ndarray"):
        E.step_observe(st, actions, mask_out, obs_out, None)  # a buffer that would be left as it was
    assert all(np.array_equal(x, y) for x, y in zip(before, st.arrays()))


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: no dispatchers, no signatures")
def test_the_fused_step_hands_its_callees_the_read_only_all_games():
    """The fused kernel hands ``step_games`` and ``legal_mask`` the state's read-only
    ``all_games``, as ``select=None`` does: numba types read-only and writable arrays apart,
    so a writable mask made inside it compiled the two largest kernels a second time in any
    process that used both paths (the warm-up, training with bots; docs/engine.md)."""
    from spacemission_env.space_mission.engine import fused as F

    st = E.init(2, 2, seeds=3, max_rounds=2)
    mask_out = np.zeros((2, 100), bool)
    obs_out = np.zeros((2, E.observation_size("info")), np.int8)
    E.step_observe(st, [int(np.flatnonzero(row)[0]) for row in E.legal_action_mask(st)], mask_out, obs_out)
    everyone = {sig[1] for sig in F.step_mask_observe.signatures}  # the select its callees get
    assert everyone and all(t.dtype.name == "bool" and t.ndim == 1 and not t.mutable for t in everyone), everyone


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copied_batch_keeps_all_games_read_only_and_plays_on_alike(how):
    """numpy's copies of an array are writable: a pickled or deep-copied batch handed the
    kernels a writable default ``select`` (a second compile of each, as above)."""
    import copy
    import pickle

    st = E.init(3, 3, seeds=4, max_rounds=5)
    clone = pickle.loads(pickle.dumps(st)) if how == "pickle" else copy.deepcopy(st)
    assert not clone.all_games.flags.writeable
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = E.sample_actions(E.legal_action_mask(st), rng)
        E.step(st, actions)
        E.step(clone, actions)
    assert all(np.array_equal(x, y) and not np.shares_memory(x, y) for x, y in zip(st.arrays(), clone.arrays()))
