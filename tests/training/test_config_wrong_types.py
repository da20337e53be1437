"""A training configuration's option of the wrong type (``num_envs="8"``, ``lr=None``,
``steps=1.5``, ``shaping="yes"``), given in Python or read from a config file, raises
checks.SettingTypeError (a ValueError and a TypeError), as the envs' settings do for a
wrong type; a value of the right type that the option does not take (nan, an int past
int64) stays a plain ValueError. Before, every one was a plain ValueError. Each field of
both trainers' configurations (TrainConfig, RLlibConfig)."""
from __future__ import annotations

from dataclasses import fields

import pytest

from spacemission_env.checks import SettingTypeError
from spacemission_training.config import TrainConfig, config_from_dict, game_defaults
from spacemission_training.rllib_config import RLlibConfig

WRONG = {"int": ["8", None, 1.5, True, [1]], "float": ["0.1", None, True, [0.1]], "str": [3, None, b"x", ["a"]],
         "bool": ["yes", None, 1, 0.0]}
KIND = {"int": "an integer", "float": "a finite number", "str": "a string", "bool": "true or false"}


def cases(config_class):
    return [pytest.param(f.name, f.type, bad, id=f"{f.name}={bad!r}")
            for f in fields(config_class) for bad in WRONG[f.type]]


@pytest.mark.parametrize("config_class", [TrainConfig, RLlibConfig])
def test_every_field_covered(config_class):
    assert {f.type for f in fields(config_class)} <= set(WRONG)


@pytest.mark.parametrize("name, kind, bad", cases(TrainConfig))
def test_a_train_config_field_of_the_wrong_type_is_a_setting_type_error(name, kind, bad):
    with pytest.raises(SettingTypeError) as info:
        TrainConfig(**{name: bad})
    assert str(info.value).startswith(f"option {name} must be {KIND[kind]}, got ")
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)


@pytest.mark.parametrize("name, kind, bad", cases(RLlibConfig))
def test_an_rllib_config_field_of_the_wrong_type_is_a_setting_type_error(name, kind, bad):
    with pytest.raises(SettingTypeError, match=f"^option {name} must be {KIND[kind]}, got "):
        RLlibConfig(**{name: bad})


@pytest.mark.parametrize("values", [{"num_envs": "8"}, {"lr": None}, {"steps": 1.5}, {"shaping": "yes"}])
def test_a_saved_configuration_of_the_wrong_type_too(values):
    with pytest.raises(SettingTypeError):
        config_from_dict(values)


@pytest.mark.parametrize("game", [[1], None, 3])
def test_a_game_that_is_not_a_name(game):
    with pytest.raises(SettingTypeError, match="^option game must be a string, got "):
        game_defaults(game)


@pytest.mark.parametrize("values, message", [
    ({"lr": float("nan")}, "option lr must be a finite number, got nan"),
    ({"gamma": float("inf")}, "option gamma must be a finite number, got inf"),
    ({"ent_coef": 10**400}, "option ent_coef must be a finite number, got "),
    ({"steps": 2**63}, "option steps must be an integer in "),
    ({"steps": 1e6}, None),  # a whole number written as a float: taken, as before
])
def test_a_value_of_the_right_type_stays_a_plain_value_error(values, message):
    if message is None:
        assert TrainConfig(**values, bc_teacher="", opponents="random=1").steps == 1_000_000
        return
    with pytest.raises(ValueError) as info:
        TrainConfig(**values)
    assert type(info.value) is ValueError and str(info.value).startswith(message)
