"""Differential run of the Red Planet fast engine against its reference engine.

    .venv/bin/python benchmarks/red_planet_differential.py --games 100000 [--players 3,4,5]
        [--observations none|acting|all] [--seed-base 10000000] [--chunk 500]

Random legal play (uniform over legal ids); after every action the full state
(to_reference == reference GameState), the legal mask, the scores, the rewards, the
terminal flag and (per --observations) the observations of every type are compared.
Prints progress and the divergence count; exit status 1 if any game diverged.
"""
from __future__ import annotations

import sys
import time

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.red_planet.engine import differential as D


def main(argv=None) -> int:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--players", default="3,4,5", help="player counts, comma-separated; the games split evenly")
    ap.add_argument("--observations", choices=("all", "acting", "none"), default="acting",
                    help="all: every seat; acting: the acting seat; none: no observations (state, mask, scores only)")
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--seed-base", type=int, default=10**7,
                    help="game seeds start here (runs with different bases, e.g. 10**7 and 10**9, never share a game)")
    args = ap.parse_args(argv)
    try:
        players = tuple(int(x) for x in args.players.split(","))
    except ValueError:
        ap.error(f"--players takes comma-separated integers, got {args.players!r}")
    if not all(3 <= n <= 5 for n in players) or len(set(players)) < len(players):
        ap.error(f"--players must be distinct player counts in 3..5, got {args.players}")
    if args.games < 1 or args.chunk < 1:
        ap.error(f"--games and --chunk must be >= 1, got --games {args.games}, --chunk {args.chunk}")
    if args.seed_base < 0 or args.seed_base * len(players) + args.games >= 2**63:  # every game seed fits an int64
        ap.error(f"--seed-base must be >= 0 and its games' seeds (up to {len(players)} x the base + --games) "
                 f"below 2**63, got {args.seed_base}")
    t0 = time.perf_counter()

    def progress(rep, n):
        print(f"{time.perf_counter() - t0:8.0f}s games {rep.games:>7} agent steps {rep.steps:>10} "
              f"divergences {len(rep.divergences)}  games by players {rep.games_by_players}", flush=True)

    rep = D.run_many(args.games, players, args.observations, args.chunk, seed_base=args.seed_base, progress=progress)
    print(f"done: {rep.games} games, {rep.steps} agent steps, {len(rep.divergences)} divergences, "
          f"{time.perf_counter() - t0:.0f} s (players {args.players}, observations {args.observations}, "
          f"seed base {args.seed_base})")
    for d in rep.divergences[:20]:
        print("divergence:", d)
    return 1 if rep.divergences else 0


if __name__ == "__main__":
    sys.exit(main())
