"""The shared interface base (env_base.EnvBase): one configuration check that keeps what it
validated, one name for the reward function, the engine state as a read-only property,
the illegal-action options defined once, and PettingZoo's wrapper name left to PettingZoo."""
import ast

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from spacemission_env import pettingzoo_env as pz
from spacemission_env.space_mission.engine.state import BatchState
from spacemission_env.env_base import EnvBase
from spacemission_env.env_common import ILLEGAL_ACTIONS, check_config
from spacemission_env.gym_env import SpaceMissionEnv
from spacemission_env.pettingzoo_env import env, raw_env
from spacemission_env.rewards import RewardFunction
from spacemission_env.vector import VectorEnv
from tests.helpers.paths import ROOT


def interfaces():
    """One of each interface, not reset, with the same options."""
    kwargs = dict(num_players=3, rules="schmidt", max_rounds=20, observation_type="recall",
                  observation_dtype="float32", reward="score", shaping=True, gamma=0.9)
    out = [raw_env(**kwargs), SpaceMissionEnv(**kwargs), VectorEnv(2, **kwargs)]
    try:
        from spacemission_env.sb3 import SpaceMissionVecEnv
    except ImportError:  # the sb3 extra is not installed
        return out
    return out + [SpaceMissionVecEnv(2, **kwargs)]


def test_check_config_returns_what_it_validated():
    config, observation_type, dtype = check_config(4, "schmidt", 7, "seer", "float32")
    assert (config.num_players, config.rules, config.max_rounds) == (4, "schmidt", 7)
    assert observation_type == "seer" and dtype == np.dtype(np.float32)
    with pytest.raises(ValueError, match="observation_dtype must be one of .* got 'float64'"):
        check_config(2, "yucata", 100, "info", "float64")


def test_every_interface_stores_the_same_configuration_under_the_same_names():
    for e in interfaces():
        assert isinstance(e, EnvBase), type(e)
        assert (e.num_players, e.rules, e.max_rounds) == (3, "schmidt", 20)
        assert (e.config.num_players, e.config.rules, e.config.max_rounds) == (3, "schmidt", 20)
        assert e.observation_type == "recall" and e.observation_dtype == np.dtype(np.float32)
        assert isinstance(e.reward_fn, RewardFunction)
        assert (e.reward_fn.reward, e.reward_fn.shaping, e.reward_fn.gamma) == ("score", True, 0.9)
        assert not hasattr(e, "_reward_fn")


def test_batch_state_is_public_read_only_and_needs_reset():
    for e in interfaces():
        with pytest.raises(ValueError, match=r"call reset\(\) before"):
            e.batch_state  # noqa: B018 - the property raises
        e.reset(seed=0) if not hasattr(e, "step_async") else (e.seed(0), e.reset())
        st = e.batch_state
        assert isinstance(st, BatchState) and st.num_players == 3 and st.batch_size == getattr(e, "num_envs", 1)
        with pytest.raises(AttributeError):
            e.batch_state = st


def test_illegal_action_options_are_defined_once():
    assert set(ILLEGAL_ACTIONS) == {"raise", "lose"}
    definitions = []
    for path in (ROOT / "spacemission_env").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ILLEGAL_ACTIONS" for t in node.targets):
                definitions.append(path.name)
    assert definitions == ["env_common.py"]
    for make in (raw_env, SpaceMissionEnv):
        with pytest.raises(ValueError, match=r"unknown illegal_action 'ignore'; expected one of \('raise', 'lose'\)"):
            make(illegal_action="ignore")


def test_the_wrapper_is_not_named_like_pettingzoos():
    assert not hasattr(pz, "OrderEnforcingWrapper")
    e = env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)  # PettingZoo's checks and agent_iter apply
    assert type(e).__name__ != wrappers.OrderEnforcingWrapper.__name__
