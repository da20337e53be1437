"""A constructor setting of the wrong type raises an error that is a TypeError (Python's and
Gymnasium's convention) and still the class it raised before: ``checks.SettingTypeError``
(a ValueError) for ``observation_type``, ``observation_dtype``, ``illegal_action``,
``reward``, ``shaping``, ``gamma``, ``opponents`` and ``opponent_sampler``,
``games.GameConfigTypeError`` (a GameConfigError, with its ``field``) for the game's
``num_players``, ``rules`` and ``max_rounds``, in every interface constructor of both games
(Gymnasium, ``gymnasium.make``, PettingZoo's ``raw_env`` and ``env()``, the versioned
modules, the vector env, the SB3 VecEnv) and in ``GameConfig``. Before, every one was a
plain ValueError / GameConfigError, not a TypeError. A right-typed value that is not
allowed is still a plain ValueError / GameConfigError, and what was accepted is accepted
(numpy integers and floats, ``numpy.bool_``, numpy dtypes, bytes names of a dtype)."""
import math
import pickle
import re

import gymnasium
import numpy as np
import pytest

from spacemission_env import pettingzoo_env, red_planet_v2, spacemission_v3
from spacemission_env.checks import SHOWN_CHARS, SettingTypeError
from spacemission_env.games import GameConfig, GameConfigError, GameConfigTypeError
from spacemission_env.gym_env import GameEnv
from spacemission_env.policies import RandomPolicy
from spacemission_env.red_planet.errors import WrongTypeError
from spacemission_env.vector import VectorEnv
from tests.helpers.sb3 import vec_env

GAMES = ("spacemission", "red_planet")
ENV_IDS = {"spacemission": "SpaceMission-v3", "red_planet": "RedPlanet-v2"}
VERSIONED = {"spacemission": spacemission_v3, "red_planet": red_planet_v2}


def _players(game):
    return 3 if game == "red_planet" else 2


def _kwargs(game, kw):
    return {"num_players": _players(game), **kw}


BUILDERS = {  # name -> (game, settings) -> the constructor's call
    "GameEnv": lambda game, kw: GameEnv(game=game, **_kwargs(game, kw)),
    "gymnasium.make": lambda game, kw: gymnasium.make(ENV_IDS[game], **_kwargs(game, kw)),
    "raw_env": lambda game, kw: pettingzoo_env.raw_env(game=game, **_kwargs(game, kw)),
    "env()": lambda game, kw: pettingzoo_env.env(game=game, **_kwargs(game, kw)),
    "versioned env()": lambda game, kw: VERSIONED[game].env(**_kwargs(game, kw)),
    "versioned raw_env": lambda game, kw: VERSIONED[game].raw_env(**_kwargs(game, kw)),
    "VectorEnv": lambda game, kw: VectorEnv(2, game=game, **_kwargs(game, kw)),
    "SB3 VecEnv": lambda game, kw: vec_env(2, game=game, **_kwargs(game, kw)),
}
SINGLE_LEARNER = ("GameEnv", "gymnasium.make", "SB3 VecEnv")  # the ones with opponents
WITH_ILLEGAL_ACTION = ("GameEnv", "gymnasium.make", "raw_env", "env()", "versioned env()", "versioned raw_env")

