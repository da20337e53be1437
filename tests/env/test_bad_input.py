"""Bad input at every entry point, one section per entry point: the
interfaces (PettingZoo AEC, Gymnasium, the vector env, SB3, policies) first, then the
engines and the JSON state. Each case raises TypeError (wrong type) or ValueError (wrong
value) with a message that names the value, and leaves the state as it was (the env, the
game, keeps working). One module, as the issue asks: that is why it runs past 500 lines."""
import io
import json
import os
import pickle
import random
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from numba import config as numba_config

from tests.helpers.lockstep import same
from tests.helpers.positions import position
from tests.helpers.positions import scan as pos_scan
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.actions import DISCOVER, NUM_ACTIONS, TOPUP
from spacemission_env.space_mission.random_play import play
from spacemission_env.space_mission.engine import kernels as K
from spacemission_env.compile_notice import MESSAGE, CompileNotice
from spacemission_env.space_mission.engine.state import FIELD_NAMES, TABLES
from spacemission_env.gym_env import SpaceMissionEnv
from spacemission_env.pettingzoo_env import env, raw_env
from spacemission_env.policies import BasePolicy, RandomPolicy
from spacemission_env.space_mission.rules import GameState, game as G, new_game
from spacemission_env.space_mission.rules.state_json import state_to_dict
from spacemission_env.vector import VectorEnv


# (value, exception, text the message must contain)
BAD_ACTIONS = [
    (3.7, TypeError, "3.7"),
    ("3", TypeError, "'3'"),
    (True, TypeError, "True"),
    (np.float64(3.0), TypeError, "3.0"),
    (np.array(3.0), TypeError, "array(3.)"),
    (np.array([3.0]), TypeError, "array([3.])"),
    (np.array([1, 2]), TypeError, "array([1, 2])"),
    (-1, ValueError, "-1"),
    (100, ValueError, "100"),
]
BAD_BATCHES = [  # for 3 games
    (np.array([3.7, 0.0, 0.0]), TypeError, "3.7"),
    (np.array(["3", "0", "0"]), TypeError, "'3'"),
    (np.array([True, False, True]), TypeError, "True"),
    (np.array([0, 100, 0]), ValueError, "game 1: .*action 100"),
    (np.array([0, 0, -1]), ValueError, "game 2: .*action -1"),
]


def snapshot(st):
    return {name: getattr(st, name).copy() for name in FIELD_NAMES}


def assert_unchanged(st, snap):
    for name in FIELD_NAMES:
        assert (getattr(st, name) == snap[name]).all(), f"field {name} changed"


def first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


# --- PettingZoo raw_env ----------------------------------------------------------------------
def test_raw_env_before_reset():
    e = raw_env()
    for call, what in ((lambda: e.step(0), "step"), (lambda: e.last(), "last"),
                       (lambda: e.observe("player_0"), "observe"), (lambda: e.state(), "state"),
                       (lambda: e.action_mask("player_0"), "action_mask")):
        with pytest.raises(ValueError, match=rf"call reset\(\) before {what}"):
            call()


@pytest.mark.parametrize("value, exc, text", BAD_ACTIONS + [(None, TypeError, "None")])
def test_raw_env_step_rejects(value, exc, text):
    e = raw_env(num_players=3)
    e.reset(seed=1)
    agent, snap, rewards = e.agent_selection, snapshot(e.batch_state), dict(e._cumulative_rewards)
    with pytest.raises(exc, match=re.escape(text)):
        e.step(value)
    assert_unchanged(e.batch_state, snap)
    assert e.agent_selection == agent and e._cumulative_rewards == rewards
    e.step(first_legal(e.last()[0]["action_mask"]))  # still playable


def test_raw_env_illegal_action_names_it_and_the_legal_ones():
    e = raw_env(num_players=2)
    e.reset(seed=3)
    mask = e.last()[0]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    snap = snapshot(e.batch_state)
    with pytest.raises(ValueError, match=rf"action {bad} \(.*\) is not legal for player_\d now; legal: \["):
        e.step(bad)
    assert_unchanged(e.batch_state, snap)


def test_raw_env_dead_agent_must_step_none():
    e = raw_env(num_players=2, max_rounds=1)
    e.reset(seed=0)
    while not e.terminations[e.agent_selection]:
        e.step(0)
    with pytest.raises(ValueError, match="only valid action is None, got 5"):
        e.step(5)
    e.step(None)


@pytest.mark.parametrize("kwargs, exc, text", [
    ({"illegal_reward": None}, TypeError, "illegal_reward must be a finite number, got None"),
    ({"illegal_reward": float("nan")}, ValueError, "got nan"),
    ({"illegal_reward": "-1"}, TypeError, "got '-1'"),
    ({"observation_dtype": "float64"}, ValueError, "'float64'"),
    ({"illegal_action": "ignore"}, ValueError, "'ignore'"),
    ({"render_mode": "video"}, ValueError, "'video'"),
])
def test_raw_env_constructor_rejects(kwargs, exc, text):
    with pytest.raises(exc, match=re.escape(text)):
        raw_env(**kwargs)


