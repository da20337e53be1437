"""Random players of the reference engine, for tests, benchmarks and the ``demo`` command.

``uniform_action`` picks uniformly among the legal ids; ``kind_uniform_action`` first picks
an action kind uniformly among the legal kinds (top up, jump, fly, ...), then an id of that
kind. Uniform play over the flat space mostly tops up (up to 32 top-up ids against a few
others) and nearly always runs into the round limit (R-E3); kind-uniform play finishes
games (docs/random_play.md).
"""
from __future__ import annotations

import random

from . import actions as A
from .rules import GameState, apply, legal_actions, new_game


def uniform_action(state: GameState, rng: random.Random) -> int:
    """A legal id chosen uniformly."""
    return rng.choice(legal_actions(state))


def kind_uniform_action(state: GameState, rng: random.Random) -> int:
    """A legal kind chosen uniformly, then a legal id of that kind uniformly."""
    by_kind: dict[str, list[int]] = {}
    for a in legal_actions(state):
        by_kind.setdefault(A.decode(a)[0], []).append(a)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


PLAYERS = {"uniform": uniform_action, "kind": kind_uniform_action}


def play(num_players: int, seed: int, rules: str = "yucata", player: str = "kind",
         max_rounds: int = 100) -> tuple[GameState, int]:
    """Play one game; returns the final state and the number of actions applied.
    The random player's generator is seeded with ``seed`` too."""
    if player not in PLAYERS:
        raise ValueError(f"unknown random player {player!r}; expected one of {sorted(PLAYERS)}")
    state = new_game(num_players, seed=seed, rules=rules, max_rounds=max_rounds)
    choose, rng, n = PLAYERS[player], random.Random(seed), 0
    while not state.is_over:
        apply(state, choose(state, rng))
        n += 1
    return state, n
