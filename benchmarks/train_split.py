"""Where a PPO iteration's wall time goes, for the default ``spacemission train`` settings.

Builds the learner exactly as ``spacemission train`` does (TrainConfig defaults: 2 players,
heuristic prior, the default opponent pool; no behaviour cloning, which only changes the
weights) and runs ``--iterations`` PPO iterations (rollout of num_envs x n_steps learner
steps, then the update), timing with wrappers around:

- prior: the heuristic prior's codes (PriorVecEnv's ``prior``),
- opponents: every opponent policy's ``act_batch`` inside the VecEnv's step,
- env: the rest of the VecEnv's step (engine mask, observation, step, rewards),
- policy: the learner's forward passes during the rollout,
- update: ``model.train()``;

the remainder of the rollout (SB3's buffer and bookkeeping) is printed as ``other``. The
parts are wall seconds; ``cpu/s`` is learner steps per CPU second of this process
(time.process_time), the figure to compare on a machine other processes share.

    .venv/bin/python benchmarks/train_split.py [--iterations 2] [--num-envs 256] [--n-steps 128] [--threads 1] [--json]
    .venv/bin/python benchmarks/train_split.py --device cuda --trunk 1024,1024 --pi 512 --vf 512   # docs/training.md, "On a GPU"

``--device``, ``--trunk``, ``--pi`` and ``--vf`` are the training options of the same names.
"""
from __future__ import annotations

import json
import time
from collections import defaultdict

import numpy as np

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut


def _timed(store: dict, key: str, fn):
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            store[key] += time.perf_counter() - t0
    return wrapper


class TimedPrior:
    """The prior with its calls timed; every other attribute (observation_type, num_actions,
    kind, ...) is the prior's own, so the wrapper keeps working as the prior grows fields."""

    def __init__(self, prior, timed_call):
        self._prior, self._call = prior, timed_call

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._prior, name)


def main(argv=None) -> dict:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=2)
    ap.add_argument("--num-envs", type=int, default=None, help="default: TrainConfig's")
    ap.add_argument("--n-steps", type=int, default=None, help="default: TrainConfig's")
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: TrainConfig's)")
    ap.add_argument("--device", default=None, help="torch device: cpu, cuda, cuda:N, auto (default: TrainConfig's)")
    for layer in ("trunk", "pi", "vf"):
        ap.add_argument(f"--{layer}", default=None, help=f"{layer} layer sizes (default: TrainConfig's)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.iterations < 1 or min((v for v in (args.num_envs, args.n_steps, args.threads) if v is not None),
                                  default=1) < 1:
        ap.error(f"--iterations, --num-envs, --n-steps and --threads must be >= 1, got --iterations {args.iterations}, "
                 f"--num-envs {args.num_envs}, --n-steps {args.n_steps}, --threads {args.threads}")

    import torch

    from spacemission_env.sb3 import SpaceMissionVecEnv
    from spacemission_training import train_ppo as T
    from spacemission_training.config import TrainConfig
    from spacemission_training.pool import OpponentPool
    from spacemission_training.policy import feature_stats

    overrides = {k: getattr(args, k) for k in ("num_envs", "n_steps", "threads", "device", "trunk", "pi", "vf")
                 if getattr(args, k) is not None}
    try:
        cfg = TrainConfig(**overrides)
        T.resolve_device(cfg.device)
    except ValueError as e:
        ap.error(str(e))
    torch.set_num_threads(cfg.threads)
    pool = OpponentPool(cfg.opponents, num_players=cfg.players, max_snapshots=cfg.max_snapshots,
                        priority=cfg.priority, seed=cfg.seed)
    active, scale = feature_stats(cfg.players, cfg.rules, cfg.max_rounds, cfg.observation_type, seed=cfg.seed)
    venv = T.make_env(cfg, pool)
    model = T.build_model(cfg, venv, active, scale)
    model._last_obs = venv.reset()
    model._last_episode_starts = np.ones(cfg.num_envs, dtype=np.bool_)

    t = defaultdict(float)
    inner = getattr(venv, "venv", venv)
    assert isinstance(inner, SpaceMissionVecEnv)
    if inner is not venv:
        venv.prior = TimedPrior(venv.prior, _timed(t, "prior", venv.prior.__call__))
    for p in {id(p): p for p in inner.opponents}.values():
        p.act_batch = _timed(t, "opponents", p.act_batch)
    inner.step_wait = _timed(t, "env_step_wait", inner.step_wait)
    model.policy.forward = _timed(t, "policy", model.policy.forward)
    model.policy.predict_values = _timed(t, "policy", model.policy.predict_values)

    from stable_baselines3.common.callbacks import BaseCallback

    class Nothing(BaseCallback):
        def _on_step(self) -> bool:
            return True

    cb = Nothing()
    cb.init_callback(model)
    rows = []
    for _ in range(args.iterations):
        t.clear()
        c0 = time.process_time()
        t0 = time.perf_counter()
        model.collect_rollouts(venv, cb, model.rollout_buffer, cfg.n_steps, use_masking=True)
        t1 = time.perf_counter()
        model.train()
        t2 = time.perf_counter()
        cpu = time.process_time() - c0
        steps = cfg.num_envs * cfg.n_steps
        env = t["env_step_wait"] - t["opponents"]
        row = {"learner_steps": steps, "wall_s": t2 - t0, "steps_per_s": steps / (t2 - t0), "cpu_s": cpu,
               "steps_per_cpu_s": steps / max(cpu, 1e-9),
               "env_s": env, "opponents_s": t["opponents"], "prior_s": t["prior"], "policy_s": t["policy"],
               "update_s": t2 - t1}
        row["other_s"] = (t1 - t0) - env - t["opponents"] - t["prior"] - t["policy"]
        rows.append(row)
    res = {"config": {"players": cfg.players, "prior": cfg.prior, "opponents": cfg.opponents,
                      "num_envs": cfg.num_envs, "n_steps": cfg.n_steps, "threads": cfg.threads,
                      "device": str(model.device), "trunk": cfg.trunk, "pi": cfg.pi, "vf": cfg.vf,
                      "parameters": sum(p.numel() for p in model.policy.parameters())}, "iterations": rows}
    if args.json:
        print(json.dumps(res, indent=1))
        return res
    print(f"train_split: {cfg.players} players, prior {cfg.prior or 'none'}, opponents {cfg.opponents}, "
          f"{cfg.num_envs} envs x {cfg.n_steps} steps, torch threads {cfg.threads}, device {model.device}, "
          f"network {cfg.trunk} / {cfg.pi} / {cfg.vf} ({res['config']['parameters']:,} parameters)")
    keys = ("env_s", "opponents_s", "prior_s", "policy_s", "other_s", "update_s")
    print(f"{'iter':>4} {'steps/s':>9} {'cpu/s':>7} {'wall s':>7} " + " ".join(f"{k[:-2]:>10}" for k in keys))
    for i, r in enumerate(rows):
        print(f"{i:>4} {r['steps_per_s']:>9,.0f} {r['steps_per_cpu_s']:>7,.0f} {r['wall_s']:>7.1f} "
              + " ".join(f"{r[k]:>5.1f} {100 * r[k] / r['wall_s']:>3.0f}%" for k in keys))
    return res


if __name__ == "__main__":
    main()
