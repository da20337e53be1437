"""Red Planet's ``engine.step_observe`` (one fused kernel call, red_planet/engine/fused.py)
equals ``step`` followed by ``legal_action_mask`` and ``observe`` of the acting seats, for
every observation type and player count, from explicit positions and in random play; an
illegal action or a bad buffer raises before anything changes, with the errors of Space
Mission's ``step_observe``."""
import numpy as np
import pytest
from numba.core import config as numba_config

from spacemission_env.red_planet import encoding as RE
from spacemission_env.red_planet import engine as E
from spacemission_env.space_mission import engine as SM
from tests.env.red_planet.engine.test_positions import CASES


def _buffers(batch, observation_type):
    """mask_out and obs_out (None for observation_type=None: step and mask only)."""
    obs = None if observation_type is None else np.zeros((batch, E.observation_size(observation_type)), np.int8)
    return np.zeros((batch, E.api.NUM_ACTIONS), bool), obs


def _same_state(a, b):
    return (np.array_equal(a.record, b.record) and np.array_equal(a.rng, b.rng)
            and np.array_equal(a.current_player, b.current_player) and np.array_equal(a.terminated, b.terminated))


def _step_both(a, b, actions, observation_type, mask_out, obs_out):
    """``step`` + mask + observe on ``a``, ``step_observe`` on ``b``; the results agree."""
    E.step(a, actions)
    E.step_observe(b, actions, mask_out, obs_out, observation_type)
    assert np.array_equal(mask_out, E.legal_action_mask(a))
    if observation_type is not None:
        assert np.array_equal(obs_out, E.observe(a, None, observation_type))
    assert _same_state(a, b)  # current_player and terminated too: the kernel refreshes them, not st.sync


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("observation_type", [*RE.OBSERVATION_TYPES, None])
def test_step_observe_equals_step_mask_observe_in_random_play(players, observation_type):
    B = 8
    a, b = E.init(B, players, seeds=21), E.init(B, players, seeds=21)
    mask_out, obs_out = _buffers(B, observation_type)
    rng = np.random.default_rng(players)
    finished = 0
    for t in range(300):
        actions = E.sample_actions(E.legal_action_mask(a), rng)
        _step_both(a, b, actions, observation_type, mask_out, obs_out)
        finished += int(a.terminated.sum())  # finished rows: all-True masks, the last start player's view
        E.reset_finished(a, np.arange(B) + 100 * t)
        E.reset_finished(b, np.arange(B) + 100 * t)
    assert finished > 0


@pytest.mark.parametrize("name", list(CASES))
def test_step_observe_from_explicit_positions(name):
    """Each rule's position of test_positions.py (M-P1..M-P3 scoring at the end of a round,
    M-O2..M-O9 abilities): its named actions, then random legal play to the end."""
    state, todo = CASES[name]
    rng = np.random.default_rng(len(name))
    for observation_type in RE.OBSERVATION_TYPES:
        a, b = E.from_reference([state.copy()]), E.from_reference([state.copy()])
        mask_out, obs_out = _buffers(1, observation_type)
        actions = list(todo)
        while not a.terminated[0]:
            mask = E.legal_action_mask(a)[0]
            if not mask.any():  # a hand-built position may lead where a role hand runs out (test_positions)
                break
            act = actions.pop(0) if actions else int(rng.choice(np.flatnonzero(mask)))
            _step_both(a, b, np.array([act]), observation_type, mask_out, obs_out)
        assert not actions


def test_an_illegal_action_raises_and_changes_nothing():
    st = E.init(4, 3, seeds=5)
    before = (st.record.copy(), st.rng.copy(), st.current_player.copy(), st.terminated.copy())
    masks = E.legal_action_mask(st)
    actions = np.array([np.flatnonzero(row)[0] for row in masks])
    actions[2] = int(np.flatnonzero(~masks[2])[0])
    mask_out, obs_out = _buffers(4, "info")
    with pytest.raises(ValueError, match="game 2: action"):
        E.step_observe(st, actions, mask_out, obs_out)
    actions[2] = 243  # out of range
    with pytest.raises(ValueError, match="game 2: action 243"):
        E.step_observe(st, actions, mask_out, obs_out)
    after = (st.record, st.rng, st.current_player, st.terminated)
    assert all(np.array_equal(x, y) for x, y in zip(before, after))
    assert not mask_out.any() and not obs_out.any()  # nothing written either


def _buffers_of(engine, batch):
    return np.zeros((batch, engine.api.NUM_ACTIONS), bool), np.zeros((batch, engine.observation_size()), np.int8)