GAME_FIELDS = ("num_players", "rules", "max_rounds")
WRONG_TYPES = {  # setting -> values of the wrong type (each refused before, with ValueError)
    "num_players": lambda game: [float(_players(game)), str(_players(game)), True, np.float64(_players(game))],
    "rules": lambda game: [3, b"yucata", ["first_edition"], np.array(["yucata"])],
    "max_rounds": lambda game: [10.0, "10", True, [10]],
    "observation_type": lambda game: [3, b"info", ["info"], np.array("info")],
    "observation_dtype": lambda game: [None, 3, ["int8"], {"dtype": "int8"}],
    "reward": lambda game: [1, b"win", ["win"], np.array("win")],
    "shaping": lambda game: [1, 0, "yes", None, np.array([True])],
    "gamma": lambda game: ["1", None, True, [0.9], np.bool_(True)],
    "illegal_action": lambda game: [None, 1, b"lose", ["raise"]],
}
RIGHT_TYPE_BAD = {  # setting -> right-typed values that are not allowed: a plain ValueError
    "num_players": lambda game: [1, 9, np.int64(9)],
    "rules": lambda game: ["bogus", "yucata" if game == "red_planet" else "first_edition"],
    "max_rounds": lambda game: [5, 0] if game == "red_planet" else [0, -3, 2**31],
    "observation_type": lambda game: ["pixels", ""],
    "observation_dtype": lambda game: ["float64", "int 8", np.float64, float],
    "reward": lambda game: ["money", "WIN"],
    "gamma": lambda game: [0, 1.5, math.nan, math.inf, 10**400],
    "illegal_action": lambda game: ["ignore", ""],
}


def _cases(table, builders_of):
    return [(game, builder, setting, value) for game in GAMES for setting, values in table.items()
            for builder in builders_of(setting) for value in values(game)]


def _builders(setting):
    return WITH_ILLEGAL_ACTION if setting == "illegal_action" else tuple(BUILDERS)


def _id(case):
    game, builder, setting, value = case
    return f"{game}-{builder}-{setting}-{type(value).__name__}"


WRONG_CASES = _cases(WRONG_TYPES, _builders)
BAD_CASES = _cases(RIGHT_TYPE_BAD, _builders)


def _old_class(setting):
    return GameConfigError if setting in GAME_FIELDS else ValueError


@pytest.mark.parametrize("case", WRONG_CASES, ids=[_id(c) for c in WRONG_CASES])
def test_a_setting_of_the_wrong_type_raises_a_type_error_of_the_old_class(case):
    game, builder, setting, value = case
    with pytest.raises(TypeError) as info:
        BUILDERS[builder](game, {setting: value})
    exc = info.value
    assert isinstance(exc, _old_class(setting)), type(exc).__mro__  # what callers caught before still catches it
    assert isinstance(exc, ValueError)
    message = str(exc)
    assert message.startswith(f"{setting} must be "), message  # names the setting, the expected values and type
    assert f", got {type(value).__name__}: " in message, message  # the given type
    assert repr(value)[:40] in message, message  # and the value
    if setting in GAME_FIELDS:
        assert type(exc) is GameConfigTypeError and exc.field == setting and exc.option in ("players", setting)
    else:
        assert type(exc) is SettingTypeError


@pytest.mark.parametrize("case", BAD_CASES, ids=[_id(c) for c in BAD_CASES])
def test_a_right_typed_value_that_is_not_allowed_stays_a_plain_value_error(case):
    game, builder, setting, value = case
    with pytest.raises(_old_class(setting)) as info:
        BUILDERS[builder](game, {setting: value})
    assert not isinstance(info.value, TypeError), repr(info.value)
    assert type(info.value) is _old_class(setting)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("builder", SINGLE_LEARNER)
@pytest.mark.parametrize("opponents, needle", [
    ("random", "opponent 'random' is a string"),
    (RandomPolicy, "opponent RandomPolicy is a class, not a policy object"),
    (3, "opponent 3 does not implement the Policy protocol (act and act_batch); its type: int"),
    ([object(), RandomPolicy()], "does not implement the Policy protocol (act and act_batch); its type: object"),
])
def test_an_opponent_that_is_not_a_policy_raises_a_type_error_and_value_error(game, builder, opponents, needle):
    if isinstance(opponents, list):
        opponents = opponents[:_players(game) - 1]  # one per opponent seat
    with pytest.raises(TypeError, match=re.escape(needle)) as info:
        BUILDERS[builder](game, {"opponents": opponents})
    assert type(info.value) is SettingTypeError and isinstance(info.value, ValueError)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("builder", SINGLE_LEARNER)
