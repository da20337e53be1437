"""The trainers' configurations (TrainConfig, RLlibConfig) name a rejected value cut to 80
characters (checks.shown), as the command line's usage errors do: built from Python or a
config file, a 1 MB string or a 5000-element list came back whole in the message, a
5000-digit integer gave Python's digit-limit ValueError ("Exceeds the limit (4300 digits)")
instead of the option's, and a 1 MB run_dir, bc_cache or init_from an OSError ("File name
too long") from the file system."""
from dataclasses import fields

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_env.checks import SHOWN_CHARS  # noqa: E402
from spacemission_training.config import TrainConfig, game_defaults  # noqa: E402
from spacemission_training.rllib_config import RLlibConfig  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

LONG_STR = "x" * 1_000_000
LONG_LIST = list(range(5000))
HUGE_INT = 10**5000
VALUES = {"str": LONG_STR, "list": LONG_LIST, "int": HUGE_INT, "negative int": -HUGE_INT}
CASES = [(config, f.name) for config in (TrainConfig, RLlibConfig) for f in fields(config)]


def _check(message: str) -> None:
    assert "Exceeds the limit" not in message, message[:300]  # (an OSError is no ValueError: raises fails on it)
    assert len(message) < 700, message[:700]
    assert LONG_STR[:SHOWN_CHARS] not in message and ", ".join(map(str, range(40))) not in message, message[:700]


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
@pytest.mark.parametrize("config, option", CASES, ids=[f"{c.__name__}-{o}" for c, o in CASES])
def test_a_long_value_of_any_option_is_named_cut(config, option, value):
    with pytest.raises(ValueError) as info:
        config(**{option: value})
    _check(str(info.value))


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_game_defaults_name_a_long_game_cut(value):
    with pytest.raises(ValueError, match="^option game") as info:
        game_defaults(value)
    _check(str(info.value))


@pytest.mark.parametrize("option", ["run_dir", "bc_cache", "init_from"])
def test_a_path_the_system_cannot_look_up_is_named(option):
    """Regression: OSError "File name too long" from Path.exists."""
    with pytest.raises(ValueError, match=rf"^option {option}: 'xxx+\.\.\. is not a usable path \(File name too long\)$"):
        TrainConfig(**{option: LONG_STR})
