"""Bots for Mission: Red Planet (docs/red_planet/agents.md): random, greedy, heuristic.

Each implements the opponent protocol of ``spacemission_env.policies`` on Red Planet's
observation (type ``info``) and ``Discrete(243)`` mask, so it plays in every interface and
in the arena; ``ladder.play_ladder`` measures them against each other on the reference
engine. Names are imported on first use.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "RandomBot": "random_bot", "GreedyBot": "greedy", "HeuristicBot": "heuristic",
    "play_ladder": "ladder", "BOTS": "ladder",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