def test_an_opponent_list_of_the_wrong_length_stays_a_plain_value_error(game, builder):
    with pytest.raises(ValueError, match="opponents must list") as info:
        BUILDERS[builder](game, {"opponents": [RandomPolicy()] * 5})
    assert type(info.value) is ValueError


class _AsksFor(RandomPolicy):
    def __init__(self, observation_type):
        super().__init__()
        self.observation_type = observation_type


@pytest.mark.parametrize("builder", SINGLE_LEARNER)
def test_an_opponent_asking_for_an_observation_type_of_the_wrong_type(builder):
    with pytest.raises(TypeError, match=r"asks for observation_type 3 \(int\); expected None .*\(a str\)") as info:
        BUILDERS[builder]("spacemission", {"opponents": _AsksFor(3)})
    assert type(info.value) is SettingTypeError and isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match="asks for observation_type 'x-ray'") as info:
        BUILDERS[builder]("spacemission", {"opponents": _AsksFor("x-ray")})
    assert type(info.value) is ValueError


@pytest.mark.parametrize("game", GAMES)
def test_sb3_opponent_sampler_and_pool_of_the_wrong_type(game):
    n = _players(game)
    with pytest.raises(TypeError, match=r"^opponent_sampler must be None or a callable .*, got int: 3$") as info:
        vec_env(2, num_players=n, game=game, opponent_sampler=3)
    assert type(info.value) is SettingTypeError and isinstance(info.value, ValueError)
    sampler = lambda rng, k: np.zeros((k, n - 1), dtype=np.int64)  # noqa: E731
    with pytest.raises(TypeError, match=r"^with opponent_sampler, opponents must be a non-empty list of policies "
                                        r"\(the pool\), got RandomPolicy: ") as info:
        vec_env(2, num_players=n, game=game, opponent_sampler=sampler, opponents=RandomPolicy())
    assert type(info.value) is SettingTypeError and isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match="non-empty list") as info:
        vec_env(2, num_players=n, game=game, opponent_sampler=sampler, opponents=[])
    assert type(info.value) is ValueError


@pytest.mark.parametrize("game", GAMES)
def test_game_config_fields(game):
    """GameConfig itself, with the field named for the command lines (``option``)."""
    n = _players(game)
    for kw, field in (({"num_players": float(n)}, "num_players"), ({"num_players": n, "rules": 3}, "rules"),
                      ({"num_players": n, "max_rounds": 10.0}, "max_rounds")):
        with pytest.raises(GameConfigTypeError) as info:
            GameConfig(game=game, **kw)
        assert isinstance(info.value, TypeError) and isinstance(info.value, GameConfigError)
        assert info.value.field == field
    copy = pickle.loads(pickle.dumps(info.value))  # whole, as a worker process's error
    assert type(copy) is GameConfigTypeError and copy.field == "max_rounds" and str(copy) == str(info.value)
    for kw in ({"num_players": 9}, {"num_players": n, "rules": "bogus"}, {"num_players": n, "max_rounds": 0}):
        with pytest.raises(GameConfigError) as info:
            GameConfig(game=game, **kw)
        assert type(info.value) is GameConfigError


