"""``spacemission demo``: one seeded game between random players of a game's reference
engine, its score table and its winners.

    spacemission demo [--game NAME] [--players N] [--seed S] [--rules R]
                      [--player kind|uniform] [--max-rounds R]

Space Mission keeps its own demo (``spacemission_env.space_mission.demo``: the kind-uniform
player, how the game ended by R-E1 or R-E3). Every other game is reached through
:func:`spacemission_env.games.get_game`: players that pick a legal action uniformly with
``random.Random(seed)`` from ``game.new_reference_game(config, seed)`` (for Red Planet the
games of ``spacemission_env.red_planet.random_play``), the columns of ``game.score_names``
and the winners as the arena ranks them.
"""
from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from . import _help
from ._args import UsageParser, int_arg

EXAMPLE = """examples:
  spacemission demo --players 4 --seed 3 --rules schmidt
  spacemission demo --game red_planet --players 4 --seed 3"""

PLAYERS = ("kind", "uniform")  # kind: Space Mission's only (it picks an action kind first)


def build_parser() -> argparse.ArgumentParser:
    from spacemission_env.games import DEFAULT_GAME, GAMES, get_game

    ap = UsageParser(prog="spacemission demo", epilog=EXAMPLE,
                     description="Play a seeded game between random players of the reference engine; "
                                 "print each seat's score breakdown and the winners.",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME,
                    help="the game (default spacemission)")
    ap.add_argument("--players", type=int_arg, metavar="N",
                    help=f"players (default 3, or the nearest the game has; the game's own range: "
                         f"{_help.player_ranges()})")
    ap.add_argument("--seed", type=int_arg, default=2, metavar="S",
                    help="game and player seed (default 2: in Space Mission a 3-player game that ends by R-E1;"
                         " 24-50%% of kind-random games hit the round limit, by player count, docs/random_play.md)")
    rule_sets = [r for name in GAMES for r in get_game(name).rule_sets]
    ap.add_argument("--rules", choices=list(dict.fromkeys(rule_sets)),
                    help=f"rule set (default: the game's first; {_help.rule_sets_by_game()})")
    ap.add_argument("--player", choices=PLAYERS,
                    help="random player: kind-uniform (Space Mission's default) or uniform over legal ids (the "
                         "only one of every other game)")
    ap.add_argument("--max-rounds", type=int_arg, metavar="N",
                    help="round limit, R-E3 (default 100; Red Planet: its ten rounds)")
    return ap


def _config(args, ap, game):
    """The game's configuration of the command line; a usage error naming the option."""
    from spacemission_env.games import GameConfig

    d = game.description
    players = args.players if args.players is not None else min(max(3, d.min_players), d.max_players)
    try:
        return GameConfig(players, args.rules, args.max_rounds, game=game.name)
    except ValueError as exc:
        from ._args import config_error

        config_error(ap, exc)


def play_uniform(game, config, seed: int) -> tuple[Any, int]:
    """One game of ``config`` between players that pick a legal id uniformly
    (``random.Random(seed)``); the final reference state and the number of actions."""
    rules, rand = game.rules, random.Random(seed)
    state, n = game.new_reference_game(config, seed), 0
    while not rules.is_over(state):
        rules.apply(state, rand.choice(rules.legal_actions(state)))
        n += 1
    return state, n


def report(game, state, n: int, rules: str, seed: int) -> str:
    """How the game went, one row per seat with ``game.score_names`` and the winners."""
    from ._protocol_games import ended_at_round_limit, final_ranks

    rows = game.rules.scores(state)
    names = list(game.score_names)
    lines = ["| seat | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
    lines += [f"| {q} | " + " | ".join(str(r[c]) for c in names) + " |" for q, r in enumerate(rows)]
    rounds = getattr(state, "round", None)
    how = (f", {rounds} rounds" if rounds is not None else "") + (
        ", ended at the round limit" if ended_at_round_limit(game, state) else "")
    won = [q for q, r in enumerate(final_ranks(game, state)) if r == 1]
    return (f"{game.description.title}, {len(rows)} players, rules={rules}, seed={seed}, uniform-random players: "
            f"{n} actions{how}\n\n" + "\n".join(lines)
            + f"\n\nwinner{'s' if len(won) > 1 else ''}: " + ", ".join(f"seat {q}" for q in won))


def main(argv: list[str] | None = None) -> int:
    from spacemission_env.games import get_game

    ap = build_parser()
    args = ap.parse_args(argv)
    game = get_game(args.game)
    config = _config(args, ap, game)
    if args.seed < 0:
        ap.error(f"argument --seed: must be >= 0, got {args.seed}")
    if args.seed >= 2**64:  # the engines' seeds
        ap.error(f"argument --seed: must be < 2**64, got {args.seed}")
    if game.name == "spacemission":
        from spacemission_env.space_mission.demo import play, report as sm_report

        player = args.player or "kind"
        state, n = play(config.num_players, args.seed, config.rules, player, config.max_rounds)
        print(sm_report(state, n, config.rules, args.seed, player))
        return 0
    if args.player not in (None, "uniform"):
        ap.error(f"argument --player: {args.player!r} is Space Mission's player (it picks an action kind first); "
                 f"the players of {game.description.title} pick a legal action uniformly (--player uniform, the default)")
    state, n = play_uniform(game, config, args.seed)
    print(report(game, state, n, config.rules, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
