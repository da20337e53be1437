"""The libraries' own checkers, run as another client would, over every configuration of
both games: Space Mission at 2-5 players and Red Planet at 3-5, each observation type
(``info``, ``recall``, ``seer``) in each dtype (``int8``, ``float32``): 42 configurations.

* PettingZoo: ``api_test``, ``seed_test`` and ``state_test`` of ``env()``.
* Gymnasium: ``check_env`` (render check included) of the env ``gymnasium.make`` builds,
  steps through the passive checker that ``gymnasium.make`` puts around it, and the
  ``gymnasium.make(env.spec)`` round trip (also through ``EnvSpec.to_json``), which must give
  the same configuration and the same game.
* stable-baselines3: ``check_env`` of ``GameEnv``, and the VecEnv contract of ``GameVecEnv``
  (``reset``, ``step_async`` / ``step_wait``, observations in the space with its dtype,
  ``env_method("action_masks")`` and sb3_contrib's ``get_action_masks`` / ``is_masking_supported``,
  ``get_attr``, ``set_attr``, ``env_is_wrapped``, ``seed`` then ``reset``, ``close`` twice).

Every warning of the checkers is a failure here, but api_test's two about the dict
observation (PettingZoo's action-mask convention, as its classic games).

Before this module the checkers ran on a few configurations each (mostly the default
``info`` observation; Space Mission's ``seer`` in one api_test, float32 in one check_env; Red
Planet's ``seer`` / ``recall`` in two check_env runs, red_planet/test_parity_sweep.py): Space
Mission's ``recall`` went through none of them, Red Planet's ``recall`` and ``seer`` through
none of PettingZoo's tests. All 42 passed when this module was written (no defect found
here). Not repeated:
``render_test`` (the render does not depend on the observation: test_env_pettingzoo.py,
red_planet/test_interfaces.py), copies, pickles and ``close()`` of every interface
(test_ecosystem_sweep.py), seeding (test_seeding_sweep.py)."""
from __future__ import annotations

import itertools
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.registration import EnvSpec
from gymnasium.utils.env_checker import check_env as gym_check_env
from gymnasium.wrappers.common import PassiveEnvChecker
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state as pz_state_test

from spacemission_env import red_planet_v2, spacemission_v3
from spacemission_env.gym_env import GameEnv

sb3 = pytest.importorskip("stable_baselines3")
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

from spacemission_env.sb3 import GameVecEnv  # noqa: E402

GAMES = {"spacemission": (spacemission_v3, "SpaceMission-v3", (2, 3, 4, 5)),
         "red_planet": (red_planet_v2, "RedPlanet-v2", (3, 4, 5))}
CONFIGS = [pytest.param(game, n, obs, dtype, id=f"{game}-{n}p-{obs}-{dtype}")
           for game, (_, _, players) in GAMES.items()
           for n, obs, dtype in itertools.product(players, ("info", "recall", "seer"), ("int8", "float32"))]


def _kwargs(n, obs, dtype):
    return {"num_players": n, "observation_type": obs, "observation_dtype": dtype}


