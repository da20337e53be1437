"""The interfaces' return annotations are what they return at run time: one reset and one step
of GameEnv, VectorEnv and the PettingZoo raw_env (``last``, ``observe``), for each game and each
observation_dtype, checked value by value against ``typing.get_type_hints`` (an array's dtype
against its ``npt.NDArray[...]`` scalar types, a dict's keys against ``dict[str, ...]``), so an
annotation cannot drift from the code (tests/test_typing.py checks the annotations' consistency)."""
import collections.abc
import types
import typing

import numpy as np
import pytest

from spacemission_env import red_planet_v2, spacemission_v3
from spacemission_env.gym_env import GameEnv
from spacemission_env.pettingzoo_env import raw_env as AnyRawEnv
from spacemission_env.vector import VectorEnv

RAW_ENVS = {"spacemission": spacemission_v3.raw_env, "red_planet": red_planet_v2.raw_env}
CASES = [(game, dtype) for game in RAW_ENVS for dtype in ("int8", "float32")]


def problems(value, hint, where="value") -> list[str]:
    """Where ``value`` is not of type ``hint`` (the shapes the interfaces' annotations use:
    NDArray, tuple, list / Sequence, dict, Union / Optional, float, bool, Any)."""
    if hint is typing.Any:
        return []
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if any(not problems(value, arm, where) for arm in args):
            return []
        return [f"{where}: {value!r:.80} is none of {hint}"]
    if origin is np.ndarray:
        if not isinstance(value, np.ndarray):
            return [f"{where}: {type(value).__name__}, not an ndarray ({hint})"]
        scalar = typing.get_args(args[1])[0]  # ndarray[shape, dtype[scalar]]
        allowed = typing.get_args(scalar) or (scalar,)
        return [] if value.dtype.type in allowed else [f"{where}: dtype {value.dtype}, annotated {allowed}"]
    if origin is tuple:
        if not isinstance(value, tuple) or len(value) != len(args):
            return [f"{where}: {type(value).__name__} of {len(value)}, annotated {hint}"]
        return [p for i, (v, h) in enumerate(zip(value, args)) for p in problems(v, h, f"{where}[{i}]")]
    if origin in (list, collections.abc.Sequence):
        if not isinstance(value, origin):
            return [f"{where}: {type(value).__name__}, not a {origin.__name__} ({hint})"]
        return [p for i, v in enumerate(value) for p in problems(v, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a dict"]
        return [p for k, v in value.items() for p in problems(k, args[0], f"{where} key") + problems(v, args[1], f"{where}[{k!r}]")]
    if hint is float:  # a float annotation admits an int (PEP 484), not a bool
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    return [] if ok else [f"{where}: {type(value).__name__}, annotated {hint}"]


def returned(method) -> object:
    return typing.get_type_hints(method)["return"]


def test_the_checker_of_this_file_sees_a_wrong_dtype():
    """The check can fail: an int64 array is not an int8/float32 observation."""
    hint = returned(GameEnv.reset)
    assert problems((np.zeros(3, dtype=np.int8), {"seat": 0}), hint) == []
    assert problems((np.zeros(3, dtype=np.int64), {"seat": 0}), hint)
    assert problems((np.zeros(3, dtype=np.float32), {1: 0}), hint)
    assert problems([{"seat": 0}, {1: 0}], list[dict[str, int]])


@pytest.mark.parametrize("game,dtype", CASES)
def test_game_env_returns_what_it_annotates(game, dtype):
    env = GameEnv(num_players=3, observation_dtype=dtype, game=game)
    out = env.reset(seed=0)
    assert problems(out, returned(GameEnv.reset), "reset()") == []
    assert out[0].dtype == np.dtype(dtype)
    mask = env.action_masks()
    assert problems(mask, returned(GameEnv.action_masks), "action_masks()") == []
    step = env.step(int(np.flatnonzero(mask)[0]))
    assert problems(step, returned(GameEnv.step), "step()") == []


@pytest.mark.parametrize("game,dtype", CASES)
def test_vector_env_returns_what_it_annotates(game, dtype):
    env = VectorEnv(num_envs=2, num_players=3, observation_dtype=dtype, game=game)
    out = env.reset(seed=0)
    assert problems(out, returned(VectorEnv.reset), "reset()") == []
    assert out[0].dtype == np.dtype(dtype)
    step = env.step(np.argmax(out[1], axis=1))
    assert problems(step, returned(VectorEnv.step), "step()") == []


@pytest.mark.parametrize("game,dtype", CASES)
def test_raw_env_returns_what_it_annotates(game, dtype):
    cls = RAW_ENVS[game]
    env = cls(num_players=3, observation_dtype=dtype)
    env.reset(seed=0)
    assert problems(env.observe(env.agent_selection), returned(cls.observe), "observe()") == []
    last = env.last()
    assert problems(last, returned(cls.last), "last()") == []
    assert last[0] is not None and last[0]["observation"].dtype == np.dtype(dtype)
    assert problems(env.last(observe=False), returned(cls.last), "last(observe=False)") == []
    assert returned(cls.last) == returned(AnyRawEnv.last)  # no subclass re-annotates it


@pytest.mark.parametrize("game,dtype", CASES)
def test_sb3_vec_env_returns_what_it_annotates(game, dtype):
    """SB3's VecEnv (spacemission_env.sb3): reset, step_wait (a step that ends a game, so its
    info holds the terminal observation and scores), action_masks, seed, get_attr, env_method."""
    pytest.importorskip("stable_baselines3", reason="spacemission_env.sb3 needs the sb3 extra")
    from spacemission_env.sb3 import GameVecEnv

    env = GameVecEnv(2, num_players=3, observation_dtype=dtype, game=game, seed=0)
    assert problems(env.seed(3), returned(GameVecEnv.seed), "seed()") == []
    obs = env.reset()
    assert problems(obs, returned(GameVecEnv.reset), "reset()") == []
    assert obs.dtype == np.dtype(dtype)
    mask = env.action_masks()
    assert problems(mask, returned(GameVecEnv.action_masks), "action_masks()") == []
    rng, ended = np.random.default_rng(0), False
    for _ in range(5000):  # random legal actions until a game ends
        out = env.step(np.where(env.action_masks(), rng.random(mask.shape), -1.0).argmax(axis=1))
        assert problems(out, returned(GameVecEnv.step_wait), "step()") == []
        if out[2].any():
            ended = True
            break
    assert ended, "no game ended"
    assert "terminal_observation" in out[3][int(np.flatnonzero(out[2])[0])]
    for name, args in (("get_attr", ("seats",)), ("env_method", ("action_masks",)), ("env_is_wrapped", (object,))):
        method = getattr(GameVecEnv, name)
        assert problems(method(env, *args), returned(method), f"{name}{args}") == []
