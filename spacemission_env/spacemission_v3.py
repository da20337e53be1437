"""Space Mission v3 as a PettingZoo-style versioned module (as ``pettingzoo.classic.connect_four_v3``):

    from spacemission_env import spacemission_v3
    e = spacemission_v3.env(num_players=3)

The module plays Space Mission only: like ``red_planet_v2``, it takes no ``game``
argument (the shared classes in pettingzoo_env.py take one; a versioned module, and the
registry id ``"SpaceMission-v3"`` that points here, name their game).

The number is the environment's version (``SPACE_MISSION.version``, docs/versioning.md):
it changes whenever the same seed and actions can give a different game or observation,
and the module of the old number goes away with it.
"""
from __future__ import annotations

from typing import Any

from .pettingzoo_env import FastOrderEnforcingWrapper, OneGameRawEnv, wrap_env


def env(**kwargs: Any) -> FastOrderEnforcingWrapper:
    """The wrapped AEC environment (``illegal_action="lose"``), as ``pettingzoo_env.env``, around
    this module's :class:`raw_env`."""
    return wrap_env(raw_env, **kwargs)


class raw_env(OneGameRawEnv):
    """The AEC environment without wrappers, as ``pettingzoo_env.raw_env``; a ``game``
    argument is refused."""

    GAME = "spacemission"


__all__ = ["env", "raw_env"]
