"""The base of the four interfaces (pgx's ``Env`` is the model): what they share is done
once here, each interface module adds only what is its own.

Shared: the game they play (``game``, a :class:`~spacemission_env.games.Game` found by
name: its fast engine ``engine`` and its description ``description``), the checks of
the game configuration, observation type and dtype (``config``,
``num_players``, ``rules``, ``max_rounds``, ``observation_type``, ``observation_dtype``,
``observation_size``), the reward function (``reward_fn``), the opponents of the
single-learner interfaces (``opponents``, ``opponent_observation_types``), the
illegal-action option, the engine state (``batch_state``, read-only) and rendering one
game of it. :class:`EnvBase` is a mixin: each interface also derives from its library's
class (PettingZoo ``AECEnv``, ``gymnasium.Env``, SB3 ``VecEnv``; the self-play
``VectorEnv`` from nothing else). It sits below every interface module, which import
from here and never from each other (tests/env/test_env_layering.py).
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces

from .env_common import (
    action_discrete,
    check_config,
    check_illegal_action,
    check_reward_value,
    observation_box,
    render_state,
    score_dict,
)
from .game_description import GameDescription
from .games import Game, get_game
from .policies import prepare_opponents
from .space_mission.config import SPACE_MISSION
from .rewards import RewardFunction


class EnvBase:
    """Configuration, rewards, opponents and engine state of an interface (module doc)."""

    _game_name: str = SPACE_MISSION.name  # set by _init_game; the Game is looked up by name, so copies pickle
    # the engine's BatchState (each game's engine has its own class), None before reset() and after close()
    _st: Any = None
    render_mode: str | None  # set by each interface (its library's class declares it)
    _closed = False  # close() was called (and no reset() since): only changes the error message

    def __copy__(self):
        """``copy.copy`` gives a full, independent copy, as ``copy.deepcopy`` and ``pickle``
        do: a shallow copy would share the engine state's arrays (and the mask and
        observation buffers) with the original while keeping its own bookkeeping, so
        stepping either would silently corrupt the other."""
        return copy.deepcopy(self)

    @property
    def game(self) -> Game:
        """The game played (games.py)."""
        return get_game(self._game_name)

    @property
    def description(self) -> GameDescription:
        """The game's description: spaces, sizes, reward ranges."""
        return self.game.description

    @property
    def engine(self):
        """The game's fast batched engine (a module of pure functions over a BatchState)."""
        return self.game.engine

    def _init_game(self, num_players, rules, max_rounds, observation_type, observation_dtype, reward, shaping,
                   gamma, game="spacemission") -> None:
        """Check and store the game, the observation and the reward options (ValueError
        naming the first bad argument; ``None`` for ``num_players``, ``rules`` or
        ``max_rounds`` takes the game's default)."""
        self._game_name = get_game(game).name
        self.config, self.observation_type, self.observation_dtype = check_config(
            num_players, rules, max_rounds, observation_type, observation_dtype, self.game)
        self.num_players = self.config.num_players
        self.rules = self.config.rules
        self.max_rounds = self.config.max_rounds
        self.num_actions = self.game.num_actions
        self.observation_size = self.description.observation_size(self.observation_type)
        self.reward_fn = RewardFunction(reward, shaping, gamma, self.game)
        self._st = None

    def _init_illegal_action(self, illegal_action, illegal_reward) -> None:
        """``illegal_action``: ``"raise"`` (ValueError) or ``"lose"`` (the episode ends
        with ``illegal_reward`` for the offender, ``RewardFunction.forfeit``)."""
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = check_reward_value(illegal_reward, "illegal_reward")

    def _init_opponents(self, opponents) -> None:
        """One policy per opponent seat, bound to the game (policies.prepare_opponents)."""
        self.opponents, self.opponent_observation_types = prepare_opponents(opponents, self.config,
                                                                            self.observation_type)

    # --- spaces ---------------------------------------------------------------------------
    def _observation_box(self, observation_type: str | None = None) -> spaces.Box:
        return observation_box(observation_type or self.observation_type, self.observation_dtype, self.description)

    def _action_discrete(self) -> spaces.Discrete:
        return action_discrete(self.num_actions)

    def _typed(self, obs: np.ndarray) -> np.ndarray:
        """The engine's int8 observations in the interface's dtype (the same array for int8)."""
        return obs if self.observation_dtype == np.int8 else obs.astype(self.observation_dtype)

    # --- the engine state -----------------------------------------------------------------
    @property
    def batch_state(self):
        """The engine's ``BatchState`` of the games in progress (one game for the AEC and
        Gymnasium envs), for reading: stepping or resetting it behind the interface's
        back leaves the interface's bookkeeping wrong. ValueError before ``reset()``."""
        self._require_reset("reading the state")
        return self._st

    def _require_reset(self, what: str) -> None:
        if self._st is None:
            raise ValueError(self._no_game_message(what))

    def _no_game_message(self, what: str) -> str:
        """The error of a call that needs a game when there is none (before ``reset()``, or
        after ``close()``)."""
        if self._closed:
            return f"the environment is closed: call reset() before {what}"
        return f"call reset() before {what}"

    def _close(self) -> None:
        """Drop the games: every call that needs one raises, naming ``close()``, until
        ``reset()`` starts new ones. Idempotent."""
        self._st = None
        self._closed = True

    def _new_games(self, batch_size: int, seeds):
        """New games of this configuration (``engine.init``), for ``reset()``, which also
        reopens an environment that was closed."""
        self._closed = False
        return self.game.new_batch(batch_size, self.config, seeds)

    def _render_if_human(self) -> None:
        """``render_mode="human"``: print the game after every ``reset`` and ``step``, as
        Gymnasium's and PettingZoo's own environments do."""
        if self.render_mode == "human":
            self._render_game(0, "human")

    def _render_game(self, index: int, mode: str):
        """Game ``index`` of the state as ``"ansi"`` text, printed (``"human"``) or an RGB picture."""
        return render_state(self.engine.to_reference(self._st, index), mode, self.game)

    def _score_dict(self, row) -> dict[str, int]:
        """One seat's score breakdown (a row of ``engine.scores``) by the game's category names."""
        return score_dict(row, self.game.score_names)
