"""A rejected game configuration, reward option, opponent or game name is named in the
module's own error with the value cut to 80 characters (checks.shown), as the interfaces'
own arguments are (tests/env/test_long_values_cut.py). Before, a 1 MB string or a
5000-element list came back whole, a 5000-digit integer replaced the error with Python's
digit-limit ValueError, ``gamma=10**400`` raised an OverflowError, a numpy array where a
name is due numpy's "truth value ... is ambiguous" and a list given as a reward or game name
"unhashable type". Also checks.count_text / check_memory: a count past float's range raised
an OverflowError instead of the memory message."""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_env import checks
from spacemission_env.checks import SHOWN_CHARS, count_text, shown
from spacemission_env.games import GameConfig, GameConfigError, bind_players, get_game, require_game
from spacemission_env.policies import RandomPolicy, policy_observation_type, resolve_opponents
from spacemission_env.rewards import RewardFunction
from spacemission_env.space_mission.config import SPACE_MISSION, check_game_config

LONG_STR = "x" * 1_000_000  # 1 MB
LONG_LIST = list(range(5000))
HUGE_INT = 10**5000  # past Python's 4300-digit limit for str (and float's range)
ARRAY = np.array(["yucata", "schmidt"])
LONG_VALUES = {"str": LONG_STR, "list": LONG_LIST, "int": HUGE_INT, "array": ARRAY}


class _Config:  # a configuration given as an object with the fields (require_game, bind)
    def __init__(self, **kw):
        self.__dict__.update(kw)


class _Wants(RandomPolicy):  # an opponent asking for an observation type
    def __init__(self, wanted):
        super().__init__()
        self.observation_type = wanted


# (the call, the error type, a word the message must have: the argument it names)
CALLS = {
    "GameConfig num_players": (lambda v: GameConfig(num_players=v), GameConfigError, "num_players"),
    "GameConfig rules": (lambda v: GameConfig(rules=v), GameConfigError, "rules"),
    "GameConfig max_rounds": (lambda v: GameConfig(max_rounds=v), GameConfigError, "max_rounds"),
    "GameConfig red_planet max_rounds": (lambda v: GameConfig(3, max_rounds=v, game="red_planet"), GameConfigError,
                                         "max_rounds"),
    "GameConfig game": (lambda v: GameConfig(game=v), (TypeError, ValueError), "game"),
    "get_game": (lambda v: get_game(v), (TypeError, ValueError), "game"),
    "check_game_config num_players": (lambda v: check_game_config(v, "yucata", 100), ValueError, "num_players"),
    "check_game_config rules": (lambda v: check_game_config(2, v, 100), ValueError, "rules"),
    "check_game_config max_rounds": (lambda v: check_game_config(2, "yucata", v), ValueError, "max_rounds"),
    "reward": (lambda v: RewardFunction(reward=v), ValueError, "reward"),
    "shaping": (lambda v: RewardFunction(shaping=v), ValueError, "shaping"),
    "gamma": (lambda v: RewardFunction(gamma=v), ValueError, "gamma"),
    "reward game": (lambda v: RewardFunction(game=v), (TypeError, ValueError), "game"),
    "opponents": (lambda v: resolve_opponents(v, 2), ValueError, "opponent"),
    "opponents listed": (lambda v: resolve_opponents([v], 2), ValueError, "opponent"),
    "opponent observation_type": (lambda v: policy_observation_type(_Wants(v), "info"), ValueError,
                                  "observation_type"),
    "RandomPolicy by_kind": (lambda v: RandomPolicy(by_kind=v), TypeError, "by_kind"),
    "RandomPolicy seed": (lambda v: RandomPolicy(seed=v if v is not HUGE_INT else -v), (TypeError, ValueError),
                          "seed"),
    "bind config": (lambda v: RandomPolicy().bind(v), (TypeError, ValueError), "configuration"),
    "bind num_players": (lambda v: RandomPolicy().bind(_Config(num_players=v)), ValueError, "num_players"),
    "bind game": (lambda v: RandomPolicy().bind(_Config(num_players=2, game=v)), (TypeError, ValueError), "game"),
    "bind rules": (lambda v: RandomPolicy().bind(_Config(num_players=2, rules=v)), ValueError, "rules"),
    "bind_players game": (lambda v: bind_players({"num_players": 2, "game": v}, "spacemission", "bot"), ValueError,
                          "bot plays"),
    "require_game": (lambda v: require_game(_Config(num_players=2, game=v), "spacemission", "bot"),
                     (TypeError, ValueError), "bot plays"),
    "require_game config": (lambda v: require_game(v, "spacemission", "bot"), TypeError, "configuration"),
    "reward_range": (lambda v: SPACE_MISSION.reward_range(v), ValueError, "reward"),
    "observation_size": (lambda v: SPACE_MISSION.observation_size(v), ValueError, "observation_type"),
    "max_game_length num_players": (lambda v: SPACE_MISSION.max_game_length(v, 10), ValueError, "num_players"),
    "max_game_length max_rounds": (lambda v: SPACE_MISSION.max_game_length(2, v if v is not HUGE_INT else -v), ValueError, "max_rounds"),
    "render mode": (lambda v: get_game().render(None, mode=v), (TypeError, ValueError), "render mode"),
}


