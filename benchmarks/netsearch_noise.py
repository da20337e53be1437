"""How many simulations NetSearchAgent needs to tell its candidates apart (2 players).

NetSearchAgent values a candidate action by the network playing a sampled world to the end
(docs/agents_netsearch.md). This script measures, on positions of the shipped policy's own
games, what one such simulation says:

* ``sd``: the standard deviation of one simulation's value (for one candidate, over worlds);
* ``paired sd``: the standard deviation of the *difference* between an alternative and the
  network's favourite simulated in the same world (common random numbers help only where this
  is well below ``sd * sqrt(2)``);
* ``rms gap``: the root-mean-square true gap between the network's favourite and each
  alternative, corrected for the noise of the estimate (mean of d^2 minus its variance);
* ``better`` / ``worse``: the share of alternatives shown better / worse than the favourite
  by a z = 2 paired test over all ``--worlds`` worlds;
* ``needed``: simulations per candidate for a z = 2 paired test to resolve the rms gap,
  ``(2 * paired sd / rms gap)^2``, against what the bot runs at a budget (``--budget``);
* ``regret`` by simulations per decision (``--iterations``; 0: the network's favourite):
  the reference mean (over the ``--worlds`` worlds, which the searches do not see) of the
  best candidate minus that of the candidate the search plays. The reference's own noise
  adds the same amount to every row, so compare rows, not the figures with 0.
* ``gain by gap``: what leaving the network's favourite could gain, by how sure the network
  is (the logit gap between its favourite and its runner-up, in ``--bins`` equal-count bins):
  the best candidate chosen on half of the worlds, measured against the favourite on the
  other half (and the halves swapped), so the reference's noise does not inflate it. If the
  gain sat in a few uncertain positions, a search that spent its time there would need fewer
  simulations in all.
* ``rules`` (``--rules B ...``): what other ways of choosing among the candidates would gain
  over the network's move with B simulations per decision. Each rule sees the even worlds
  only (a candidate's k-th simulation in the k-th of them, as in the bot) and is scored on
  the odd ones, which it never saw: ``puct`` (the bot's own selection and choice),
  ``uniform`` (B / candidates each, the best mean), ``paired zZ`` (uniform, but the best
  mean replaces the network's move only when its paired difference over their shared worlds
  is above Z standard errors).

    .venv/bin/python benchmarks/netsearch_noise.py [--positions 24] [--worlds 128] [--budget 0.1] \
        [--iterations 0 120 480] [--bins 5] [--rules 60 120 240] [--seed 0]
"""
from __future__ import annotations

import time

import numpy as np

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.determinize import sample_worlds_from_observation


