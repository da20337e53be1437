"""Bad input at every interface entry point: each case raises TypeError (wrong type) or
ValueError (wrong value) with a message that names the value, and leaves the state as it
was (the env keeps working). One section per entry point."""
import re
import warnings

import numpy as np
import pytest

from spacemission_env.engine.state import FIELD_NAMES
from spacemission_env.gym_env import SpaceMissionEnv
from spacemission_env.pettingzoo_env import env, raw_env
from spacemission_env.policies import BasePolicy, RandomPolicy
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
                       (lambda: e.observe("player_0"), "observe"), (lambda: e.state(), "state")):
        with pytest.raises(ValueError, match=rf"call reset\(\) before {what}"):
            call()


@pytest.mark.parametrize("value, exc, text", BAD_ACTIONS + [(None, TypeError, "None")])
def test_raw_env_step_rejects(value, exc, text):
    e = raw_env(num_players=3)
    e.reset(seed=1)
    agent, snap, rewards = e.agent_selection, snapshot(e._st), dict(e._cumulative_rewards)
    with pytest.raises(exc, match=re.escape(text)):
        e.step(value)
    assert_unchanged(e._st, snap)
    assert e.agent_selection == agent and e._cumulative_rewards == rewards
    e.step(first_legal(e.last()[0]["action_mask"]))  # still playable


def test_raw_env_illegal_action_names_it_and_the_legal_ones():
    e = raw_env(num_players=2)
    e.reset(seed=3)
    mask = e.last()[0]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    snap = snapshot(e._st)
    with pytest.raises(ValueError, match=rf"action {bad} \(.*\) is not legal for player_\d now; legal: \["):
        e.step(bad)
    assert_unchanged(e._st, snap)


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


# --- PettingZoo env() (wrapped) ------------------------------------------------------------
@pytest.mark.parametrize("value, exc, text", BAD_ACTIONS)
def test_wrapped_env_gives_raw_env_messages(value, exc, text):
    """Not PettingZoo's bare "action is not in action space" assertion, nor numpy's
    error on a bool index: the raw env's messages, with the value."""
    e = env(num_players=2)
    e.reset(seed=2)
    snap = snapshot(e.unwrapped._st)
    with pytest.raises(exc, match=re.escape(text)):
        e.step(value)
    assert_unchanged(e.unwrapped._st, snap)
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
    snap, mask = snapshot(e._st), e.action_masks()
    with pytest.raises(exc, match=re.escape(text)):
        e.step(value)
    assert_unchanged(e._st, snap)
    assert (e.action_masks() == mask).all()
    e.step(first_legal(info["action_mask"]))


def test_gym_accepts_integer_scalars_and_one_element_int_arrays():
    e = SpaceMissionEnv(num_players=2)
    _, info = e.reset(seed=0)
    for action in (np.int64(0), np.array(0), np.array([0], dtype=np.int32)):
        _, _, term, _, info = e.step(action)  # top up, always legal
        if term:
            e.reset()


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
    st = e._st
    with pytest.raises(exc, match=re.escape(text)):
        for _ in range(3):  # the learner's turn is two actions; then the opponent acts
            e.step(0)
    assert int(st.current_player[0]) == 1, "the opponent's bad action was not played"
    with pytest.raises(ValueError, match=r"call reset\(\)"):
        e.step(0)  # the learner cannot play on the opponent's turn
    e.reset(seed=0)


# --- SB3 VecEnv ---------------------------------------------------------------------------------
sb3 = pytest.importorskip("stable_baselines3")
from spacemission_env.sb3 import SpaceMissionVecEnv  # noqa: E402


@pytest.mark.parametrize("actions, exc, text", BAD_BATCHES)
def test_sb3_step_rejects(actions, exc, text):
    venv = SpaceMissionVecEnv(3, seed=0)
    venv.reset()
    snap, masks = snapshot(venv._st), venv.action_masks()
    with pytest.raises(exc, match=text if "game" in text else re.escape(text)):
        venv.step(actions)
    assert_unchanged(venv._st, snap)
    assert (venv.action_masks() == masks).all()
    venv.step(np.argmax(masks, axis=1))


def test_sb3_illegal_learner_action_names_game_and_action():
    venv = SpaceMissionVecEnv(2, seed=0)
    venv.reset()
    masks = venv.action_masks()
    actions = np.array([first_legal(masks[0]), int(np.flatnonzero(~masks[1])[0])])
    snap = snapshot(venv._st)
    with pytest.raises(ValueError, match=rf"game 1: learner action {actions[1]} \(.*\) is not legal now"):
        venv.step(actions)
    assert_unchanged(venv._st, snap)


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
