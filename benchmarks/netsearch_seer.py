"""Regret of NetSearchAgent settings against a full-rollout reference (2 players), e.g. short
simulations valued by a perfect-information ("seer") value net against the default search.

The positions and the reference are netsearch_noise.py's (same ``--positions``,
``--worlds`` and ``--seed`` give the same ones): decisions of the shipped policy's games
against itself, each of the default bot's candidates played to the end by the policy in the
same ``--worlds`` sampled worlds; the reference value of a candidate is its mean there.
Each setting (``--config NAME:KEY=VALUE,...``, NetSearchAgent parameters) then searches
every position with ``--iterations N`` simulations per decision (0: the network's move)
and with ``--budgets S`` CPU seconds per decision; its regret is the best candidate's
reference value minus that of the candidate it plays (the reference's own noise adds the
same to every row: compare rows). Also printed: the CPU seconds per simulation and the
simulations per decision each budget buys. ``--limit W`` adds each setting's limit: every
candidate simulated in W fresh sampled worlds (the setting's own simulation and leaf value)
and the best mean played, what its search would converge to with many simulations; its
regret is the setting's bias against the reference, which no budget removes. Regrets are
also given paired with the first setting's at the same row (the difference's mean and
standard error over the positions). ``--cache`` keeps the reference (positions and
values) for later runs.

    .venv/bin/python benchmarks/netsearch_seer.py --positions 96 --worlds 128 --seed 0 \\
        --cache runs/s34/seer/ref96.npz --iterations 0 120 480 --budgets 0.1 \\
        --config default: --config seer:until=turn,seer_value=runs/s34/seer/seer48k_rank.npz
"""
from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import numpy as np

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.games import GameConfig