def test_the_messages():
    cases = [
        (lambda: GameConfig(2.0), "num_players must be an integer in 2..5 for Space Mission, got float: 2.0"),
        (lambda: GameConfig(True), "num_players must be an integer in 2..5 for Space Mission, got bool: True"),
        (lambda: GameConfig(3, rules=5, game="red_planet"),
         "rules must be one of first_edition for Mission: Red Planet (a str), got int: 5"),
        (lambda: GameConfig(3, max_rounds=10.0, game="red_planet"),
         "max_rounds must be 10 for Mission: Red Planet (an integer), got float: 10.0"),
        (lambda: GameConfig(2, max_rounds="7"),
         "max_rounds must be an integer in 1..2147483647 for Space Mission, got str: '7'"),
        (lambda: GameEnv(observation_type=None),
         "observation_type must be one of ('info', 'recall', 'seer') (a str), got NoneType: None"),
        (lambda: GameEnv(observation_dtype=None),
         "observation_dtype must be one of ('int8', 'float32') (a str or numpy dtype), got NoneType: None"),
        (lambda: GameEnv(reward=0), "reward must be one of ('win', 'score') (a str), got int: 0"),
        (lambda: GameEnv(shaping=1), "shaping must be True or False (a bool), got int: 1"),
        (lambda: GameEnv(gamma="0.9"), "gamma must be a number in (0, 1] (an int or float), got str: '0.9'"),
        (lambda: GameEnv(illegal_action=0), "illegal_action must be one of ('raise', 'lose') (a str), got int: 0"),
    ]
    for build, text in cases:
        with pytest.raises(TypeError) as info:
            build()
        assert str(info.value) == text


def test_a_long_value_of_the_wrong_type_is_cut():
    for kw in ({"observation_type": list(range(1000))}, {"reward": b"x" * 5000}, {"num_players": "3" * 5000},
               {"gamma": "9" * 5000}, {"observation_dtype": 10**5000}):
        with pytest.raises(TypeError) as info:
            GameEnv(**kw)
        assert len(str(info.value)) < 100 + SHOWN_CHARS, str(info.value)[:300]


def test_values_accepted_before_are_accepted():
    e = GameEnv(num_players=np.int64(3), max_rounds=np.int32(40), rules=np.str_("schmidt"), shaping=np.bool_(True),
                gamma=np.float32(0.5), observation_dtype=b"float32", observation_type=np.str_("seer"))
    assert (e.num_players, e.max_rounds, e.rules, e.observation_dtype) == (3, 40, "schmidt", np.float32)
    assert GameEnv(gamma=1, observation_dtype=np.float32).observation_dtype == np.float32
    assert GameEnv(observation_dtype=np.dtype("int8"), reward=np.str_("score")).observation_dtype == np.int8
    assert VectorEnv(2, num_players=np.uint8(3), max_rounds=np.int16(10), game="red_planet").num_players == 3


def test_the_engines_configuration_checks():
    """Space Mission's engines share ``config.check_game_config`` (a ValueError for every bad
    value before); Red Planet's count check (M-X2) was already a TypeError and a ValueError
    (WrongTypeError, now one of the SettingTypeError family)."""
    from spacemission_env.red_planet import engine as rp_engine
    from spacemission_env.red_planet.rules import game as rp_rules
    from spacemission_env.space_mission import engine as sm_engine
    from spacemission_env.space_mission.config import check_game_config
    from spacemission_env.space_mission.rules import game as sm_rules

    for args, setting in (((2.0, "yucata", 100), "num_players"), ((2, 3, 100), "rules"),
                          ((2, "yucata", "100"), "max_rounds"), ((True, "yucata", 100), "num_players")):
        with pytest.raises(TypeError, match=f"^{setting} must be ") as info:
            check_game_config(*args)
        assert type(info.value) is SettingTypeError and isinstance(info.value, ValueError)
    for args in ((6, "yucata", 100), (2, "bogus", 100), (2, "yucata", 0)):
        with pytest.raises(ValueError) as info:
            check_game_config(*args)
        assert type(info.value) is ValueError
    with pytest.raises(SettingTypeError, match="got float: 2.0"):
        sm_engine.init(1, 2.0)
    with pytest.raises(SettingTypeError, match=r"^rules must be one of .* got list: \['schmidt'\]$"):
        sm_rules.new_game(2, seed=0, rules=["schmidt"])
    assert issubclass(WrongTypeError, SettingTypeError)
    for build in (lambda: rp_engine.init(1, 3.0), lambda: rp_rules.new_game(3.0, seed=0)):
        with pytest.raises(WrongTypeError) as info:
            build()
        assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)


