"""Per-step cost of the batched engine's calls, optionally against an older checkout.

For each code tree (this checkout, and each ``--tree LABEL=PATH``: another checkout of the
repository, e.g. a ``git worktree add`` of an older commit, imported through PYTHONPATH in a
child process) it plays random legal games at batch B
(3 players, finished games restarted) and times each call of the loop separately:
``legal_action_mask``, ``observe`` (info, acting seat), ``sample_actions`` and ``step``, in
ns per game of this thread's CPU time (``time.thread_time``: what other processes on a shared
machine do shows up far less than in wall time). Trees alternate ``--repeats`` times in fresh processes; medians are printed,
and the ratios new/other are taken within each round.

``--blocks`` also splits this tree's observation kernel block by block: each block's cost
is the time of the full kernel minus that of a copy compiled without the block's statements
(both compiled here without the disk cache, timed on the same recorded positions). Run it
with another tree first on PYTHONPATH (and ``--repeats 0``) to split that tree's kernel.

    git worktree add /tmp/c340 c340ed5
    .venv/bin/python benchmarks/engine_profile.py --tree c340=/tmp/c340 --repeats 3 --blocks
"""
from __future__ import annotations

import importlib
import json
import os
import statistics
import subprocess
import sys
import time

try:  # this file also runs on other checkouts' packages (PYTHONPATH), older ones without it
    from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
except ImportError:
    from argparse import ArgumentParser as UsageParser

CHILD = r"""
import json, sys, time
import numpy as np
{engine_import}
B, P, steps = {B}, {P}, {steps}
st = engine.init(B, P, seeds=0)
D = engine.observation_size()
mask = np.empty((B, 100), bool); obs = np.empty((B, D), np.int8); act = np.empty(B, np.int64)
rng = np.random.default_rng(0)
kw = {step_kw}
for _ in range(3):
    engine.legal_action_mask(st, out=mask); engine.observe(st, out=obs)
    engine.sample_actions(mask, rng, out=act); engine.step(st, act, **kw)
t = dict(mask=0.0, observe=0.0, sample=0.0, step=0.0, reset=0.0)
pc = time.thread_time  # CPU time of this thread: robust to other processes on a shared machine
nxt = B
for i in range(steps):
    t0 = pc(); engine.legal_action_mask(st, out=mask)
    t1 = pc(); engine.observe(st, out=obs)
    t2 = pc(); engine.sample_actions(mask, rng, out=act)
    t3 = pc(); engine.step(st, act, **kw)
    t4 = pc()
    if st.terminated.any():
        engine.reset_finished(st, np.arange(nxt, nxt + B, dtype=np.uint64)); nxt += B
    t5 = pc()
    t["mask"] += t1 - t0; t["observe"] += t2 - t1; t["sample"] += t3 - t2; t["step"] += t4 - t3; t["reset"] += t5 - t4
n = B * steps
print(json.dumps({{k: v / n * 1e9 for k, v in t.items()}}))
"""


def run_tree(tree: str | None, B: int, P: int, steps: int) -> dict:
    env = dict(os.environ)
    step_kw = "{}"
    engine_import = "from spacemission_env.space_mission import engine"
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([tree, os.path.join(tree, "agents"), os.path.join(tree, "training")])
        api = os.path.join(tree, "spacemission_env", "space_mission", "engine", "api.py")
        if not os.path.isfile(api):  # a checkout from before the engine moved into space_mission/
            api = os.path.join(tree, "spacemission_env", "engine", "api.py")
            engine_import = "from spacemission_env import engine"
        with open(api) as f:
            if "check: bool" in f.read():  # older engines: step(check=...), unchecked path as its benchmark ran
                step_kw = "{'check': False}"
    code = CHILD.format(B=B, P=P, steps=steps, step_kw=step_kw, engine_import=engine_import)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=tree or os.getcwd())
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- observation blocks ----------------------------------------------------------------------
# each block: source lines (stripped prefixes) of the statements it removes, bodies included
BLOCKS = {
    "clear (row[:] = 0)": ["row[:] = 0"],
    "scalars (phase .. start seat)": ["row[o_tile]", "if pending[b] > 0:", "row[o_actions]", "row[o_round]",
                                      "row[o_trunc]", "row[o_end]", "row[o_over]", "row[o_roundlimit]",
                                      "row[o_revc]", "row[o_revend]", "row[o_drawn]", "row[o_discn]",
                                      "for r in range(P):", "row[o_acting", "row[o_start"],
    "ring (planets, piles, stations, probes)": ["planet = ring[b, p]"],
    "seats (ship .. visits)": ["r = (q - me) % P\n            if ship"],
    "last turns (R-I1)": ["for k in range(turn_len[b, q]):"],
    "discard pile": ["for i in range(discard_len[b]):"],
    "own hand": ["for s in range(hand_len[b, me]):"],
    "own collection": ["for t in range(NPT):\n            row[o_owncol + t]"],
    "pile seen": ["if phase[b] == 1 and cp == me:"],
    "own reservations + last-visit table": ["if full:"],
}


def _old_form(prefix: str) -> str:
    """The same statement in kernels that index ``off[O_NAME]`` instead of a local ``o_name``."""
    import re
    return re.sub(r"\bo_([a-z]+)\b", lambda m: f"off[O_{m.group(1).upper()}]", prefix)


def _remove(src: str, prefix: str) -> str:
    try:
        return _remove_one(src, prefix)
    except ValueError:
        return _remove_one(src, _old_form(prefix))


