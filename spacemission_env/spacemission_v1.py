"""Space Mission v1 as a PettingZoo-style versioned module (as ``pettingzoo.classic.connect_four_v3``):

    from spacemission_env import spacemission_v1
    e = spacemission_v1.env(num_players=3)

The number is the environment's version (``SPACE_MISSION.version``, docs/versioning.md):
it changes whenever the same seed and actions can give a different game or observation,
and the module of the old number goes away with it.
"""
from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]
