"""Uniformly random play of Mission: Red Planet with the reference engine (tests and
benchmarks/red_planet_random_play.py): every seat picks a legal action id uniformly with
``random.Random(seed)``; the game is ``new_game(num_players, seed)``."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from .actions import decode
from .rules import GameState, apply, is_over, legal_actions, new_game


def play(num_players: int, seed: int, on_step: Callable[[GameState, int], None] | None = None) -> tuple[GameState, Counter]:
    """Play one random game to its end; returns the final state and the count of applied
    actions per kind. ``on_step(state, action)`` runs after each applied action."""
    state = new_game(num_players, seed=seed)
    rand = random.Random(seed)
    kinds: Counter = Counter()
    while not is_over(state):
        action = rand.choice(legal_actions(state))
        apply(state, action)
        kinds[decode(action)[0]] += 1
        if on_step is not None:
            on_step(state, action)
    return state, kinds
