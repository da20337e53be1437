"""Quick batched strength check of the scripted bots on the fast engine (duplicate format).

One agent A against copies of agent B: A takes one seat, B every other seat, and each
deal (game seed) is played once with A in every seat, so seat and deal luck cancel.
All games run together in one batch (engine.init / legal_action_mask / observe /
step), each agent deciding for its rows with one act_batch call per step.

    .venv/bin/python benchmarks/bots_eval.py heuristic greedy --players 2 --games 2000
    .venv/bin/python benchmarks/bots_eval.py greedy random --games 2000 --rules schmidt

    .venv/bin/python benchmarks/bots_eval.py heuristic greedy --speed    # decisions/s only

Prints A's win rate (a shared first place counts as a share: half for a 2-way tie) with
its 95% Wilson interval, A's mean rank (1 = best, ties share the average rank), both
mean scores, how games ended, and each agent's decisions per second inside act_batch.
Agents are registry specs (spacemission_agents.registry): random (uniform over legal ids),
kind-random, greedy, heuristic, heuristic:KEY=VALUE (parameters), module:Class. ``--json`` prints the numbers as JSON. ``--speed`` instead times each agent
on the same 1,024 game states (taken along kind-random games, up to 60 actions in):
decisions/s of one ``act_batch`` call on all of them (batched) and of ``act`` row by row
(single), best of 3 repeats. The arena (spacemission arena) gives
the official figures; this script is the bots' development loop.
"""
from __future__ import annotations

import json
import math
import time

import numpy as np

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.config import MAX_ROUNDS_LIMIT, RULE_SETS


