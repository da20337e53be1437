"""The ``spacemission demo`` command: one seeded game between random players of the
reference engine (random_play.py).

    spacemission demo [--players N] [--seed S] [--rules yucata|schmidt]
                      [--player kind|uniform] [--max-rounds R]

Prints each player's score breakdown (R-P1..R-P7) as a table and the winners (R-P8).
"""
from __future__ import annotations

import argparse

from .random_play import PLAYERS, play
from .rules import GameState, scores, winners
from .scoring import CATEGORIES


def score_table(state: GameState) -> str:
    """Markdown table: one row per seat, one column per scoring category."""
    rows = scores(state)
    head = "| seat | " + " | ".join(CATEGORIES) + " | total |"
    lines = [head, "|" + "---|" * (len(CATEGORIES) + 2)]
    for q, r in enumerate(rows):
        lines.append(f"| {q} | " + " | ".join(str(r[c]) for c in CATEGORIES) + f" | {r['total']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "spacemission demo") -> None:
    ap = argparse.ArgumentParser(prog=prog, description="play a seeded game between random players of the reference engine", formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="example:\n  spacemission demo --players 4 --seed 3 --rules schmidt")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2,
                    help="game and player seed (default 2: a 3-player game that ends by R-E1;"
                         " 24-50%% of kind-random games hit the round limit, by player count, docs/random_play.md)")
    ap.add_argument("--rules", default="yucata", choices=["yucata", "schmidt"])
    ap.add_argument("--player", default="kind", choices=sorted(PLAYERS),
                    help="random player: kind-uniform (default) or uniform over legal ids")
    ap.add_argument("--max-rounds", type=int, default=100)
    args = ap.parse_args(argv)
    try:
        state, n = play(args.players, args.seed, args.rules, args.player, args.max_rounds)
    except ValueError as exc:
        ap.error(str(exc))
    print(report(state, n, args.rules, args.seed, args.player))


def report(state: GameState, n: int, rules: str, seed: int, player: str) -> str:
    """What the demo prints about a finished game of ``n`` actions: how it went, the score
    table and the winners."""
    end = "ended at the round limit (R-E3)" if state.round_limit else f"ended by R-E1 ({state.revealed_count} space tiles revealed)"
    won = winners(state)
    return (f"Space Mission, {state.num_players} players, rules={rules}, seed={seed}, "
            f"{player}-random players: {n} actions, {state.round} rounds, {end}\n\n"
            + score_table(state)
            + f"\n\nwinner{'s' if len(won) > 1 else ''}: " + ", ".join(f"seat {q}" for q in won))


if __name__ == "__main__":
    main(prog="python -m spacemission_env.space_mission.demo")