BIND_WRONG_TYPES = [  # (config given to a bind, the field) -> a GameConfigTypeError naming ``who``
    ({"num_players": 2.0}, "num_players"), ({"num_players": "3"}, "num_players"), ({"num_players": True}, "num_players"),
    ({"num_players": np.array([2])}, "num_players"), ({"num_players": 2, "rules": 3}, "rules"),
    ({"num_players": 2, "rules": ["yucata"]}, "rules"), ({"num_players": 2, "max_rounds": "10"}, "max_rounds"),
    ({"num_players": 2, "max_rounds": 10.0}, "max_rounds"),
]


@pytest.mark.parametrize("as_object", [False, True])
@pytest.mark.parametrize("config, field", BIND_WRONG_TYPES)
def test_bind_players_of_the_wrong_type_raises_the_typed_error_with_who(config, field, as_object):
    """Before: games.bind_players (the bind of RandomPolicy and of the bots, given a mapping or
    any object with the fields) raised a plain ValueError for a num_players of the wrong type
    ('RandomPolicy plays 2 to 5 players, got num_players=2.0') and wrapped GameConfig's
    GameConfigTypeError for rules / max_rounds as a plain ValueError(f"{who}: {exc}"), losing
    its TypeError side and its field. Now the GameConfigTypeError (a GameConfigError and a
    TypeError) with its field, the message still naming who."""
    from types import SimpleNamespace

    from spacemission_env.games import bind_players

    given = SimpleNamespace(**config) if as_object else config
    with pytest.raises(GameConfigTypeError) as info:
        bind_players(given, "spacemission", "MyBot")
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert info.value.field == field and str(info.value).startswith(f"MyBot: {field} must be "), str(info.value)
    if as_object:  # RandomPolicy.bind takes an object with the fields (a mapping is no configuration to it)
        with pytest.raises(TypeError, match=f"^RandomPolicy: {field} must be "):
            RandomPolicy().bind(given)


def test_bind_players_keeps_plain_value_errors_for_right_typed_values():
    """A right-typed value the game does not have stays a ValueError that is no TypeError (now a
    GameConfigError with its field), the message as before; a game that is not a str is a
    SettingTypeError (it was a plain ValueError)."""
    from types import SimpleNamespace

    from spacemission_env.games import bind_players, require_game

    for config, field, text in (({"num_players": 9}, "num_players", "MyBot plays 2 to 5 players, got num_players=9"),
                                ({"num_players": 2, "rules": "bogus"}, "rules", "MyBot: unknown rules 'bogus'"),
                                ({"num_players": 2, "max_rounds": 0}, "max_rounds", "MyBot: max_rounds must be an integer")):
        with pytest.raises(GameConfigError) as info:
            bind_players(config, "spacemission", "MyBot")
        assert not isinstance(info.value, TypeError) and info.value.field == field and str(info.value).startswith(text)
    with pytest.raises(ValueError, match=r"^MyBot plays Space Mission \('spacemission'\), not Mission: Red Planet \('red_planet'\)$") as info:
        bind_players({"num_players": 3, "game": "red_planet"}, "spacemission", "MyBot")
    assert not isinstance(info.value, TypeError)
    with pytest.raises(SettingTypeError, match=r"^MyBot plays Space Mission \('spacemission'\), not \['spacemission'\]$"):
        bind_players({"num_players": 3, "game": ["spacemission"]}, "spacemission", "MyBot")
    with pytest.raises(SettingTypeError, match=r"^MyBot plays Space Mission \('spacemission'\), not array"):
        require_game(SimpleNamespace(num_players=3, game=np.array(["red_planet"])), "spacemission", "MyBot")
    assert bind_players({"num_players": np.int64(3), "rules": np.str_("schmidt"), "max_rounds": np.int32(9)},
                        "spacemission", "MyBot") == 3