def make_agent(spec: str, seed: int):
    """An agent by registry spec (spacemission_agents.registry: random, kind-random, greedy,
    heuristic, heuristic:chip_value=0.5, module:Class, ...)."""
    from spacemission_agents.registry import make_agent as registry_make

    return registry_make(spec, seed=seed)


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def play(agent_a, agent_b, players: int, deals: int, rules: str, seed: int, max_rounds: int, batch: int) -> dict:
    """Play deals x players games (A in every seat of every deal); return per-game arrays."""
    total = deals * players
    win, rank, score_a, score_b, rounds, limit = [], [], [], [], [], []
    timing = {"a": [0.0, 0], "b": [0.0, 0]}
    for start in range(0, total, batch):
        idx = np.arange(start, min(start + batch, total))
        seat_a = idx % players
        st = engine.init(len(idx), players, seeds=(seed + idx // players).astype(np.uint64), rules=rules,
                         max_rounds=max_rounds)
        actions = np.zeros(len(idx), dtype=np.int64)
        while not st.terminated.all():
            mask = engine.legal_action_mask(st)
            live = ~st.terminated
            is_a = (st.current_player == seat_a) & live
            for key, agent, rows in (("a", agent_a, is_a), ("b", agent_b, live & ~is_a)):
                if not rows.any():
                    continue
                obs_type = getattr(agent, "observation_type", None) or "info"
                obs = engine.observe(st, observation_type=obs_type)[rows] if getattr(
                    agent, "uses_observation", True) else np.zeros((int(rows.sum()), 0), np.int8)
                t0 = time.perf_counter()
                actions[rows] = agent.act_batch(obs, mask[rows])
                timing[key][0] += time.perf_counter() - t0
                timing[key][1] += int(rows.sum())
            engine.step(st, actions)
        sc = engine.scores(st)[:, :, 7].astype(np.int64)
        stations = (st.stations[:, :, None] == np.arange(players)[None, None, :]).sum(axis=1)
        key = sc * 64 + stations  # R-P8: points, then stations
        rows = np.arange(len(idx))
        ka = key[rows, seat_a]
        better = (key > ka[:, None]).sum(axis=1)
        tied = (key == ka[:, None]).sum(axis=1)  # A included
        win.append(np.where(better == 0, 1.0 / tied, 0.0))
        rank.append(1 + better + (tied - 1) / 2)
        score_a.append(sc[rows, seat_a])
        others = np.ones_like(sc, dtype=bool)
        others[rows, seat_a] = False
        score_b.append(sc[others].reshape(len(idx), players - 1).mean(axis=1))
        rounds.append(st.round.copy())
        limit.append(st.round_limit.copy())
    cat = np.concatenate
    return {"win": cat(win), "rank": cat(rank), "score_a": cat(score_a), "score_b": cat(score_b),
            "rounds": cat(rounds), "round_limit": cat(limit), "timing": timing}


def sample_states(players: int, rules: str, n: int, seed: int, observation_type: str):
    """Observations and masks of n states, each taken after a random number (0-59) of
    kind-random actions of its own game."""
    rng = np.random.default_rng(seed)
    st = engine.init(n, players, seeds=seed, rules=rules)
    when = rng.integers(0, 60, n)
    obs = np.zeros((n, engine.observation_size(observation_type)), np.int8)
    masks = np.zeros((n, 100), bool)
    for t in range(60):
        mask = engine.legal_action_mask(st)
        now = (when == t) | ((when > t) & st.terminated)  # games that ended early: their last state
        if now.any():
            obs[now] = engine.observe(st, observation_type=observation_type)[now]
            masks[now] = mask[now]
            when[now] = -1
        engine.step(st, engine.sample_actions(mask, rng, by_kind=True))
    return obs, masks


def speed(agent, players: int, rules: str, seed: int, n: int = 1024, repeats: int = 3) -> dict:
    obs, masks = sample_states(players, rules, n, seed, getattr(agent, "observation_type", None) or "info")
    agent.act_batch(obs[:8], masks[:8])  # compile / load the kernels outside the timing
    batched = single = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        agent.act_batch(obs, masks)
        batched = max(batched, n / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for i in range(n):
            agent.act(obs[i], masks[i])
        single = max(single, n / (time.perf_counter() - t0))
    return {"batched": batched, "single": single}


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=2000, help="games in all (rounded up to a multiple of --players)")
    ap.add_argument("--rules", default="yucata", choices=RULE_SETS)
    ap.add_argument("--seed", type=int, default=0, help="first deal seed; agents are seeded from it too")
    ap.add_argument("--max-rounds", type=int, default=100)
    ap.add_argument("--batch", type=int, default=1024, help="games stepped together")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--speed", action="store_true", help="time the agents' decisions instead of playing")
    args = ap.parse_args(argv)
    if not 2 <= args.players <= 5:
        ap.error(f"--players must be 2..5, got {args.players}")
    if args.games < 1 or args.batch < 1 or not 1 <= args.max_rounds <= MAX_ROUNDS_LIMIT:
        ap.error(f"--games and --batch must be >= 1 and --max-rounds in 1..{MAX_ROUNDS_LIMIT}, got --games "
                 f"{args.games}, --batch {args.batch}, --max-rounds {args.max_rounds}")
    deals = -(-args.games // args.players)
    if not 0 <= args.seed < 2**63 - deals:  # the deals' seeds are seed .. seed + deals - 1 (int64)
        ap.error(f"--seed must be in 0..{2**63 - deals - 1} for {deals} deals, got {args.seed}")
    try:
        a, b = make_agent(args.a, args.seed), make_agent(args.b, args.seed + 1)
    except (ValueError, ImportError) as e:
        ap.error(str(e))
    if args.speed:
        out = {name: speed(agent, args.players, args.rules, args.seed) for name, agent in ((args.a, a), (args.b, b))}
        if args.json:
            print(json.dumps(out, indent=1))
        else:
            for name, r in out.items():
                print(f"{name}: {r['batched']:,.0f} decisions/s batched (N=1024), {r['single']:,.0f} single (act); "
                      f"{args.players} players, rules={args.rules}")
        return out
    t0 = time.perf_counter()
    r = play(a, b, args.players, deals, args.rules, args.seed, args.max_rounds, args.batch)
    wall = time.perf_counter() - t0
    n = len(r["win"])
    p = float(r["win"].mean())
    lo, hi = wilson(p, n)
    out = {
        "a": args.a, "b": args.b, "players": args.players, "rules": args.rules, "games": n, "seed": args.seed,
        "win_rate_a": p, "win_ci95": [lo, hi], "mean_rank_a": float(r["rank"].mean()),
        "mean_score_a": float(r["score_a"].mean()), "mean_score_b": float(r["score_b"].mean()),
        "mean_rounds": float(r["rounds"].mean()), "round_limit_share": float(r["round_limit"].mean()),
        "decisions_per_s_a": r["timing"]["a"][1] / max(r["timing"]["a"][0], 1e-9),
        "decisions_per_s_b": r["timing"]["b"][1] / max(r["timing"]["b"][0], 1e-9),
        "wall_s": wall,
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.a} vs {args.b}: {args.players} players, rules={args.rules}, {n} games (duplicate, seed {args.seed})")
        print(f"  win rate {args.a}: {p:.1%}  95% CI [{lo:.1%}, {hi:.1%}]   mean rank {out['mean_rank_a']:.3f}")
        print(f"  mean score {args.a} {out['mean_score_a']:.1f}, {args.b} {out['mean_score_b']:.1f}; "
              f"mean rounds {out['mean_rounds']:.1f}, round limit {out['round_limit_share']:.1%}")
        print(f"  decisions/s in act_batch: {args.a} {out['decisions_per_s_a']:,.0f}, {args.b} "
              f"{out['decisions_per_s_b']:,.0f}   (wall {wall:.1f} s)")
    return out


if __name__ == "__main__":
    main()
