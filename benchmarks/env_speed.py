"""Interface throughput (docs/interfaces.md): random play through the wrapped PettingZoo
AEC env, and the SB3 VecEnv with random opponents (plus the self-play VectorEnv).

    .venv/bin/python benchmarks/env_speed.py            # all, human-readable
    .venv/bin/python benchmarks/env_speed.py --json     # one JSON object
    .venv/bin/python benchmarks/env_speed.py --only aec --seconds 10

Targets (issue 4): AEC env() with wrappers >= 30,000 agent-steps/s (one process, one
game at a time); SpaceMissionVecEnv at 1,024 envs with random opponents >= 200,000
learner env-steps/s. Each figure is the best of ``--repeats`` timed runs of ``--seconds``
after a warm-up (numba compilation and caches excluded), which on a shared machine
measures the code rather than the neighbours.
"""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np


def aec_random_play(seconds: float, num_players: int = 2) -> dict:
    """Agent steps per second: for agent in agent_iter(): last(), pick a legal action
    uniformly from obs["action_mask"], step(). Games are reset when they end."""
    from spacemission_env.pettingzoo_env import env

    e = env(num_players=num_players)
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    steps = games = 0
    start = time.perf_counter()
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
    elapsed = time.perf_counter() - start
    return {"agent_steps_per_s": steps / elapsed, "steps": steps, "games": games, "seconds": elapsed}


def sb3_random_opponents(seconds: float, num_envs: int = 1024, num_players: int = 2) -> dict:
    """Learner env-steps per second (num_envs per step_wait) with RandomPolicy opponents
    and a random learner (the learner's action costs one batched mask-sampling call)."""
    from spacemission_env.policies import RandomPolicy
    from spacemission_env.sb3 import SpaceMissionVecEnv

    venv = SpaceMissionVecEnv(num_envs, num_players=num_players, seed=0)
    learner = RandomPolicy(seed=1)
    obs = venv.reset()
    calls = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, rewards, dones, infos = venv.step(learner.act_batch(obs, venv.action_masks()))
        calls += 1
        episodes += int(dones.sum())
    elapsed = time.perf_counter() - start
    return {"learner_steps_per_s": calls * num_envs / elapsed, "calls": calls, "episodes": episodes,
            "num_envs": num_envs, "seconds": elapsed}


def vector_self_play(seconds: float, num_envs: int = 1024, num_players: int = 2) -> dict:
    """Actions per second through VectorEnv.step (every seat random)."""
    from spacemission_env import engine
    from spacemission_env.vector import VectorEnv

    venv = VectorEnv(num_envs, num_players=num_players, seed=0)
    rng = np.random.default_rng(0)
    obs, mask, player, _ = venv.reset()
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, mask, player, *_ = venv.step(engine.sample_actions(mask, rng))
        calls += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_s": calls * num_envs / elapsed, "calls": calls, "num_envs": num_envs, "seconds": elapsed}


def best(fn, repeats: int, **kwargs) -> dict:
    fn(**{**kwargs, "seconds": min(0.5, kwargs["seconds"])})  # warm-up: numba, caches
    runs = [fn(**kwargs) for _ in range(repeats)]
    key = next(k for k in runs[0] if k.endswith("_per_s"))
    out = max(runs, key=lambda r: r[key])
    out["all_runs"] = [round(r[key]) for r in runs]
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure (best is reported)")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--only", choices=("aec", "sb3", "vector"), action="append", help="run only these (repeatable)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.num_envs < 1:
        parser.error("--seconds must be > 0, --repeats >= 1, --num-envs >= 1")
    which = args.only or ["aec", "sb3", "vector"]
    results: dict = {"python": platform.python_version(), "machine": platform.machine(), "processor_count": None}
    try:
        import os

        results["processor_count"] = len(os.sched_getaffinity(0))
        results["load_average_1min"] = round(os.getloadavg()[0], 2)  # other jobs on a shared machine
    except (AttributeError, OSError):
        pass
    if "aec" in which:
        for p in (2, 4):
            results[f"aec_env_{p}p"] = best(aec_random_play, args.repeats, seconds=args.seconds, num_players=p)
    if "sb3" in which:
        for p in (2, 4):
            results[f"sb3_vecenv_{p}p"] = best(sb3_random_opponents, args.repeats, seconds=args.seconds,
                                               num_envs=args.num_envs, num_players=p)
    if "vector" in which:
        results["vector_env_2p"] = best(vector_self_play, args.repeats, seconds=args.seconds, num_envs=args.num_envs)
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(f"python {results['python']}, {results['processor_count']} cores, "
              f"load average {results.get('load_average_1min')} at the start")
        for name, r in results.items():
            if isinstance(r, dict):
                key = next(k for k in r if k.endswith("_per_s"))
                print(f"{name:16s} {r[key]:>12,.0f} {key.replace('_per_s', '')}/s   (runs: {r['all_runs']})")
    return results


if __name__ == "__main__":
    main()