def _remove_one(src: str, prefix: str) -> str:
    """Drop the statement whose line starts (after indentation) with ``prefix``, with its body;
    a ``for``/``if`` header's body goes with it. A prefix naming the body's first line drops
    the whole enclosing loop's body (the ring and seat loops)."""
    lines = src.split("\n")
    first = prefix.split("\n")[0]
    for i, line in enumerate(lines):
        if line.strip().startswith(first) and (len(prefix.split("\n")) == 1 or
                                                lines[i + 1].strip().startswith(prefix.split("\n")[1].strip())):
            indent = len(line) - len(line.lstrip())
            if first.startswith(("planet = ring", "r = (q - me)")):  # the whole loop body: keep a `pass`
                j = i
                while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) >= indent):
                    j += 1
                return "\n".join(lines[:i] + [" " * indent + "pass"] + lines[j:])
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
                j += 1
            return "\n".join(lines[:i] + [" " * indent + "pass"] + lines[j:])
    raise ValueError(f"block statement not found: {prefix!r}")


def observe_blocks(B: int, P: int, reps: int) -> dict:
    import inspect
    import textwrap

    import numba
    import numpy as np

    from spacemission_env.space_mission import engine
    from spacemission_env.space_mission.engine import api
    O = importlib.import_module("spacemission_env.space_mission.engine.observe")  # the package exports a function `observe`
    from spacemission_env.space_mission.engine.state import TABLES

    src = textwrap.dedent(inspect.getsource(O.observe_games.py_func))
    src = "\n".join(line for line in src.split("\n") if not line.startswith("@"))

    def compile_variant(text):
        ns = dict(vars(O))
        exec(compile(text, "<observe variant>", "exec"), ns)
        return numba.njit(ns["observe_games"])

    st = engine.init(B, P, seeds=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    out = np.empty((B, engine.observation_size()), np.int8)
    args = (out, st.current_player.astype(np.int64), api._OFFSETS["info"], O.MODE_INFO, st.rules_id, st.max_rounds,
            *st.arrays()[1:], TABLES[0], TABLES[1], TABLES[3])

    def once(fn):
        t0 = time.thread_time()
        for _ in range(reps):
            fn(*args)
        return (time.thread_time() - t0) / reps / B * 1e9

    def paired(full, variant):
        """best-of-7 times of both, alternating, so that load changes hit both alike."""
        full(*args)
        variant(*args)
        a = b = float("inf")
        for _ in range(7):
            a = min(a, once(full))
            b = min(b, once(variant))
        return a, b

    full = compile_variant(src)
    res = {}
    totals = []
    for name, prefixes in BLOCKS.items():
        text = src
        for p in prefixes:
            text = _remove(text, p)
        a, b = paired(full, compile_variant(text))
        totals.append(a)
        res[name] = a - b
    res["total"] = min(totals)
    return res


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", action="append", default=[], metavar="LABEL=PATH",
                    help="another checkout of the repository to time in the same run (repeatable)")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--blocks", action="store_true", help="split the observation kernel's cost by block")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.batch < 1 or not 2 <= args.players <= 5 or args.steps < 1 or args.repeats < 0:
        ap.error(f"--batch and --steps must be >= 1, --players in 2..5 and --repeats >= 0, got --batch {args.batch}, "
                 f"--players {args.players}, --steps {args.steps}, --repeats {args.repeats}")
    if args.repeats == 0 and not args.blocks:
        ap.error("--repeats 0 times no tree: it needs --blocks, or nothing is measured")
    trees = {"this": None}
    for spec in args.tree:
        label, _, path = spec.partition("=")
        if not label or label in trees or not path or not any(
                os.path.isfile(os.path.join(path, "spacemission_env", *sub, "engine", "api.py"))
                for sub in (("space_mission",), ())):
            ap.error(f"--tree takes LABEL=PATH of a checkout of the repository (a new label, not 'this'), "
                     f"got {spec!r}")
        trees[label] = path
    runs = {k: [] for k in trees}
    for _ in range(args.repeats):
        for k, tree in trees.items():
            runs[k].append(run_tree(tree, args.batch, args.players, args.steps))
    res = {"batch": args.batch, "players": args.players, "repeats": args.repeats, "runs": runs, "median": {}}
    res["ratio_this_over"] = {}
    for k, rs in runs.items():
        if rs:
            res["median"][k] = {c: statistics.median(r[c] for r in rs) for c in rs[0]}
        if k != "this" and rs:
            res["ratio_this_over"][k] = {c: statistics.median(n[c] / o[c] for n, o in zip(runs["this"], rs))
                                         for c in rs[0]}
    if args.blocks:
        res["observe_blocks"] = observe_blocks(args.batch, args.players, 100)
    if args.json:
        print(json.dumps(res, indent=1))
        return res
    if args.repeats:
        cols = list(runs["this"][0])
        print(f"engine_profile: B={args.batch}, {args.players} players, ns per game-step, median of {args.repeats} "
              f"rounds of fresh processes, one per tree")
        print(f"{'tree':>12} " + " ".join(f"{c:>9}" for c in cols) + f" {'loop':>9}")
        for k, m in res["median"].items():
            loop = sum(m[c] for c in cols)
            print(f"{k:>12} " + " ".join(f"{m[c]:>9.1f}" for c in cols) + f" {loop:>9.1f}")
        for k, r in res["ratio_this_over"].items():
            print(f"{'this/' + k:>12} " + " ".join(f"{r[c]:>9.2f}" for c in cols))
    if args.blocks:
        print("observation kernel (info, acting seat), CPU ns per game, best of 7 alternating; block = full - without it:")
        for name, v in res["observe_blocks"].items():
            print(f"  {name:<42} {v:8.1f}")
    return res


if __name__ == "__main__":
    main()