def _bad_buffers(engine, batch):
    """(mask_out, obs_out, message) of every way step_observe's buffers can be wrong."""
    mask, obs = _buffers_of(engine, batch)
    n, d = mask.shape[1], obs.shape[1]
    read_only_mask, read_only_obs = mask.copy(), obs.copy()
    read_only_mask.flags.writeable = read_only_obs.flags.writeable = False
    wanted_mask = rf"mask_out must be a writeable C-contiguous bool array of shape \({batch}, {n}\)"
    wanted_obs = rf"obs_out must be a writeable C-contiguous int8 array of shape \({batch}, {d}\)"
    return [(None, obs, "mask_out must be an array"), (mask, None, "obs_out must be an array"),
            (np.zeros((batch, 7), bool), obs, wanted_mask),  # shape
            (mask.view(np.uint8), obs, wanted_mask),  # dtype
            (np.zeros((n, batch), bool).T, obs, wanted_mask),  # not C-contiguous
            (read_only_mask, obs, wanted_mask),
            (mask.tolist(), obs, wanted_mask),  # not an array
            (mask, np.zeros((batch, 5), np.int8), wanted_obs),
            (mask, obs.astype(np.int16), wanted_obs),
            (mask, np.zeros((d, batch), np.int8).T, wanted_obs),
            (mask, read_only_obs, wanted_obs)]


@pytest.mark.parametrize("engine", [SM, E], ids=["space_mission", "red_planet"])
def test_bad_buffers_raise_the_same_errors_in_both_games_before_stepping(engine):
    """Both engines check the buffers with ``engine_common.output_buffer``, which names the
    argument (it said ``out``, which step_observe has not); the state is unchanged."""
    st = engine.init(2, 3, seeds=0)
    before = [x.copy() for x in st.arrays()] + [st.rng.copy()]
    actions = engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(0))
    for mask_out, obs_out, message in _bad_buffers(engine, 2):
        with pytest.raises(ValueError, match=message):
            engine.step_observe(st, actions, mask_out, obs_out)
    with pytest.raises(ValueError, match="unknown observation_type"):
        engine.step_observe(st, actions, *_buffers_of(engine, 2), "full")
    mask, obs = _buffers_of(engine, 2)
    with pytest.raises(ValueError, match=r"^obs_out must be None with observation_type=None"):
        engine.step_observe(st, actions, mask, obs, None)  # a buffer that would be left as it was
    with pytest.raises(ValueError, match="mask_out must be an array"):
        engine.step_observe(st, actions, None, None, None)
    assert all(np.array_equal(x, y) for x, y in zip(before, [*st.arrays(), st.rng]))


def test_a_foreign_state_is_named():
    with pytest.raises(TypeError, match="st must be a Red Planet BatchState"):
        E.step_observe(SM.init(1, 3), np.zeros(1, np.int64), *_buffers_of(E, 1))


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: no dispatchers, no signatures")
def test_the_fused_step_hands_its_callees_the_read_only_all_games():
    """As Space Mission's (tests/env/engine/test_step_observe.py): the fused kernel passes
    ``step_games`` and ``legal_mask`` the state's read-only ``all_games``, the ``select``
    of ``step`` and ``legal_action_mask``, so neither compiles a second time."""
    import importlib

    F = importlib.import_module("spacemission_env.red_planet.engine.fused")
    K = importlib.import_module("spacemission_env.red_planet.engine.step")
    st = E.init(2, 3, seeds=3)
    E.step_observe(st, E.sample_actions(E.legal_action_mask(st), np.random.default_rng(0)), *_buffers_of(E, 2))
    everyone = {sig[1] for sig in F.step_mask_observe.signatures}
    selects = everyone | {sig[1] for kernel in (K.step_games, K.legal_mask) for sig in kernel.signatures}
    assert everyone and all(t.dtype.name == "bool" and t.ndim == 1 and not t.mutable for t in selects), selects


def test_the_aec_env_steps_red_planet_with_one_call():
    """The PettingZoo env takes the fused path where the engine has ``step_observe``
    (pettingzoo_env.py); its observations stay the reference encoding's."""
    from spacemission_env.pettingzoo_env import raw_env

    env = raw_env(num_players=4, game="red_planet")
    env.reset(seed=3)
    assert env.engine is E and hasattr(env.engine, "step_observe")
    calls = []
    real = E.step_observe
    try:
        E.step_observe = lambda *args: calls.append(1) or real(*args)
        rng = np.random.default_rng(0)
        for _ in range(40):
            agent = env.agent_selection
            obs = env.observe(agent)
            ref = E.to_reference(env.batch_state, 0)
            assert np.array_equal(obs["observation"], RE.observe(ref, env.possible_agents.index(agent), "info"))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    finally:
        E.step_observe = real
    assert len(calls) == 40