def positions(bot: NetSearchAgent, count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Decisions with a choice (more than one legal action), drawn at random from games of the
    policy against itself."""
    policy, _ = bot._networks(bot.config)
    rng = np.random.default_rng(seed)
    games = max(2, count // 4)
    st = engine.init(games, 2, seeds=seed)
    found = []
    while not st.terminated.all():
        live = ~st.terminated
        mask = engine.legal_action_mask(st)
        obs = engine.observe(st, observation_type="recall")
        for i in np.flatnonzero(live & (mask.sum(axis=1) > 1)):
            found.append((obs[i].copy(), mask[i].copy()))
        act = np.zeros(games, np.int64)
        act[live] = policy.act_batch(obs[live], mask[live])
        engine.step(st, act, select=live)
    pick = rng.choice(len(found), size=min(count, len(found)), replace=False)
    return [found[i] for i in np.sort(pick)]


def candidates(bot: NetSearchAgent, obs, mask) -> list[int]:
    """The bot's candidates in the prior's order (its ``candidates`` likeliest legal actions)."""
    return bot._candidates(obs, mask, bot._networks(bot.config)[0])[0].tolist()


def candidate_values(bot: NetSearchAgent, obs, mask, worlds: int, rng) -> np.ndarray:
    """[C, W]: each of the bot's candidates (the prior's order) simulated in the same W worlds."""
    policy, value = bot._networks(bot.config)
    cands = candidates(bot, obs, mask)
    w = sample_worlds_from_observation(obs, *bot.config, worlds, rng, player=0)
    idx = np.arange(worlds)
    return np.array([bot._simulate(w, idx, np.full(worlds, a), policy, value) for a in cands])


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--budget", type=float, default=0.1, help="CPU s per decision to compare against")
    ap.add_argument("--iterations", type=int, nargs="*", default=[0, 120, 480],
                    help="simulations per decision whose regret is measured (0: the network's favourite)")
    ap.add_argument("--bins", type=int, default=5, help="bins of the network's logit gap for the gain table")
    ap.add_argument("--rules", type=int, nargs="*", default=[],
                    help="simulations per decision at which the selection rules are compared (none: no table)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.positions < 1 or args.worlds < 2 or not 0 < args.budget < float("inf") \
            or min(args.iterations, default=0) < 0 or args.bins < 1 or min(args.rules, default=1) < 1 or args.seed < 0:
        ap.error("--positions >= 1, --worlds >= 2, a finite --budget > 0, --iterations >= 0, --bins >= 1, --rules >= 1 "
                 "and --seed >= 0 are needed")
    bot = NetSearchAgent(budget=args.budget, seed=args.seed)
    bot.bind(GameConfig(2))
    rng = np.random.default_rng(args.seed)
    sd, pair_sd, d2, se2, z = [], [], [], [], []
    cpu = time.process_time()
    found = positions(bot, args.positions, args.seed)
    refs = []  # per position: the reference mean of each candidate (the prior's order)
    gaps, gains, values, priors = [], [], [], []
    for obs, mask in found:
        v = candidate_values(bot, obs, mask, args.worlds, rng)
        values.append(v)
        priors.append(bot._candidates(obs, mask, bot._networks(bot.config)[0])[1])
        refs.append(v.mean(axis=1))
        gaps.append(logit_gap(bot, obs, mask))
        gains.append(split_half_gain(v))
        sd.append(v.std(axis=1, ddof=1).mean())
        if len(v) < 2:
            continue
        d = v[1:] - v[0]  # each alternative against the network's favourite, world by world
        pair_sd.extend(d.std(axis=1, ddof=1))
        d2.extend(d.mean(axis=1) ** 2)
        se2.extend(d.var(axis=1, ddof=1) / args.worlds)
        z.extend(d.mean(axis=1) / np.maximum(np.sqrt(se2[-len(d):]), 1e-12))
    cpu = time.process_time() - cpu
    gap2 = max(float(np.mean(d2) - np.mean(se2)), 0.0)
    paired = float(np.sqrt(np.mean(np.square(pair_sd))))
    needed = float("inf") if gap2 == 0 else (2 * paired) ** 2 / gap2
    z = np.array(z)
    timed = positions(bot, args.positions + 1, args.seed + 1)
    bot.act_batch(timed[0][0][None], timed[0][1][None])  # warm up: the first decision also loads and compiles
    sims = searched = 0
    for obs, mask in timed[1:]:  # what the budget buys
        bot.act_batch(obs[None], mask[None])
        if bot.last_search is not None:
            sims, searched = sims + bot.last_search["simulations"], searched + 1
    regret = {it: regret_at(it, found, refs, bot, args.seed) for it in args.iterations}
    out = {"positions": len(sd), "worlds": args.worlds, "sd": float(np.mean(sd)), "paired_sd": paired,
           "rms_gap": float(np.sqrt(gap2)), "better": float((z > 2).mean()), "worse": float((z < -2).mean()),
           "needed_per_candidate": needed,
           "budget": args.budget, "simulations_per_decision": sims / max(1, searched),
           "candidates": bot.candidates, "cpu_s": cpu, "regret": regret,
           "by_gap": gain_by_gap(np.array(gaps), np.array(gains), args.bins),
           "rules": {b: rule_gains(bot, values, priors, b) for b in args.rules}}
    print(f"{out['positions']} positions x {bot.candidates} candidates x {args.worlds} shared worlds ({cpu:.0f} CPU s)")
    print(f"one simulation: sd {out['sd']:.3f}; paired difference: sd {paired:.3f} "
          f"(independent would be {out['sd'] * np.sqrt(2):.3f})")
    print(f"rms gap between the network's favourite and an alternative: {out['rms_gap']:.3f}")
    print(f"alternatives shown better than the favourite over {args.worlds} worlds (z > 2): "
          f"{100 * out['better']:.1f}%; worse (z < -2): {100 * out['worse']:.1f}%")
    print(f"simulations per candidate to resolve it (z = 2): {needed:.0f}; at {args.budget} s the bot runs "
          f"{out['simulations_per_decision']:.0f} per decision, about "
          f"{out['simulations_per_decision'] / bot.candidates:.0f} per candidate")
    for it, r in regret.items():
        print(f"regret at {it:5d} simulations per decision: {r['mean']:.4f} +- {r['se']:.4f} "
              f"(plays another move than the network's in {100 * r['deviates']:.0f}% of positions, "
              f"{r['cpu_s']:.3f} CPU s per decision)")
    print(f"gain of the best candidate over the network's favourite (split halves of the worlds), by the "
          f"network's logit gap (mean {np.mean(gains):+.4f}):")
    for b in out["by_gap"]:
        print(f"  gap {b['low']:6.2f} .. {b['high']:6.2f}: {b['positions']:4d} positions, gain {b['gain']:+.4f} "
              f"+- {b['se']:.4f}")
    for b, table in out["rules"].items():
        print(f"selection rules at {b} simulations per decision, gain over the network's move on unseen worlds: "
              + "; ".join(f"{k} {r['gain']:+.4f} +- {r['se']:.4f} (leaves it in {100 * r['deviates']:.0f}%)"
                          for k, r in table.items()))
    return out


RULE_Z = (1.0, 1.5, 2.0)  # the paired rules' thresholds, in standard errors


def rule_choices(bot: NetSearchAgent, seen: np.ndarray, prior: np.ndarray, budget: int) -> dict[str, int]:
    """The candidate (row of ``seen`` [C, S], values in S worlds, row 0 the network's move)
    each selection rule plays with ``budget`` simulations (module doc, ``rules``)."""
    c, s = seen.shape
    n, total = np.zeros(c, np.int64), np.zeros(c)

    def visit(rows):
        for a in rows:
            total[a] += seen[a, n[a] % s]
            n[a] += 1

    visit(np.tile(np.arange(c), bot.first)[:budget])  # the bot's first wave, then its PUCT waves
    while n.sum() < budget:
        visit(bot._select(prior, n, total, 0.0, min(bot.wave, budget - int(n.sum()))))
    q = total / np.maximum(n, 1)
    out = {"puct": int(np.lexsort((q, prior, n))[-1])}
    k = min(s, max(1, budget // c))  # uniform: the same first k worlds for every candidate
    means = seen[:, :k].mean(axis=1)
    top = int(np.argmax(means))
    out["uniform"] = top
    d = seen[top, :k] - seen[0, :k]
    se = d.std(ddof=1) / np.sqrt(k) if k > 1 else np.inf
    for z in RULE_Z:
        out[f"paired z{z:g}"] = top if top != 0 and d.mean() > z * se else 0
    return out


def rule_gains(bot: NetSearchAgent, values: list, priors: list, budget: int) -> dict[str, dict]:
    """Per rule: its mean gain over the network's move (scored on the odd worlds, which the
    rules do not see; standard error over positions) and how often it leaves that move."""
    gains: dict[str, list] = {}
    moved: dict[str, int] = {}
    for v, prior in zip(values, priors):
        if len(v) < 2:
            continue
        ref = v[:, 1::2].mean(axis=1)
        for rule, a in rule_choices(bot, v[:, 0::2], prior, budget).items():
            gains.setdefault(rule, []).append(ref[a] - ref[0])
            moved[rule] = moved.get(rule, 0) + (a != 0)
    return {rule: {"gain": float(np.mean(g)), "se": float(np.std(g, ddof=1) / np.sqrt(len(g))) if len(g) > 1 else 0.0,
                   "deviates": moved[rule] / len(g)} for rule, g in gains.items()}


def logit_gap(bot: NetSearchAgent, obs, mask) -> float:
    """The network's logit of its favourite minus its runner-up's (inf with one legal action)."""
    z = np.sort(bot._networks(bot.config)[0].logits(obs[None], mask[None])[0][np.flatnonzero(mask)])
    return float(z[-1] - z[-2]) if z.size > 1 else float("inf")


def split_half_gain(v: np.ndarray) -> float:
    """[C, W] values (row 0 the favourite): the best row picked on the even worlds scored
    against row 0 on the odd ones, and the other way round, averaged; near 0 (or below: a
    pick on noise) where no candidate beats the favourite, the gap where one does."""
    a, b = v[:, 0::2].mean(axis=1), v[:, 1::2].mean(axis=1)
    return float(0.5 * ((b[a.argmax()] - b[0]) + (a[b.argmax()] - a[0])))


def gain_by_gap(gaps: np.ndarray, gains: np.ndarray, bins: int) -> list[dict]:
    """Mean gain (and its standard error) in ``bins`` equal-count bins of the logit gap."""
    out = []
    for part in np.array_split(np.argsort(gaps, kind="stable"), min(bins, len(gaps))):
        g = gains[part]
        out.append({"low": float(gaps[part].min()), "high": float(gaps[part].max()), "positions": int(part.size),
                    "gain": float(g.mean()), "se": float(g.std(ddof=1) / np.sqrt(g.size)) if g.size > 1 else 0.0})
    return out


def regret_at(iterations: int, found, refs, bot: NetSearchAgent, seed: int) -> dict:
    """Mean regret against the reference of a search with ``iterations`` simulations per
    decision (0: the network's favourite), and how often it leaves the network's move."""
    cands = [candidates(bot, obs, mask) for obs, mask in found]  # the rows of refs
    search = None
    if iterations:
        search = NetSearchAgent(iterations=iterations, seed=seed + 7)
        search.bind(GameConfig(*bot.config))
    regrets, moved = [], 0
    cpu = time.process_time()
    for (obs, mask), ref, cand in zip(found, refs, cands):
        a = cand[0] if search is None else int(search.act_batch(obs[None], mask[None])[0])
        regrets.append(ref.max() - ref[cand.index(a)])
        moved += a != cand[0]
    cpu = (time.process_time() - cpu) / max(1, len(found))
    r = np.array(regrets)
    return {"mean": float(r.mean()), "se": float(r.std(ddof=1) / np.sqrt(len(r))) if len(r) > 1 else 0.0,
            "deviates": moved / max(1, len(found)), "cpu_s": cpu}


if __name__ == "__main__":
    main()
