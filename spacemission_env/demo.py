"""Play one seeded game between random players with the reference engine.

    python -m spacemission_env.demo [--players N] [--seed S] [--rules yucata|schmidt]
                                    [--player kind|uniform] [--max-rounds R]

Prints each player's score breakdown (R-P1..R-P7) as a table and the winners (R-P8).
This is what ``make run`` calls.

Two random players are defined here (also used by benchmarks/random_play_stats.py):
``uniform_action`` picks uniformly among the legal ids; ``kind_uniform_action`` first
picks an action kind uniformly among the legal kinds (top up, jump, fly, ...), then an
id of that kind. Uniform play over the flat space mostly tops up (up to 32 top-up ids
against a few others) and nearly always runs into the round limit; kind-uniform play
finishes games.
"""
from __future__ import annotations

import argparse
import random

from . import actions as A
from .scoring import CATEGORIES
from .rules import GameState, apply, legal_actions, new_game, scores, winners


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
    state = new_game(num_players, seed=seed, rules=rules, max_rounds=max_rounds)
    choose, rng, n = PLAYERS[player], random.Random(seed), 0
    while not state.is_over:
        apply(state, choose(state, rng))
        n += 1
    return state, n


def score_table(state: GameState) -> str:
    """Markdown table: one row per seat, one column per scoring category."""
    rows = scores(state)
    head = "| seat | " + " | ".join(CATEGORIES) + " | total |"
    lines = [head, "|" + "---|" * (len(CATEGORIES) + 2)]
    for q, r in enumerate(rows):
        lines.append(f"| {q} | " + " | ".join(str(r[c]) for c in CATEGORIES) + f" | {r['total']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="example:\n  spacemission demo --players 4 --seed 3 --rules schmidt")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2,
                    help="game and player seed (default 2: a 3-player game that ends by R-E1;"
                         " about a third of random games hit the round limit, docs/random_play.md)")
    ap.add_argument("--rules", default="yucata", choices=["yucata", "schmidt"])
    ap.add_argument("--player", default="kind", choices=sorted(PLAYERS),
                    help="random player: kind-uniform (default) or uniform over legal ids")
    ap.add_argument("--max-rounds", type=int, default=100)
    args = ap.parse_args(argv)
    try:
        state, n = play(args.players, args.seed, args.rules, args.player, args.max_rounds)
    except ValueError as exc:
        ap.error(str(exc))
    end = "ended at the round limit (R-E3)" if state.round_limit else f"ended by R-E1 ({state.revealed_count} space tiles revealed)"
    print(f"Space Mission, {args.players} players, rules={args.rules}, seed={args.seed}, "
          f"{args.player}-random players: {n} actions, {state.round} rounds, {end}\n")
    print(score_table(state))
    won = winners(state)
    print(f"\nwinner{'s' if len(won) > 1 else ''}: " + ", ".join(f"seat {q}" for q in won))


if __name__ == "__main__":
    main()
