"""Game length and how games end under random play with the reference engine.

    python benchmarks/random_play_stats.py [--games N] [--max-rounds R] [--json]

For 2..5 players x both rule sets x two random players (``uniform``: uniform over the
legal ids; ``kind``: a legal action kind uniformly, then an id of it; see
spacemission_env/space_mission/random_play.py) it plays N seeded games (game seed = policy seed = 0..N-1)
and reports the mean and 95th percentile of the game length in actions (every applied
id, tile decisions included) and in rounds, the share of games that end at the round
limit (R-E3) rather than by R-E1, and why those games stall (mean chips a player has
left in supply at their end: random players spend their 20 chips on jumps, R-A2, and
then can no longer jump, scan or develop). Prints a markdown table, or JSON with --json.
"""
from __future__ import annotations

import json
import math
import time


from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.space_mission.config import MAX_ROUNDS_LIMIT
from spacemission_env.space_mission.random_play import play


def percentile(values: list[int], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)])


def measure(num_players: int, rules: str, player: str, games: int, max_rounds: int) -> dict:
    actions, rounds, at_limit, supply, revealed, finished_rounds = [], [], 0, [], [], []
    for seed in range(games):
        state, n = play(num_players, seed, rules, player, max_rounds)
        actions.append(n)
        rounds.append(state.round)
        at_limit += state.round_limit
        if state.round_limit:
            supply.append(sum(pl.supply for pl in state.players) / num_players)
        else:
            finished_rounds.append(state.round)
        revealed.append(state.revealed_count)
    return {
        "players": num_players,
        "rules": rules,
        "player": player,
        "games": games,
        "actions_mean": sum(actions) / games,
        "actions_p95": percentile(actions, 95),
        "rounds_mean": sum(rounds) / games,
        "rounds_p95": percentile(rounds, 95),
        "round_limit_rate": at_limit / games,
        "finished_rounds_mean": sum(finished_rounds) / len(finished_rounds) if finished_rounds else None,
        "round_limit_supply_mean": sum(supply) / len(supply) if supply else None,
        "revealed_at_end_mean": sum(revealed) / games,
    }


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def markdown(rows: list[dict]) -> str:
    lines = [
        "| player | rules | players | games | actions mean | actions p95 | rounds mean | rounds p95 | ended at the round limit | rounds mean (R-E1 endings) | chips left per player (round-limit games) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['player']} | {r['rules']} | {r['players']} | {r['games']} | {r['actions_mean']:.1f} | {r['actions_p95']:.0f}"
            f" | {r['rounds_mean']:.1f} | {r['rounds_p95']:.0f} | {100 * r['round_limit_rate']:.1f}% | {_num(r['finished_rounds_mean'])}"
            f" | {_num(r['round_limit_supply_mean'])} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per configuration")
    ap.add_argument("--max-rounds", type=int, default=100, help="round limit (R-E3)")
    ap.add_argument("--players", default="2,3,4,5", help="comma-separated player counts")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a markdown table")
    args = ap.parse_args(argv)
    try:
        players = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error(f"--players takes comma-separated integers, got {args.players!r}")
    if not all(2 <= n <= 5 for n in players) or args.games < 1 or not 1 <= args.max_rounds <= MAX_ROUNDS_LIMIT:
        ap.error(f"--players must be in 2..5, --games >= 1 and --max-rounds in 1..{MAX_ROUNDS_LIMIT}, got --players "
                 f"{args.players}, --games {args.games}, --max-rounds {args.max_rounds}")
    t0 = time.perf_counter()
    rows = [
        measure(n, rules, player, args.games, args.max_rounds)
        for player in ("uniform", "kind")
        for rules in ("yucata", "schmidt")
        for n in players
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(markdown(rows))
        print(f"\n{len(rows) * args.games} games in {time.perf_counter() - t0:.0f} s "
              f"(reference engine, max_rounds={args.max_rounds})")


if __name__ == "__main__":
    main()
