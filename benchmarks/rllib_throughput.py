"""Learner throughput: RLlib PPO (1 and 2 env runners) against the SB3 trainer, one run.

    .venv-ray/bin/python benchmarks/rllib_throughput.py            # make install-ray first
    .venv-ray/bin/python benchmarks/rllib_throughput.py --iterations 3 --out results/rllib_bench.json

Both train the same network (policy.py's default sizes: active features, trunk 256, policy
and value heads 128; no heuristic prior) for 2-player games against the random bot, one
torch thread in the learner. Learner steps are the learning seat's decisions (the
opponent's are extra env work in both). Per trainer: learner steps per second over
``--iterations`` timed iterations after one warm-up (numba compilation, Ray actors), and
where the time goes:

* SB3 (``spacemission_training.train_ppo``, MaskablePPO on the batched engine, 256
  games in one process): env (``venv.step``: the engine and the opponents), inference
  (the rest of the rollout: the policy's forward pass and SB3's buffer), learner
  (``model.train()``);
* RLlib (``spacemission_training.rllib``, the PettingZoo env, one game per env runner):
  sampling (the env runners' wall time, in parallel with each other) split by RLlib's
  own per-step timers into env steps, module inference and connectors; learner
  (``learner_update_timer``), weight sync and the rest of the iteration.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut


def sb3_run(iterations: int, num_envs: int, n_steps: int) -> dict:
    import torch

    from spacemission_training.config import TrainConfig
    from spacemission_training.policy import feature_stats
    from spacemission_training.pool import OpponentPool
    from spacemission_training.train_ppo import GameTracker, build_model, make_env

    torch.set_num_threads(1)
    cfg = TrainConfig(prior="", bc_teacher="", opponents="random=1", num_envs=num_envs, n_steps=n_steps,
                      tensorboard=False, eval_every=0, final_eval_games=0)
    pool = OpponentPool(cfg.opponents, num_players=2, seed=0)
    venv = make_env(cfg, pool)
    active, scale = feature_stats(2, cfg.rules, cfg.max_rounds, cfg.observation_type)
    model = build_model(cfg, venv, active, scale)
    model._last_obs = venv.reset()
    model._last_episode_starts = np.ones(num_envs, dtype=np.bool_)
    env_s = [0.0]
    step_wait = venv.step_wait

    def timed_step_wait():
        t = time.perf_counter()
        out = step_wait()
        env_s[0] += time.perf_counter() - t
        return out

    venv.step_wait = timed_step_wait
    tracker = GameTracker(pool, np.zeros(num_envs, dtype=np.int64))
    tracker.init_callback(model)
    rows = []
    for it in range(iterations + 1):
        env_s[0] = 0.0
        t0 = time.perf_counter()
        model.collect_rollouts(venv, tracker, model.rollout_buffer, n_steps, use_masking=True)
        t1 = time.perf_counter()
        model.train()
        t2 = time.perf_counter()
        if it:  # the first: warm-up
            rows.append(dict(steps=num_envs * n_steps, wall=t2 - t0, env=env_s[0], inference=t1 - t0 - env_s[0],
                             learner=t2 - t1))
    total = {k: sum(r[k] for r in rows) for k in rows[0]}
    return {"trainer": f"SB3 MaskablePPO, {num_envs} games batched, 1 process", "learner_steps": total["steps"],
            "wall_s": total["wall"], "learner_steps_per_s": total["steps"] / total["wall"],
            "share": {k: total[k] / total["wall"] for k in ("env", "inference", "learner")},
            "settings": dict(rollout=num_envs * n_steps, batch=cfg.batch_size, epochs=cfg.epochs)}


def _timer(runners: dict, name: str) -> float:
    v = runners.get(name)
    return float(v) if isinstance(v, (int, float)) else float("nan")


def rllib_run(num_env_runners: int, iterations: int, train_batch: int, minibatch: int) -> dict:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED_LIFETIME, TIMERS

    from spacemission_training.policy import feature_stats
    from spacemission_training.rllib import LEARNER, RLlibConfig, architecture, build_algorithm, stop_algorithm

    cfg = RLlibConfig(num_env_runners=num_env_runners, opponents="random=1", train_batch=train_batch,
                      minibatch=minibatch, epochs=4, eval_games=0, tensorboard=False)
    active, scale = feature_stats(2, cfg.rules, cfg.max_rounds, cfg.observation_type)
    algo = build_algorithm(cfg, architecture(cfg, active, scale))
    rows, before = [], 0
    try:
        for it in range(iterations + 1):
            t0 = time.perf_counter()
            result = algo.train()
            wall = time.perf_counter() - t0
            runners = result[ENV_RUNNER_RESULTS]
            if NUM_MODULE_STEPS_SAMPLED_LIFETIME not in runners:
                raise KeyError(f"no {NUM_MODULE_STEPS_SAMPLED_LIFETIME} in RLlib's results: {sorted(runners)}")
            learner_steps = int(runners[NUM_MODULE_STEPS_SAMPLED_LIFETIME][LEARNER])
            timers = result[TIMERS]
            if it:
                env_steps = int(runners["num_env_steps_sampled"])
                per_step = {k: _timer(runners, k) for k in ("env_step_timer", "rlmodule_inference_timer")}
                connectors = sum(_timer(runners.get(c, {}), "connector_pipeline_timer")
                                 for c in ("env_to_module_connector", "module_to_env_connector")
                                 if isinstance(runners.get(c), dict))
                rows.append(dict(steps=learner_steps - before, env_steps=env_steps, wall=wall,
                                 sampling=float(timers["env_runner_sampling_timer"]),
                                 learner=float(timers["learner_update_timer"]),
                                 env_per_step=per_step["env_step_timer"],
                                 inference_per_step=per_step["rlmodule_inference_timer"],
                                 connectors_per_step=connectors))
            before = learner_steps
    finally:
        stop_algorithm(algo)
    total = {k: sum(r[k] for r in rows) for k in ("steps", "env_steps", "wall")}
    mean = {k: float(np.mean([r[k] for r in rows])) for k in rows[0] if k not in total}
    sampling_share = mean["sampling"] / (total["wall"] / len(rows))
    per_step = mean["sampling"] * num_env_runners / (total["env_steps"] / len(rows))  # one runner's time per env step
    timed = mean["env_per_step"] + mean["inference_per_step"] + mean["connectors_per_step"]
    return {"trainer": f"RLlib PPO, {num_env_runners} env runner{'s' if num_env_runners > 1 else ''}",
            "learner_steps": total["steps"], "env_steps": total["env_steps"], "wall_s": total["wall"],
            "learner_steps_per_s": total["steps"] / total["wall"],
            "share": {"sampling": sampling_share, "learner": mean["learner"] / (total["wall"] / len(rows))},
            "ms_per_env_step": {"env": 1e3 * mean["env_per_step"], "inference": 1e3 * mean["inference_per_step"],
                                "connectors": 1e3 * mean["connectors_per_step"],
                                "episode bookkeeping and the rest": 1e3 * (per_step - timed)},
            "settings": dict(train_batch=train_batch, minibatch=minibatch, epochs=4)}


def main(argv=None) -> int:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=3, help="timed iterations per trainer (after one warm-up)")
    ap.add_argument("--sb3-envs", type=int, default=256)
    ap.add_argument("--sb3-n-steps", type=int, default=128, help="the trainer's default rollout: 256 x 128")
    ap.add_argument("--train-batch", type=int, default=4000)
    ap.add_argument("--minibatch", type=int, default=1000)
    ap.add_argument("--runners", default="1,2", help="RLlib env runner counts, comma-separated")
    ap.add_argument("--out", default=None, help="write the rows as JSON here")
    args = ap.parse_args(argv)
    try:
        runners = [int(x) for x in args.runners.split(",")]
    except ValueError:
        ap.error(f"--runners takes comma-separated integers, got {args.runners!r}")
    if min(args.iterations, args.sb3_envs, args.sb3_n_steps, args.train_batch, args.minibatch, *runners) < 1:
        ap.error("--iterations, --sb3-envs, --sb3-n-steps, --train-batch, --minibatch and --runners must be >= 1")
    try:
        import ray
    except ImportError:
        ap.error("Ray is not installed here: make install-ray, then run this with .venv-ray/bin/python")

    rows = [sb3_run(args.iterations, args.sb3_envs, args.sb3_n_steps)]
    print(json.dumps(rows[-1]), flush=True)
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False, configure_logging=False)
    for n in runners:
        rows.append(rllib_run(n, args.iterations, args.train_batch, args.minibatch))
        print(json.dumps(rows[-1]), flush=True)
    ray.shutdown()
    print("\n| trainer | learner steps/s | vs SB3 | where the time goes |\n|---|---:|---:|---|")
    for r in rows:
        share = ", ".join(f"{k} {v:.0%}" for k, v in r["share"].items())
        if "ms_per_env_step" in r:
            share += " (sampling per env step: " + ", ".join(f"{k} {v:.2f} ms" for k, v in r["ms_per_env_step"].items()) + ")"
        print(f"| {r['trainer']} | {r['learner_steps_per_s']:,.0f} | {r['learner_steps_per_s'] / rows[0]['learner_steps_per_s']:.3f} | {share} |")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
