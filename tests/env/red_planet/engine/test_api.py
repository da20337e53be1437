"""The Red Planet fast engine's API: setup identical to the reference, bad input rejected
with the state unchanged, the batch conventions (select, finished games, copy/take,
reset), scores and rewards, conservation after steps."""
import importlib

import numpy as np
import pytest

from spacemission_env.engine_common import sample_legal
from spacemission_env.red_planet import encoding as E
from spacemission_env.red_planet import engine
from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.actions import NUM_ACTIONS
from spacemission_env.red_planet.rules.scoring import CATEGORIES
from spacemission_env.red_planet.rules.state import PHASES
from tests.helpers.red_planet_positions import act, position

# the kernels' module (engine.step, the attribute, is the public function of that name)
K = importlib.import_module("spacemission_env.red_planet.engine.step")


def snapshot(st):
    return st.record.copy(), st.rng.copy(), st.current_player.copy(), st.terminated.copy()


def assert_unchanged(st, snap):
    for a, b in zip(snapshot(st), snap):
        assert np.array_equal(a, b)


def advance(st, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
    return st


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_M_S1_to_M_S5_init_is_new_game_of_each_seed(num_players):
    st = engine.init(3, num_players, seeds=np.array([5, 2**64 - 1, 0], dtype=np.uint64))
    for i, seed in enumerate([5, 2**64 - 1, 0]):
        assert engine.to_reference(st, i) == G.new_game(num_players, seed=seed)
    st = engine.init(2, num_players, seeds=40)  # an int s: s, s + 1
    assert engine.to_reference(st, 1) == G.new_game(num_players, seed=41)
    assert st.current_player.dtype == np.int8 and st.terminated.dtype == np.bool_ and st.all_games.all()


@pytest.mark.parametrize("seeds", [-1, 2**64 - 1, 1.5, True, "0", [1, 2], np.array([1.0, 2.0, 3.0]), [1, -2, 3]])
def test_bad_seeds_rejected(seeds):
    with pytest.raises(ValueError):
        engine.init(3, 3, seeds=seeds)
    st = engine.init(3, 3)
    snap = snapshot(st)
    with pytest.raises(ValueError):
        engine.reset_finished(st, seeds)
    assert_unchanged(st, snap)


@pytest.mark.parametrize("args", [(0, 3), (2, 2), (2, 6), (2.0, 3), (True, 3)])
def test_bad_batch_size_or_player_count_rejected(args):
    with pytest.raises((TypeError, ValueError)):
        engine.init(*args)


def test_bad_actions_rejected_with_every_game_unchanged():
    st = advance(engine.init(4, 4, seeds=3), 20)
    mask = engine.legal_action_mask(st)
    good = engine.sample_actions(mask, np.random.default_rng(1))
    illegal = int(np.flatnonzero(~mask[2])[0])
    snap = snapshot(st)
    bad_inputs = [good[:3], good.astype(np.float64), good.reshape(2, 2), np.where(np.arange(4) == 1, NUM_ACTIONS, good),
                  np.where(np.arange(4) == 1, -1, good), np.where(np.arange(4) == 2, illegal, good), "0123"]
    for bad in bad_inputs:
        with pytest.raises(ValueError):
            engine.step(st, bad)
        assert_unchanged(st, snap)
    with pytest.raises(ValueError, match="game 2"):
        engine.step(st, np.where(np.arange(4) == 2, illegal, good))
    with pytest.raises(ValueError, match="select"):
        engine.step(st, good, select=np.ones(3, bool))
    assert_unchanged(st, snap)


_ONE_GAME = np.ones(1, np.bool_)
_ONE_GAME.flags.writeable = False  # read-only, as engine.step passes select: the cached signature


def step_accepts(st, b, ids):
    """For each id: whether step_games (engine.step's kernel, step.is_legal inlined) accepts it
    for game b, tried on a one-game copy of it (-1: accepted and played there, then the copy
    is made afresh; else rejected, the copy unchanged). A direct call of step.is_legal would
    compile a standalone version in every fresh cache; step_games loads from the cache."""
    g, rng, action = st.record[b:b + 1].copy(), st.rng[b:b + 1].copy(), np.zeros(1, np.int64)
    accepted = []
    for a in ids:
        action[0] = a
        accepted.append(K.step_games(action, _ONE_GAME, g, rng) == -1)
        if accepted[-1]:
            g[:], rng[:] = st.record[b], st.rng[b]
    return accepted


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_step_validation_agrees_with_the_legal_mask(num_players):
    """step checks each game's one action (step.is_legal) instead of building its mask
    row: it must accept exactly the ids of the mask, out-of-range ids rejected, in every
    kind of decision (every phase, every role's ability) over whole games."""
    ids = range(-3, NUM_ACTIONS + 3)
    st = engine.init(12, num_players, seeds=1000 * num_players)
    rng = np.random.default_rng(num_players)
    decisions = set()
    while not st.terminated.all():
        mask = engine.legal_action_mask(st)
        for b in np.flatnonzero(~st.terminated):
            decisions.add((int(st.phase[b]), int(st.role[b])))
            got = step_accepts(st, b, ids)
            assert got == [0 <= a < NUM_ACTIONS and bool(mask[b, a]) for a in ids], b
        engine.step(st, engine.sample_actions(mask, rng))
    abilities = {role for phase, role in decisions if PHASES[phase] == "ability"}
    assert {PHASES[phase] for phase, _ in decisions} == set(PHASES) - {"over"} and len(abilities) == 7, abilities


def test_select_and_finished_games_are_left_unchanged():
    st = advance(engine.init(3, 3, seeds=8), 10)
    mask = engine.legal_action_mask(st)
    a = engine.sample_actions(mask, np.random.default_rng(0))
    before = [engine.to_reference(st, i) for i in range(3)]
    illegal_for_1 = int(np.flatnonzero(~mask[1])[0])
    engine.step(st, np.array([a[0], illegal_for_1, a[2]]), select=np.array([True, False, True]))
    assert engine.to_reference(st, 1) == before[1]
    G.apply(before[0], int(a[0]))
    assert engine.to_reference(st, 0) == before[0]
    # play game 0 to its end: its mask is then all True and stepping it does nothing
    rng = np.random.default_rng(3)
    while not st.terminated[0]:
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng), select=np.array([True, False, False]))
    final = engine.to_reference(st, 0)
    assert final.phase == "over" and final.current_player == G.NONE and 0 <= st.current_player[0] < 3
    assert engine.legal_action_mask(st)[0].all()
    engine.step(st, np.array([0, a[1], a[2]]), select=np.array([True, False, False]))
    assert engine.to_reference(st, 0) == final


