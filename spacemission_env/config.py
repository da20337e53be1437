"""Validation of a game configuration, shared by both engines and every interface."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .components import MAX_PLAYERS, MIN_PLAYERS

RULE_SETS = ("yucata", "schmidt")  # default first; index = the fast engine's rules_id
MAX_ROUNDS_LIMIT = 2**31 - 1  # the fast engine keeps the round in int32


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def check_game_config(num_players, rules, max_rounds) -> tuple[int, str, int]:
    """(num_players, rules, max_rounds) as plain values; ValueError naming the first bad one."""
    if not _is_int(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be an integer in {MIN_PLAYERS}..{MAX_PLAYERS}, got {num_players!r}")
    if rules not in RULE_SETS:
        raise ValueError(f"unknown rules {rules!r}; expected one of {RULE_SETS}")
    if not _is_int(max_rounds) or not 1 <= max_rounds <= MAX_ROUNDS_LIMIT:
        raise ValueError(f"max_rounds must be an integer in 1..{MAX_ROUNDS_LIMIT}, got {max_rounds!r}")
    return int(num_players), rules, int(max_rounds)


@dataclass(frozen=True)
class GameConfig:
    """The game an environment plays: what a policy's optional ``bind(config)`` hook
    receives (policies.py), so that an agent can refuse a game it does not fit or learn
    the configuration. Validated on construction (ValueError naming the bad field)."""

    num_players: int = 2
    rules: str = "yucata"
    max_rounds: int = 100

    def __post_init__(self):
        num_players, rules, max_rounds = check_game_config(self.num_players, self.rules, self.max_rounds)
        object.__setattr__(self, "num_players", num_players)
        object.__setattr__(self, "max_rounds", max_rounds)
