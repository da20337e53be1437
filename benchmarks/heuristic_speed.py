"""Positions per CPU second of the heuristic bot (its feature extraction, its kernel, act_batch,
the PPO prior built on it) and of the greedy bot, batched, per player count.

Positions come from games where a greedy bot and kind-random moves alternate (seeded), so
they cover every phase of a game. Each figure is the best of ``--repeats`` timings
(time.process_time, so other processes on the machine count less). The digest is a SHA-256
of the heuristic's actions and plan values (``last_values``) on all positions: two trees
whose digests agree decide identically, bit for bit.

    .venv/bin/python benchmarks/heuristic_speed.py [--players 2 3 4 5] [--games 32] [--repeats 5] [--json]

To time another tree (say the commit before a change) with the same script, put its packages
first on the path: ``PYTHONPATH=$T/agents:$T/training:$T .venv/bin/python benchmarks/heuristic_speed.py``.
"""
from __future__ import annotations

import hashlib
import json
import time

import numpy as np

try:  # this file also runs on other checkouts' packages (PYTHONPATH), older ones without it
    from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
except ImportError:
    from argparse import ArgumentParser as UsageParser


def positions(players: int, games: int, seed: int):
    """Observations (the bots' type) and masks of every live row of greedy/kind-random games."""
    from spacemission_agents.greedy import GreedyAgent
    from spacemission_env.space_mission import engine

    rng = np.random.default_rng(seed)
    bot = GreedyAgent(seed=seed)
    st = engine.init(games, players, seeds=seed)
    obs, masks = [], []
    while not st.terminated.all():
        live = ~st.terminated
        mask = engine.legal_action_mask(st)
        o = engine.observe(st, observation_type=bot.observation_type)
        obs.append(o[live])
        masks.append(mask[live])
        actions = engine.sample_actions(mask, rng, by_kind=True)
        use = live & (rng.random(games) < 0.5)
        actions[use] = bot.act_batch(o[use], mask[use])
        engine.step(st, actions)
    return np.concatenate(obs), np.ascontiguousarray(np.concatenate(masks))


def _best(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return max(best, 1e-9)


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not all(2 <= n <= 5 for n in args.players) or args.games < 1 or args.repeats < 1:
        ap.error(f"--players must be in 2..5, --games and --repeats >= 1, got --players "
                 f"{' '.join(map(str, args.players))}, --games {args.games}, --repeats {args.repeats}")

    from spacemission_agents._bot_features import extract
    from spacemission_agents.greedy import GreedyAgent
    from spacemission_agents.heuristic import HeuristicAgent
    from spacemission_agents.ppo_prior import HeuristicPrior

    heur, greedy, prior = HeuristicAgent(seed=0), GreedyAgent(seed=0), HeuristicPrior()
    digest = hashlib.sha256()
    rows = []
    for players in args.players:
        obs, masks = positions(players, args.games, seed=1000 + players)
        for agent in (heur, greedy):  # compile or load the kernels outside the timings
            agent.act_batch(obs[:4], masks[:4])
        prior(obs[:4], masks[:4])
        n = len(obs)
        row = {"players": players, "positions": n}
        row["features"] = n / _best(lambda: extract(obs, heur.observation_type), args.repeats)
        row["heuristic"] = n / _best(lambda: heur.act_batch(obs, masks), args.repeats)
        row["prior"] = n / _best(lambda: prior(obs, masks), args.repeats)
        row["greedy"] = n / _best(lambda: greedy.act_batch(obs, masks), args.repeats)
        actions = heur.act_batch(obs, masks)
        digest.update(actions.astype("<i8").tobytes() + heur.last_values.astype("<f8").tobytes())
        rows.append(row)
    res = {"games": args.games, "rows": rows, "digest": digest.hexdigest()}
    if args.json:
        print(json.dumps(res, indent=1))
        return res
    print(f"positions per CPU second, best of {args.repeats} (batched, {args.games} games per player count)")
    print(f"{'players':>7} {'positions':>9} {'features':>10} {'heuristic':>10} {'prior':>10} {'greedy':>10}")
    for r in rows:
        print(f"{r['players']:>7} {r['positions']:>9,} " + " ".join(f"{r[k]:>10,.0f}" for k in
                                                               ("features", "heuristic", "prior", "greedy")))
    print(f"digest of the heuristic's actions and plan values: {res['digest']}")
    return res


if __name__ == "__main__":
    main()
