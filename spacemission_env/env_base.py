"""The base of the four interfaces (pgx's ``Env`` is the model): what they share is done
once here, each interface module adds only what is its own.

Shared: the game description they declare (``description``, config.SPACE_MISSION), the
checks of the game configuration, observation type and dtype (``config``,
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

import numpy as np
from gymnasium import spaces

from . import engine
from .config import SPACE_MISSION
from .engine.state import BatchState
from .env_common import (
    action_discrete,
    check_config,
    check_illegal_action,
    check_reward_value,
    observation_box,
    render_state,
)
from .game_description import GameDescription
from .policies import prepare_opponents
from .rewards import RewardFunction


class EnvBase:
    """Configuration, rewards, opponents and engine state of an interface (module doc)."""

    description: GameDescription = SPACE_MISSION
    _st: BatchState | None = None  # the engine state, None before reset()

    def _init_game(self, num_players, rules, max_rounds, observation_type, observation_dtype, reward, shaping,
                   gamma) -> None:
        """Check and store the game, the observation and the reward options (ValueError
        naming the first bad argument)."""
        self.config, self.observation_type, self.observation_dtype = check_config(
            num_players, rules, max_rounds, observation_type, observation_dtype)
        self.num_players = self.config.num_players
        self.rules = self.config.rules
        self.max_rounds = self.config.max_rounds
        self.observation_size = self.description.observation_size(self.observation_type)
        self.reward_fn = RewardFunction(reward, shaping, gamma)
        self._st = None

    def _init_illegal_action(self, illegal_action, illegal_reward) -> None:
        """``illegal_action``: ``"raise"`` (ValueError) or ``"lose"`` (the episode ends
        with ``illegal_reward`` for the offender)."""
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = check_reward_value(illegal_reward, "illegal_reward")

    def _init_opponents(self, opponents) -> None:
        """One policy per opponent seat, bound to the game (policies.prepare_opponents)."""
        self.opponents, self.opponent_observation_types = prepare_opponents(opponents, self.config,
                                                                            self.observation_type)

    # --- spaces ---------------------------------------------------------------------------
    def _observation_box(self, observation_type: str | None = None) -> spaces.Box:
        return observation_box(observation_type or self.observation_type, self.observation_dtype)

    @staticmethod
    def _action_discrete() -> spaces.Discrete:
        return action_discrete()

    def _typed(self, obs: np.ndarray) -> np.ndarray:
        """The engine's int8 observations in the interface's dtype (the same array for int8)."""
        return obs if self.observation_dtype == np.int8 else obs.astype(self.observation_dtype)

    # --- the engine state -----------------------------------------------------------------
    @property
    def batch_state(self) -> BatchState:
        """The engine's ``BatchState`` of the games in progress (one game for the AEC and
        Gymnasium envs), for reading: stepping or resetting it behind the interface's
        back leaves the interface's bookkeeping wrong. ValueError before ``reset()``."""
        self._require_reset("reading the state")
        return self._st

    def _require_reset(self, what: str) -> None:
        if self._st is None:
            raise ValueError(f"call reset() before {what}")

    def _new_games(self, batch_size: int, seeds) -> BatchState:
        """New games of this configuration (``engine.init``)."""
        return engine.init(batch_size, self.num_players, seeds=seeds, rules=self.rules, max_rounds=self.max_rounds)

    def _render_game(self, index: int, mode: str):
        """Game ``index`` of the state as ``"ansi"`` text, printed (``"human"``) or an RGB picture."""
        return render_state(engine.to_reference(self._st, index), mode)
