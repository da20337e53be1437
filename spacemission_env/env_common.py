"""What the interfaces share: argument checks, spaces, action validation, score dicts,
rendering. It sits below every interface module (pettingzoo_env, vector, gym_env, sb3),
which import from here and never from each other (tests/env/test_env_layering.py).

Error convention for bad input: ``TypeError`` for a value of the wrong type (a float,
str, bool or None where an integer is expected), ``ValueError`` for a value of the
right type outside what is allowed; every message names the value. The settings that
raised ValueError for every bad value before (``observation_type``, ``observation_dtype``,
``illegal_action``, ``reward``, ``shaping``, ``gamma``, ``opponents``, and the game's
``num_players``, ``rules``, ``max_rounds``) raise for a wrong type an error that is both
(``checks.SettingTypeError``; ``games.GameConfigTypeError`` for the game's, also a
``GameConfigError``), so that code catching ValueError still catches it. Validation
happens before anything changes, so a rejected call leaves the environment as it was.
"""
from __future__ import annotations

import math
import operator
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .checks import INDEX_LIMIT, SettingTypeError, check_batch_memory, check_choice, cut, is_int, shown, wrong_type_text
from .game_description import GameDescription
from . import games
from .games import RENDER_MODES, Game, GameConfig, get_game
from .space_mission.config import SPACE_MISSION
from .space_mission.scoring import SCORE_KEYS

# Space Mission's values, kept for callers that name them; the interfaces read their game's
OBS_LOW, OBS_HIGH = SPACE_MISSION.observation_low, SPACE_MISSION.observation_high
SCORE_NAMES = SCORE_KEYS  # keys of Space Mission's score dicts in infos
NUM_ACTIONS = SPACE_MISSION.num_actions
SEED_HIGH = 2**63  # game seeds are drawn in [0, 2**63)
OBSERVATION_DTYPES = ("int8", "float32")  # float32: the same values, for nn.Linear without a cast
ILLEGAL_ACTIONS = ("raise", "lose")  # what a legal-range id that is not legal now does

# What the interfaces return, as a type checker reads it (tests/test_types_runtime.py checks each
# against one reset and step): observations are int8, or float32 with observation_dtype="float32"
ObsArray: TypeAlias = npt.NDArray[np.int8 | np.float32]
MaskArray: TypeAlias = npt.NDArray[np.bool_]  # the gym and vector envs' masks (PettingZoo's are int8)
Info: TypeAlias = dict[str, Any]


def check_observation_type(observation_type, what: str = "observation_type",
                           description: GameDescription = SPACE_MISSION) -> str:
    """One of the game's observation types: SettingTypeError (a ValueError and a TypeError)
    for what is not a str, ValueError for an unknown one."""
    return check_choice(observation_type, what, description.observation_types)


def check_observation_dtype(observation_dtype) -> np.dtype:
    """``"int8"`` (default) or ``"float32"`` (also the numpy dtypes) as a numpy dtype.
    SettingTypeError (a ValueError and a TypeError) for what numpy does not take as a dtype
    (None, an int, a list) other than a str or bytes, ValueError for another dtype
    (``"float64"``, ``float``) or a name numpy does not know (``"int 8"``)."""
    try:
        dt = np.dtype(observation_dtype) if observation_dtype is not None else None
    except (TypeError, ValueError):  # ValueError: numpy's own message failed on an int past str's digit limit
        dt = None
    if dt is None and not isinstance(observation_dtype, (str, bytes)):  # a name is a value: an unknown one ValueError
        raise SettingTypeError(wrong_type_text("observation_dtype", f"one of {OBSERVATION_DTYPES} (a str or "
                                               f"numpy dtype)", observation_dtype))
    if dt is None or dt.name not in OBSERVATION_DTYPES:
        raise ValueError(f"observation_dtype must be one of {OBSERVATION_DTYPES}, got {shown(observation_dtype)}")
    return dt


def check_config(num_players, rules, max_rounds, observation_type,
                 observation_dtype="int8", game: "str | Game" = "spacemission") -> tuple[GameConfig, str, np.dtype]:
    """What an interface plays and hands out, validated: (the game configuration, the
    observation type, the observation dtype as a numpy dtype). ``num_players``,
    ``rules`` and ``max_rounds`` None take the game's defaults (its fewest players).
    ValueError naming the first bad argument (GameConfigError for the game's options);
    for one of the wrong type, one that is also a TypeError (GameConfigTypeError,
    SettingTypeError)."""
    g = get_game(game)
    if num_players is None:
        num_players = g.description.min_players
    config = GameConfig(num_players, rules, max_rounds, g.name)
    return (config, check_observation_type(observation_type, description=g.description),
            check_observation_dtype(observation_dtype))


