"""Reinforcement-learning environments for space board games, every game of one shape
and played through one protocol (``spacemission_env.games``).

Games (``games.GAMES``; each a package: data and ``components``, the readable reference
engine ``rules``, the fast batched numba engine ``engine``, ``actions``, ``encoding``
with ``decode``, ``config`` with its description, ``protocol`` with its ``GAME``):

- ``spacemission_env.space_mission``: *Space Mission* (2-5 players; ``SpaceMission-v3``)
- ``spacemission_env.red_planet``: *Mission: Red Planet* (3-5 players; ``RedPlanet-v2``)

Interfaces, written once over the protocol (``game=`` picks the game, Space Mission by
default):

- ``env()`` / ``raw_env``: PettingZoo AEC env (also the versioned modules
  ``spacemission_env.spacemission_v3`` and ``spacemission_env.red_planet_v2``);
  ``gymnasium.make("SpaceMission-v3")`` / ``gymnasium.make("RedPlanet-v2")`` (``GameEnv``);
  ``spacemission_env.vector.VectorEnv``; ``spacemission_env.sb3.GameVecEnv``
  (imported on demand: it loads torch)
- ``Policy`` / ``BasePolicy`` / ``RandomPolicy``: the opponent protocol; ``GameConfig``:
  what a policy's ``bind`` hook receives; ``get_game(name)``: a game's ``Game``
- ``SPACE_MISSION``, ``RED_PLANET``: the game descriptions (``GameDescription``: version,
  player range, actions, observation sizes, reward ranges, longest game)
- ``decode(obs)``: named views of Space Mission's observation blocks
  (docs/observation.md); each game's ``encoding.decode`` for its own

The project's other folders install under the same prefix: ``spacemission_agents``
(agents/), ``spacemission_training`` (training/), ``spacemission_cli`` (spacemission_cli/).
"""
from . import red_planet_v2, spacemission_v3
from .games import GAMES, Game, GameConfig, get_game
from .space_mission.config import SPACE_MISSION
from .space_mission.encoding import decode
from .game_description import GameDescription, RewardScheme
from .gym_env import GameEnv, SpaceMissionEnv, register_envs
from .red_planet.config import RED_PLANET
from .pettingzoo_env import env, raw_env
from .policies import BasePolicy, Policy, RandomPolicy

register_envs()  # gymnasium.make("SpaceMission-v3") and pettingzoo.make("aec", "SpaceMission-v3")

__version__ = "0.1.0"
__all__ = ["GAMES", "RED_PLANET", "SPACE_MISSION", "BasePolicy", "Game", "GameConfig", "GameDescription", "GameEnv",
           "Policy", "RandomPolicy", "RewardScheme", "SpaceMissionEnv", "decode", "env", "get_game", "raw_env",
           "red_planet_v2", "register_envs", "spacemission_v3"]
