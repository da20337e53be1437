"""Speed of the fast batched engine.

Random legal play (uniform over legal actions, vectorised), the acting player's
observation and legal mask produced every step, finished games auto-reset;
single process. Prints agent-steps/s and games/s per batch size, the reference
engine's figure in the same run (same work per step: mask + observation + apply)
and the ratio, state bytes per game, memory for 65,536 games, first-step time in a
fresh process with a warm numba cache and compile time with a cold cache.

With ``--pgx-python PATH`` (an interpreter that can import pgx and jax, e.g. a throwaway
virtualenv: pgx is never a dependency of this project) it also times pgx's connect-four
(``--pgx-games``) in a child process with the same loop (random legal action from the
mask, step, the state's observation and mask, finished games reset by pgx's auto_reset),
alternating with our engine ``--repeats`` times, and prints each figure, the medians and
the median of the paired ratios.

    .venv/bin/python benchmarks/engine_speed.py [--players 3] [--rules yucata] [--seconds 3] [--json]
    .venv/bin/python benchmarks/engine_speed.py --pgx-python /tmp/pgxvenv/bin/python --repeats 3 --batch-sizes 1024
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.config import RULE_SETS
from spacemission_env.compile_notice import MESSAGE
from spacemission_cli.bench import pgx_speed, reference_speed

FIRST_STEP = """
import time, sys
t0 = time.perf_counter()
from spacemission_env.space_mission import engine
st = engine.init(1024, {players}, seeds=0, rules={rules!r})
m = engine.legal_action_mask(st)
o = engine.observe(st)
engine.step(st, engine.sample_actions(m))
o = engine.observe(st, observation_type="seer")
engine.reset_finished(st, seeds=st.rng.astype("int64") & 0xFFFF)
engine.rewards(st)
print(time.perf_counter() - t0)
"""


def bench_engine(B: int, players: int, rules: str, seconds: float, seed: int = 0) -> dict:
    st = engine.init(B, players, seeds=seed, rules=rules)
    D = engine.observation_size()
    mask = np.empty((B, 100), dtype=bool)
    obs = np.empty((B, D), dtype=np.int8)
    actions = np.empty(B, dtype=np.int64)
    rng = np.random.default_rng(seed)
    next_seed = seed + B
    steps = games = 0
    # warm-up (kernels already compiled by the caller)
    for _ in range(5):
        engine.legal_action_mask(st, out=mask)
        engine.observe(st, out=obs)
        engine.sample_actions(mask, rng, out=actions)
        engine.step(st, actions)
    t0 = time.perf_counter()
    iters = 0
    while True:
        for _ in range(20):
            engine.legal_action_mask(st, out=mask)
            engine.observe(st, out=obs)
            engine.sample_actions(mask, rng, out=actions)
            running = ~st.terminated
            engine.step(st, actions)
            steps += int(running.sum())
            done = st.terminated
            n_done = int(done.sum())
            if n_done:
                games += n_done
                engine.reset_finished(st, np.arange(next_seed, next_seed + B, dtype=np.uint64))
                next_seed += B
            iters += 1
        el = time.perf_counter() - t0
        if el >= seconds:
            break
    return {"batch_size": B, "agent_steps_per_s": steps / el, "games_per_s": games / el, "seconds": el,
            "steps": steps, "games": games}


def validation_cost(players: int, rules: str, B: int = 1024, reps: int = 300) -> dict:
    """ns per game of the legality check that engine.step always runs (kernels.first_illegal)
    and of a whole step_games call, best of 5 (robust on a busy machine). Read-only for
    the check, so it runs repeatedly on one mid-game batch; the step runs on copies."""
    from spacemission_env.space_mission.engine import kernels as K
    from spacemission_env.space_mission.engine.state import TABLES

    st = engine.init(B, players, seeds=0, rules=rules)
    rng = np.random.default_rng(0)
    for _ in range(60):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    actions = engine.sample_actions(engine.legal_action_mask(st), rng)
    sel = np.ones(B, dtype=np.bool_)
    args = (actions, sel, st.ring, st.piles, st.hand, st.hand_len, st.supply, st.ship, st.scanned, st.stations,
            st.current_player, st.phase, st.terminated, TABLES[0], TABLES[1])
    assert K.first_illegal(*args) == -1
    check = step = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            K.first_illegal(*args)
        check = min(check, (time.perf_counter() - t0) / reps / B * 1e9)
        copies = [st.copy() for _ in range(reps // 10)]
        t0 = time.perf_counter()
        for c in copies:
            K.step_games(actions, sel, *c.arrays(), *TABLES, c.max_rounds)
        step = min(step, (time.perf_counter() - t0) / len(copies) / B * 1e9)
    return {"check_ns_per_game": check, "step_ns_per_game": step}


def memory(players: int, rules: str, B: int = 65536) -> dict:
    st = engine.init(B, players, seeds=0, rules=rules)
    D = engine.observation_size()
    obs_bytes = B * D  # int8 info observation buffer
    mask_bytes = B * 100
    state_bytes = st.nbytes
    return {"games": B, "state_bytes_per_game": state_bytes / B, "observation_bytes_per_game": D,
            "total_bytes": state_bytes + obs_bytes + mask_bytes + B * 8,
            "total_MiB": (state_bytes + obs_bytes + mask_bytes + B * 8) / 2**20,
            "state_bytes_per_game_5p": engine.init(1, 5, 0).nbytes}


def first_step(players: int, rules: str, cache_dir: str | None) -> tuple[float, bool]:
    """Seconds from start to the end of the first step in a fresh process, and whether the
    first-compile notice (engine/compile_notice.py) appeared on stderr."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = FIRST_STEP.format(players=players, rules=rules)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1]), MESSAGE in out.stderr


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3, choices=range(2, 6))
    ap.add_argument("--rules", default="yucata", choices=RULE_SETS)
    ap.add_argument("--seconds", type=float, default=3.0, help="timed seconds per batch size")
    ap.add_argument("--batch-sizes", default="1,64,1024,8192")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    ap.add_argument("--no-subprocess", action="store_true", help="skip the first-step / cold-compile measurements")
    ap.add_argument("--pgx-python", help="interpreter with pgx + jax: time pgx in the same run (see the docstring)")
    ap.add_argument("--pgx-games", default="connect_four", help="comma-separated pgx env ids")
    ap.add_argument("--repeats", type=int, default=3, help="alternations of our engine and pgx (--pgx-python)")
    args = ap.parse_args(argv)
    try:
        args.batch_sizes = [int(x) for x in args.batch_sizes.split(",")]
    except ValueError:
        ap.error(f"--batch-sizes takes comma-separated integers, got {args.batch_sizes!r}")
    if min(args.batch_sizes) < 1 or not 0 < args.seconds < math.inf or args.repeats < 1 or not all(
            args.pgx_games.split(",")):
        ap.error(f"--batch-sizes and --repeats must be >= 1, --seconds a finite number > 0 and --pgx-games "
                 f"pgx env ids, got --batch-sizes {','.join(map(str, args.batch_sizes))}, --seconds {args.seconds}, "
                 f"--repeats {args.repeats}, --pgx-games {args.pgx_games!r}")
    if args.pgx_python:
        return compare_pgx(args)

    res = {"players": args.players, "rules": args.rules, "cpu_count": os.cpu_count(),
           "numba_threads": None, "engine": [], "reference": None}
    import numba
    res["numba_threads"] = numba.get_num_threads()
    if not args.no_subprocess:
        with tempfile.TemporaryDirectory() as tmp:
            res["cold_cache_first_step_s"], res["cold_cache_notice"] = first_step(args.players, args.rules, tmp)
        first_step(args.players, args.rules, None)  # make sure the default cache is warm
        res["warm_cache_first_step_s"], res["warm_cache_notice"] = first_step(args.players, args.rules, None)
    bench_engine(8, args.players, args.rules, 0.0)  # compile in this process
    for B in args.batch_sizes:
        res["engine"].append(bench_engine(B, args.players, args.rules, args.seconds))
    res["reference"] = reference_speed(args.players, args.rules, args.seconds)
    ref = res["reference"]["agent_steps_per_s"]
    for row in res["engine"]:
        row["ratio_to_reference"] = row["agent_steps_per_s"] / ref
    res["memory"] = memory(args.players, args.rules)
    res["validation"] = validation_cost(args.players, args.rules)
    if args.json:
        print(json.dumps(res, indent=1))
        return res
    print(f"engine_speed: {args.players} players, rules={args.rules}, {res['cpu_count']} CPUs, "
          f"numba threads {res['numba_threads']}, obs+mask of the acting player every step")
    print(f"{'B':>6} {'agent-steps/s':>15} {'games/s':>10} {'x reference':>12}")
    for row in res["engine"]:
        print(f"{row['batch_size']:>6} {row['agent_steps_per_s']:>15,.0f} {row['games_per_s']:>10,.1f} "
              f"{row['ratio_to_reference']:>12,.0f}")
    r = res["reference"]
    print(f"{'ref':>6} {r['agent_steps_per_s']:>15,.0f} {r['games_per_s']:>10,.2f} {1:>12}")
    m = res["memory"]
    print(f"state bytes per game: {m['state_bytes_per_game']:.0f} ({args.players} players; "
          f"{m['state_bytes_per_game_5p']} with 5); 65,536 games incl. obs+mask+action buffers: {m['total_MiB']:.1f} MiB")
    v = res["validation"]
    print(f"step validation (kernels.first_illegal, always on): {v['check_ns_per_game']:.1f} ns a game; "
          f"a whole step_games call (validation included): {v['step_ns_per_game']:.0f} ns a game (B = 1024)")
    if "warm_cache_first_step_s" in res:
        print(f"first step in a fresh process: warm cache {res['warm_cache_first_step_s']:.2f} s, "
              f"cold cache (compile) {res['cold_cache_first_step_s']:.2f} s; compile notice on stderr: "
              f"cold {'yes' if res['cold_cache_notice'] else 'no'}, warm {'yes' if res['warm_cache_notice'] else 'no'}")
    return res