@pytest.mark.parametrize("seed, exc", [(-1, ValueError), (1.5, TypeError), (True, TypeError), ("7", TypeError)])
def test_raw_env_reset_seed(seed, exc):
    with pytest.raises(exc, match=re.escape(repr(seed))):
        raw_env().reset(seed=seed)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("options, exc, text", [("seat=1", TypeError, "options must be a dict or None, got 'seat=1'"),
                                                (["seat"], TypeError, "options must be a dict or None, got ['seat']")])
def test_raw_env_reset_options(game, options, exc, text):
    """The AEC env has no reset options: a dict's keys are ignored (PettingZoo's api_test
    passes {"options": 1}), anything else is refused (it was ignored too) before any
    reseeding, with the game as it was (the wrapper stays reset too)."""
    e = env(game=game, num_players=3)
    e.reset(seed=4)
    snap, game_seed = pickle.dumps(e.unwrapped.batch_state), e.unwrapped.game_seed
    with pytest.raises(exc, match=re.escape(text)):
        e.reset(seed=9, options=options)
    assert pickle.dumps(e.unwrapped.batch_state) == snap
    assert e.unwrapped.game_seed == game_seed
    e.step(first_legal(e.last()[0]["action_mask"]))
    e.reset(seed=4, options={"options": 1})
    assert e.unwrapped.game_seed == game_seed


# --- PettingZoo env() (wrapped) ------------------------------------------------------------
@pytest.mark.parametrize("value, exc, text", BAD_ACTIONS)
def test_wrapped_env_gives_raw_env_messages(value, exc, text):
    """Not PettingZoo's bare "action is not in action space" assertion, nor numpy's
    error on a bool index: the raw env's messages, with the value."""
    e = env(num_players=2)
    e.reset(seed=2)
    snap = snapshot(e.unwrapped.batch_state)
    with pytest.raises(exc, match=re.escape(text)):
        e.step(value)
    assert_unchanged(e.unwrapped.batch_state, snap)
    assert not any(e.terminations.values())  # a caller bug, not a lost game
    e.step(first_legal(e.last()[0]["action_mask"]))


def test_wrapped_env_illegal_action_ends_with_float_rewards_and_scores():
    e = env(num_players=3)
    e.reset(seed=5)
    offender = e.agent_selection
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"] == 0)[0]))
    assert all(isinstance(r, float) for r in e.rewards.values())
    for agent in e.agent_iter():
        _, reward, term, trunc, info = e.last()
        assert isinstance(reward, float) and term and not trunc
        assert "scores" in info and info["illegal_action"] == (agent == offender)
        e.step(None)


def test_wrapped_env_before_reset():
    e = env()
    with pytest.raises(Exception, match="reset"):
        e.step(0)


# --- Gymnasium env ----------------------------------------------------------------------------
@pytest.mark.parametrize("illegal_action", ["lose", "raise"])
@pytest.mark.parametrize("value, exc, text", BAD_ACTIONS)
def test_gym_step_rejects(value, exc, text, illegal_action):
    """Out-of-range ids are a caller bug (raise), not a lost game, in both modes."""
    e = SpaceMissionEnv(num_players=3, illegal_action=illegal_action)
    _, info = e.reset(seed=1)
    snap, mask = snapshot(e.batch_state), e.action_masks()
    with pytest.raises(exc, match=re.escape(text)):
        e.step(value)
    assert_unchanged(e.batch_state, snap)
    assert (e.action_masks() == mask).all()
    e.step(first_legal(info["action_mask"]))


def test_gym_accepts_integer_scalars_and_one_element_int_arrays():
    """Each form plays the id it holds: the game goes on exactly as with the plain int."""
    for action in (np.int64(0), np.array(0), np.array([0], dtype=np.int32)):
        e, twin = SpaceMissionEnv(num_players=2), SpaceMissionEnv(num_players=2)
        before, _ = e.reset(seed=0)
        twin.reset(seed=0)
        obs, reward, term, _, info = e.step(action)  # top up keeping every card: always legal
        expected, twin_reward, twin_term, _, twin_info = twin.step(0)
        assert (obs == expected).all() and (reward, term) == (twin_reward, twin_term)
        assert (info["action_mask"] == twin_info["action_mask"]).all()
        assert e.batch_state.actions_left[0] != 2 or not (obs == before).all(), "the action was not applied"


@pytest.mark.parametrize("kwargs, exc, text", [
    ({"illegal_reward": None}, TypeError, "illegal_reward must be a finite number, got None"),
    ({"illegal_reward": float("inf")}, ValueError, "got inf"),
    ({"seat": 1.5}, TypeError, "got 1.5"),
    ({"seat": "first"}, ValueError, "got 'first'"),
    ({"observation_dtype": "float16"}, ValueError, "'float16'"),
])
def test_gym_constructor_rejects(kwargs, exc, text):
    with pytest.raises(exc, match=re.escape(text)):
        SpaceMissionEnv(num_players=2, **kwargs)


@pytest.mark.parametrize("seed, exc", [(-1, ValueError), (1.5, TypeError)])
def test_gym_reset_seed(seed, exc):
    with pytest.raises(exc, match=re.escape(repr(seed))):
        SpaceMissionEnv().reset(seed=seed)


def test_gym_step_before_reset():
    with pytest.raises(ValueError, match=r"call reset\(\)"):
        SpaceMissionEnv().step(0)


