"""Speed of the determinizer (spacemission_env/space_mission/determinize.py; target >= 10,000
worlds/s for 2 players).

Mid-game states from kind-uniform random play (reference engine); for each, worlds
per second of ``sample_worlds_from_observation`` at several K (one observation, K
worlds, a BatchState) and of ``sample_world`` (GameState in, GameState out). Single process.

    .venv/bin/python benchmarks/determinize_speed.py [--players 2,3,4,5] [--seconds 1]
"""
from __future__ import annotations

import math
import random
import time

import numpy as np


from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission.random_play import kind_uniform_action
from spacemission_env.space_mission.determinize import sample_world, sample_worlds_from_observation
from spacemission_env.space_mission.rules import game as G


def mid_game(n: int, seed: int, actions: int = 150):
    s, r = G.new_game(n, seed=seed), random.Random(seed)
    for _ in range(actions):
        if s.is_over:
            break
        G.apply(s, kind_uniform_action(s, r))
    return s


def rate(fn, seconds: float) -> float:
    fn()
    t0, calls = time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        fn()
        calls += 1
    return calls / (time.perf_counter() - t0)


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4,5")
    ap.add_argument("--batch-sizes", default="1,64,1024,16384")
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args(argv)
    try:
        players = [int(x) for x in args.players.split(",")]
        sizes = [int(x) for x in args.batch_sizes.split(",")]
    except ValueError:
        ap.error(f"--players and --batch-sizes take comma-separated integers, got {args.players!r} and "
                 f"{args.batch_sizes!r}")
    if not all(2 <= n <= 5 for n in players) or min(sizes) < 1 or not 0 < args.seconds < math.inf:
        ap.error(f"--players must be in 2..5, --batch-sizes >= 1 and --seconds a finite number > 0, got "
                 f"--players {args.players}, --batch-sizes {args.batch_sizes}, --seconds {args.seconds}")
    rng = np.random.default_rng(0)
    print("players  " + "  ".join(f"K={k:>6}" for k in sizes) + "   sample_world  (worlds/s)")
    for n in players:
        s = mid_game(n, seed=3)
        obs = E.observe(s, s.current_player, "recall")
        row = []
        for k in sizes:
            calls = rate(lambda: sample_worlds_from_observation(obs, n, s.rules, s.max_rounds, k, rng,
                                                                player=s.current_player), args.seconds)
            row.append(calls * k)
        single = rate(lambda: sample_world(s, s.current_player, rng), args.seconds)
        print(f"{n:>7}  " + "  ".join(f"{x:>8,.0f}" for x in row) + f"   {single:>12,.0f}")


if __name__ == "__main__":
    main()