def compare_pgx(args) -> dict:
    """Our engine at each batch size and pgx's games at the same size, alternating, in one run."""
    import statistics

    bench_engine(8, args.players, args.rules, 0.0)  # compile
    res = {"players": args.players, "rules": args.rules, "repeats": args.repeats, "rows": []}
    for B in args.batch_sizes:
        ours, theirs = [], {g: [] for g in args.pgx_games.split(",")}
        for _ in range(args.repeats):
            ours.append(bench_engine(B, args.players, args.rules, args.seconds)["agent_steps_per_s"])
            for g in theirs:
                theirs[g].append(pgx_speed(args.pgx_python, B, args.seconds, game=g)["agent_steps_per_s"])
        for g, figs in theirs.items():
            ratios = [o / t for o, t in zip(ours, figs)]
            res["rows"].append({"batch_size": B, "pgx_game": g, "ours": ours, "pgx": figs,
                                "ours_median": statistics.median(ours), "pgx_median": statistics.median(figs),
                                "ratio_median": statistics.median(ratios)})
    if args.json:
        print(json.dumps(res, indent=1))
        return res
    print(f"engine_speed vs pgx: our engine ({args.players} players, {args.rules}, obs + mask of the acting player "
          f"every step) and pgx (JAX on the CPU), alternating {args.repeats}x, agent-steps/s")
    for r in res["rows"]:
        runs = ", ".join(f"{o:,.0f} / {t:,.0f}" for o, t in zip(r["ours"], r["pgx"]))
        print(f"B={r['batch_size']:>5} {r['pgx_game']:<14} ours {r['ours_median']:>11,.0f}  pgx {r['pgx_median']:>11,.0f}"
              f"  ratio (median of pairs) {r['ratio_median']:.2f}   runs ours/pgx: {runs}")
    return res


if __name__ == "__main__":
    main()
