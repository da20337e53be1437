"""A render mode is checked once, by games.check_render_mode, everywhere one is taken: every
env constructor's ``render_mode`` (Gymnasium, ``gymnasium.make``, PettingZoo's ``raw_env``
and ``env()``, the versioned modules, the SB3 VecEnv and its ``set_attr``), ``render(mode)``
of the vector and SB3 envs, and ``Game.render``. What is not a str raises TypeError naming
its type and value (Gymnasium's convention; it was ValueError), an unknown str ValueError;
the mode is checked before anything else the call takes (the vector env's index, the game
state), so the same bad input gives the same error whichever interface it goes to."""
import re

import gymnasium
import numpy as np
import pytest

from spacemission_env import pettingzoo_env, red_planet_v2, spacemission_v3
from spacemission_env.games import RENDER_MODES, check_render_mode, get_game
from spacemission_env.gym_env import GameEnv
from spacemission_env.vector import VectorEnv
from tests.helpers.sb3 import vec_env

GAMES = ("spacemission", "red_planet")


def _players(game):
    return 3 if game == "red_planet" else 2


def _sb3(game):
    venv = vec_env(2, num_players=_players(game), seed=0, game=game)
    venv.reset()
    return venv


def _vector(game):
    venv = VectorEnv(2, num_players=_players(game), seed=0, game=game)
    venv.reset()
    return venv


def _reference_state(game):
    e = pettingzoo_env.raw_env(num_players=_players(game), game=game)
    e.reset(seed=0)
    return e.reference_state()


TAKERS = {  # (game, mode) -> the call that takes the mode
    "GameEnv": lambda game, m: GameEnv(render_mode=m, num_players=_players(game), game=game),
    "gymnasium.make": lambda game, m: gymnasium.make(
        {"spacemission": "SpaceMission-v3", "red_planet": "RedPlanet-v2"}[game], render_mode=m,
        num_players=_players(game)),
    "raw_env": lambda game, m: pettingzoo_env.raw_env(render_mode=m, num_players=_players(game), game=game),
    "env()": lambda game, m: pettingzoo_env.env(render_mode=m, num_players=_players(game), game=game),
    "versioned env()": lambda game, m: {"spacemission": spacemission_v3, "red_planet": red_planet_v2}[game].env(
        render_mode=m, num_players=_players(game)),
    "SB3 VecEnv": lambda game, m: vec_env(2, render_mode=m, num_players=_players(game), game=game),
    "SB3 set_attr": lambda game, m: _sb3(game).set_attr("render_mode", m),
    "SB3 render": lambda game, m: _sb3(game).render(m),
    "VectorEnv render": lambda game, m: _vector(game).render(0, m),
    "Game.render": lambda game, m: get_game(game).render(_reference_state(game), m),
}
WRONG_TYPES = [3, b"ansi", ["human"], ("ansi",), 1.5, np.array(["ansi"]), {"mode": "ansi"}]


@pytest.mark.parametrize("mode", WRONG_TYPES, ids=lambda m: type(m).__name__)
@pytest.mark.parametrize("taker", TAKERS)
@pytest.mark.parametrize("game", GAMES)
def test_a_mode_of_the_wrong_type_raises_type_error_naming_it(game, taker, mode):
    with pytest.raises(TypeError) as info:
        TAKERS[taker](game, mode)
    message = str(info.value)
    assert f"got {type(mode).__name__}: " in message, message
    assert repr(mode)[:40] in message, message
    assert "'ansi', 'human', 'rgb_array'" in message, message


@pytest.mark.parametrize("mode", ["video", "", "ANSI", "rgb"])
@pytest.mark.parametrize("taker", TAKERS)
@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_mode_raises_value_error_naming_it(game, taker, mode):
    with pytest.raises(ValueError, match=re.escape("unknown render") + ".*" + re.escape(f"{mode!r}; expected")):
        TAKERS[taker](game, mode)


def test_a_long_wrong_value_is_cut():
    with pytest.raises(TypeError) as info:
        GameEnv(render_mode=list(range(1000)))
    assert len(str(info.value)) < 200 and "..." in str(info.value)


@pytest.mark.parametrize("game", GAMES)
def test_the_mode_is_checked_before_the_rest_of_the_call(game):
    """The vector env checks the mode before the index and before the game state (a
    closed env), as the SB3 env's render and Game.render check it first."""
    venv = _vector(game)
    with pytest.raises(TypeError, match="got int: 3"):
        venv.render("not an index", 3)
    venv.close()
    with pytest.raises(TypeError, match="got int: 3"):
        venv.render(0, 3)
    sb3 = _sb3(game)
    sb3.close()
    with pytest.raises(TypeError, match="got int: 3"):
        sb3.render(3)


def test_sb3_render_does_not_read_a_falsy_mode_as_its_default():
    """``render(0)`` and ``render("")`` rendered game 0 as text with ``mode or render_mode``."""
    venv = vec_env(2, seed=0, render_mode="ansi")
    venv.reset()
    with pytest.raises(TypeError, match="got int: 0"):
        venv.render(0)
    with pytest.raises(ValueError, match="unknown render mode ''"):
        venv.render("")
    assert venv.render().startswith("Space Mission")  # None: the env's render_mode


def test_a_refused_set_attr_keeps_the_mode():
    venv = _sb3("spacemission")
    with pytest.raises(TypeError):
        venv.set_attr("render_mode", 3)
    assert venv.render_mode is None


def test_every_known_mode_and_none_pass():
    for mode in RENDER_MODES:
        assert check_render_mode(mode) == mode
        assert GameEnv(render_mode=mode).render_mode == mode
    assert check_render_mode(None, none_ok=True) is None
    with pytest.raises(TypeError, match="got NoneType: None"):
        check_render_mode(None)  # render(mode) and Game.render take no None
