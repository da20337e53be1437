"""Random play of Mission: Red Planet with the reference engine: game length, decisions per
kind, and the engine's speed.

    python benchmarks/red_planet_random_play.py [--games N] [--players 3 4 5] [--json]

For each player count it plays N seeded games (game seed = policy seed = 0..N-1; uniform
over the legal ids, spacemission_env/red_planet/random_play.py) and reports the mean,
minimum, 95th percentile and maximum of the actions per game (every applied id: the
agent-steps), the mean number of decisions of each action kind per game, and the
reference engine's speed in agent-steps per second (legal_actions + random choice +
apply, one process; wall clock and CPU time of the process, the latter steadier on a
shared machine). Prints markdown tables, or JSON with --json.
"""
from __future__ import annotations

import json
import math
import time
from collections import Counter

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.red_planet.actions import ACTION_KINDS
from spacemission_env.red_planet.random_play import play


def percentile(values: list[int], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)])


def measure(num_players: int, games: int) -> dict:
    lengths, kinds = [], Counter()
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        _state, k = play(num_players, seed)
        lengths.append(sum(k.values()))
        kinds.update(k)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu
    return {
        "players": num_players,
        "games": games,
        "actions_mean": sum(lengths) / games,
        "actions_min": min(lengths),
        "actions_p95": percentile(lengths, 95),
        "actions_max": max(lengths),
        "per_kind_mean": {kind: kinds[kind] / games for kind in ACTION_KINDS},
        "seconds": seconds,
        "steps_per_second": sum(lengths) / seconds,
        "steps_per_cpu_second": sum(lengths) / cpu_seconds,
    }


def markdown(rows: list[dict]) -> str:
    out = ["| players | games | actions mean | min | p95 | max | agent-steps/s (wall) | agent-steps/s (CPU) |",
           "|---|---|---|---|---|---|---|---|"]
    out += [f"| {r['players']} | {r['games']} | {r['actions_mean']:.1f} | {r['actions_min']} | {r['actions_p95']:.0f} "
            f"| {r['actions_max']} | {r['steps_per_second']:,.0f} | {r['steps_per_cpu_second']:,.0f} |" for r in rows]
    out += ["", "Decisions per game (mean), by action kind:", "",
            "| kind | " + " | ".join(f"{r['players']} players" for r in rows) + " |",
            "|---|" + "---|" * len(rows)]
    out += [f"| {kind} | " + " | ".join(f"{r['per_kind_mean'][kind]:.2f}" for r in rows) + " |" for kind in ACTION_KINDS]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], choices=[3, 4, 5])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    rows = [measure(n, args.games) for n in args.players]
    print(json.dumps(rows, indent=1) if args.json else markdown(rows))


if __name__ == "__main__":
    main()
