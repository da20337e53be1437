"""Bad input found by a robustness sweep of the interfaces and the engines, beyond
test_bad_input.py: each case raises an error naming the problem and changes nothing."""
import re

import numpy as np
import pytest

from spacemission_env.gym_env import GameEnv
from spacemission_env.red_planet import engine as rp_engine
from spacemission_env.space_mission import engine as sm_engine
from spacemission_env.vector import VectorEnv

GAMES = [("spacemission", 2), ("red_planet", 3)]
ENGINES = [(sm_engine, 2), (rp_engine, 3)]


# --- Gymnasium reset(options=...) ------------------------------------------------------------
@pytest.mark.parametrize("game, players", GAMES)
@pytest.mark.parametrize("options, exc, text", [
    (["seat"], TypeError, "options must be a dict (e.g. {'seat': 0}) or None, got ['seat']"),
    (5, TypeError, "got 5"),
    ({"seta": 1}, ValueError, "unknown reset option 'seta'"),
    ({"seat": 9}, ValueError, "seat must be 'random' or a seat in 0..1"),
])
def test_gym_reset_rejects_bad_options_before_reseeding(game, players, options, exc, text):
    """A refused reset leaves the episode in progress and the env's generator as they were
    (before the fix: AttributeError for a non-dict, a typo ignored, and a bad seat raised
    only after np_random and the opponents had been reseeded)."""
    env = GameEnv(game=game, num_players=players)
    env.reset(seed=3)
    rng_before = env.np_random.bit_generator.state
    seer = env.engine.observe(env.batch_state, player=0, observation_type="seer").copy()
    seat_before = env.seat
    with pytest.raises(exc, match=re.escape(text.replace("0..1", f"0..{players - 1}"))):
        env.reset(seed=99, options=options)
    assert env.np_random.bit_generator.state == rng_before
    assert env.seat == seat_before
    assert np.array_equal(env.engine.observe(env.batch_state, player=0, observation_type="seer"), seer)
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # the episode goes on


# --- VectorEnv(final_observation=...) ----------------------------------------------------------
@pytest.mark.parametrize("value", ["no", 0, None, 1.0])
def test_vector_final_observation_must_be_a_bool(value):
    with pytest.raises(TypeError, match=re.escape(f"final_observation must be True or False, got {value!r}")):
        VectorEnv(2, final_observation=value)


# --- engine.step / observe: huge values ------------------------------------------------------------
@pytest.mark.parametrize("engine, players", ENGINES)
def test_step_names_a_uint64_action_as_given_not_wrapped(engine, players):
    st = engine.init(2, players, seeds=5)
    before = st.copy()
    with pytest.raises(ValueError, match=r"game 1: action 18446744073709551615 is out of range"):
        engine.step(st, np.array([0, 2**64 - 1], dtype=np.uint64))
    assert np.array_equal(st.current_player, before.current_player)
    assert np.array_equal(engine.observe(st, player=0), engine.observe(before, player=0))


@pytest.mark.parametrize("engine, players", ENGINES)
@pytest.mark.parametrize("player", [2**70, -(2**70), np.uint64(2**64 - 1)])
def test_observe_rejects_a_huge_seat_by_name(engine, players, player):
    st = engine.init(2, players)
    with pytest.raises(ValueError, match=re.escape(f"player must be a seat in 0..{players - 1}, got {int(player)}")):
        engine.observe(st, player=player)


# --- BatchState.take (both engines) / concat, from_reference ---------------------------------------
@pytest.mark.parametrize("engine, players", ENGINES)
@pytest.mark.parametrize("rows, text", [
    ([True, False], "rows must be a 1-d integer array"),
    ([[0, 1]], "rows must be a 1-d integer array"),
    ([0.5], "rows must be a 1-d integer array"),
    ([0, 2], "rows must index the batch of 2 (-2..1), got rows[1] = 2"),
    ([-3], "rows must index the batch of 2 (-2..1), got rows[0] = -3"),
    # past int64 (numpy makes objects or rounded floats of them): before, "not a 1-d integer array"
    ([2**64], "rows must index the batch of 2 (-2..1), got rows[0] = 18446744073709551616"),
    ([0, -2**63 - 1], "rows must index the batch of 2 (-2..1), got rows[1] = -9223372036854775809"),
    ([2**63, 0], "rows must index the batch of 2 (-2..1), got rows[0] = 9223372036854775808"),
])
def test_take_rejects_rows_that_are_not_indices(engine, players, rows, text):
    """Before the fix a bool mask gave a batch whose batch_size (2) did not match its
    arrays (1 row), which the kernels then read past."""
    st = engine.init(2, players, seeds=1)
    before = st.copy()
    with pytest.raises(ValueError, match=re.escape(text)):
        st.take(rows)
    assert st.batch_size == 2 and np.array_equal(st.current_player, before.current_player)
    assert st.take([1, 1]).batch_size == 2  # repeats still fine


