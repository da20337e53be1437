"""Differential run of the fast engine against the reference engine over many games.

    .venv/bin/python benchmarks/differential.py --games 100000 [--observations acting] [--max-rounds 3,4,6,10,100]
        [--player uniform|kind] [--seed-base 10000000]

Random legal play, every player count and both rule sets; after every action the
full state, legal mask, observations (acting seat, both types, by default), scores,
rewards and terminal flags are compared. Prints progress and the divergence count;
exit status 1 if any game diverged.
"""
from __future__ import annotations

import sys
import time


from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.space_mission.config import MAX_ROUNDS_LIMIT
from spacemission_env.space_mission.engine import differential as D


def main(argv=None) -> int:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--observations", choices=("all", "acting", "none"), default="acting")
    ap.add_argument("--max-rounds", default="3,4,6,10,100", help="max_rounds cycled over chunks of games")
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--seed-base", type=int, default=10**7,
                    help="game seeds start here (runs with different bases, e.g. 10**7 and 10**9, never share a game)")
    ap.add_argument("--player", choices=("uniform", "kind"), default="uniform",
                    help="random play: uniform over legal ids, or kind-uniform (reaches R-E1 endings)")
    ap.add_argument("--configs", default="", help="indices of engine.differential.CONFIGS to play, comma-separated "
                    "(default all): the same games as in the whole run, to split it over processes")
    args = ap.parse_args(argv)
    try:
        max_rounds = tuple(int(x) for x in args.max_rounds.split(","))
        configs = {int(x) for x in args.configs.split(",")} if args.configs else None
    except ValueError:
        ap.error(f"--max-rounds and --configs take comma-separated integers, got {args.max_rounds!r} and "
                 f"{args.configs!r}")
    if args.games < 1 or args.chunk < 1 or not all(1 <= r <= MAX_ROUNDS_LIMIT for r in max_rounds):
        ap.error(f"--games and --chunk must be >= 1 and --max-rounds in 1..{MAX_ROUNDS_LIMIT}, got --games "
                 f"{args.games}, --chunk {args.chunk}, --max-rounds {args.max_rounds}")
    if configs is not None and not configs <= set(range(len(D.CONFIGS))):
        ap.error(f"--configs are indices 0..{len(D.CONFIGS) - 1} of {D.CONFIGS}, got {args.configs}")
    if args.seed_base < 0 or args.seed_base * len(D.CONFIGS) + args.games >= 2**63:  # every game seed fits an int64
        ap.error(f"--seed-base must be >= 0 and its games' seeds (up to {len(D.CONFIGS)} x the base + --games) "
                 f"below 2**63, got {args.seed_base}")
    t0 = time.perf_counter()

    def progress(rep, cfg):
        print(f"{time.perf_counter() - t0:8.0f}s games {rep.games:>7} steps {rep.steps:>10} "
              f"divergences {len(rep.divergences)}  last chunk {cfg}", flush=True)

    rep = D.run_many(args.games, max_rounds, args.observations, args.chunk,
                     seed_base=args.seed_base, progress=progress, by_kind=args.player == "kind", configs=configs)
    print(f"done: {rep.games} games ({rep.ended} ended by R-E1), {rep.steps} agent steps, {len(rep.divergences)} divergences, "
          f"{time.perf_counter() - t0:.0f} s; exercised: {rep.empty_scans} scans without a tile (R-A4b), "
          f"{rep.reshuffles} reshuffles (R-A1a)")
    for d in rep.divergences[:20]:
        print("divergence:", d)
    return 1 if rep.divergences else 0


if __name__ == "__main__":
    sys.exit(main())