@pytest.mark.parametrize("value", LONG_VALUES.values(), ids=LONG_VALUES.keys())
@pytest.mark.parametrize("call", CALLS)
def test_a_long_value_is_named_cut_in_the_modules_own_error(call, value):
    build, exc, word = CALLS[call]
    with pytest.raises(exc) as info:
        build(value)
    message = str(info.value)
    assert word in message, message[:300]
    assert "Exceeds the limit" not in message and "ambiguous" not in message, message[:300]
    assert "unhashable" not in message, message[:300]
    assert len(message) < 600, message[:600]
    assert LONG_STR[:SHOWN_CHARS] not in message and ", ".join(map(str, range(40))) not in message, message[:600]


@pytest.mark.parametrize("build, exc, text", [
    (lambda: RewardFunction(gamma=10**400), ValueError, "gamma must be a number in (0, 1], got 1000000"),
    (lambda: RewardFunction(gamma=-10**400), ValueError, "gamma must be a number in (0, 1], got -1000000"),
    (lambda: RewardFunction(reward=["win"]), ValueError, "reward must be one of ('win', 'score') (a str), got "
                                                         "list: ['win']"),
    (lambda: RewardFunction(reward=np.array("win")), ValueError, "got ndarray: array('win'"),
    (lambda: GameConfig(rules=np.array(["yucata"])), GameConfigError, "got ndarray: array(['yucata']"),
    (lambda: GameConfig(max_rounds=HUGE_INT), GameConfigError,
     "max_rounds must be an integer in 1..2147483647 for Space Mission, got <an integer of about 5,001 digits>"),
    (lambda: get_game(["spacemission"]), TypeError, "got ['spacemission']"),
    (lambda: get_game("x" * 200), ValueError, "unknown game 'xxxxxxxx"),
    (lambda: SPACE_MISSION.reward_range(["win"]), ValueError, "reward must be one of ('win', 'score') (a str), got "
                                                              "list: ['win']"),
    (lambda: SPACE_MISSION.max_game_length(np.array([2, 3]), 10), ValueError, "num_players must be"),
    (lambda: bind_players({"num_players": 2, "game": np.array(["red_planet"])}, "spacemission", "bot"), ValueError,
     "bot plays Space Mission ('spacemission'), not array(['red_planet']"),
    (lambda: require_game(_Config(num_players=2, game=["red_planet"]), "spacemission", "bot"), ValueError,
     "bot plays Space Mission ('spacemission'), not ['red_planet']"),
])
def test_arrays_lists_and_huge_numbers_get_the_modules_own_error(build, exc, text):
    with pytest.raises(exc) as info:
        build()
    assert text in str(info.value), str(info.value)[:300]


def test_the_cut_value_is_the_shown_one():
    with pytest.raises(GameConfigError) as info:
        GameConfig(rules=LONG_STR)
    assert info.value.field == "rules" and shown(LONG_STR) in str(info.value)


def test_count_text_past_floats_range():
    """Regression: float(n) of a count past float's range raised OverflowError."""
    assert count_text(10**400) == "1e+400"
    assert count_text(-(10**400)) == "-1e+400"
    assert count_text(123456 * 10**395) == "1.23e+400"
    assert count_text(9999 * 10**396) == "1e+400"  # rounds up to the next power of ten, as float's .3g does
    assert count_text(HUGE_INT) == "1e+5000"
    # normal counts as before
    assert count_text(10**21) == "1e+21" and count_text(2**63) == "9,223,372,036,854,775,808"
    assert count_text(1234) == "1,234" and count_text(1.5) == "1.5" and count_text(np.int64(10**18)) == f"{10**18:,}"
    assert count_text(12345678 * 10**300) == f"{float(12345678 * 10**300):.3g}"


def test_check_memory_and_check_batch_memory_past_floats_range(monkeypatch):
    """Regression: need / 2**30 of a need past float's range raised OverflowError
    ("integer division result too large for a float") instead of the memory message."""
    monkeypatch.setattr(checks, "physical_memory", lambda: 16 * 2**30)
    with pytest.raises(ValueError, match=r"^num_envs=1e\+400: that many games need at least 9\.54e\+393 GiB for their "
                                         r"states alone, more than this machine's 16\.0 GiB of memory; play fewer"):
        checks.check_batch_memory(10**400, 1024, "num_envs")
    with pytest.raises(ValueError, match=r"^k=1e\+5000: worlds need at least 9\.31e\+4990 GiB, more than"):
        checks.check_memory("k=1e+5000: worlds need", HUGE_INT, "sample fewer")
    # a normal count's message is as it was
    with pytest.raises(ValueError, match=r"^num_envs=20,000,000: that many games need at least 19\.1 GiB for their "
                                         r"states alone, more than this machine's 16\.0 GiB of memory; play fewer"):
        checks.check_batch_memory(20_000_000, 1024, "num_envs")