def check_illegal_action(illegal_action) -> str:
    """``"raise"`` or ``"lose"``: SettingTypeError (a ValueError and a TypeError) for what is
    not a str, ValueError for another str."""
    return check_choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)


def observation_box(observation_type: str = "info", observation_dtype="int8",
                    description: GameDescription = SPACE_MISSION) -> spaces.Box:
    """The observation space: ``Box(low, high, (D,), int8 | float32)``, from the game
    description (Space Mission's by default)."""
    dt = check_observation_dtype(observation_dtype)
    return spaces.Box(description.observation_low, description.observation_high,
                      shape=(description.observation_size(observation_type),), dtype=dt)


def mask_box(num_actions: int = NUM_ACTIONS) -> spaces.Box:
    """An int8 0/1 action mask ``Box(0, 1, (num_actions,), int8)`` (the AEC observation dict's)."""
    return spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8)


def action_discrete(num_actions: int = NUM_ACTIONS) -> spaces.Discrete:
    return spaces.Discrete(num_actions)


def as_observation(obs: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The engine's int8 observation in the interface's dtype (a new array either way)."""
    return obs.copy() if dtype == np.int8 else obs.astype(dtype)


# a lower bound of one game's memory in any env (Space Mission's smallest state, 2 players, is
# 746 bytes; observations, masks and buffers come on top): check_num_envs refuses a num_envs
# whose games could not fit this machine at that size
MIN_ENV_BYTES = 1024


def check_num_envs(num_envs) -> int:
    if not is_int(num_envs):
        raise TypeError(f"num_envs must be a positive integer, got {shown(num_envs)}")
    if num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {shown(num_envs)}")
    check_batch_memory(int(num_envs), MIN_ENV_BYTES, "num_envs")
    if num_envs > INDEX_LIMIT:  # past any array's size (also where the system does not say its memory)
        raise ValueError(f"num_envs={shown(num_envs)}: more games than an array can hold (at most {INDEX_LIMIT:,}); "
                         f"play fewer at once")
    return int(num_envs)


def check_seed(seed):
    """None or a non-negative int (what ``np.random.default_rng`` takes)."""
    if seed is None:
        return None
    if not is_int(seed):
        raise TypeError(f"seed must be a non-negative integer or None, got {shown(seed)}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {shown(seed)}")
    return int(seed)


def check_seat(seat, num_players: int):
    if isinstance(seat, str):
        if seat != "random":
            raise ValueError(f"seat must be 'random' or a seat in 0..{num_players - 1}, got {shown(seat)}")
        return seat
    if not is_int(seat):
        raise TypeError(f"seat must be 'random' or a seat in 0..{num_players - 1}, got {shown(seat)}")
    if not 0 <= seat < num_players:
        raise ValueError(f"seat must be 'random' or a seat in 0..{num_players - 1}, got {shown(seat)}")
    return int(seat)


def check_render_mode(render_mode, modes=RENDER_MODES):
    """An env constructor's ``render_mode``: None or one of ``modes`` (games.check_render_mode:
    TypeError for what is not a str, ValueError for an unknown one)."""
    return games.check_render_mode(render_mode, "render_mode", none_ok=True, modes=modes)


def check_reward_value(value, what: str) -> float:
    """A finite real number (TypeError for None, str, bool; ValueError for nan/inf)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a finite number, got {shown(value)}")
    try:
        finite = math.isfinite(float(value))
    except OverflowError:  # an int past float's range
        finite = False
    if not finite:
        raise ValueError(f"{what} must be a finite number, got {shown(value)}")
    return float(value)