@pytest.mark.parametrize("engine, players", ENGINES)
def test_seeds_past_int64_are_out_of_range_or_exact(engine, players):
    """Before: a seed list with an int past int64 was a SeedTypeError "dtype object" (2**64)
    or "dtype float64" (numpy 2 makes floats of [2**63, 0]), the valid uint64 seeds included."""
    for seeds, k, shown in (([0, 2**64], 1, "18446744073709551616"), ([-1, 2**63], 0, "-1")):
        with pytest.raises(ValueError, match=re.escape(f"seeds must be in [0, 2**64), got {shown} at index {k}")):
            engine.init(2, players, seeds=seeds)
    exact = engine.init(2, players, seeds=[2**63 + 1, 0])
    same = engine.init(2, players, seeds=np.array([2**63 + 1, 0], dtype=np.uint64))
    assert np.array_equal(engine.observe(exact, player=0), engine.observe(same, player=0))


@pytest.mark.parametrize("engine, players", ENGINES)
@pytest.mark.parametrize("rows", [[], np.array([], dtype=np.int64)])
def test_take_of_no_rows_is_an_empty_batch_in_both_games(engine, players, rows):
    """Before the fix Space Mission gave an empty batch and Red Planet raised ("rows must be
    a non-empty 1-d integer array"); every call of the engine API takes a 0-game batch."""
    st = engine.init(3, players, seeds=1)
    empty = st.take(rows)
    assert empty.batch_size == 0 and empty.num_players == players and st.batch_size == 3
    mask = engine.legal_action_mask(empty)
    assert mask.shape[0] == 0 and engine.sample_actions(mask).shape == (0,)
    engine.step(empty, np.zeros(0, np.int64))
    assert engine.observe(empty).shape[0] == 0 and engine.observe(empty, player=0).shape[0] == 0
    assert engine.scores(empty).shape[:2] == (0, players) and engine.rewards(empty).shape == (0, players)
    assert engine.reset_finished(empty, 0).shape == (0,)
    assert empty.copy().batch_size == 0 and empty.take([]).batch_size == 0


@pytest.mark.parametrize("other, exc, text", [
    (lambda: sm_engine.init(2, 2, rules="schmidt"), ValueError, "one configuration"),
    (lambda: sm_engine.init(2, 2, max_rounds=5), ValueError, "(2, 'yucata', 100), the other (2, 'yucata', 5)"),
    (lambda: sm_engine.init(2, 3), ValueError, "one configuration"),
    (lambda: None, TypeError, "concat needs a Space Mission BatchState, got NoneType"),
])
def test_concat_refuses_games_of_another_configuration(other, exc, text):
    """Before the fix the other batch's games were silently played by this batch's rules
    and round limit."""
    st = sm_engine.init(2, 2)
    with pytest.raises(exc, match=re.escape(text)):
        st.concat(other())
    assert st.concat(sm_engine.init(1, 2)).batch_size == 3


def test_from_reference_names_a_state_of_the_wrong_type():
    good = sm_engine.to_reference(sm_engine.init(1, 2), 0)
    with pytest.raises(TypeError, match=re.escape("states[1] must be a Space Mission GameState, got NoneType")):
        sm_engine.from_reference([good, None])


def test_random_policy_checks_its_configuration_and_masks():
    """Before: bind kept 7 or 2.5 players (and failed on None with AttributeError),
    by_kind="no" meant True, and act counted a NaN in a mask as legal."""
    from types import SimpleNamespace

    from spacemission_env.games import GameConfig
    from spacemission_env.policies import RandomPolicy

    p = RandomPolicy(seed=0)
    with pytest.raises(TypeError, match=r"bind needs a game configuration"):
        p.bind(None)
    for n in (1, 7):
        with pytest.raises(ValueError, match=r"RandomPolicy plays 2 to 5 players, got num_players="):
            p.bind(SimpleNamespace(num_players=n))
    for n in (2.5, True):  # of the wrong type: a TypeError too (games.GameConfigTypeError)
        with pytest.raises(TypeError, match=r"^RandomPolicy: num_players must be an integer in 2\.\.5 for Space Mission"):
            p.bind(SimpleNamespace(num_players=n))
    with pytest.raises(ValueError, match=r"RandomPolicy plays 3 to 5 players"):
        p.bind(SimpleNamespace(num_players=2, game="red_planet"))
    p.bind(GameConfig(3))
    with pytest.raises(TypeError, match="by_kind must be True or False"):
        RandomPolicy(by_kind="no")
    mask = np.zeros(100, np.float32)
    mask[[3, 4]] = (1.0, np.nan)
    with pytest.raises(ValueError, match=r"only 0 and 1 \(or bool\), got nan at row 0, action 4"):
        p.act(None, mask)
    mask[4] = 0.0
    assert p.act(None, mask) == 3 and p.act(None, mask.astype(np.int8)) == 3


def test_gamma_may_be_a_numpy_number_but_not_a_bool():
    """Before: gamma=np.float32(0.5) was refused as 'not a number'."""
    env = VectorEnv(2, gamma=np.float32(0.5), shaping=True)
    env.reset(seed=0)
    for bad in (np.bool_(True), np.float64(1.5), "0.9"):
        with pytest.raises(ValueError, match="gamma must be a number in"):
            VectorEnv(2, gamma=bad)
