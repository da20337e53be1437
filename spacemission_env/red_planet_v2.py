"""Mission: Red Planet v2 as a PettingZoo-style versioned module (as
``pettingzoo.classic.connect_four_v3``): the shared AEC environment (pettingzoo_env.py)
with ``game="red_planet"``.

    from spacemission_env import red_planet_v2
    e = red_planet_v2.env(num_players=4)
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

| | |
|---|---|
| Import | `from spacemission_env import red_planet_v2` |
| Registry id | `pettingzoo.make("aec", "RedPlanet-v2")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `player_0` .. `player_{n-1}`, n = `num_players` in 3..5 |
| Action Shape | () |
| Action Values | Discrete(243): 0-9 setup_zone, 10-22 keep, 23-31 commit, 32-36 place, 37 stop, 38-47 destination, 48-85 move, 86 draw, 87-96 look, 97-106 discovery, 107-111 launch, 112-136 seduce, 137-141 sabotage, 142-191 kill, 192-241 pilot, 242 pass |
| Observation Shape | `observation`: (957,), `action_mask`: (243,) |
| Observation Values | `observation`: int8 [0, 127], `action_mask`: int8 [0, 1] |
| Rewards | `win`: rank reward in [-1, 1] at the end; `score`: (own - mean others) / 50 at the end, in [-8.98, 8.98]; optional shaping |

* 3-5 players (M-X2), ten rounds (M-X1): the game has no other end, so ``max_rounds``
  is 10 and ``round_limit`` is always False.
* Hidden simultaneous choices (the bonus card kept at setup, M-S6; the role committed
  each round, M-R3) are asked of the seats one at a time in seat order; an observation
  shows nothing of the others' commits of the round (M-I4), so a later seat learns
  nothing from an earlier one's choice: the simultaneous move as a sequential game of
  imperfect information (OpenSpiel's convention). The same agent may be selected
  several times in a row (placement, then its role's ability).
* Observations (``"info"``, ``"recall"``, ``"seer"``): docs/red_planet/observation.md;
  actions (Discrete(243), every decision of the spec): docs/red_planet/actions.md.
* Everything else (masks, rewards, illegal actions, copies, seeding, rendering) as in
  Space Mission's AEC env (pettingzoo_env.py).

The number is the environment's version (``RED_PLANET.version``, docs/versioning.md).
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

    GAME = "red_planet"


__all__ = ["env", "raw_env"]