class Returns(BasePolicy):
    """An opponent that returns a fixed value (bad on purpose)."""

    uses_observation = False

    def __init__(self, value):
        self.value = value

    def act(self, observation, action_mask):
        return self.value

    def act_batch(self, observations, action_masks):
        return np.full(len(action_masks), self.value)

    def __repr__(self):
        return f"Returns({self.value!r})"


@pytest.mark.parametrize("value, exc, text", [
    (100, ValueError, "opponent Returns(100) in seat 1: 100 is out of range (action ids are 0..99)"),
    (-1, ValueError, "opponent Returns(-1) in seat 1: -1 is out of range"),
    (3.7, TypeError, "opponent Returns(3.7) in seat 1: 3.7 (float) is not an integer action id"),
    (99, ValueError, "opponent Returns(99) in seat 1: action 99 (take tile medal) is not legal now; legal: ["),
])
def test_gym_bad_opponent_action_names_the_opponent(value, exc, text):
    e = SpaceMissionEnv(num_players=2, seat=0, rules="schmidt", opponents=Returns(value))  # seat 0 opens
    _, info = e.reset(seed=0)
    st = e.batch_state
    with pytest.raises(exc, match=re.escape(text)):
        for _ in range(3):  # the learner's turn is two actions; then the opponent acts
            e.step(0)
    assert int(st.current_player[0]) == 1, "the opponent's bad action was not played"
    with pytest.raises(ValueError, match=re.escape(f"the episode stopped when opponent Returns({value!r}) in seat 1 "
                                                   "returned a bad action: call reset()")):
        e.step(0)  # the learner cannot play on the opponent's turn (a review: the error did not say why)
    e.reset(seed=0)
    e.step(0)  # a new episode: no word of the old failure


class Raises(Returns):
    def act(self, observation, action_mask):
        raise KeyError("lost")


def test_gym_step_after_an_opponent_raised_names_it():
    e = SpaceMissionEnv(num_players=2, seat=0, rules="schmidt", opponents=Raises(0))
    e.reset(seed=0)
    with pytest.raises(KeyError, match="lost"):
        for _ in range(3):
            e.step(0)
    with pytest.raises(ValueError, match=re.escape("the episode stopped when opponent Returns(0) in seat 1 raised "
                                                   "KeyError: call reset()")):
        e.step(0)


# --- SB3 VecEnv ---------------------------------------------------------------------------------
sb3 = pytest.importorskip("stable_baselines3")
from spacemission_env.sb3 import SpaceMissionVecEnv  # noqa: E402


@pytest.mark.parametrize("actions, exc, text", BAD_BATCHES)
def test_sb3_step_rejects(actions, exc, text):
    venv = SpaceMissionVecEnv(3, seed=0)
    venv.reset()
    snap, masks = snapshot(venv.batch_state), venv.action_masks()
    with pytest.raises(exc, match=text if "game" in text else re.escape(text)):
        venv.step(actions)
    assert_unchanged(venv.batch_state, snap)
    assert (venv.action_masks() == masks).all()
    venv.step(np.argmax(masks, axis=1))


@pytest.mark.parametrize("shape", [(1, 4), (2, 2), (4, 1, 1), (1, 4, 1)])
def test_sb3_refuses_action_shapes_other_than_n_and_n_by_1(shape):
    """step_async reshaped any integer array holding N ids to [N], so [1, N] or [2, 2] (no
    game axis first, as SB3's own VecEnvs read actions[i] for env i) played silently in
    whatever order they came; only [N] and [N, 1] are one action per game."""
    venv = SpaceMissionVecEnv(4, seed=0)
    venv.reset()
    snap, masks = snapshot(venv.batch_state), venv.action_masks()
    first = np.argmax(masks, axis=1)
    with pytest.raises(ValueError, match=re.escape(f"learner actions must have shape (4,) or (4, 1): one action id "
                                                   f"per game, the game first (SB3's convention), got shape {shape}")):
        venv.step(first.reshape(shape))
    assert_unchanged(venv.batch_state, snap)
    column = venv.step(first.reshape(4, 1))  # a column is one action per game, as [N]
    venv2 = SpaceMissionVecEnv(4, seed=0)
    venv2.reset()
    flat = venv2.step(first)
    assert (column[0] == flat[0]).all() and (column[1] == flat[1]).all()


def test_sb3_illegal_learner_action_names_game_and_action():
    venv = SpaceMissionVecEnv(2, seed=0)
    venv.reset()
    masks = venv.action_masks()
    actions = np.array([first_legal(masks[0]), int(np.flatnonzero(~masks[1])[0])])
    snap = snapshot(venv.batch_state)
    with pytest.raises(ValueError, match=rf"game 1: learner action {actions[1]} \(.*\) is not legal now"):
        venv.step(actions)
    assert_unchanged(venv.batch_state, snap)


@pytest.mark.parametrize("value, exc, text", [
    (100, ValueError, "opponent Returns(100) returned action 100 in game 0 (seat 1), out of range"),
    (-1, ValueError, "opponent Returns(-1) returned action -1 in game 0 (seat 1), out of range"),
    (3.7, TypeError, "opponent Returns(3.7) returned actions of dtype float64"),
    (99, ValueError, "opponent Returns(99) returned action 99 in game 0 (seat 1), which is not legal there; legal: ["),
])
def test_sb3_bad_opponent_action_names_the_opponent(value, exc, text):
    venv = SpaceMissionVecEnv(2, seat=0, rules="schmidt", opponents=Returns(value), seed=0)
    venv.reset()
    with pytest.raises(exc, match=re.escape(text)):
        for _ in range(3):
            venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match=r"an opponent failed .* call reset\(\)"):
        venv.step(np.zeros(2, dtype=np.int64))
    venv.reset()


