"""What the commands' help texts say about each game, read from the game protocol
(:data:`spacemission_env.games.GAMES`, each game's description and render module) and the
agent registry, so that a help text stays true for every registered game, a third one
included."""
from __future__ import annotations

from spacemission_env.games import player_ranges, rule_sets_by_game  # shared with the trainers' help

__all__ = ["agents_by_game", "fewest_players", "player_range", "player_ranges", "rule_sets_by_game", "seat_colours"]


def _games():
    from spacemission_env.games import GAMES, get_game

    return [get_game(name) for name in GAMES]


def player_range() -> tuple[int, int]:
    """The fewest and the most players of any registered game."""
    games = _games()
    return min(g.description.min_players for g in games), max(g.description.max_players for g in games)


def agents_by_game(sep: str = "; ") -> str:
    """Each game's registered agent names, e.g. ``Space Mission: random, kind-random, ...;
    Mission: Red Planet: random, greedy, heuristic, ppo`` (a game without names of its own
    gets the game-neutral ones)."""
    from spacemission_agents.registry import AGENTS_BY_GAME, GAME_NEUTRAL_AGENTS

    return sep.join(f"{g.description.title}: {', '.join(AGENTS_BY_GAME.get(g.name, GAME_NEUTRAL_AGENTS))}"
                    for g in _games())


def seat_colours() -> str:
    """Which colour seat 0 plays in each game that names its seats by colour (its render
    module's ``PLAYER_NAMES``), e.g. ``seat 0 is red in Space Mission and Mission: Red
    Planet``; empty where no game does."""
    import importlib

    by_colour: dict[str, list[str]] = {}
    for g in _games():
        try:
            names = getattr(importlib.import_module(g.render_module), "PLAYER_NAMES", None)
        except ImportError:
            names = None
        if names:
            by_colour.setdefault(names[0], []).append(g.description.title)
    return "; ".join(f"seat 0 is {colour} in {' and '.join(titles)}" for colour, titles in by_colour.items())


def fewest_players() -> str:
    """Each game's fewest players, e.g. ``Space Mission 2, Mission: Red Planet 3``."""
    return ", ".join(f"{g.description.title} {g.description.min_players}" for g in _games())
