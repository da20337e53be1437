"""What the two search bots (search.py's SearchAgent, netsearch.py's NetSearchAgent) share:
the checks of their settings and of the rows they are given, the game an unbound bot reads
from its observation, the stage of the game their running cost estimates are kept by, and
the generators of one decision (functions of the bot's seed and the observation)."""
from __future__ import annotations

import hashlib
import math

import numpy as np

from spacemission_env import decode
from spacemission_env.checks import shown
from spacemission_env.engine_common import check_seat_present, kernel_input
from spacemission_env.obs_layout import required_block_span
from spacemission_env.policies import check_masks
from spacemission_env.space_mission.components import MAX_PLAYERS, MIN_PLAYERS
from spacemission_env.space_mission.config import check_game_config
from spacemission_env.space_mission.encoding import CLIP, observation_layout, observation_size

__all__ = ["ROLLOUT_BYTES", "STAGE_ROUNDS", "check_budget", "check_recall_rows", "number_setting", "observation_rng",
           "rollout_agent_seed", "stage_key", "unbound_game"]

STAGE_ROUNDS = 4  # rounds per stage of the game, for the rollout cost estimates

# a lower bound of one rollout's memory at the peak of its batch (sampled world, its copies, the
# simulation's buffers): 10 KB were measured at 2 players, whose game state alone is 746 bytes
ROLLOUT_BYTES = 8 * 1024


def _finite(value) -> bool:
    """``value`` (a number) is finite as a float: an int past float's range (10**400), which
    math.isfinite answers with OverflowError, is not."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def number_setting(name: str, value, low: float, integer: bool = False, allow_none: bool = False, *, owner: str):
    """``value`` checked as a number >= ``low`` (ValueError naming ``owner`` and ``name``)."""
    if value is None and allow_none:
        return None
    ok = isinstance(value, (int, np.integer)) if integer else isinstance(value, (int, float, np.integer, np.floating))
    if isinstance(value, bool) or not ok or not (integer or _finite(value)) or value < low:
        kind = "an integer" if integer else "a finite number"
        raise ValueError(f"{owner}: {name} must be {kind} >= {low}{' or None' if allow_none else ''}, got {shown(value)}")
    return int(value) if integer else float(value)


def check_budget(value, owner: str) -> float:
    """A time budget: a finite number of seconds > 0 (one ValueError, naming ``owner``, for a
    negative, zero, infinite or non-numeric one)."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not ok or not _finite(value) or value <= 0:
        raise ValueError(f"{owner}: budget must be a finite number of seconds > 0, got {shown(value)}")
    return float(value)


# the "recall" observation's seat_present block (1 for each seat in the game, from the observer on)
_RECALL_SEATS = required_block_span(observation_layout("recall"), "seat_present")


def check_recall_rows(who: str, observations, action_masks, num_actions: int | None = None):
    """(observations, masks) of a search bot's ``act_batch``: int8 "recall" rows and bool
    masks with a legal action in every row (``kernel_input``: C-contiguous and writeable), each
    row's seat_present block that of a 2..5 player game (engine_common.check_seat_present, as
    the other bots check it: the search reads its player count there); ValueError naming
    ``who`` otherwise."""
    masks = check_masks(action_masks, num_actions)
    obs = np.asarray(observations)
    d = observation_size("recall")
    if obs.ndim != 2 or obs.shape != (masks.shape[0], d) or obs.dtype != np.int8:
        raise ValueError(f"{who}: observations must be int8 of shape [{masks.shape[0]}, {d}] "
                         f"(observation_type 'recall'), got {obs.dtype} {obs.shape}")
    if masks.shape[0] and not masks.any(axis=1).all():
        raise ValueError(f"{who}: mask row {int(np.argmin(masks.any(axis=1)))} has no legal action")
    start, stop = _RECALL_SEATS
    check_seat_present(obs[:, start:stop], who, MIN_PLAYERS, MAX_PLAYERS)
    # a slice, Fortran-ordered or read-only rows: C-contiguous copies, else the kernels compile again
    return kernel_input(obs, np.int8), kernel_input(masks, np.bool_)


def unbound_game(who: str, obs: np.ndarray, max_rounds: int | None = None, *,
                 view: dict | None = None) -> tuple[int, str, int]:
    """The game of an unbound search bot, read from its "recall" observation: the seats
    present, yucata rules (the observation does not say which), and the round limit
    ``round + rounds_left`` (R-E3; both are clipped at 127, so past that it is the smallest
    limit the observation allows). A bot that plays only ``max_rounds`` rounds gets a
    ValueError naming the observation's limit and ``bind``. ``view``: ``obs`` decoded
    (``decode(obs, "recall")``) where the caller has it."""
    v = decode(obs, "recall") if view is None else view
    n, rd, left = int(v["seat_present"].sum()), int(v["round"][0]), int(v["rounds_left"][0])
    limit = rd + left
    if max_rounds is not None and limit != max_rounds:
        clipped = "at least " if max(rd, left) >= CLIP else ""
        raise ValueError(f"{who} is not bound to a game, and its observation's game has a round limit of {clipped}"
                         f"{limit} (round {rd} + {left} rounds left), not {max_rounds}: it plays only games of "
                         f"{max_rounds} rounds (bind(GameConfig(...)) says which game it is in)")
    return check_game_config(n, "yucata", limit)


def stage_key(obs: np.ndarray, view: dict | None = None) -> tuple[int, int, int]:
    """The stage of the game a "recall" observation is at, for the running cost estimates of
    the search bots: (players, round // STAGE_ROUNDS, 1 once the end is triggered (R-E1), else
    0). A rollout to the end from a stage costs about the same in every game, except after the
    trigger, when only the round is left to play. ``view``: ``obs`` decoded where the caller
    has it."""
    v = decode(obs, "recall") if view is None else view
    return int(v["seat_present"].sum()), int(v["round"][0]) // STAGE_ROUNDS, int(v["end_triggered"][0])


def _observation_hash(obs: np.ndarray) -> int:
    return int.from_bytes(hashlib.blake2b(obs.tobytes(), digest_size=8).digest(), "little")


def observation_rng(seed: int, obs: np.ndarray) -> np.random.Generator:
    """The generator of one decision: a function of the bot's seed and the observation, so
    play with an ``iterations`` budget is a deterministic function of both."""
    return np.random.default_rng([seed, _observation_hash(obs)])


def rollout_agent_seed(seed: int, obs: np.ndarray) -> int:
    """The seed a rollout agent object (``rollout=agent``) is given before each decision: a
    function of the bot's seed and the observation, as :func:`observation_rng` (a stream of
    its own: the world sampling's draws are left as they were). Without it a stochastic
    rollout agent carried its generator from decision to decision, so the same observation
    could get another action and ``act`` differed from ``act_batch``."""
    state = np.random.SeedSequence([seed, _observation_hash(obs), 1]).generate_state(1, np.uint64)[0]
    return int(state) >> 1