@pytest.mark.parametrize("seed, exc", [(-1, ValueError), (1.5, TypeError), ("1", TypeError)])
def test_sb3_seed_is_checked_at_seed(seed, exc):
    venv = SpaceMissionVecEnv(2, seed=0)
    before = list(venv._seeds)
    with pytest.raises(exc, match=re.escape(repr(seed))):
        venv.seed(seed)
    assert venv._seeds == before
    with pytest.raises(exc, match=re.escape(repr(seed))):
        SpaceMissionVecEnv(2, seed=seed)


def test_sb3_step_before_reset_and_bad_render_mode():
    with pytest.raises(ValueError, match=r"call reset\(\) before step"):
        SpaceMissionVecEnv(2).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="'video'"):
        SpaceMissionVecEnv(2, render_mode="video")
    venv = SpaceMissionVecEnv(2, seed=0)
    venv.reset()
    with pytest.raises(ValueError, match="'video'"):
        venv.render("video")


# --- VectorEnv -----------------------------------------------------------------------------------
def test_vector_has_no_option_to_skip_action_checks():
    with pytest.raises(TypeError, match="check_actions"):
        VectorEnv(2, check_actions=False)


@pytest.mark.parametrize("actions, exc, text", BAD_BATCHES)
def test_vector_step_rejects(actions, exc, text):
    venv = VectorEnv(3, seed=0)
    _, mask, _, _ = venv.reset()
    snap = snapshot(venv.state)
    with pytest.raises(exc, match=text if "game" in text else re.escape(text)):
        venv.step(actions)
    assert_unchanged(venv.state, snap)
    venv.step(np.argmax(mask, axis=1))


def test_vector_illegal_action_names_the_game():
    venv = VectorEnv(3, seed=0)
    _, mask, _, _ = venv.reset()
    actions = np.argmax(mask, axis=1)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    snap = snapshot(venv.state)
    with pytest.raises(ValueError, match=rf"game 2: .*{actions[2]}.* not legal"):
        venv.step(actions)
    assert_unchanged(venv.state, snap)


@pytest.mark.parametrize("args, exc, text", [
    (("0",), TypeError, "got '0'"),
    ((1.0,), TypeError, "got 1.0"),
    ((True,), TypeError, "got True"),
    ((5,), ValueError, "got 5"),
    ((-1,), ValueError, "got -1"),
    ((0, "video"), ValueError, "'video'"),
])
def test_vector_render_index_and_mode(args, exc, text):
    venv = VectorEnv(2, seed=0)
    venv.reset()
    with pytest.raises(exc, match=re.escape(text)):
        venv.render(*args)


@pytest.mark.parametrize("seed, exc", [(-1, ValueError), (1.5, TypeError)])
def test_vector_seeds(seed, exc):
    with pytest.raises(exc, match=re.escape(repr(seed))):
        VectorEnv(2, seed=seed)
    venv = VectorEnv(2, seed=0)
    with pytest.raises(exc, match=re.escape(repr(seed))):
        venv.reset(seed=seed)


@pytest.mark.parametrize("num_envs, exc", [(0, ValueError), (2.0, TypeError), (True, TypeError)])
def test_vector_num_envs(num_envs, exc):
    with pytest.raises(exc, match=re.escape(repr(num_envs))):
        VectorEnv(num_envs)


# --- policies ------------------------------------------------------------------------------------
def test_random_policy_seed_is_keyword_only_and_checked():
    with pytest.raises(TypeError):
        RandomPolicy(1)  # reads like a seat number: write seed=1
    with pytest.raises(ValueError, match="-1"):
        RandomPolicy(seed=-1)
    with pytest.raises(TypeError, match="1.5"):
        RandomPolicy(seed=1.5)
    p = RandomPolicy(seed=1)
    with pytest.raises(TypeError, match="'2'"):
        p.seed("2")


def test_no_warnings_from_valid_play():
    """The checks add no warnings on the normal path (wrapped AEC env, one game)."""
    e = env(num_players=2, max_rounds=3)
    e.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else first_legal(obs["action_mask"]))



# ============================ the engines and the JSON state ============================

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


def unchanged(st, before) -> bool:
    return all(np.array_equal(getattr(st, f), getattr(before, f)) for f in FIELD_NAMES)


def random_batch(n=3, B=16, steps=60, seed=0, rules="yucata", max_rounds=100):
    """A batch after kind-uniform random play (some games in a tile decision)."""
    st = engine.init(B, n, seeds=seed, rules=rules, max_rounds=max_rounds)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    return st


# --- engine.step -----------------------------------------------------------------------
@pytest.mark.parametrize("bad", [-1, 100, 2**40, np.iinfo(np.int64).min])
def test_step_rejects_out_of_range_ids_and_changes_nothing(bad):
    st = random_batch()
    before = st.copy()
    acts = engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(1))
    acts[5] = bad
    with pytest.raises(ValueError, match=rf"game 5: action {bad} is not legal"):
        engine.step(st, acts)
    assert unchanged(st, before)


