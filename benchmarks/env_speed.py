"""Interface throughput (docs/interfaces.md): random play through the wrapped PettingZoo
AEC env (our loop, and PettingZoo's own ``performance_benchmark``; ``aec_red_planet``: the
same loop on Mission: Red Planet), the Gymnasium env's step (``gym_red_planet``: on Red
Planet), the SB3 VecEnv with random
opponents and the self-play VectorEnv.

    .venv/bin/python benchmarks/env_speed.py            # all but the *_red_planet ones, human-readable
    .venv/bin/python benchmarks/env_speed.py --json     # one JSON object
    .venv/bin/python benchmarks/env_speed.py --only aec --seconds 10
    .venv/bin/python benchmarks/env_speed.py --baseline d448310 --only aec --only pz --only gym --repeats 7
    .venv/bin/python benchmarks/env_speed.py --baseline HEAD~1 --only aec_red_planet --repeats 7
    .venv/bin/python benchmarks/env_speed.py --baseline HEAD~1 --only gym --only gym_red_planet --repeats 5

Each figure is the best of ``--repeats`` timed runs of ``--seconds`` after a warm-up
(numba compilation and caches excluded), which on a shared machine measures the code
rather than the neighbours.

``--baseline REV`` compares this tree with the ``spacemission_env`` package of git revision
``REV`` (extracted once into the temporary directory, where numba caches its compiled
kernels): the same measurement runs in a fresh process per run, alternately on REV
("before") and on this tree ("after"), ``--repeats`` times each, and the medians and their
ratio are printed, per wall-clock second and per CPU second of the process (the second
moves less with the load of a shared machine).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

try:  # this file also runs on other checkouts' packages (PYTHONPATH), older ones without it
    from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
except ImportError:
    from argparse import ArgumentParser as UsageParser

BENCHMARKS = ("aec", "aec_red_planet", "pz", "gym", "gym_red_planet", "sb3", "vector")
# without --only; the *_red_planet ones on request: the recorded run of docs/interfaces.md is Space Mission's
DEFAULT = ("aec", "pz", "gym", "sb3", "vector")


def _rates(count: int, wall: float, cpu: float, unit: str) -> dict:
    return {f"{unit}_per_s": count / wall, f"{unit}_per_cpu_s": count / max(cpu, 1e-9), "seconds": wall}


def aec_random_play(seconds: float, num_players: int = 2, game: str = "spacemission") -> dict:
    """Agent steps per second: for agent in agent_iter(): last(), pick a legal action
    uniformly from obs["action_mask"], step(). Games are reset when they end."""
    from spacemission_env.pettingzoo_env import env

    e = env(num_players=num_players, game=game)
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    steps = games = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rng.random() * legal.size)])
            e.step(action)
            steps += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
        e.reset()
    out = _rates(steps, time.perf_counter() - start, time.process_time() - cpu0, "agent_steps")
    return out | {"steps": steps, "games": games}


def pettingzoo_benchmark(seconds: float, num_players: int = 2) -> dict:
    """PettingZoo's own ``pettingzoo.test.performance_benchmark`` on ``env()`` (it runs 5 s
    whatever ``seconds``): its "turns per second" are agent steps per second."""
    import random

    from pettingzoo.test import performance_benchmark

    from spacemission_env.pettingzoo_env import env

    random.seed(0)  # performance_benchmark samples with the random module
    e = env(num_players=num_players)
    text = io.StringIO()
    start, cpu0 = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(text):
        performance_benchmark(e)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    turns = float(re.search(r"([\d.e+]+) turns per second", text.getvalue()).group(1))  # its own figure
    return {"agent_steps_per_s": turns, "agent_steps_per_cpu_s": turns * wall / max(cpu, 1e-9), "seconds": wall}


def gym_random_play(seconds: float, num_players: int = 2, game: str = "spacemission") -> dict:
    """Learner steps per second of the Gymnasium env (``GameEnv.step``: the learner's
    action, then the RandomPolicy opponents until the learner is to act), the learner
    picking uniformly among ``info["action_mask"]`` (about num_players agent steps each)."""
    from spacemission_env.gym_env import GameEnv
    from spacemission_env.policies import RandomPolicy

    e = GameEnv(num_players=num_players, opponents=RandomPolicy(seed=1), game=game)
    rng = np.random.default_rng(0)
    _, info = e.reset(seed=0)
    steps = episodes = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = e.step(int(legal[int(rng.random() * legal.size)]))
        steps += 1
        if terminated or truncated:
            episodes += 1
            if time.perf_counter() >= deadline:
                break
            _, info = e.reset()
    out = _rates(steps, time.perf_counter() - start, time.process_time() - cpu0, "learner_steps")
    return out | {"steps": steps, "episodes": episodes}


def sb3_random_opponents(seconds: float, num_envs: int = 1024, num_players: int = 2) -> dict:
    """Learner env-steps per second (num_envs per step_wait) with RandomPolicy opponents
    and a random learner (the learner's action costs one batched mask-sampling call)."""
    from spacemission_env.policies import RandomPolicy
    from spacemission_env.sb3 import SpaceMissionVecEnv

    venv = SpaceMissionVecEnv(num_envs, num_players=num_players, seed=0)
    learner = RandomPolicy(seed=1)
    obs = venv.reset()
    calls = episodes = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, rewards, dones, infos = venv.step(learner.act_batch(obs, venv.action_masks()))
        calls += 1
        episodes += int(dones.sum())
    out = _rates(calls * num_envs, time.perf_counter() - start, time.process_time() - cpu0, "learner_steps")
    return out | {"calls": calls, "episodes": episodes, "num_envs": num_envs}


def vector_self_play(seconds: float, num_envs: int = 1024, num_players: int = 2) -> dict:
    """Actions per second through VectorEnv.step (every seat random)."""
    from spacemission_env.space_mission import engine
    from spacemission_env.vector import VectorEnv

    venv = VectorEnv(num_envs, num_players=num_players, seed=0)
    rng = np.random.default_rng(0)
    obs, mask, player, _ = venv.reset()
    calls = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, mask, player, *_ = venv.step(engine.sample_actions(mask, rng))
        calls += 1
    out = _rates(calls * num_envs, time.perf_counter() - start, time.process_time() - cpu0, "steps")
    return out | {"calls": calls, "num_envs": num_envs}


def figures(which: list[str], num_envs: int) -> list[tuple[str, object, dict]]:
    """(name, function, arguments) of every figure of the selected benchmarks."""
    out = []
    if "aec" in which:
        out += [(f"aec_env_{p}p", aec_random_play, {"num_players": p}) for p in (2, 4)]
    if "aec_red_planet" in which:
        out += [(f"aec_red_planet_{p}p", aec_random_play, {"num_players": p, "game": "red_planet"}) for p in (3, 4, 5)]
    if "pz" in which:
        out += [("pz_benchmark_2p", pettingzoo_benchmark, {"num_players": 2})]
    if "gym" in which:
        out += [(f"gym_env_{p}p", gym_random_play, {"num_players": p}) for p in (2, 4)]
    if "gym_red_planet" in which:
        out += [(f"gym_red_planet_{p}p", gym_random_play, {"num_players": p, "game": "red_planet"}) for p in (3, 4, 5)]
    if "sb3" in which:
        out += [(f"sb3_vecenv_{p}p", sb3_random_opponents, {"num_envs": num_envs, "num_players": p}) for p in (2, 4)]
    if "vector" in which:
        out += [("vector_env_2p", vector_self_play, {"num_envs": num_envs})]
    return out


def rate_key(result: dict) -> str:
    return next(k for k in result if k.endswith("_per_s"))


def best(fn, repeats: int, **kwargs) -> dict:
    if fn is not pettingzoo_benchmark:
        fn(**{**kwargs, "seconds": min(0.5, kwargs["seconds"])})  # warm-up: numba, caches
    else:
        aec_random_play(seconds=0.5, num_players=kwargs["num_players"])
    runs = [fn(**kwargs) for _ in range(repeats)]
    key = rate_key(runs[0])
    out = max(runs, key=lambda r: r[key])
    out["all_runs"] = [round(r[key]) for r in runs]
    return out


def machine() -> dict:
    out = {"python": platform.python_version(), "machine": platform.machine(), "processor_count": None}
    with contextlib.suppress(AttributeError, OSError):
        out["processor_count"] = len(os.sched_getaffinity(0))
        out["load_average_1min"] = round(os.getloadavg()[0], 2)  # other jobs on a shared machine
    return out


# --- before/after -------------------------------------------------------------------------
def baseline_tree(rev: str) -> Path:
    """``spacemission_env`` of git revision ``rev``, extracted once into the temporary
    directory (kept, so that numba's cache of its kernels survives between runs)."""
    root = Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=root, capture_output=True,
                            text=True, check=True).stdout.strip()
    target = Path(tempfile.gettempdir()) / f"spacemission_env_baseline_{commit[:12]}"
    if not (target / "spacemission_env" / "__init__.py").is_file():
        archive = subprocess.run(["git", "archive", commit, "spacemission_env"], cwd=root, capture_output=True,
                                 check=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            try:
                tar.extractall(target, filter="data")
            except TypeError:  # a Python without extraction filters
                tar.extractall(target)
    return target


def one_run(name: str, args: argparse.Namespace, package_dir: Path | None) -> dict:
    """One timed run of figure ``name`` in a fresh process, on the package in
    ``package_dir`` (None: the installed one, this tree)."""
    env = dict(os.environ)
    if package_dir is not None:
        env["PYTHONPATH"] = str(package_dir) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, __file__, "--json", "--figure", name, "--repeats", "1", "--seconds", str(args.seconds),
           "--num-envs", str(args.num_envs)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    if package_dir is not None and not result["package"].startswith(str(package_dir)):
        raise RuntimeError(f"the baseline run imported {result['package']}, not the package of {package_dir}")
    return result[name]


def compare(args: argparse.Namespace, which: list[str]) -> dict:
    before_dir = baseline_tree(args.baseline)
    results = {"baseline": args.baseline, "repeats": args.repeats, **machine(), "figures": {}}
    for name, _, _ in figures(which, args.num_envs):
        runs = {"before": [], "after": []}
        for _ in range(args.repeats):  # alternate, so that both meet the same neighbours
            runs["before"].append(one_run(name, args, before_dir))
            runs["after"].append(one_run(name, args, None))
        key = rate_key(runs["after"][0])
        cpu_key = key.replace("_per_s", "_per_cpu_s")
        row = {}
        for k in (key, cpu_key):
            b = statistics.median(r[k] for r in runs["before"])
            a = statistics.median(r[k] for r in runs["after"])
            row[k] = {"before": b, "after": a, "ratio": a / b, "before_runs": [round(r[k]) for r in runs["before"]],
                      "after_runs": [round(r[k]) for r in runs["after"]]}
        results["figures"][name] = row
    return results


def print_comparison(results: dict) -> None:
    print(f"python {results['python']}, {results['processor_count']} cores, load average "
          f"{results.get('load_average_1min')} at the start; before = {results['baseline']}, after = this tree; "
          f"medians of {results['repeats']} alternating runs")
    for name, row in results["figures"].items():
        for key, r in row.items():
            unit = key.replace("_per_cpu_s", "/cpu-s").replace("_per_s", "/s")
            print(f"{name:16s} {unit:22s} before {r['before']:>10,.0f}  after {r['after']:>10,.0f}  "
                  f"ratio {r['ratio']:.2f}   (before {r['before_runs']}, after {r['after_runs']})")


def main(argv=None) -> dict:
    parser = UsageParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure (best is reported)")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--only", choices=BENCHMARKS, action="append", help="run only these (repeatable)")
    parser.add_argument("--baseline", metavar="REV", help="compare with git revision REV (median of --repeats "
                                                          "alternating runs each)")
    parser.add_argument("--figure", help=argparse.SUPPRESS)  # one figure by name (--baseline's child runs)
    args = parser.parse_args(argv)
    if not 0 < args.seconds < float("inf") or args.repeats < 1 or args.num_envs < 1:
        parser.error("--seconds must be a finite number > 0, --repeats >= 1, --num-envs >= 1")
    which = args.only or list(BENCHMARKS if args.figure else DEFAULT)  # --figure (a --baseline child): any figure
    if args.baseline:
        try:
            baseline_tree(args.baseline)  # extracted once; compare() finds it there
        except subprocess.CalledProcessError as e:
            detail = e.stderr.decode() if isinstance(e.stderr, bytes) else e.stderr or ""
            parser.error(f"--baseline {args.baseline!r}: no spacemission_env at that git revision ({detail.strip()})")
        results = compare(args, which)
        print(json.dumps(results, indent=1)) if args.json else print_comparison(results)
        return results
    import spacemission_env

    results: dict = machine() | {"package": str(Path(spacemission_env.__file__).parent)}
    for name, fn, kwargs in figures(which, args.num_envs):
        if args.figure is None or args.figure == name:
            results[name] = best(fn, args.repeats, seconds=args.seconds, **kwargs)
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(f"python {results['python']}, {results['processor_count']} cores, "
              f"load average {results.get('load_average_1min')} at the start")
        for name, r in results.items():
            if isinstance(r, dict):
                key = rate_key(r)
                print(f"{name:16s} {r[key]:>12,.0f} {key.replace('_per_s', '')}/s   (runs: {r['all_runs']})")
    return results


if __name__ == "__main__":
    main()
