"""Space Mission RL environment.

- ``spacemission_env.rules``: readable reference rules engine (rule ids of docs/rules.md cited)
- ``spacemission_env.engine``: fast batched numba engine, bit-identical to the reference
- ``env()`` / ``raw_env``: PettingZoo AEC env; ``gymnasium.make("SpaceMission-v0")``;
  ``spacemission_env.vector.VectorEnv``; ``spacemission_env.sb3.SpaceMissionVecEnv``
  (imported on demand: it loads torch)
- ``Policy`` / ``BasePolicy`` / ``RandomPolicy``: the opponent protocol; ``GameConfig``:
  what a policy's ``bind`` hook receives
- ``decode(obs)``: named views of observation blocks (docs/observation.md);
  ``spacemission_env.determinize``: worlds consistent with a player's information

The project's other folders install under the same prefix: ``spacemission_agents``
(agents/), ``spacemission_training`` (training/), ``spacemission_cli`` (cli/).
"""
from .config import GameConfig
from .encoding import decode
from .gym_env import SpaceMissionEnv, register_envs
from .pettingzoo_env import env, raw_env
from .policies import BasePolicy, Policy, RandomPolicy

register_envs()  # gymnasium.make("SpaceMission-v0") and pettingzoo.make("aec", "SpaceMission-v0")

__version__ = "0.1.0"
__all__ = ["BasePolicy", "GameConfig", "Policy", "RandomPolicy", "SpaceMissionEnv", "decode", "env", "raw_env",
           "register_envs"]