def test_rewards_and_scores_of_finished_games():
    st = engine.init(6, 5, seeds=100)
    rng = np.random.default_rng(0)
    while not st.terminated.all():
        assert not engine.rewards(st)[~st.terminated].any()  # 0 while running
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
    r, sc = engine.rewards(st), engine.scores(st)
    assert r.dtype == np.float32 and r.shape == (6, 5) and sc.shape == (6, 5, len(CATEGORIES)) and sc.dtype == np.int16
    assert np.allclose(r.sum(axis=1), 0, atol=1e-5) and (np.abs(r) <= 1).all()
    for i in range(6):
        ref = engine.to_reference(st, i)
        totals = [row["total"] for row in G.scores(ref)]
        assert list(sc[i, :, -1]) == totals
        assert set(np.flatnonzero(r[i] == r[i].max())) == set(G.winners(ref))  # M-P4


def test_bad_observe_arguments_rejected():
    st = engine.init(2, 3)
    snap = snapshot(st)
    with pytest.raises(ValueError):
        engine.observe(st, player=3)
    with pytest.raises(ValueError):
        engine.observe(st, player=np.array([0, -1]))
    with pytest.raises(ValueError):
        engine.observe(st, player=[0.0, 1.0])
    with pytest.raises(ValueError):
        engine.observe(st, observation_type="god")
    with pytest.raises(ValueError):
        engine.observe(st, out=np.zeros((2, E.observation_size("info")), dtype=np.int16))
    with pytest.raises(ValueError):
        engine.observe(st, observation_type="seer", out=np.zeros((2, E.observation_size("info")), dtype=np.int8))
    with pytest.raises(ValueError):
        engine.legal_action_mask(st, out=np.zeros((2, NUM_ACTIONS), dtype=np.int8))
    with pytest.raises(ValueError):
        engine.observation_size(None)
    assert_unchanged(st, snap)
    out = np.full((2, engine.observation_size("seer")), 99, dtype=np.int8)
    assert engine.observe(st, 1, "seer", out=out) is out
    assert np.array_equal(out[0], E.observe(engine.to_reference(st, 0), 1, "seer"))