# --- actions ---------------------------------------------------------------------------
def action_id(action, who: str = "action", num_actions: int = NUM_ACTIONS) -> int:
    """One action as an int in [0, num_actions). Accepts Python and numpy integers and integer
    arrays (or tensors) of one element; TypeError for anything else (bool, float, str, None,
    bool or float arrays and tensors), ValueError for an id out of range. ``who`` starts the
    message."""
    if type(action) is int and 0 <= action < num_actions:  # the common case, first
        return action
    value = action
    # torch tensors and other array-likes are read as arrays: a bool tensor is refused as a
    # bool array is (operator.index took torch.tensor(True) for action 1)
    array_like = hasattr(action, "__array__") and not isinstance(action, (np.ndarray, np.generic))
    arr = np.asarray(action) if array_like else action
    if isinstance(arr, np.ndarray):
        if arr.dtype.kind not in "iu" or arr.size != 1:
            raise TypeError(f"{who}: {shown(action)} (array of dtype {arr.dtype}, shape {arr.shape}) is not "
                            f"an integer action id (0..{num_actions - 1})")
        value = arr.reshape(()).item()
    elif isinstance(action, (bool, np.bool_)):
        raise TypeError(f"{who}: {shown(action)} (a bool) is not an integer action id (0..{num_actions - 1})")
    try:
        a = operator.index(value)
    except TypeError:
        raise TypeError(f"{who}: {shown(action)} ({type(action).__name__}) is not an integer action id "
                        f"(0..{num_actions - 1})") from None
    if not 0 <= a < num_actions:
        raise ValueError(f"{who}: {shown(a)} is out of range (action ids are 0..{num_actions - 1})")
    return a


def as_batch_array(actions, who: str = "actions", num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """``np.asarray(actions)``, or TypeError naming them where numpy cannot make one array
    of them (a list mixing ids and lists: numpy's "inhomogeneous shape" ValueError)."""
    try:
        return np.asarray(actions)
    except ValueError:
        raise TypeError(f"{who} must be integer action ids in 0..{num_actions - 1}, one per game, "
                        f"got {shown(actions)}") from None


def action_batch(actions, num_envs: int, who: str = "actions", num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """One action per game as int64 ``[num_envs]``; TypeError unless the values are
    integers (bool and float arrays included), ValueError naming the first game whose id
    is out of range or for a wrong shape."""
    a = as_batch_array(actions, who, num_actions)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{who} must be integer action ids in 0..{num_actions - 1}, "
                        f"got an array of dtype {a.dtype}: {shown_values(a)}")
    if a.shape != (num_envs,):
        raise ValueError(f"{who} must have shape ({num_envs},), got {a.shape}")
    bad = (a < 0) | (a >= num_actions)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"game {i}: {who[:-1] if who.endswith('s') else who} {int(a[i])} is out of range "
                         f"(action ids are 0..{num_actions - 1})")
    return a.astype(np.int64, copy=False)


def shown_values(a: np.ndarray) -> str:
    """The first values of a rejected array for a message, cut to ``SHOWN_CHARS`` (an
    element may be a 5000-character string, or an int too long for ``str``)."""
    try:
        return cut(np.array2string(a.ravel()[:8], threshold=8))
    except ValueError:  # an object array holding an int past Python's digit limit for str
        return shown(a.ravel()[:8].tolist())


def legal_list(mask_row: np.ndarray) -> list[int]:
    return np.flatnonzero(mask_row).tolist()


def no_decision_mask(dtype=np.bool_, num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """The mask handed out where no decision is pending (the game is over, or another
    seat acts): every id set, so that a masked sampler never meets an empty row. The
    action it produces is never played (an ended episode needs reset, or is reset by
    the vector wrapper, which ignores it)."""
    return np.ones(num_actions, dtype=dtype)


# --- results ---------------------------------------------------------------------------
def score_dict(row, names: tuple[str, ...] = SCORE_NAMES) -> dict[str, int]:
    """One seat's score breakdown (a row of ``engine.scores``) as {name: int}."""
    return dict(zip(names, map(int, row)))


def strictly_best(rank_rewards: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """bool per game: the seat's rank reward beats every other seat's (a tie for first
    place is not a success). ``rank_rewards`` [G, P] from ``engine.rewards``."""
    rank_rewards = np.asarray(rank_rewards)
    rows = np.arange(rank_rewards.shape[0])
    own = rank_rewards[rows, seats]
    others = rank_rewards.copy()
    others[rows, seats] = -np.inf
    return own > others.max(axis=1)


def render_state(state, mode: str, game: "str | Game" = "spacemission"):
    """A reference state of ``game``: ``"ansi"``: the text table; ``"human"``: prints it
    (returns None); ``"rgb_array"``: the picture (uint8 [H, W, 3]); Game.render checks the mode."""
    return get_game(game).render(state, mode)