def test_step_rejects_an_illegal_in_range_id_naming_the_first_game():
    st = engine.init(3, 2, seeds=0)
    before = st.copy()
    with pytest.raises(ValueError, match=rf"game 1: action {DISCOVER} is not legal now \(legal: \["):
        engine.step(st, np.array([TOPUP, DISCOVER, DISCOVER]))  # discover from the jump gate
    assert unchanged(st, before)


@pytest.mark.parametrize("bad", [[3.7, 0], ["3", "0"], [True, False], [[0], [0]], [0, 0, 0]])
def test_step_rejects_non_integer_or_misshapen_actions(bad):
    st = engine.init(2, 2, seeds=0)
    before = st.copy()
    with pytest.raises(ValueError, match="actions must"):
        engine.step(st, bad)
    assert unchanged(st, before)


def test_step_rejects_a_bad_select():
    st = engine.init(2, 2, seeds=0)
    with pytest.raises(ValueError, match=r"select must be .*\[1, 0\]"):
        engine.step(st, np.zeros(2, np.int64), select=[1, 0])


def test_step_ignores_any_id_of_finished_and_unselected_games():
    st = engine.init(3, 2, seeds=[5, 6, 7], max_rounds=1)
    for _ in range(4):
        engine.step(st, np.zeros(3, np.int64))
    st.terminated[2] = st.round_limit[2] = False  # game 2 runs on (unselected below)
    st.actions_left[2] = 2
    before = st.copy()
    engine.step(st, np.array([-1, 100, 555]), select=np.array([True, True, False]))
    assert unchanged(st, before)


def test_step_validation_agrees_with_the_legal_mask():
    """step validates with kernels.first_illegal, one id per game; it must reject exactly
    what mask_row leaves out, for every id (out-of-range ones included) in many positions."""
    for n, rules, steps in [(2, "yucata", 30), (3, "schmidt", 90), (5, "yucata", 160), (4, "schmidt", 400)]:
        st = random_batch(n, B=24, steps=steps, seed=steps, rules=rules)
        mask = engine.legal_action_mask(st)
        args = (st.ring, st.piles, st.hand, st.hand_len, st.supply, st.ship, st.scanned, st.stations,
                st.current_player, st.phase, st.terminated, TABLES[0], TABLES[1])
        for a in range(-3, NUM_ACTIONS + 3):
            actions = np.full(st.batch_size, a, np.int64)
            select = np.ones(st.batch_size, bool)
            seen = select.view()  # read-only, as check_select passes it: the kernel's cached signature
            seen.flags.writeable = False
            rejected = []
            while (b := K.first_illegal(actions, seen, *args)) >= 0:
                rejected.append(b)
                select[b] = False
            legal = mask[:, a] if 0 <= a < NUM_ACTIONS else np.zeros(st.batch_size, bool)
            assert rejected == np.flatnonzero(~legal & ~st.terminated).tolist(), a


# --- engine.observe / observation_size ------------------------------------------------------
@pytest.mark.parametrize("bad", [["info"], "god", None, 3])
def test_observe_rejects_unknown_observation_types(bad):
    # a str that is no type: "unknown observation_type"; another type: SettingTypeError (also a
    # ValueError) naming it (tests/env/test_setting_type_checks.py, both engines)
    text = re.escape(f"unknown observation_type {bad!r}" if isinstance(bad, str) else
                     f"observation_type must be one of ('info', 'recall', 'seer') (a str), got {type(bad).__name__}")
    st = engine.init(1, 2, seeds=0)
    with pytest.raises(ValueError, match=text):
        engine.observe(st, observation_type=bad)
    with pytest.raises(ValueError, match=text):
        engine.observation_size(bad)


@pytest.mark.parametrize("bad, shown", [(2, "2"), (-1, "-1"), (1.5, "1.5"), (np.array([0, 3]), "3")])
def test_observe_rejects_bad_seats(bad, shown):
    st = engine.init(2, 2, seeds=0)
    with pytest.raises(ValueError, match=rf"player must .*{shown}"):
        engine.observe(st, bad)


# --- engine.sample_actions ----------------------------------------------------------------
def test_sample_actions_rejects_a_non_generator_rng_and_bad_masks():
    mask = np.ones((2, NUM_ACTIONS), bool)
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator or None, got 5"):
        engine.sample_actions(mask, rng=5)
    with pytest.raises(TypeError, match="rng must be .*RandomState"):
        engine.sample_actions(mask, rng=np.random.RandomState(0))
    with pytest.raises(TypeError, match="by_kind must be a bool, got 'yes'"):
        engine.sample_actions(mask, by_kind="yes")
    with pytest.raises(ValueError, match=r"mask must have shape \[B, 100\], got \(2, 99\)"):
        engine.sample_actions(mask[:, :99])
    empty = mask.copy()
    empty[1] = False
    with pytest.raises(ValueError, match="mask row 1 has no legal action"):
        engine.sample_actions(empty)


