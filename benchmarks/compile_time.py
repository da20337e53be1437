"""First-call cost of the common entry points: cold (numba compiles) and warm (loads the cache).

Each scenario runs in a fresh Python process, from before ``import spacemission_env`` to the
end of its first step(s), and reports CPU seconds (``time.process_time``, all the process's
threads) and wall seconds. *cold*: an empty ``NUMBA_CACHE_DIR`` of its own, so numba compiles
every kernel the scenario needs; *warm*: the same scenario again in a new process with that
directory, now filled, so every kernel loads from the cache. Also per run: how many
functions numba compiled (its "numba:compile" events on project functions, counted by
``spacemission_env.warmup.CompileLog`` as `spacemission warmup` counts them: 0 when warm),
whether the compile notice appeared on stderr, and any project kernel that ended the run
with more than one compiled signature (each extra one a compile that a single signature
would have saved).

    .venv/bin/python benchmarks/compile_time.py                      # every scenario, cold then warm
    .venv/bin/python benchmarks/compile_time.py --scenarios sm_vector,rp_vector --repeats 2 --json
    .venv/bin/python benchmarks/compile_time.py --warmup --no-cold   # `spacemission warmup` on an empty cache,
                                                                       # then every scenario against the cache it filled

Cold figures depend on the machine's load (numba's compile is single-threaded CPU work):
compare CPU seconds, and runs made in the same invocation.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

# Started before anything of the project (or numba) is imported; ends with one JSON line. The
# compiles are counted by warmup.CompileLog, registered after the import it needs (of the
# package, which is timed): the import compiles and loads no kernel, checked here, so none is missed.
PRELUDE = """
import time
_c0, _w0 = time.process_time(), time.perf_counter()
import sys as _sys
from numba.core.registry import CPUDispatcher as _D
from spacemission_env.jit import is_project_module as _is_project_module
from spacemission_env.warmup import CompileLog as _CompileLog


def _kernels():
    for _name, _mod in list(_sys.modules.items()):
        if _is_project_module(_name):
            for _k, _v in list(vars(_mod).items()):
                if isinstance(_v, _D) and _v.py_func.__module__ == _name:
                    yield _name + "." + _k, _v


_early = [_k for _k, _v in _kernels() if _v.signatures]
if _early:
    raise RuntimeError(f"kernels compiled or loaded at import, before CompileLog listened: {_early}")
_log = _CompileLog().__enter__()
"""

EPILOGUE = """
_cpu, _wall = time.process_time() - _c0, time.perf_counter() - _w0
import json as _json
_multi = {_k: [str(s) for s in _v.signatures] for _k, _v in _kernels() if len(_v.signatures) > 1}
print("RESULT " + _json.dumps({"cpu_s": _cpu, "wall_s": _wall, "compiled": _log.count,
                               "compiled_distinct": len({_c.split("(")[0] for _c in _log.compiled}),
                               "multi_signature": _multi}))
"""

# name -> (what it does, code): each one the first call a user makes through one interface.
SCENARIOS: dict[str, tuple[str, str]] = {
    "import": ("import spacemission_env (no kernel called)", "import spacemission_env"),
    "sm_pettingzoo": ("Space Mission PettingZoo AEC: env(3 players), reset, 3 steps", """
import numpy as np, spacemission_env
e = spacemission_env.env(num_players=3)
e.reset(seed=0)
for _ in range(3):
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
"""),
    "sm_vector": ("Space Mission VectorEnv(64, 3 players): reset, 3 steps", """
import spacemission_env
from spacemission_env.vector import VectorEnv
from spacemission_env.space_mission import engine
v = VectorEnv(64, num_players=3, seed=0)
obs, mask, player, infos = v.reset()
for _ in range(3):
    obs, mask, player, *_ = v.step(engine.sample_actions(mask))
"""),
    "sm_gym": ("Space Mission gymnasium.make('SpaceMission-v3', 2 players): reset, 3 steps", """
import gymnasium, numpy as np, spacemission_env
e = gymnasium.make("SpaceMission-v3", num_players=2)
obs, info = e.reset(seed=0)
for _ in range(3):
    obs, r, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
"""),
    "rp_pettingzoo": ("Red Planet PettingZoo AEC: env(game='red_planet', 3 players), reset, 3 steps", """
import numpy as np, spacemission_env
e = spacemission_env.env(game="red_planet", num_players=3)
e.reset(seed=0)
for _ in range(3):
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
"""),
    "rp_vector": ("Red Planet VectorEnv(64, 3 players): reset, 3 steps", """
import numpy as np, spacemission_env
from spacemission_env.vector import VectorEnv
v = VectorEnv(64, num_players=3, seed=0, game="red_planet")
obs, mask, player, infos = v.reset()
for _ in range(3):
    obs, mask, player, *_ = v.step(mask.argmax(axis=1))
