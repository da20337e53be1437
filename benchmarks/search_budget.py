"""Search bot strength against its time budget, and the mean-rank ladder for 3-5 players.

Arena runs in the duplicate format (spacemission_agents.arena.run_arena, one worker),
each run saved as JSON under --dir so the budgets can be measured one at a time (the
machine is shared) and pooled afterwards:

    # 2 players, search vs heuristic at one budget: 50 deals x 2 seatings = 100 games
    python benchmarks/search_budget.py duel --budget 0.1 --games 100 --seed 9
    # 3-5 players, random, greedy, heuristic and search: mean ranks
    python benchmarks/search_budget.py ranks --players 3 --games 120 --budget 0.03 --seed 9
    # pool every saved run: table of win rate [95% CI] and seconds per decision, and the plot
    python benchmarks/search_budget.py report --png docs/images/search_budget.png

Runs at one budget with different seeds play disjoint deals (seed * 2**32 + deal) and are
pooled; the 95% interval is the arena's (Wilson, shrunk by the duplicate design effect,
arena_stats.proportion_ci) over the pooled games, a deal and seed being one cluster.
Budgets run on the thread's CPU clock (SearchAgent clock="cpu"), so a loaded machine
changes the wall time, not the figures; "CPU s/decision" is the search bot's own
CPU time per decision it searched (forced moves and lone candidates are not searched).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.arena_stats import proportion_ci
from spacemission_agents.search import SearchAgent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

DIR = Path("results/search_budget")


def _search(budget: float) -> SearchAgent:
    return SearchAgent(budget=budget)  # defaults otherwise: what make_agent("search:budget=B") builds


def duel(args) -> None:
    bot = _search(args.budget)
    cpu0, t0 = time.process_time(), time.perf_counter()
    res = run_arena(["heuristic", bot], num_players=2, games=args.games, seed=args.seed, workers=1, progress=False)
    g = res.games
    who = g.seats  # [G, 2] agent index per seat; agent 1 is the search bot
    key = g.keys()
    s_seat = np.argmax(who == 1, axis=1)
    rows = np.arange(len(g))
    mine, theirs = key[rows, s_seat], key[rows, 1 - s_seat]
    outcome = np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))
    run = {"kind": "duel", "budget": args.budget, "seed": args.seed, "games": len(g), "deal": g.deal.tolist(),
           "outcome": outcome.tolist(), "search_score": g.scores[rows, s_seat, -1].tolist(),
           "heuristic_score": g.scores[rows, 1 - s_seat, -1].tolist(), "forfeits": len(res.forfeits),
           "stats": bot.stats, "arena_timing": res.timing["agents"], "cpu_s": time.process_time() - cpu0,
           "wall_s": time.perf_counter() - t0}
    out = args.dir / f"duel_b{args.budget}_s{args.seed}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(run))
    p, lo, hi = proportion_ci(outcome, g.deal)
    st = bot.stats
    print(f"budget {args.budget}: {len(g)} games, search win {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
          f"CPU s/searched decision {st['seconds'] / max(1, st['searched']):.4f} "
          f"({st['searched']}/{st['decisions']} searched), run CPU {run['cpu_s']:.0f} s, wall {run['wall_s']:.0f} s -> {out}")


def ranks(args) -> None:
    agents = ["random", "greedy", "heuristic", f"search:budget={args.budget}"]
    cpu0, t0 = time.process_time(), time.perf_counter()
    res = run_arena(agents, num_players=args.players, games=args.games, seed=args.seed, workers=1, progress=False)
    rows = [{"agent": a.name, "seats": a.seats, "mean_rank": a.mean_rank, "low": a.rank_ci_low, "high": a.rank_ci_high}
            for a in res.agents]
    run = {"kind": "ranks", "players": args.players, "budget": args.budget, "seed": args.seed, "games": res.num_games,
           "deals_per_lineup": res.config["deals_per_lineup"], "lineups": len(res.config["lineups"]),
           "agents": rows, "forfeits": len(res.forfeits), "cpu_s": time.process_time() - cpu0,
           "wall_s": time.perf_counter() - t0}
    out = args.dir / f"ranks_p{args.players}_b{args.budget}_s{args.seed}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(run))
    _print_ranks(run)


def _print_ranks(run: dict) -> None:
    order = " < ".join(r["agent"] for r in sorted(run["agents"], key=lambda r: -r["mean_rank"]))
    print(f"{run['players']} players, {run['games']} games ({run['lineups']} lineups x {run['deals_per_lineup']} deals "
          f"x {run['players']} seatings), run CPU {run['cpu_s']:.0f} s; weakest to strongest: {order}")
    for r in run["agents"]:
        print(f"  {r['agent']:<22} mean rank {r['mean_rank']:.2f} [{r['low']:.2f}, {r['high']:.2f}] over {r['seats']} seats")


def report(args) -> None:
    paths = sorted(args.dir.glob("*.json"))
    runs = [json.loads(p.read_text()) for p in paths]
    for path, r in zip(paths, runs):
        # netsearch_budget.py names its runs duel_*.json too: refused by name, not read to a KeyError
        if not (isinstance(r, dict) and r.get("kind") in ("duel", "ranks") and "opponent" not in r):
            raise SystemExit(f"report: {path} is not a run of search_budget.py duel or ranks "
                             "(netsearch_budget.py's runs go to its own --dir)")
    duels = [r for r in runs if r["kind"] == "duel"]
    budgets = sorted({r["budget"] for r in duels})
    table = []
    print("search vs heuristic, 2 players, duplicate deals (ties half)")
    print(f"{'budget s':>9} {'games':>6} {'win %':>6} {'95% CI':>14} {'CPU s/decision':>15} {'searched':>9} "
          f"{'rollouts':>9} {'seeds':>9}")
    for b in budgets:
        rs = [r for r in duels if r["budget"] == b]
        outcome = np.concatenate([r["outcome"] for r in rs])
        cluster = np.concatenate([np.array(r["deal"]) + 10**6 * r["seed"] for r in rs])
        p, lo, hi = proportion_ci(outcome, cluster)
        sec = sum(r["stats"]["seconds"] for r in rs)
        searched = sum(r["stats"]["searched"] for r in rs)
        decisions = sum(r["stats"]["decisions"] for r in rs)
        row = dict(budget=b, games=len(outcome), win=p, low=lo, high=hi, s_per_decision=sec / max(1, searched),
                   searched_share=searched / max(1, decisions), seeds=sorted(r["seed"] for r in rs),
                   rollouts=sum(r["stats"]["rollouts"] for r in rs) / max(1, searched),
                   cpu_s=sum(r["cpu_s"] for r in rs))
        table.append(row)
        print(f"{b:>9g} {row['games']:>6} {100 * p:>6.1f} {f'[{100 * lo:.1f}, {100 * hi:.1f}]':>14} "
              f"{row['s_per_decision']:>15.4f} {100 * row['searched_share']:>8.0f}% {row['rollouts']:>9.0f} "
              f"{','.join(map(str, row['seeds'])):>9}")
    print(f"CPU time of these runs: {sum(r['cpu_s'] for r in runs) / 60:.1f} min (duels and ranks)")
    for r in sorted((r for r in runs if r["kind"] == "ranks"), key=lambda r: r["players"]):
        _print_ranks(r)
    if args.png and table:
        _plot(table, Path(args.png))


def _plot(table: list[dict], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    b = np.array([r["budget"] for r in table])
    w = np.array([100 * r["win"] for r in table])
    err = np.array([[100 * (r["win"] - r["low"]) for r in table], [100 * (r["high"] - r["win"]) for r in table]])
    fig, ax = plt.subplots(figsize=(6, 4), dpi=120)
    ax.errorbar(b, w, yerr=err, fmt="o-", capsize=4, label="search vs heuristic (95% CI)")
    for x, y, r in zip(b, w, table):
        ax.annotate(f"{r['games']} games", (x, y), textcoords="offset points", xytext=(6, -14), fontsize=8)
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.axhline(65, color="tab:red", lw=0.8, ls="--", label="target at 0.1 s (65%)")
    ax.set_xscale("log")
    ax.set_xlim(b.min() / 1.5, b.max() * 1.8)
    ax.set_xticks(b)
    ax.set_xticklabels([f"{x:g}" for x in b])
    ax.set_xlabel("budget: CPU seconds per decision (one core)")
    ax.set_ylabel("win rate vs heuristic, % (ties half)")
    ax.set_title("SearchAgent vs HeuristicAgent, 2 players, duplicate deals")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    print(f"plot -> {png}")

# --- development: decision regret on dev positions (never the evaluation deals) -------------
# Positions: decisions of a stand-in seat (the heuristic) in arena-like lineups (0 random,
# 1 greedy, 2 heuristic, 3 the stand-in), dev deal seeds. Each candidate the heuristic
# considers is valued by continuing the TRUE state with every seat's own agent, the draw order
# reshuffled per replica (nobody knows it) and the same replicas for every candidate. A
# setting's score is the mean oracle value of its choice minus that of the heuristic's choice.
LINEUPS = {2: [[2, 3]], 3: [[0, 1, 3], [0, 2, 3], [1, 2, 3]], 4: [[0, 1, 2, 3]],
           5: [[0, 0, 1, 2, 3], [0, 1, 1, 2, 3], [0, 1, 2, 2, 3], [0, 1, 2, 3, 3]]}


def _roles_agents():
    from spacemission_agents.greedy import GreedyAgent
    from spacemission_agents.heuristic import HeuristicAgent
    from spacemission_agents.random_agents import RandomAgent
    return [RandomAgent(seed=3), GreedyAgent(seed=0), HeuristicAgent(seed=0), HeuristicAgent(seed=5)]


def _play(st, roles, agents) -> np.ndarray:
    """Each live game's action by the agent of its acting seat's role."""
    from spacemission_env.space_mission import engine
    mask = engine.legal_action_mask(st)
    obs = engine.observe(st, observation_type="recall")
    out = np.zeros(st.batch_size, np.int64)
    role = roles[np.arange(st.batch_size), st.current_player]
    for k, agent in enumerate(agents):
        rows = ~st.terminated & (role == k)
        if rows.any():
            o = obs[rows] if agent.uses_observation else np.zeros((int(rows.sum()), 0), np.int8)
            out[rows] = agent.act_batch(o, mask[rows])
    return out


def _positions(n, games, seed, p, rng, keep=8, gap=8.0):
    """Stand-in decisions the default search would search (two heuristic candidates within
    3 plan points), each with probability p, and the heuristic's best ``keep`` candidates."""
    from spacemission_env.space_mission import engine
    ups = LINEUPS[n]
    roles = np.array([np.roll(ups[g % len(ups)], (g // len(ups)) % n) for g in range(games)])
    st = engine.init(games, n, seeds=(seed + np.arange(games)).astype(np.uint64))
    agents = _roles_agents()
    rows_out, cands = [], []
    while not st.terminated.all():
        actions = _play(st, roles, agents)
        mine = np.flatnonzero(~st.terminated & (roles[np.arange(games), st.current_player] == 3))
        if mine.size:
            mask = engine.legal_action_mask(st)
            agents[3].act_batch(engine.observe(st, observation_type="recall")[mine], mask[mine])
            for r, i in enumerate(mine):
                v = agents[3].last_values[r]
                legal = np.flatnonzero(mask[i])
                scored = legal[np.isfinite(v[legal])]
                order = scored[np.argsort(-v[scored], kind="stable")]
                if rng.random() < p and order.size > 1 and v[order[1]] >= v[order[0]] - 3.0:
                    c = np.full(keep, -1)
                    order = order[v[order] >= v[order[0]] - gap][:keep]
                    c[:order.size] = order
                    rows_out.append((st.take([i]), roles[i]))
                    cands.append(c)
        engine.step(st, actions)
    return rows_out, np.array(cands)


def _oracle_values(one, roles, cands, replicas, rng, agents) -> np.ndarray:
    """[C, replicas] rank rewards of the acting seat after each candidate (see above)."""
    from spacemission_env.space_mission import engine
    c = cands[cands >= 0]
    seat = int(one.current_player[0])
    base = one.take(np.zeros(replicas, np.int64))
    for r in range(replicas):
        size = int(base.draw_len[r])
        base.draw[r, :size] = base.draw[r, :size][rng.permutation(size)]
    base.rng[:] = rng.integers(0, 2**63, size=replicas, dtype=np.uint64)
    st = base.take(np.tile(np.arange(replicas), c.size))
    engine.step(st, np.repeat(c, replicas))
    roles = np.tile(roles, (st.batch_size, 1))
    while not st.terminated.all():
        engine.step(st, _play(st, roles, agents), select=~st.terminated)
    return engine.rewards(st)[:, seat].astype(np.float64).reshape(c.size, replicas)


def oracle(args) -> None:
    from spacemission_env.space_mission.engine.state import FIELD_NAMES
    rng = np.random.default_rng(args.seed)
    cpu0 = time.process_time()
    rows, cands = _positions(args.players, args.games, args.seed, args.p, rng)
    agents = _roles_agents()
    value = np.full(cands.shape + (args.replicas,), np.nan)
    for i, (one, roles) in enumerate(rows):
        v = _oracle_values(one, roles, cands[i], args.replicas, np.random.default_rng([args.seed, i]), agents)
        value[i, :v.shape[0]] = v
    out = args.dir / f"oracle_p{args.players}_s{args.seed}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    fields = {f: np.concatenate([getattr(one, f) for one, _ in rows]) for f in FIELD_NAMES}
    np.savez_compressed(out, cands=cands, value=value, players=args.players, **fields)
    print(f"{len(rows)} positions, {args.replicas} replicas, CPU {time.process_time() - cpu0:.0f} s -> {out}")


def regret(args) -> None:
    from spacemission_agents.registry import make_agent
    from spacemission_env.space_mission import engine
    from spacemission_env.games import GameConfig
    from spacemission_env.space_mission.engine.state import FIELD_NAMES, BatchState
    d = np.load(args.oracle)
    n, cands, value = int(d["players"]), d["cands"], d["value"]
    st = BatchState(len(cands), n)
    for f in FIELD_NAMES:
        setattr(st, f, np.ascontiguousarray(d[f]))
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    mean = np.nanmean(value, axis=2)
    bot = make_agent(args.agent, seed=args.agent_seed)
    bot.bind(GameConfig(n))
    cpu0 = time.process_time()
    gain = np.zeros(len(cands))
    for i in range(len(cands)):
        j = np.flatnonzero(cands[i] == bot.act(obs[i], mask[i]))
        gain[i] = mean[i, j[0]] - mean[i, 0] if j.size else np.nan
    ok = ~np.isnan(gain)
    print(f"{args.agent} on {args.oracle.name}: gain per decision {gain[ok].mean():+.4f} "
          f"(SE {gain[ok].std(ddof=1) / np.sqrt(ok.sum()):.4f}) over {ok.sum()} positions, changed "
          f"{np.mean(gain[ok] != 0):.0%}, outside the oracle's candidates {int((~ok).sum())}, "
          f"CPU {time.process_time() - cpu0:.0f} s")


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=DIR, help="where runs are saved and read (default %(default)s)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("duel", help="search vs heuristic, 2 players, at one budget")
    d.add_argument("--budget", type=float, required=True)
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--seed", type=int, default=9)
    r = sub.add_parser("ranks", help="random, greedy, heuristic, search: mean ranks at 3-5 players")
    r.add_argument("--players", type=int, required=True)
    r.add_argument("--games", type=int, default=60, help="games per lineup (rounded up to whole deals)")
    r.add_argument("--budget", type=float, default=0.03)
    r.add_argument("--seed", type=int, default=9)
    p = sub.add_parser("report", help="pool the saved runs, print the table, draw the plot")
    p.add_argument("--png", default=None)
    o = sub.add_parser("oracle", help="development: dev positions and their true-state candidate values")
    o.add_argument("--players", type=int, required=True)
    o.add_argument("--games", type=int, default=500)
    o.add_argument("--seed", type=int, default=5_000_000, help="first deal seed (dev deals, not the arena's)")
    o.add_argument("--p", type=float, default=0.05, help="share of the eligible decisions kept")
    o.add_argument("--replicas", type=int, default=32)
    g = sub.add_parser("regret", help="development: a search setting's mean gain over the heuristic's choice")
    g.add_argument("oracle", type=Path)
    g.add_argument("--agent", default="search:budget=0.1", help="agent spec (default %(default)s)")
    g.add_argument("--agent-seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.cmd in ("duel", "ranks", "oracle") and (args.games < 1 or args.seed < 0):
        ap.error(f"{args.cmd}: --games must be >= 1 and --seed >= 0, got --games {args.games}, --seed {args.seed}")
    if args.cmd in ("duel", "ranks"):
        try:
            _search(args.budget)
        except ValueError as e:
            ap.error(f"{args.cmd}: --budget {args.budget}: {e}")
    if args.cmd == "oracle" and (args.players not in LINEUPS or not 0 < args.p <= 1 or args.replicas < 1):
        ap.error(f"oracle: --players must be in 2..5, --p in (0, 1] and --replicas >= 1, got --players "
                 f"{args.players}, --p {args.p}, --replicas {args.replicas}")
    if args.cmd == "regret":
        if not args.oracle.is_file():
            ap.error(f"regret: no oracle file (oracle_*.npz, written by the oracle command) at {args.oracle}")
        from spacemission_agents.registry import make_agent
        try:
            make_agent(args.agent, seed=args.agent_seed)
        except ValueError as e:
            ap.error(f"regret: --agent {args.agent!r}: {e}")
    if args.cmd == "report" and not (args.dir.is_dir() and any(args.dir.glob("*.json"))):
        ap.error(f"report: no saved runs (*.json) in {args.dir}")
    try:
        {"duel": duel, "ranks": ranks, "report": report, "oracle": oracle, "regret": regret}[args.cmd](args)
    except ArenaArgumentError as e:  # a bad --players, found before any game
        ap.error(f"{args.cmd}: {e}")


if __name__ == "__main__":
    main()