# --- engine.init / reset_finished: seeds ------------------------------------------------------
@pytest.mark.parametrize("bad, shown", [
    (-1, "-1"), (2**64, str(2**64)), (2**64 - 1, str(2**64 - 1)), (1.5, "1.5"), (True, "True"), ("7", "'7'"),
    (None, "None"), (np.array([0, -3, 1]), "-3"), (np.array([0.0, 1.0, 2.0]), "float64"), ([1, 2], r"\(2,\)"),
])
def test_init_and_reset_finished_reject_bad_seeds(bad, shown):
    with pytest.raises(ValueError, match=rf"seeds must .*{shown}"):
        engine.init(3, 2, seeds=bad)  # an int s uses s, s+1, s+2: 2**64 - 1 does not fit
    st = engine.init(3, 2, seeds=0, max_rounds=1)
    for _ in range(4):
        engine.step(st, np.zeros(3, np.int64))
    before = st.copy()
    with pytest.raises(ValueError, match=rf"seeds must .*{shown}"):
        engine.reset_finished(st, bad)
    assert unchanged(st, before)


def test_seed_edges_that_are_accepted():
    assert engine.to_reference(engine.init(1, 2, seeds=2**64 - 1), 0) == new_game(2, seed=2**64 - 1)
    st = engine.init(2, 2, seeds=np.array([2**64 - 1, 0], dtype=np.uint64))
    assert engine.to_reference(st, 0) == new_game(2, seed=2**64 - 1)


# --- rules.new_game: seed ------------------------------------------------------------------
@pytest.mark.parametrize("bad", [2**64, 2**64 + 5, -1, 1.5, True, "3"])
def test_new_game_rejects_seeds_outside_the_generator_range(bad):
    with pytest.raises(ValueError, match=rf"seed must .*{bad!r}" if not isinstance(bad, int) or isinstance(bad, bool)
                       else rf"seed must be in \[0, 2\*\*64\), got {bad}"):
        new_game(2, seed=bad)


def test_new_game_accepts_numpy_integer_seeds():
    assert new_game(3, seed=np.uint64(7)) == new_game(3, seed=7)


# --- engine.to_reference / from_reference ------------------------------------------------------
@pytest.mark.parametrize("bad, exc, shown", [(1.5, TypeError, "1.5"), (True, TypeError, "True"), ("0", TypeError, "'0'"),
                                             (2, ValueError, "2"), (-1, ValueError, "-1")])
def test_to_reference_rejects_bad_indices(bad, exc, shown):
    st = engine.init(2, 2, seeds=0)
    with pytest.raises(exc, match=rf"batch index .*{shown}"):
        engine.to_reference(st, bad)
    assert engine.to_reference(st, np.int64(1)) == new_game(2, seed=1)


def test_from_reference_rejects_mixed_configurations():
    with pytest.raises(ValueError, match="configuration"):
        engine.from_reference([new_game(2, seed=0), new_game(3, seed=0)])
    with pytest.raises(ValueError, match="at least one state"):
        engine.from_reference([])


@pytest.mark.parametrize("game, players", [("spacemission", 2), ("red_planet", 3)])
def test_from_reference_names_one_state_given_for_a_list(game, players):
    """Before: from_reference(state) raised Python's "'GameState' object is not iterable" (and
    from_reference(5) "'int' object is not iterable"); now a TypeError saying what it takes."""
    from spacemission_env.games import get_game

    g = get_game(game)
    s = g.rules.new_game(players, seed=0)
    with pytest.raises(TypeError, match=r"states must be a list of .* GameStates, got one GameState: "
                                        r"from_reference\(\[state\]\) for a batch of one"):
        g.engine.from_reference(s)
    with pytest.raises(TypeError, match="states must be a list of .* GameStates, got int: 5"):
        g.engine.from_reference(5)
    assert g.engine.to_reference(g.engine.from_reference((s,)), 0) == s  # any sequence


# --- GameState.from_json: explicit cases --------------------------------------------------------
def played(n=3, seed=4, actions=40):
    from spacemission_env.space_mission.random_play import kind_uniform_action
    s, r = new_game(n, seed=seed), random.Random(seed)
    for _ in range(actions):
        G.apply(s, kind_uniform_action(s, r))
    return s


def rejects(d, match):
    with pytest.raises(ValueError, match=match):
        GameState.from_json(json.dumps(d))


@pytest.mark.parametrize("bad, shown", [(5, "int 5"), (b"{}", "bytes"), (None, "NoneType"), ({}, "dict")])
def test_from_json_rejects_non_str_input(bad, shown):
    with pytest.raises(ValueError, match=f"must be a str, got {shown}"):
        GameState.from_json(bad)


def test_from_json_rejects_deeply_nested_json_and_values():
    with pytest.raises(ValueError, match="nested too deeply"):
        GameState.from_json("[" * 100_000 + "]" * 100_000)
    d = state_to_dict(played())
    d["rng"] = json.loads("[" * 500 + "]" * 500)
    rejects(d, r"rng must be an integer .*got \[\[\[")
    with pytest.raises(ValueError, match="not valid JSON"):
        GameState.from_json('{"version": ' + "9" * 5000 + "}")  # too many digits for an int


@pytest.mark.parametrize("where", ["hand", "draw", "planet"])
@pytest.mark.parametrize("value", [["J1/S2"], {"J1/S2": 1}, 7, None])
def test_from_json_names_given_as_lists_or_objects(where, value):
    d = state_to_dict(played())
    if where == "hand":
        d["players"][0]["hand"][0] = value
    elif where == "draw":
        d["draw_pile"][-1] = value
    else:
        d["ring"][3]["planet"] = value
    rejects(d, "unknown (card|planet) ")


