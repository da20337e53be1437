"""Space Mission RL environment.

- ``spacemission_env.rules``: readable reference rules engine (rule ids of docs/rules.md cited)
- ``spacemission_env.engine``: fast batched numba engine, bit-identical to the reference
- ``env()`` / ``raw_env``: PettingZoo AEC env (also ``spacemission_env.spacemission_v1``, the
  versioned module); ``gymnasium.make("SpaceMission-v1")``;
  ``spacemission_env.vector.VectorEnv``; ``spacemission_env.sb3.SpaceMissionVecEnv``
  (imported on demand: it loads torch)
- ``Policy`` / ``BasePolicy`` / ``RandomPolicy``: the opponent protocol; ``GameConfig``:
  what a policy's ``bind`` hook receives
- ``SPACE_MISSION``: the game description (``GameDescription``: version, player range,
  actions, observation sizes, reward ranges, longest game), which the interfaces declare
- ``decode(obs)``: named views of observation blocks (docs/observation.md);
  ``spacemission_env.determinize``: worlds consistent with a player's information

The project's other folders install under the same prefix: ``spacemission_agents``
(agents/), ``spacemission_training`` (training/), ``spacemission_cli`` (spacemission_cli/).
"""
from . import spacemission_v1
from .config import SPACE_MISSION, GameConfig
from .encoding import decode
from .game_description import GameDescription, RewardScheme
from .gym_env import SpaceMissionEnv, register_envs
from .pettingzoo_env import env, raw_env
from .policies import BasePolicy, Policy, RandomPolicy

register_envs()  # gymnasium.make("SpaceMission-v1") and pettingzoo.make("aec", "SpaceMission-v1")

__version__ = "0.1.0"
__all__ = ["SPACE_MISSION", "BasePolicy", "GameConfig", "GameDescription", "Policy", "RandomPolicy", "RewardScheme",
           "SpaceMissionEnv", "decode", "env", "raw_env", "register_envs", "spacemission_v1"]