def _sibling(name: str):
    """Another script of this folder as a module (run as a script or loaded from a file, as
    the docs-commands test does, the folder is not always on the import path)."""
    spec = importlib.util.spec_from_file_location(f"_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_params = _sibling("netsearch_budget")._params
candidate_values, candidates, positions = (getattr(_sibling("netsearch_noise"), n)
                                           for n in ("candidate_values", "candidates", "positions"))
from spacemission_env.space_mission.determinize import sample_worlds_from_observation


def reference(args) -> tuple[list, list, list]:
    """(positions [(obs, mask)], candidates [[action]], reference means [C]) as netsearch_noise.py's."""
    if args.cache is not None and args.cache.is_file():
        with np.load(args.cache) as z:
            obs, mask, cands, refs = z["obs"], z["mask"], z["cands"], z["refs"]
            meta = json.loads(str(z["meta"]))
        if meta != {"positions": args.positions, "worlds": args.worlds, "seed": args.seed}:
            raise SystemExit(f"--cache {args.cache} holds {meta}; remove it or change the arguments")
        found = list(zip(obs, mask))
        return found, [[int(a) for a in c if a >= 0] for c in cands], [r[~np.isnan(r)] for r in refs]
    bot = NetSearchAgent(budget=0.1, seed=args.seed)
    bot.bind(GameConfig(2))
    rng = np.random.default_rng(args.seed)
    found = positions(bot, args.positions, args.seed)
    cpu = time.process_time()
    cands, refs = [], []
    for obs, mask in found:
        cands.append(candidates(bot, obs, mask))
        refs.append(candidate_values(bot, obs, mask, args.worlds, rng).mean(axis=1))
    print(f"reference: {len(found)} positions x {args.worlds} worlds, {time.process_time() - cpu:.0f} CPU s", flush=True)
    if args.cache is not None:
        c = max(len(x) for x in cands)
        pad_c = np.array([x + [-1] * (c - len(x)) for x in cands], np.int64)
        pad_r = np.array([np.concatenate([r, np.full(c - len(r), np.nan)]) for r in refs])
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(args.cache, obs=np.array([f[0] for f in found]), mask=np.array([f[1] for f in found]),
                 cands=pad_c, refs=pad_r,
                 meta=json.dumps({"positions": args.positions, "worlds": args.worlds, "seed": args.seed}))
    return found, cands, refs


def regret(found, cands, refs, params: dict, *, iterations: int | None, budget: float | None, seed: int) -> dict:
    """Mean regret (and its standard error) of a search with ``params`` and either
    ``iterations`` simulations (0: the network's move) or a ``budget``; how often it leaves
    the network's move; its CPU s per decision and per simulation, simulations per decision."""
    bot = None
    if budget is not None:
        bot = NetSearchAgent(budget=budget, seed=seed + 7, **params)
    elif iterations:
        bot = NetSearchAgent(iterations=iterations, seed=seed + 7, **params)
    if bot is not None:
        bot.bind(GameConfig(2))
    out, moved = [], 0
    cpu = time.process_time()
    for (obs, mask), cand, ref in zip(found, cands, refs):
        a = cand[0] if bot is None else int(bot.act_batch(obs[None], mask[None])[0])
        if a not in cand:  # a setting with other candidates (``candidates``, ``temperature``)
            raise SystemExit(f"the search played {a}, not one of the reference's candidates {cand}")
        out.append(ref.max() - ref[cand.index(a)])
        moved += a != cand[0]
    cpu = time.process_time() - cpu
    r = np.array(out)
    st = bot.stats if bot is not None else {"simulations": 0, "searched": 0, "seconds": 0.0}
    return {"mean": float(r.mean()), "se": float(r.std(ddof=1) / np.sqrt(len(r))), "deviates": moved / len(r),
            "cpu_s": cpu / len(r), "simulations": st["simulations"] / max(1, st["searched"]),
            "cpu_per_simulation": st["seconds"] / max(1, st["simulations"]), "regrets": r.tolist()}


def limit(found, cands, refs, params: dict, *, worlds: int, seed: int) -> dict:
    """Regret of the candidate with the best mean over ``worlds`` fresh sampled worlds (every
    candidate in the same ones) under the setting's simulation and leaf value; also the
    correlation of those means with the reference's (centred per position)."""
    bot = NetSearchAgent(iterations=1, seed=seed, **params)
    bot.bind(GameConfig(2))
    policy, value = bot._networks(bot.config)
    rng = np.random.default_rng(seed + 1000)
    out, moved, a_c, b_c = [], 0, [], []
    cpu = time.process_time()
    for (obs, mask), cand, ref in zip(found, cands, refs):
        w = sample_worlds_from_observation(obs, *bot.config, worlds, rng, player=0)
        idx = np.arange(worlds)
        m = np.array([bot._simulate(w, idx, np.full(worlds, a), policy, value).mean() for a in cand])
        best = int(np.argmax(m))
        out.append(ref.max() - ref[best])
        moved += best != 0
        a_c.extend(m - m.mean())
        b_c.extend(ref - ref.mean())
    r = np.array(out)
    return {"mean": float(r.mean()), "se": float(r.std(ddof=1) / np.sqrt(len(r))), "deviates": moved / len(r),
            "cpu_s": (time.process_time() - cpu) / len(r), "simulations": len(cands[0]) * worlds,
            "cpu_per_simulation": float("nan"), "regrets": r.tolist(), "corr": float(np.corrcoef(a_c, b_c)[0, 1])}


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=96)
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=None, help="reference file: read if it exists, else written")
    ap.add_argument("--iterations", type=int, nargs="*", default=[0, 120])
    ap.add_argument("--budgets", type=float, nargs="*", default=[0.1])
    ap.add_argument("--config", action="append", default=[],
                    help="NAME:KEY=VALUE,... NetSearchAgent parameters (repeatable; default: the default bot)")
    ap.add_argument("--limit", type=int, default=0, help="worlds of each setting's limit (0: none)")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    args = ap.parse_args(argv)
    if args.positions < 1 or args.worlds < 2 or args.seed < 0 or min(args.iterations, default=0) < 0 \
            or min(args.budgets, default=1) <= 0:
        ap.error("--positions >= 1, --worlds >= 2, --seed >= 0, --iterations >= 0 and --budgets > 0 are needed")
    configs = {}
    for c in args.config or ["default:"]:
        name, _, text = c.partition(":")
        configs[name] = _params(text)
    found, cands, refs = reference(args)
    results = {}
    for name, params in configs.items():
        rows = [("iterations", n) for n in args.iterations if n or name == next(iter(configs))]
        rows += [("budget", b) for b in args.budgets]
        rows += [("limit", args.limit)] if args.limit else []
        for kind, x in rows:
            if kind == "limit":
                r = limit(found, cands, refs, params, worlds=x, seed=args.seed)
            else:
                r = regret(found, cands, refs, params, seed=args.seed, iterations=x if kind == "iterations" else None,
                           budget=x if kind == "budget" else None)
            results[f"{name} {kind} {x}"] = r
            base = results.get(f"{next(iter(configs))} {kind} {x}")
            paired = ""
            if base is not None and base is not r:
                d = np.array(r["regrets"]) - np.array(base["regrets"])
                paired = f"; minus {next(iter(configs))}'s: {d.mean():+.4f} +- {d.std(ddof=1) / np.sqrt(len(d)):.4f}"
            extra = f", correlation with the reference {r['corr']:.2f}" if "corr" in r else ""
            print(f"{name:>10s} {kind} {x:>6}: regret {r['mean']:.4f} +- {r['se']:.4f}, leaves the network's move "
                  f"in {100 * r['deviates']:.0f}%, {r['simulations']:.0f} simulations/decision, "
                  f"{1e3 * r['cpu_per_simulation']:.3f} ms CPU/simulation, {r['cpu_s']:.3f} CPU s/decision"
                  f"{extra}{paired}", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "results": results},
                                        indent=1))
    return results


if __name__ == "__main__":
    main()