def test_from_json_rejects_contradictory_end_flags():
    over, _ = play(2, seed=3)  # ended by R-E1
    limit, _ = play(2, seed=3, max_rounds=1)  # ended at the round limit (R-E3)
    assert over.is_over and over.end_triggered and limit.round_limit
    d = state_to_dict(played())
    d["round_limit"] = True
    rejects(d, "round_limit is true but is_over is false")
    for actions_left in (1, 2):
        d = state_to_dict(over)
        d["actions_left"] = actions_left
        rejects(d, f"finished game has actions_left 0 .*got {actions_left}")
    d = state_to_dict(over)
    d["end_triggered"] = False
    rejects(d, "ended either by R-E1")
    d = state_to_dict(over)
    d["round_limit"] = True
    rejects(d, "ended either by R-E1")
    d = state_to_dict(over)
    d["current_player"] = (d["current_player"] + 1) % 2
    rejects(d, "last seat")
    d = state_to_dict(limit)
    d["max_rounds"] = 5
    rejects(d, r"round_limit needs round == max_rounds \(5\), got round 1")
    d = state_to_dict(played())
    d["actions_left"] = 0
    rejects(d, r"actions_left must be an integer in \[1, 2\], got 0")


def test_from_json_rejects_a_last_visit_in_a_future_round():
    s = played()
    d = state_to_dict(s)
    q = next(q for q, p in enumerate(d["players"]) if p["last_visits"])
    d["players"][q]["last_visits"][0]["round"] = s.round + 1
    rejects(d, rf"player {q}'s last visit .* round {s.round + 1}, after the current round {s.round}")


def test_from_json_rejects_impossible_tile_decisions_and_counts():
    s = played(actions=0)
    d = state_to_dict(s)
    d["players"][0]["last_visits"] = [{"position": 0, "round": 1, "pile": {"water": 8, "space": 1}}]
    rejects(d, "holds more than 8 tiles")
    d = state_to_dict(s)
    d["players"][0]["collection"] = {"medal": 7}  # 6 medals exist
    rejects(d, r"collection.medal must be an integer in \[0, 6\], got 7")
    d = state_to_dict(s)
    d["ring"][0]["reservations"] = {"01": {"water": 1}}
    rejects(d, 'unknown seat "01"')
    for version in (True, "2", 3.0, 4):
        d = state_to_dict(s)
        d["version"] = version
        rejects(d, f"unsupported version {re.escape(json.dumps(version))}")
    # a scan waiting for its tile with no chip left to put on it
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]}, piles={0: {"medal": 1, "space": 1}})
    G.apply(s, pos_scan(s, "J1/S2"))
    assert s.phase == "tile" and s.pending == "scan"
    d = state_to_dict(s)
    pl = d["players"][s.current_player]
    pl["gate_probes"], pl["supply"] = pl["gate_probes"] + pl["supply"], 0
    rejects(d, "scan's tile decision needs .* a chip in supply")


# --- GameState.from_json: mutation fuzz ----------------------------------------------------------
POOL = [0, 1, -1, 2, 3, 5, 7, 8, 20, 21, 64, 100, 10**6, 10**9, 2**31, 2**64, 1.5, True, False, None, "", "main", "tile",
        "scan", "develop", "J1/S2", "S?/L1", "Freezer", "water", "space", [], {}, [1], {"water": 1}, ["J1/S2"]]


def fuzz_positions(count=240):
    """Reference states from kind-uniform random play of the fast engine: every configuration,
    early to finished games, some in a tile decision, some at the round limit."""
    out = []
    per = count // 16
    k = 0
    for n in (2, 3, 4, 5):
        for rules in ("yucata", "schmidt"):
            for max_rounds, horizon in ((2, 40), (100, 500)):
                st = engine.init(per, n, seeds=1000 * k, rules=rules, max_rounds=max_rounds)
                rng = np.random.default_rng(k)
                stop = rng.integers(0, horizon, per)
                for t in range(horizon):
                    for i in np.flatnonzero(stop == t):
                        out.append(engine.to_reference(st, i))
                    engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
                k += 1
    return out


def paths(node, prefix=()):
    yield prefix
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield from paths(child, prefix + (key,))


def mutate(d, r: random.Random):
    """One random edit of the dict form: an integer (half the edits) nudged, redrawn or
    made extreme; or any node replaced, removed, duplicated, or swapped with one of the
    same kind (two hand cards, two piles' flags: often still a valid state). Fields are
    drawn uniformly by kind (the path with list indices wildcarded)."""
    all_paths = [p for p in paths(d) if p]

    def at(path):
        node = d
        for key in path[:-1]:
            node = node[key]
        return node, path[-1]

    def shape(path):
        return tuple("*" if isinstance(k, int) else k for k in path)

    by_shape = {}
    for p in all_paths:
        by_shape.setdefault(shape(p), []).append(p)
    path = r.choice(by_shape[r.choice(sorted(by_shape, key=str))])  # every field equally often
    parent, key = at(path)
    value = parent[key]
    op = r.randrange(5)
    if type(value) is int:
        parent[key] = r.choice([value + r.choice([-2, -1, 1, 2]), r.randrange(0, max(value, 0) + 2),
                                r.choice([-1, 10**6, 10**9, 2**31, 2**64, 1.5, True, None])])
    elif op == 0:
        parent[key] = r.choice(POOL)
    elif op == 1:
        del parent[key]
    elif op == 2 and isinstance(parent, list):
        parent.append(value)
    else:
        other, okey = at(r.choice(by_shape[shape(path)]))
        parent[key], other[okey] = other[okey], value