def _strict(fn, *args, **kwargs):
    """``fn`` with every warning an error, but the two api_test gives every env whose
    observation is PettingZoo's action-mask dict (as its own classic games)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        return fn(*args, **kwargs)


def test_the_matrix_is_every_configuration():
    assert len(CONFIGS) == 42


@pytest.mark.parametrize("game, n, obs, dtype", CONFIGS)
def test_pettingzoo_checkers(game, n, obs, dtype):
    module = GAMES[game][0]
    kwargs = _kwargs(n, obs, dtype)
    _strict(api_test, module.env(**kwargs), num_cycles=300)
    _strict(seed_test, lambda render_mode=None: module.env(**kwargs), num_cycles=100)
    _strict(pz_state_test, module.env(**kwargs), num_cycles=30)


@pytest.mark.parametrize("game, n, obs, dtype", CONFIGS)
def test_gymnasium_and_sb3_checkers(game, n, obs, dtype):
    kwargs = _kwargs(n, obs, dtype)
    env = gymnasium.make(GAMES[game][1], render_mode="ansi", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the passive checker's warnings are failures
        assert any(isinstance(w, PassiveEnvChecker) for w in _wrappers(env))
        obs0, info = env.reset(seed=1)
        for _ in range(5):
            obs0, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert env.observation_space.contains(obs0) and obs0.dtype == np.dtype(dtype)
            if term or trunc:
                obs0, info = env.reset()
    _strict(gym_check_env, env.unwrapped, skip_render_check=False)
    _strict(sb3_check_env, GameEnv(game=game, **kwargs))


def _wrappers(env):
    while isinstance(env, gymnasium.Wrapper):
        yield env
        env = env.env


@pytest.mark.parametrize("game, n, obs, dtype", CONFIGS)
def test_make_of_the_spec_builds_the_same_env(game, n, obs, dtype):
    kwargs = dict(_kwargs(n, obs, dtype), reward="score", seat=n - 1, illegal_action="raise", render_mode="ansi")
    env = gymnasium.make(GAMES[game][1], **kwargs)
    for again in (gymnasium.make(env.spec), gymnasium.make(EnvSpec.from_json(env.spec.to_json()))):
        assert again.spec.kwargs == env.spec.kwargs == kwargs
        a, b = again.unwrapped, env.unwrapped
        assert isinstance(a, GameEnv) and a is not b and a.game.name == game
        assert (a.num_players, a.observation_type, a.seat_option, a.illegal_action, a.render_mode) == (
            n, obs, n - 1, "raise", "ansi")
        assert a.observation_space == b.observation_space and a.action_space == b.action_space
        (o1, i1), (o2, i2) = again.reset(seed=8), env.reset(seed=8)
        assert o1.tobytes() == o2.tobytes() and (i1["action_mask"] == i2["action_mask"]).all()
        assert again.render() == env.render()


@pytest.mark.parametrize("game, n, obs, dtype", CONFIGS)
def test_sb3_vecenv_contract(game, n, obs, dtype):
    venv = GameVecEnv(3, game=game, seed=2, **_kwargs(n, obs, dtype))
    assert isinstance(venv, VecEnv) and venv.num_envs == 3 and venv.unwrapped is venv
    assert venv.seed(11) == [11, 12, 13]
    first = venv.reset()
    assert first.shape == (3, *venv.observation_space.shape) and first.dtype == venv.observation_space.dtype
    assert all(venv.observation_space.contains(row) for row in first)
    assert venv.seed(11) == [11, 12, 13] and venv.reset().tobytes() == first.tobytes()  # seed, then reset: the same games
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (3, venv.action_space.n) and masks.dtype == np.bool_ and masks.any(axis=1).all()
    assert (np.stack(venv.env_method("action_masks", indices=[2, 0])) == masks[[2, 0]]).all()
    assert venv.get_attr("num_players") == [n] * 3 and venv.get_attr("seats", indices=1) == [venv.seats[1]]
    assert venv.env_is_wrapped(gymnasium.Wrapper) == [False] * 3
    venv.set_attr("render_mode", "ansi")
    assert venv.get_attr("render_mode") == ["ansi"] * 3 and isinstance(venv.render(), str)
    for i in range(6):
        venv.step_async(np.array([np.flatnonzero(m)[(i * 5) % m.sum()] for m in venv.action_masks()]))
        o, rewards, dones, infos = venv.step_wait()
        assert o.shape == first.shape and o.dtype == first.dtype and all(venv.observation_space.contains(r) for r in o)
        assert rewards.shape == (3,) and rewards.dtype == np.float32 and dones.shape == (3,) and dones.dtype == np.bool_
        assert isinstance(infos, list) and len(infos) == 3 and all(isinstance(d, dict) for d in infos)
    venv.close()
    venv.close()
