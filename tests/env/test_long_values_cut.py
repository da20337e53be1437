"""A rejected value is named in the error cut to 80 characters (checks.shown), in every
interface: a 5000-character string, a 5000-element list or a 5000-digit integer came back
whole before (29 KB for the list), and the integer, past Python's 4300-digit limit for
``str``, replaced the error with that limit's own ValueError. A numpy array where a str is
due (render mode, illegal_action, an SB3 attribute name) raised numpy's "truth value of an
array is ambiguous"; counts and rewards past float's range an OverflowError. Each now gets
the interface's own error naming the value. The engines' and GameConfig's messages
(num_players, rules, max_rounds, reward, gamma, opponents, game) are not covered here."""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_env import GameEnv, raw_env
from spacemission_env.checks import SHOWN_CHARS, shown
from spacemission_env.vector import VectorEnv

LONG_STR = "x" * 5000
LONG_LIST = list(range(5000))
HUGE_INT = 10**5000  # past Python's 4300-digit limit for str (and float's range)
LONG_VALUES = [LONG_STR, LONG_LIST, HUGE_INT]


def _reset(env):
    env.reset(seed=0)
    return env


def _vector():
    venv = VectorEnv(2, seed=0)
    venv.reset()
    return venv


def _sb3():
    pytest.importorskip("stable_baselines3")
    from spacemission_env.sb3 import GameVecEnv

    venv = GameVecEnv(2, seed=0)
    venv.reset()
    return venv


CALLS = {
    "gym step": lambda v: _reset(GameEnv()).step(v),
    "aec step": lambda v: _reset(raw_env()).step(v),
    "gym reset seed": lambda v: GameEnv().reset(seed=v) if v is not HUGE_INT else GameEnv().reset(seed=-v),
    "aec reset seed": lambda v: raw_env().reset(seed=v) if v is not HUGE_INT else raw_env().reset(seed=-v),
    "gym reset options": lambda v: GameEnv().reset(options=v),
    "gym reset seat": lambda v: GameEnv().reset(options={"seat": v}),
    "gym reset option name": lambda v: GameEnv().reset(options={v if not isinstance(v, list) else tuple(v): 0}),
    "aec reset options": lambda v: raw_env().reset(options=v),
    "aec observe": lambda v: _reset(raw_env()).observe(v),
    "gym seat": lambda v: GameEnv(seat=v),
    "gym render_mode": lambda v: GameEnv(render_mode=v),
    "gym illegal_action": lambda v: GameEnv(illegal_action=v),
    "gym illegal_reward": lambda v: GameEnv(illegal_reward=v),
    "gym observation_type": lambda v: GameEnv(observation_type=v),
    "gym observation_dtype": lambda v: GameEnv(observation_dtype=v),
    "vector num_envs": lambda v: VectorEnv(v if v is not HUGE_INT else -v),
    "vector final_observation": lambda v: VectorEnv(2, final_observation=v),
    "vector step": lambda v: _vector().step([v, 0]),
    "vector render index": lambda v: _vector().render(v),
    "vector render mode": lambda v: _vector().render(0, v),
    "sb3 step": lambda v: _sb3().step([v, 0]),
    "sb3 set_options": lambda v: _sb3().set_options({"seat": v}),
    "sb3 get_attr": lambda v: _sb3().get_attr(v),
    "sb3 env_method": lambda v: _sb3().env_method(v),
    "sb3 indices": lambda v: _sb3().get_attr("seat", indices=v),
}


@pytest.mark.parametrize("value", LONG_VALUES, ids=["str", "list", "int"])
@pytest.mark.parametrize("call", CALLS)
def test_a_long_value_is_cut_in_the_error(call, value):
    with pytest.raises((TypeError, ValueError, KeyError, IndexError, AttributeError)) as info:
        CALLS[call](value)
    message = str(info.value)
    assert "Exceeds the limit" not in message and "ambiguous" not in message, message
    assert "inhomogeneous" not in message, message  # numpy's error, not the interface's
    # never the whole value (SB3's get_attr and env_method also list the env's public names)
    assert len(message) < 700, message[:700]
    assert LONG_STR[:SHOWN_CHARS] not in message and ", ".join(map(str, range(40))) not in message, message


def test_shown_describes_an_integer_past_the_digit_limit():
    assert shown(HUGE_INT) == "<an integer of about 5,001 digits>"
    assert shown(-HUGE_INT) == "-<an integer of about 5,001 digits>"
    assert shown([HUGE_INT]) == "<a list holding an integer too long to show>"
    assert shown(10**4000) == repr(10**4000)[:SHOWN_CHARS - 3] + "..."


@pytest.mark.parametrize("build, exc, text", [
    (lambda: GameEnv(render_mode=np.array(["ansi", "human"])), TypeError, "got ndarray: array(['ansi', 'human']"),
    (lambda: GameEnv(illegal_action=np.array(["lose", "raise"])), ValueError, "got ndarray: array(["),
    (lambda: GameEnv(illegal_reward=10**400), ValueError, "illegal_reward must be a finite number, got 1000000"),
    (lambda: GameEnv(observation_dtype=HUGE_INT), ValueError, "observation_dtype must be one of ('int8', 'float32') "
                                                              "(a str or numpy dtype), got int: <an integer of "
                                                              "about 5,001 digits>"),
    (lambda: VectorEnv(10**400), ValueError, "num_envs=1e+400: that many games need at least 9.54e+393 GiB"),
    (lambda: _vector().render(0, np.array(["ansi"])), TypeError, "got ndarray: array(['ansi']"),
    (lambda: _sb3().get_attr(np.array(["seats"])), TypeError, "get_attr: the name must be a str, got array(['seats']"),
    (lambda: _sb3().env_method(np.array(["action_masks"])), TypeError, "env_method: the name must be a str"),
])
def test_arrays_and_huge_numbers_get_the_interfaces_own_error(build, exc, text):
    with pytest.raises(exc) as info:
        build()
    assert text in str(info.value), str(info.value)


def test_a_count_past_any_array_is_refused_where_the_system_does_not_say_its_memory(monkeypatch):
    from spacemission_env import checks

    monkeypatch.setattr(checks, "physical_memory", lambda: None)
    with pytest.raises(ValueError, match=r"num_envs=9223372036854775808: more games than an array can hold "
                                         r"\(at most 9,223,372,036,854,775,807\); play fewer at once"):
        VectorEnv(2**63)