def test_from_json_fuzz_every_loaded_state_plays_alike_in_both_engines():
    r = random.Random(0)
    loaded = rejected = 0
    for s in fuzz_positions():
        for _ in range(3):
            d = json.loads(s.to_json())
            for _ in range(r.choice([1, 1, 2])):
                try:
                    mutate(d, r)
                except (KeyError, IndexError, TypeError):  # the path moved under an earlier edit
                    pass
            try:
                m = GameState.from_json(json.dumps(d))
            except ValueError:
                rejected += 1
                continue
            loaded += 1
            assert GameState.from_json(m.to_json()) == m
            ref = m.copy()
            st = engine.from_reference([m])
            same(ref, st, observations=True)
            for step in range(3):
                if ref.is_over:
                    break
                a = r.choice(G.legal_actions(ref))
                G.apply(ref, a)
                engine.step(st, np.array([a]))
                same(ref, st, observations=step == 2)
    assert loaded > 150 and rejected > 300, (loaded, rejected)


# --- first compile notice ----------------------------------------------------------------------
needs_jit = pytest.mark.skipif(numba_config.DISABLE_JIT, reason="nothing is compiled under NUMBA_DISABLE_JIT")


@needs_jit
def test_compile_notice_names_this_package_once():
    from numba import njit
    from numba.core import event

    out = io.StringIO()
    notice = CompileNotice(stream=out)
    event.register("numba:compile", notice)
    try:
        def other(x):
            return x + 1

        njit(other)(1)  # not this package's: no notice
        assert out.getvalue() == ""

        def ours(x):
            return x + 2

        ours.__module__ = "spacemission_env.space_mission.engine.example"
        njit(ours)(1)
        njit(ours)(2.0)  # a second compile: still one line
    finally:
        event.unregister("numba:compile", notice)
    assert out.getvalue() == MESSAGE + "\n"


@needs_jit
def test_compile_notice_only_when_compiling_not_when_loading_from_the_cache(tmp_path):
    code = ("import numpy as np; from spacemission_env.space_mission.engine import kernels as K; "
            "a = np.zeros(3, np.int8); K.sort_small(a, 3)")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert MESSAGE in runs[0].stderr  # empty cache: compiled
    assert MESSAGE not in runs[1].stderr  # loaded from the cache


def test_from_json_rejects_an_acting_record_longer_than_the_turn_so_far_R_I1():
    """The acting seat's last-turn record holds this turn's actions so far (R-T2, R-I1):
    a record of two actions with one action left would make the engines record a third."""
    s = played(actions=0)
    G.apply(s, 0)  # the acting seat tops up: its record holds one action, one action left
    assert s.actions_left == 1 and len(s.players[s.current_player].last_turn) == 1
    d = state_to_dict(s)
    turn = d["players"][s.current_player]["last_turn"]
    d["players"][s.current_player]["last_turn"] = turn + turn
    rejects(d, "records 2 actions, but the seat has played 1 of this turn")


@pytest.mark.parametrize("name", ["legal_actions", "legal_action_mask", "is_legal", "apply", "scores", "winners",
                                  "current_player", "is_over", "to_json"])
def test_space_missions_reference_api_refuses_what_is_not_its_state(name):
    """As Red Planet's reference API does. Before: AttributeError from inside ('NoneType'
    object has no attribute 'is_over', 'str' object has no attribute 'players'), for a Red
    Planet state too."""
    from spacemission_env.red_planet.rules import new_game as red_planet_game
    from spacemission_env.space_mission import rules

    f = getattr(rules, name)
    call = {"is_legal": lambda s: f(s, 0), "apply": lambda s: f(s, 0)}.get(name, f)
    for other, kind in ((None, "NoneType"), (red_planet_game(3, seed=0), "GameState"), ("{}", "str")):
        with pytest.raises(TypeError, match=f"state must be a Space Mission GameState, got {kind}"):
            call(other)
    s = new_game(2, seed=0)
    call(s) if name != "apply" else f(s, rules.legal_actions(s)[0])  # its own state plays


def test_a_state_of_the_other_game_is_named_as_such():
    """Before: Space Mission's loader said "unknown key 'game' in state (expected only ...)" of
    a Red Planet document, and Red Planet's "missing key 'game' in the document" of a Space
    Mission one."""
    from spacemission_env.games import get_game

    red, space = get_game("red_planet").rules, get_game("spacemission").rules
    red_doc, space_doc = red.to_json(red.new_game(3, seed=0)), space.to_json(space.new_game(2, seed=0))
    with pytest.raises(ValueError, match=r"a Mission: Red Planet state \('game': 'red_planet'\), not a Space Mission "
                                         r"one; load it with spacemission_env\.red_planet\.rules\.from_json"):
        space.from_json(red_doc)
    with pytest.raises(ValueError, match=r"a Space Mission state .* load it with "
                                         r"spacemission_env\.space_mission\.rules\.from_json"):
        red.from_json(space_doc)
    assert red.to_json(red.from_json(red_doc)) == red_doc and space.to_json(space.from_json(space_doc)) == space_doc