@pytest.mark.parametrize("game", GAMES)
def test_game_description_wrong_types_raise_setting_type_errors(game):
    """Before: GameDescription.reward_range(3) and max_game_length(2.0, 10) / (n, "10") raised a
    plain ValueError (and max_game_length refused a numpy integer max_rounds as 'not a positive
    integer'). Now a SettingTypeError (a ValueError and a TypeError) naming the type; a
    right-typed value out of range stays a plain ValueError."""
    from spacemission_env.games import get_game

    d = get_game(game).description
    n = _players(game)
    for call, text in ((lambda: d.reward_range(3), "reward must be one of ('win', 'score') (a str), got int: 3"),
                       (lambda: d.reward_range(["win"]), "reward must be one of"),
                       (lambda: d.observation_size(None), "observation_type must be one of"),
                       (lambda: d.max_game_length(float(n), 10), "num_players must be an integer in "),
                       (lambda: d.max_game_length(True, 10), "num_players must be an integer in "),
                       (lambda: d.max_game_length(n, "10"), "max_rounds must be a positive integer, got str: '10'"),
                       (lambda: d.max_game_length(n, 10.0), "max_rounds must be a positive integer, got float: 10.0")):
        with pytest.raises(SettingTypeError, match=f"^{re.escape(text)}"):
            call()
    for call in (lambda: d.reward_range("money"), lambda: d.max_game_length(9, 10), lambda: d.max_game_length(n, 0),
                 lambda: d.observation_size("pixels")):
        with pytest.raises(ValueError) as info:
            call()
        assert type(info.value) is ValueError
    assert d.max_game_length(np.int64(n), np.int32(10)) == d.max_game_length(n, 10)


def _engine_and_encoding(game):
    if game == "red_planet":
        from spacemission_env.red_planet import encoding
        from spacemission_env.red_planet.engine import api
    else:
        from spacemission_env.space_mission import encoding
        from spacemission_env.space_mission.engine import api
    return api, encoding


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", [None, 3, ["info"], np.array(["info"])])
def test_engine_observation_size_of_the_wrong_type_raises_the_setting_type_error(game, bad):
    """Before: both fast engines' observation_size(observation_type) (and so observe) raised a
    plain ValueError for a non-str type, Space Mission's reference encoding a plain ValueError
    (3) or lru_cache's "unhashable type" TypeError (a list), and Red Planet's its own message.
    Now all raise what the env settings raise, through the same check (checks.check_choice):
    SettingTypeError naming the type, the message of GameDescription.observation_size."""
    api, encoding = _engine_and_encoding(game)
    from spacemission_env.games import get_game

    text = (f"observation_type must be one of ('info', 'recall', 'seer') (a str), got {type(bad).__name__}: "
            f"{bad!r}")
    with pytest.raises(SettingTypeError) as reference:
        get_game(game).description.observation_size(bad)
    for call in (lambda: api.observation_size(bad), lambda: encoding.observation_size(bad),
                 lambda: encoding.observation_layout(bad), lambda: encoding.observation_shapes(bad),
                 lambda: encoding.decode(np.zeros(encoding.observation_size()), bad)):
        with pytest.raises(SettingTypeError) as info:
            call()
        assert str(info.value) == str(reference.value)
        assert str(info.value).startswith(text)
    st = api.init(1, _players(game), seeds=0)
    with pytest.raises(SettingTypeError, match=re.escape(text)):
        api.observe(st, observation_type=bad)


@pytest.mark.parametrize("game", GAMES)
def test_engine_observation_size_of_an_unknown_name_stays_a_plain_value_error(game):
    api, encoding = _engine_and_encoding(game)
    for call in (lambda: api.observation_size("pixels"), lambda: encoding.observation_size("pixels")):
        with pytest.raises(ValueError, match=r"^unknown observation_type 'pixels'; expected one of \('info'") as info:
            call()
        assert type(info.value) is ValueError
    assert api.observation_size("seer") == encoding.observation_size("seer")
