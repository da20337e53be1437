"""``spacemission warmup``: compile every numba kernel now (environments and bots), into the cache.

The environments' part is ``spacemission_env.warmup`` (``python -m spacemission_env.warmup``
does only that part); this command adds the bots of ``spacemission_agents``, each game's
registered agents playing short arena games, in chunks of one game and of several (a bot's
batch of one can compile a second version of a kernel). ``make install`` runs it.
"""
from __future__ import annotations

import argparse
import sys

EXAMPLE = """examples:
  spacemission warmup                       every game, environments and bots
  spacemission warmup --game red_planet     one game
  spacemission warmup --no-bots --quiet     environments only, one summary line

Later runs (and a fresh process) load the kernels from numba's cache: NUMBA_CACHE_DIR if set,
else __pycache__ beside the sources, or the user's cache folder (e.g. ~/.cache/numba) where those are
read-only; the last line says which. Safe to run again; with a warm cache it only loads."""


def _specs(game: str) -> list[str]:
    """Every registered agent of ``game``; the search bots with a fixed, small number of
    rollouts (a time budget would make the warm-up's length depend on the machine, and at
    0.1 s a decision the arena's games took two minutes of the install)."""
    from spacemission_agents.registry import AGENTS_BY_GAME

    budgeted = ("search", "netsearch")
    return [f"{name}:iterations=2" if name in budgeted else name for name in AGENTS_BY_GAME[game]]


def _players(game) -> int:
    """The fewest players with a shipped PPO model (the ppo spec refuses others), else the
    game's fewest."""
    from spacemission_agents.ppo import SHIPPED_BY_GAME

    shipped = SHIPPED_BY_GAME.get(game.name)
    return min(shipped) if shipped else game.description.min_players


def warm_bots(games, report) -> None:
    """Short arenas between all of each game's bots, one deal per lineup (a game per
    seating), played one game at a time and all together (the default round limit:
    the shipped PPO agent refuses another)."""
    from spacemission_agents.arena import run_arena
    from spacemission_env.games import get_game

    for name in games:
        game = get_game(name)
        specs = _specs(name)
        players = _players(game)
        for chunk in (1, players):
            with report.step(f"{name}: arena, {', '.join(specs)}, {players} players, chunks of {chunk}"):
                run_arena(specs, num_players=players, games=players, seed=0, chunk_size=chunk,
                          progress=False, record=False, game=name)


def build_parser() -> argparse.ArgumentParser:
    from spacemission_env.warmup import parser

    ap = parser("spacemission warmup")
    ap.description = "Compile every numba kernel now (environments and bots), into numba's cache."
    ap.epilog, ap.formatter_class = EXAMPLE, argparse.RawDescriptionHelpFormatter
    ap.add_argument("--no-bots", action="store_true", help="only the environments (python -m spacemission_env.warmup)")
    return ap


def main(argv: list[str] | None = None) -> int:
    from spacemission_env.games import GAMES
    from spacemission_env.warmup import Report, announce, jit_disabled, warm_env

    args = build_parser().parse_args(argv)
    if jit_disabled():
        return 0
    games = args.game or list(GAMES)
    report = Report(None if args.quiet else sys.stderr)
    announce(quiet=args.quiet)
    warm_env(games, report)
    if not args.no_bots:
        warm_bots(games, report)
    print(report.summary(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