def test_sample_actions_rejects_bad_masks():
    with pytest.raises(ValueError):
        engine.sample_actions(np.zeros((2, 10), bool))
    with pytest.raises(ValueError, match="row 1"):
        engine.sample_actions(np.eye(2, NUM_ACTIONS, dtype=bool)[[0, 1]] & np.array([[True], [False]]))
    with pytest.raises(TypeError):
        engine.sample_actions(np.ones((1, NUM_ACTIONS), bool), rng=0)


def test_sample_actions_draws_as_the_shared_sampler():
    """sample_actions' kernel (step.sample_mask) gives engine_common.sample_legal's id for
    every row and draw: sparse, dense, full and empty rows, ids at both ends, u at 0 and
    just below 1."""
    rng = np.random.default_rng(5)
    masks = [rng.random((400, NUM_ACTIONS)) < p for p in (0.003, 0.02, 0.1, 0.5, 0.97)]
    edges = np.zeros((4, NUM_ACTIONS), bool)
    edges[0, 0] = edges[1, -1] = edges[2, [0, -1]] = True
    edges[3] = True
    masks.append(edges)
    masks.append(engine.legal_action_mask(advance(engine.init(64, 5, seeds=9), 40)))
    for mask in masks:
        for u in (rng.random(len(mask)), np.zeros(len(mask)), np.full(len(mask), np.nextafter(1.0, 0.0))):
            want = np.empty(len(mask), np.int64)
            got = np.empty(len(mask), np.int64)
            sample_legal(mask, u, want)
            K.sample_mask(mask, u, got)
            assert np.array_equal(got, want)


def test_conservation_after_every_step_and_copy_take_reset():
    st = engine.init(8, 4, seeds=77)
    rng = np.random.default_rng(5)
    for _ in range(150):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
        for i in range(8):
            G.check_invariants(engine.to_reference(st, i))  # M-C1..M-C8 conservation, turn consistency
    twin = st.copy()
    part = st.take([3, 3, 0])
    assert engine.to_reference(part, 0) == engine.to_reference(st, 3) == engine.to_reference(part, 1)
    a = engine.sample_actions(engine.legal_action_mask(st), rng)
    engine.step(st, a)
    assert engine.to_reference(twin, 0) != engine.to_reference(st, 0) or twin.terminated[0]
    engine.step(part, a[[3, 3, 0]])
    assert engine.to_reference(part, 2) == engine.to_reference(st, 0)
    assert st.nbytes() / st.batch_size < 4000
    done = engine.reset_finished(st, 1000)
    for i in np.flatnonzero(done):
        assert engine.to_reference(st, i) == G.new_game(4, seed=1000 + i)


def test_from_reference_rejects_mixed_or_foreign_states():
    s3, s4 = G.new_game(3, seed=1), G.new_game(4, seed=1)
    with pytest.raises(ValueError):
        engine.from_reference([s3, s4])
    with pytest.raises(ValueError):
        engine.from_reference([])
    with pytest.raises(TypeError):
        engine.from_reference([s3, "state"])


def test_M_R3_M_I4_commits_asked_in_seat_order_and_hidden():
    s = position(3, start=1)
    st = engine.from_reference([s])
    assert st.current_player[0] == 1
    engine.step(st, np.array([act("commit", "Pilot")]))
    assert st.current_player[0] == 2
    v = E.decode(engine.observe(st, 2)[0])  # seat 2 sees nothing of seat 1's commit
    assert v["roles_left"][2].sum() == 9 and not v["revealed_role"].any()  # seat 1 = relative seat 2


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_pickled_or_deep_copied_batch_keeps_its_fields_views_of_the_record(how):
    """Copies play on as the original does, and their fields follow their own record:
    copying the views one by one had cut that link, so ``round``, ``phase`` and the rest of
    a copy stayed frozen while its games went on (the envs' copies too)."""
    import copy
    import pickle

    st = engine.init(3, 4, seeds=[1, 2, 3])
    advance(st, 30)
    clone = pickle.loads(pickle.dumps(st)) if how == "pickle" else copy.deepcopy(st)
    for _ in range(40):
        mask = engine.legal_action_mask(st)
        assert np.array_equal(mask, engine.legal_action_mask(clone))
        actions = engine.sample_actions(mask, np.random.default_rng(_))
        engine.step(st, actions)
        engine.step(clone, actions)
        for a, b in zip(st.arrays(), clone.arrays()):
            assert np.array_equal(a, b)
        assert np.array_equal(st.current_player, clone.current_player)
        assert np.array_equal(st.terminated, clone.terminated)
    assert not np.shares_memory(st.record, clone.record)