"""),
    "rp_gym": ("Red Planet gymnasium.make('RedPlanet-v2', 3 players): reset, 3 steps", """
import gymnasium, numpy as np, spacemission_env
e = gymnasium.make("RedPlanet-v2", num_players=3)
obs, info = e.reset(seed=0)
for _ in range(3):
    obs, r, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
"""),
    "sm_arena": ("Space Mission arena: heuristic vs greedy, 2 players, 2 games", """
from spacemission_agents.arena import run_arena
run_arena(["heuristic", "greedy"], num_players=2, games=2, seed=0, progress=False, record=False)
"""),
    "rp_arena": ("Red Planet arena: heuristic vs greedy vs random, 3 players, 3 games", """
from spacemission_agents.arena import run_arena
run_arena(["heuristic", "greedy", "random"], game="red_planet", num_players=3, games=3, seed=0, progress=False,
          record=False)
"""),
}

WARMUP = "from spacemission_cli.warmup import main; main([])"


def run_one(code: str, cache_dir: str) -> dict:
    """Run ``code`` in a fresh interpreter with NUMBA_CACHE_DIR=cache_dir; its RESULT figures."""
    from spacemission_env.compile_notice import MESSAGE

    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", PRELUDE + code + EPILOGUE], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"scenario failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    res = json.loads(line[len("RESULT "):])
    res["notice"] = MESSAGE in out.stderr
    return res


def measure(names: list[str], repeats: int, warmup: bool, cold: bool = True) -> dict:
    res = {"python": sys.version.split()[0], "cpu_count": os.cpu_count(), "rows": []}
    import numba
    res["numba"] = numba.__version__
    for rep in range(repeats):
        for name in names if cold else ():
            code = SCENARIOS[name][1]
            with tempfile.TemporaryDirectory(prefix="nbcache-") as tmp:
                cold, warm = run_one(code, tmp), run_one(code, tmp)
                res["rows"].append({"scenario": name, "repeat": rep, "cold": cold, "warm": warm})
                _print_row(name, cold, warm)
        if warmup:
            with tempfile.TemporaryDirectory(prefix="nbcache-") as tmp:
                w = run_one(WARMUP, tmp)
                res["rows"].append({"scenario": "warmup", "repeat": rep, "cold": w, "warm": None})
                _print_row("warmup", w, None)
                for name in names:
                    after = run_one(SCENARIOS[name][1], tmp)
                    res["rows"].append({"scenario": name + " after warmup", "repeat": rep, "cold": after, "warm": None})
                    _print_row(name + " after warmup", after, None)
    return res


def _fmt(r: dict | None) -> str:
    if r is None:
        return f"{'':>28}"
    return f"{r['cpu_s']:7.2f} {r['wall_s']:7.2f} {r['compiled']:5d} {'yes' if r['notice'] else 'no':>5}"


def _print_row(name: str, cold: dict, warm: dict | None) -> None:
    if not getattr(_print_row, "header", False):
        _print_row.header = True
        print(f"{'scenario':<28} | {'cold: cpu s':>7} {'wall s':>7} {'jit':>5} {'note':>5} "
              f"| {'warm: cpu s':>7} {'wall s':>7} {'jit':>5} {'note':>5}")
    print(f"{name:<28} | {_fmt(cold)} | {_fmt(warm)}", flush=True)
    for r in (cold, warm):
        for k, sigs in ((r or {}).get("multi_signature") or {}).items():
            print(f"    {k}: {len(sigs)} signatures: {sigs}")


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenarios", default=",".join(SCENARIOS), help=f"comma-separated, of {', '.join(SCENARIOS)}")
    ap.add_argument("--repeats", type=int, default=1, help="times each scenario is measured, cold then warm")
    ap.add_argument("--warmup", action="store_true",
                    help="also time `spacemission warmup` on an empty cache, then each scenario after it")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold/warm pairs (with --warmup)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object at the end")
    args = ap.parse_args(argv)
    names = [s for s in args.scenarios.split(",") if s]
    unknown = [s for s in names if s not in SCENARIOS]
    if unknown:
        ap.error(f"unknown scenarios {unknown}; expected some of {', '.join(SCENARIOS)}")
    if args.repeats < 1:
        ap.error(f"--repeats must be >= 1, got {args.repeats}")
    if args.no_cold and not args.warmup:
        ap.error("--no-cold skips the cold/warm pairs: it needs --warmup, or nothing is measured")
    if not names and not args.warmup:
        ap.error("--scenarios names no scenario (and no --warmup): nothing to measure")
    res = measure(names, args.repeats, args.warmup, not args.no_cold)
    if args.json:
        print(json.dumps(res))
    return res


if __name__ == "__main__":
    main()
