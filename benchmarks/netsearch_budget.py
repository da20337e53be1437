"""NetSearchAgent strength against its time budget, against the shipped ``ppo`` agent and
``heuristic`` (2 players, duplicate format, one worker; docs/agents_netsearch.md).

    # one run: netsearch at 0.1 s vs ppo, 200 deals x 2 seatings = 400 games, seed 21
    python benchmarks/netsearch_budget.py duel --opponent ppo --budget 0.1 --games 400 --seed 21
    # extra NetSearchAgent parameters (development runs go to another --dir)
    python benchmarks/netsearch_budget.py --dir runs/netsearch_dev duel --opponent ppo --budget 0.03 \\
        --games 60 --seed 101 --params depth=2,c_puct=2.0
    # pool every saved run: win rate [95% CI] and CPU s per decision per budget, and the plot
    python benchmarks/netsearch_budget.py report --png docs/images/netsearch_budget.png
    # another setting's runs (in --other) against these on the same deals: the paired difference
    python benchmarks/netsearch_budget.py compare --other runs/nswave

Each run is saved as JSON under --dir; runs at one (opponent, budget, params) with
different seeds play disjoint deals and are pooled. Ties count half; the 95% interval is
the arena's (arena_stats.proportion_ci: Wilson with the duplicate design effect, a deal
and seed being one cluster). Budgets run on the thread's CPU clock, so a loaded machine
changes the wall time, not the figures; "CPU s/decision" is the bot's own CPU time per
decision it searched (forced moves are not searched).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.arena_stats import proportion_ci
from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.registry import _parse_value
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

DIR = Path("results/netsearch_budget")


def _params(text: str) -> dict:
    out = {}
    for item in filter(None, (text or "").split(",")):
        k, sep, v = item.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"not KEY=VALUE: {item!r}")
        out[k.strip()] = _parse_value(v.strip())
    return out


def duel(args) -> None:
    params = _params(args.params)
    bot = NetSearchAgent(budget=args.budget, **params)
    cpu0, t0 = time.process_time(), time.perf_counter()
    res = run_arena([args.opponent, bot], num_players=2, games=args.games, seed=args.seed, workers=1, progress=False)
    g = res.games
    key = g.keys()
    s_seat = np.argmax(g.seats == 1, axis=1)
    rows = np.arange(len(g))
    mine, theirs = key[rows, s_seat], key[rows, 1 - s_seat]
    outcome = np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))
    run = {"kind": "duel", "opponent": args.opponent, "budget": args.budget, "params": params, "seed": args.seed,
           "games": len(g), "deal": g.deal.tolist(), "outcome": outcome.tolist(),
           "bot_score": g.scores[rows, s_seat, -1].tolist(), "opponent_score": g.scores[rows, 1 - s_seat, -1].tolist(),
           "forfeits": len(res.forfeits), "stats": bot.stats, "cpu_s": time.process_time() - cpu0,
           "wall_s": time.perf_counter() - t0}
    tag = "_".join(f"{k}{v}" for k, v in sorted(params.items())).replace("/", "-")  # a path (seer_value)
    out = args.dir / f"duel_{args.opponent}_b{args.budget}{'_' + tag if tag else ''}_s{args.seed}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(run))
    p, lo, hi = proportion_ci(outcome, g.deal)
    st = bot.stats
    print(f"netsearch(budget={args.budget}, {params}) vs {args.opponent}: {len(g)} games, win {100 * p:.1f}% "
          f"[{100 * lo:.1f}, {100 * hi:.1f}], CPU s/searched decision {st['seconds'] / max(1, st['searched']):.4f} "
          f"({st['searched']}/{st['decisions']} searched, {st['simulations'] / max(1, st['searched']):.0f} "
          f"simulations each), run CPU {run['cpu_s']:.0f} s, wall {run['wall_s']:.0f} s -> {out}", flush=True)


def _table(runs: list[dict]) -> list[dict]:
    groups: dict[tuple, list[dict]] = {}
    for r in runs:
        groups.setdefault((r["opponent"], r["budget"], json.dumps(r["params"], sort_keys=True)), []).append(r)
    table = []
    for (opp, b, params), rs in sorted(groups.items()):
        outcome = np.concatenate([r["outcome"] for r in rs])
        cluster = np.concatenate([np.array(r["deal"]) + 10**6 * r["seed"] for r in rs])
        p, lo, hi = proportion_ci(outcome, cluster)
        searched = sum(r["stats"]["searched"] for r in rs)
        table.append(dict(opponent=opp, budget=b, params=json.loads(params), games=len(outcome), win=p, low=lo,
                          high=hi, s_per_decision=sum(r["stats"]["seconds"] for r in rs) / max(1, searched),
                          sims=sum(r["stats"]["simulations"] for r in rs) / max(1, searched),
                          seeds=sorted(r["seed"] for r in rs), cpu_s=sum(r["cpu_s"] for r in rs)))
    return table


def load_runs(folder: Path) -> list[dict]:
    """The duel runs saved in ``folder``. benchmarks/search_budget.py names its runs
    duel_*.json too: such a file is refused by name (it has no opponent), not read to a KeyError."""
    runs = []
    for path in sorted(Path(folder).glob("duel_*.json")):
        run = json.loads(path.read_text())
        if not (isinstance(run, dict) and "opponent" in run and "params" in run):
            raise SystemExit(f"{path} is not a run of netsearch_budget.py duel (no opponent or params; "
                             "search_budget.py's runs go to its own --dir)")
        runs.append(run)
    return runs


def report(args) -> None:
    runs = load_runs(args.dir)
    table = _table(runs)
    print("netsearch, 2 players, duplicate deals (ties half)")
    print(f"{'opponent':>9} {'budget s':>9} {'params':>22} {'games':>6} {'win %':>6} {'95% CI':>14} "
          f"{'CPU s/dec':>10} {'sims/dec':>9} {'seeds':>12}")
    for r in table:
        ci = f"[{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
        print(f"{r['opponent']:>9} {r['budget']:>9g} {json.dumps(r['params']):>22} {r['games']:>6} "
              f"{100 * r['win']:>6.1f} {ci:>14} "
              f"{r['s_per_decision']:>10.4f} {r['sims']:>9.0f} {','.join(map(str, r['seeds'])):>12}")
    print(f"CPU time of these runs: {sum(r['cpu_s'] for r in runs) / 60:.1f} min")
    if args.png:
        _plot([r for r in table if not r["params"]], Path(args.png))


def paired(runs: list[dict], others: list[dict]) -> list[dict]:
    """Each run of ``others`` against the run of ``runs`` with the same opponent, budget and
    seed (the same deals, checked), pooled per (opponent, budget, both params): win rates
    and their difference with a 95% interval from the per-deal differences (a deal and seed
    being one cluster, as in the arena's intervals)."""
    base: dict[tuple, list[dict]] = {}
    for r in runs:
        base.setdefault((r["opponent"], r["budget"], r["seed"]), []).append(r)
    groups: dict[tuple, list[tuple[dict, dict]]] = {}
    for o in others:
        key = (o["opponent"], o["budget"], o["seed"])
        for r in base.get(key, []):
            if r["deal"] != o["deal"]:
                raise SystemExit(f"compare: the runs at opponent {key[0]}, budget {key[1]}, seed {key[2]} played "
                                 "other deals (another --games?)")
            tag = (key[0], key[1], json.dumps(o["params"], sort_keys=True), json.dumps(r["params"], sort_keys=True))
            groups.setdefault(tag, []).append((o, r))
    out = []
    for (opp, b, p_other, p_base), pairs in sorted(groups.items()):
        a = np.concatenate([o["outcome"] for o, _ in pairs])
        z = np.concatenate([r["outcome"] for _, r in pairs])
        cluster = np.concatenate([np.array(o["deal"]) + 10**6 * o["seed"] for o, _ in pairs])
        per = np.array([(a - z)[cluster == c].sum() for c in np.unique(cluster)])
        se = per.std(ddof=1) * np.sqrt(len(per)) / len(a) if len(per) > 1 else float("nan")
        out.append(dict(opponent=opp, budget=b, params=json.loads(p_other), base_params=json.loads(p_base),
                        games=len(a), win=float(a.mean()), base_win=float(z.mean()), diff=float((a - z).mean()),
                        half_width=1.96 * se, seeds=sorted(o["seed"] for o, _ in pairs)))
    return out


def compare(args) -> None:
    rows = paired(load_runs(args.dir), load_runs(args.other))
    if not rows:
        raise SystemExit(f"compare: no run in {args.other} has a run with the same opponent, budget and seed "
                         f"in {args.dir}")
    print(f"runs in {args.other} against those in {args.dir} on the same deals (ties half; 95% interval of "
          "the paired difference)")
    for r in rows:
        print(f"vs {r['opponent']} at {r['budget']:g} s, {r['games']} games: {json.dumps(r['params'])} "
              f"{100 * r['win']:.1f}% against {json.dumps(r['base_params'])} {100 * r['base_win']:.1f}%: "
              f"{100 * r['diff']:+.1f} +- {100 * r['half_width']:.1f} points (seeds "
              f"{','.join(map(str, r['seeds']))})")


def _plot(table: list[dict], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    for opp, colour, target in (("ppo", "tab:blue", 60), ("heuristic", "tab:orange", 70)):
        rows = sorted((r for r in table if r["opponent"] == opp), key=lambda r: r["budget"])
        if not rows:
            continue
        b = np.array([r["budget"] for r in rows])
        w = np.array([100 * r["win"] for r in rows])
        err = np.array([[100 * (r["win"] - r["low"]) for r in rows], [100 * (r["high"] - r["win"]) for r in rows]])
        ax.errorbar(b, w, yerr=err, fmt="o-", capsize=4, color=colour, label=f"vs {opp} (95% CI)")
        for x, y, r in zip(b, w, rows):
            ax.annotate(f"{r['games']}", (x, y), textcoords="offset points", xytext=(5, -12), fontsize=7,
                        color=colour)
        ax.axhline(target, color=colour, lw=0.8, ls="--", label=f"target vs {opp} at 0.1 s ({target}%)")
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ticks = sorted({r["budget"] for r in table})
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{x:g}" for x in ticks])
    ax.set_xlabel("budget: CPU seconds per decision (one core)")
    ax.set_ylabel("win rate, % (ties half); labels: games")
    ax.set_title("NetSearchAgent, 2 players, duplicate deals")
    ax.set_ylim(0, 100)
    ax.legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    print(f"plot -> {png}")


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=DIR, help="where runs are saved and read (default %(default)s)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("duel", help="netsearch vs one opponent, 2 players, at one budget")
    d.add_argument("--opponent", default="ppo", help="agent spec (default %(default)s)")
    d.add_argument("--budget", type=float, required=True)
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--seed", type=int, default=21)
    d.add_argument("--params", default="", help="extra NetSearchAgent parameters, KEY=VALUE,...")
    p = sub.add_parser("report", help="pool the saved runs, print the table, draw the plot")
    p.add_argument("--png", default=None)
    c = sub.add_parser("compare", help="runs in --other against the runs in --dir on the same deals")
    c.add_argument("--other", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.cmd == "duel":
        if not 0 < args.budget < float("inf") or args.games < 1 or args.seed < 0:
            ap.error(f"duel: --budget must be a finite number > 0, --games >= 1 and --seed >= 0, got --budget "
                     f"{args.budget}, --games {args.games}, --seed {args.seed}")
        try:
            NetSearchAgent(budget=args.budget, **_params(args.params))
        except (TypeError, ValueError) as e:
            ap.error(f"duel: --params {args.params!r}: {e}")
    for folder in (args.dir, *([args.other] if args.cmd == "compare" else [])):
        if args.cmd != "duel" and not folder.is_dir():
            ap.error(f"{folder} is not a folder of saved runs")
    if args.cmd == "report" and not load_runs(args.dir):
        ap.error(f"report: no saved runs (duel_*.json) in {args.dir}")
    try:
        {"duel": duel, "report": report, "compare": compare}[args.cmd](args)
    except ArenaArgumentError as e:  # a bad --opponent, found before any game
        ap.error(f"duel: {e}")


if __name__ == "__main__":
    main()
