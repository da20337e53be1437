"""What one ply of NetSearchAgent's simulations costs, part by part (2 players).

A simulation applies a candidate, then the shipped policy plays every seat to the end of the
game, one batched call per ply for a wave of rows (agents/spacemission_agents/netsearch.py,
``_simulate``). This script plays ``--waves`` waves of ``--rows`` games from the start to the
end exactly that way and times each part of every ply (time.perf_counter, one BLAS thread):

* ``legal mask``, ``observe`` (the acting seats' "recall" observations), ``step``: the engine;
* ``prior: features`` and ``prior: kernel``: the heuristic bot's feature extraction and
  planning kernel, whose plan values are the policy's prior input (ppo_prior.py);
* ``policy: network``: the policy's logits without the prior (its layers, input scaling,
  masking), that is ``logits`` minus the prior, timed apart.

Printed per ply and per row-ply, with each part's share; the parts are timed one after the
other, so the shares need no profiler (cProfile inflates Python's per-call work).

    .venv/bin/python benchmarks/netsearch_rollout_cost.py [--rows 16 64] [--waves 3] [--seed 0]
"""
from __future__ import annotations

import time

import numpy as np

from spacemission_agents._bot_features import extract
from spacemission_agents.model_files import one_blas_thread
from spacemission_agents.ppo import PPOAgent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine

PARTS = ("legal mask", "observe", "prior: features", "prior: kernel", "policy: network", "step")


def ply_costs(rows: int, waves: int, seed: int) -> dict:
    """Seconds per part summed over every ply of ``waves`` waves of ``rows`` games, with the
    counts of plies and row-plies."""
    policy = PPOAgent.load_shipped(2)
    policy.bind(GameConfig(2))
    prior = policy.prior
    heuristic = prior._agent
    spent = dict.fromkeys(PARTS, 0.0)
    plies = row_plies = 0

    def timed(part, fn, *args, **kw):
        t = time.perf_counter()
        out = fn(*args, **kw)
        spent[part] += time.perf_counter() - t
        return out

    with one_blas_thread():
        policy.act_batch(*_first_rows(seed))  # load the kernels outside the timing
        for w in range(waves):
            st = engine.init(rows, 2, seeds=np.arange(rows) + seed * 1_000_003 + w * rows)
            while not st.terminated.all():
                live = ~st.terminated
                mask = timed("legal mask", engine.legal_action_mask, st)
                obs = timed("observe", engine.observe, st, observation_type="recall")
                o, m = obs[live], mask[live]
                features = timed("prior: features", extract, o, "recall")
                timed("prior: kernel", heuristic._decide, features, np.ascontiguousarray(m),
                      np.zeros(len(m), np.int64))
                codes = prior(o, m)  # untimed: the same work as the two parts above
                policy._prior = lambda *_: codes  # the policy's own call, without its prior
                try:
                    act = np.zeros(rows, np.int64)
                    act[live] = timed("policy: network", policy.act_batch, o, m)
                finally:
                    policy._prior = prior
                timed("step", engine.step, st, act, select=live)
                plies += 1
                row_plies += int(live.sum())
    return {"rows": rows, "waves": waves, "plies": plies, "row_plies": row_plies, "seconds": spent}


def _first_rows(seed: int):
    st = engine.init(2, 2, seeds=seed)
    return engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)


def main(argv=None) -> list[dict]:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[16, 64], help="rows per wave (games played together)")
    ap.add_argument("--waves", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if min(args.rows) < 1 or args.waves < 1 or args.seed < 0:
        ap.error("--rows >= 1, --waves >= 1 and --seed >= 0 are needed")
    out = []
    for rows in args.rows:
        r = ply_costs(rows, args.waves, args.seed)
        total = sum(r["seconds"].values())
        print(f"wave of {rows} rows: {r['plies']} plies, {r['row_plies']} row-plies, "
              f"{1e6 * total / r['plies']:.0f} us per ply, {1e6 * total / r['row_plies']:.1f} us per row-ply")
        for part, s in r["seconds"].items():
            print(f"  {part:16s} {1e6 * s / r['plies']:8.1f} us per ply  {1e6 * s / r['row_plies']:6.2f} us per "
                  f"row-ply  {100 * s / total:5.1f}%")
        out.append(r)
    return out


if __name__ == "__main__":
    main()
