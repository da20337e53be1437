"""Bots for Space Mission and the arena (installed as ``spacemission_agents``; the folder is ``agents/``).

Every agent implements the opponent protocol of ``spacemission_env.policies``. Names are
imported on first use, so ``import spacemission_agents`` stays light (the bots need only the
core; the arena's tables, plots and ratings need the ``agents`` extra):

    from spacemission_agents import make_agent, run_arena, RandomAgent
"""
from __future__ import annotations

import importlib

# public name -> module that defines it
_EXPORTS = {
    "RandomAgent": "random_agents", "KindRandomAgent": "random_agents",
    "make_agent": "registry", "parse_spec": "registry", "available_agents": "registry", "AGENTS": "registry",
    "run_arena": "arena", "ArenaArgumentError": "arena", "ArenaResult": "arena_result",
    "GreedyAgent": "greedy", "HeuristicAgent": "heuristic", "SearchAgent": "search", "PPOAgent": "ppo",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
