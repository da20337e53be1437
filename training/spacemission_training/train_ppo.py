"""Train a PPO agent for a game of the protocol (Space Mission by default; ``--game
red_planet``, with that game's defaults, config.GAME_DEFAULTS): MaskablePPO (sb3-contrib) on
the batched GameVecEnv, for Space Mission with the heuristic bot's plan values as a prior (prior.py), warm-started
by behaviour cloning, against an opponent pool of bots and snapshots of itself. Also
``spacemission train``; docs/training.md.

    python -m spacemission_training.train_ppo --steps 3000000 --seed 0 --run-dir runs/a
    python -m spacemission_training.train_ppo --resume runs/a        # after a kill or Ctrl-C

Ctrl-C or SIGTERM stops at the end of the iteration in progress with a checkpoint (exit
status 130 or 143; a second one stops at once); resuming a finished run changes nothing (``Interrupt``,
``finished_step``; docs/training.md, "Checkpoints and resume").

The whole run, top to bottom (``train``):

1. configuration: defaults < ``--config`` file < flags; saved as ``run_dir/config.json``
   with the command line and the package versions;
2. the opponent pool (pool.py) and, for a warm start, the teacher's decisions (bc.py);
3. the network (policy.py): input features and scales from a sample of observations,
   the prior's codes as extra inputs and a bias on the logits (prior.py), shared trunk,
   policy and value heads; cloned from the teacher with the value head fitted to
   Monte-Carlo returns (or, with ``init_from``, a saved model's actor loaded exactly and
   only the value head fitted: init_from.py); its first snapshot joins the pool;
4. the env: ``num_envs`` games, the learner in a random seat, each game's opponents drawn
   from the pool, the prior's codes appended to the learner's observations; shaping uses
   the learner's own gamma;
5. the PPO loop, written out (SB3's ``collect_rollouts`` and ``train`` called directly):
   after each update, log; every ``snapshot_every`` steps add a snapshot to the pool;
   every ``eval_every`` evaluate in the arena; every ``checkpoint_every`` checkpoint
   (checkpoint.py: resuming continues exactly);
6. at the end: the final arena evaluation, ``final.npz`` (a numpy PPOAgent),
   ``learning_curve.png`` and ``summary.json``.
"""
from __future__ import annotations

import json
import sys
from collections import deque
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.utils import set_random_seed

from spacemission_agents.ppo import PPOAgent
from spacemission_agents.registry import make_agent
from spacemission_env.checks import cut_long_words, shown_path
from spacemission_env.env_common import observation_box
from spacemission_env.games import get_game
from spacemission_env.sb3 import GameVecEnv
from gymnasium import spaces

from . import bc, checkpoint, init_from
from .lifecycle import (Interrupt, env_id, exit_status, finished_step, record_resume, run_commands,
                        sigterm_stops_at_once)
from .device import resolve_device
from .config import TrainConfig, spec_file, versions
from .config_cli import RESUME_OVERRIDES, build_parser, parse_args
from .logs import Progress, RunLog, evaluate, metric_name, plot_curves
from .policy import Architecture, feature_stats, policy_kwargs, to_agent
from .pool import SELF, OpponentPool, parse_weights
from .prior import PriorMaskablePolicy, PriorVecEnv, augmented_box
from .run_paths import check_run_dir_writable, folder_write_problem, refuse_existing_run

__all__ = ["main", "train"]


class GameTracker(BaseCallback):
    """Reads the games that end during a rollout: per-opponent results into the pool (the
    prioritized weights), and per-group scores, round-limit share and game length for the
    logs of this iteration."""

    def __init__(self, pool: OpponentPool, lengths: np.ndarray):
        super().__init__()
        self.pool, self.lengths = pool, lengths
        self.clear()

    def clear(self) -> None:
        self.results: dict[str, list[float]] = {}
        self.ended, self.round_limit, self.length_sum, self.success = 0, 0, 0, 0

    def _on_step(self) -> bool:
        infos, dones = self.locals["infos"], self.locals["dones"]
        self.lengths += 1
        for k, r in self.pool.record(infos, dones):
            self.results.setdefault(self.pool.entries[k].group, []).append(r)
        for i in np.flatnonzero(dones):
            self.ended += 1
            self.round_limit += int(infos[i]["round_limit"])
            self.success += int(infos[i]["is_success"])
            self.length_sum += int(self.lengths[i])
            self.lengths[i] = 0
        return True

    def values(self) -> dict:
        out = {f"games/{metric_name(g)}/score": float(np.mean(r)) for g, r in self.results.items()}
        if self.ended:
            out.update({"games/ended": self.ended, "games/round_limit_share": self.round_limit / self.ended,
                        "games/success": self.success / self.ended, "games/length": self.length_sum / self.ended})
        return out


def default_run_dir(cfg: TrainConfig) -> Path:
    game = "" if cfg.game == "spacemission" else f"{cfg.game}-"
    return Path("runs") / f"ppo-{game}{cfg.players}p-s{cfg.seed}"


def make_prior(cfg: TrainConfig):
    """The policy prior (agents/spacemission_agents/ppo_prior.py), or None without ``--prior``."""
    if not cfg.prior:
        return None
    from spacemission_agents.ppo_prior import make_prior as make

    return make(cfg.prior, game=cfg.game)


def make_env(cfg: TrainConfig, pool: OpponentPool) -> GameVecEnv | PriorVecEnv:
    """The learner's env: ``num_envs`` games against the pool, with the prior's codes appended."""
    venv = GameVecEnv(cfg.num_envs, game=cfg.game, num_players=cfg.players, rules=cfg.rules, max_rounds=cfg.max_rounds,
                              observation_type=cfg.observation_type, reward=cfg.reward, shaping=cfg.shaping,
                              gamma=cfg.env_gamma, seed=cfg.seed, opponents=pool.policies,
                              opponent_sampler=pool.sample)
    prior = make_prior(cfg)
    return venv if prior is None else PriorVecEnv(venv, prior)


def policy_class(cfg: TrainConfig):
    return PriorMaskablePolicy if cfg.prior else MaskableActorCriticPolicy


def learner_kwargs(cfg: TrainConfig, active, scale) -> dict:
    return policy_kwargs(arch_of(cfg), active, scale, prior_beta=cfg.prior_beta if cfg.prior else None,
                         num_actions=get_game(cfg.game).num_actions)


def build_model(cfg: TrainConfig, venv, active, scale) -> MaskablePPO:
    lr = cfg.lr
    model = MaskablePPO(
        policy_class(cfg), venv, learning_rate=lambda p: lr * (cfg.lr_final + (1 - cfg.lr_final) * p),
        n_steps=cfg.n_steps, batch_size=cfg.batch_size, n_epochs=cfg.epochs, gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda, clip_range=cfg.clip, ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef,
        max_grad_norm=cfg.max_grad_norm, target_kl=cfg.target_kl or None, seed=cfg.seed,
        device=resolve_device(cfg.device),
        policy_kwargs=learner_kwargs(cfg, active, scale))
    model.set_logger(Logger(folder=None, output_formats=[]))  # train() records here; we read and log it
    model.ep_info_buffer, model.ep_success_buffer = deque(maxlen=1), deque(maxlen=1)  # SB3 fills them; unused
    return model


def arch_of(cfg: TrainConfig) -> Architecture:
    return Architecture(trunk=cfg.layers("trunk"), pi=cfg.layers("pi"), vf=cfg.layers("vf"))


def _training_record(run_dir: Path, command: list[str], step: int, cfg: TrainConfig, wall_s: float, cpu_s: float) -> dict:
    """A saved model's ``metadata["training"]``: the run's commands (lifecycle.run_commands),
    its step, seed, wall and process CPU seconds so far, and its configuration."""
    return {**run_commands(run_dir, command), "steps": int(step), "seed": cfg.seed, "wall_s": round(wall_s, 1),
            "process_cpu_s": round(cpu_s, 1), "config": cfg.as_dict()}


def export(model_or_policy, cfg: TrainConfig, training: dict | None = None, temperature: float = 0.0, name="ppo"):
    policy = getattr(model_or_policy, "policy", model_or_policy)
    return to_agent(policy, game=cfg.game, observation_type=cfg.observation_type, num_players=cfg.players, rules=cfg.rules,
                    max_rounds=cfg.max_rounds, arch=arch_of(cfg), training=training, temperature=temperature,
                    name=name, prior=make_prior(cfg))


def snapshot_seed(cfg: TrainConfig, step: int) -> int:
    return int(np.random.SeedSequence([cfg.seed, 11, step]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def model_files_sha256(specs, game: str) -> dict[str, str]:
    """{path: sha256} of the model files that the ``ppo:PATH`` agent specs among ``specs``
    read: the ``--bc-cache`` key holds them, so a file replaced at the same path is a new
    teacher (or opponent), not the cached one."""
    from spacemission_agents.value import file_sha256

    paths = (spec_file(spec, game) for spec in specs)
    return {path: file_sha256(path) for path in paths if path and Path(path).is_file()}


def warm_start(cfg: TrainConfig, log) -> tuple[MaskableActorCriticPolicy, np.ndarray, np.ndarray, dict]:
    """The network before PPO: features from a sample of observations; cloned from the
    teacher (and its value head fitted) when ``bc_teacher`` is set. With ``init_from``:
    the file's features and actor, exactly, and a value head fitted on the decisions of
    that policy (init_from.py)."""
    data, stats = None, {}
    init = init_from.check(cfg) if cfg.init_from else None
    spec = init_from.teacher_spec(cfg) if init is not None else cfg.bc_teacher
    if spec and cfg.bc_samples > 0:
        # the loaded policy samples its moves as PPO's rollouts will; a bot teacher plays as it does
        teacher = (PPOAgent(init.params, init.metadata, temperature=1.0, seed=cfg.seed, name=init.name)
                   if init is not None else make_agent(spec, seed=cfg.seed, game=cfg.game))
        weights = parse_weights(cfg.opponents)  # the PPO pool's bots; "self" becomes the teacher itself
        self_w = weights.pop(SELF, 0.0)
        weights[spec] = weights.get(spec, 0.0) + self_w
        settings: dict[str, Any]  # bc.collect's keyword arguments, and the cache's key
        settings = dict(game=cfg.game, teacher=spec, opponents=weights, num_envs=cfg.num_envs,
                        samples=cfg.bc_samples,
                        num_players=cfg.players, rules=cfg.rules, max_rounds=cfg.max_rounds,
                        observation_type=cfg.observation_type, reward=cfg.reward, shaping=cfg.shaping,
                        gamma=cfg.env_gamma, return_gamma=cfg.gamma, seed=cfg.seed + 1, prior=cfg.prior)
        if init is not None:
            settings["teacher_temperature"] = 1.0
        prior = make_prior(cfg)
        # the cache's key also holds what the spec texts do not: the model files' contents, the prior's parameters
        # and the environment version (its rewards make the returns the value head is fitted to)
        key = {**settings, "env_id": env_id(cfg.game),
               "model_files_sha256": model_files_sha256([spec, *weights], cfg.game),
               "prior_description": None if prior is None else prior.describe()}
        data = bc.load_cache(cfg.bc_cache, key) if cfg.bc_cache else None
        if data is None:
            data_pool = OpponentPool(weights, num_players=cfg.players, seed=cfg.seed + 1, game=cfg.game)
            data = bc.collect(teacher, data_pool, wrap=None if prior is None else (lambda v: PriorVecEnv(v, prior)),
                              **{k: v for k, v in settings.items()
                                 if k not in ("teacher", "opponents", "prior", "teacher_temperature")})
            if cfg.bc_cache:
                bc.save_cache(cfg.bc_cache, key, data)
        stats = {"bc/samples": len(data["action"]), "bc/games": data["games"], "bc/collect_s": data["seconds"]}
        log(stats)
    game = get_game(cfg.game)
    box = observation_box(cfg.observation_type, np.int8, game.description)
    if init is not None:
        active, scale = init.params["active"].astype(np.int64), init.params["scale"].astype(np.float32)
    else:
        active, scale = feature_stats(cfg.players, cfg.rules, cfg.max_rounds, cfg.observation_type, seed=cfg.seed,
                                      game=cfg.game,
                                      extra=None if data is None else data["obs"][:, :box.shape[0]])
    if cfg.prior:
        box = augmented_box(box, game.num_actions)
    policy = policy_class(cfg)(box, spaces.Discrete(game.num_actions), lambda _: cfg.bc_lr,
                               **learner_kwargs(cfg, active, scale))
    if init is not None:
        init_from.load_actor(policy, init)
    policy.to(resolve_device(cfg.device))  # cloning runs where PPO will
    if data is not None and cfg.bc_epochs > 0:
        t0 = time.perf_counter()
        stats.update(bc.pretrain(policy, data, epochs=cfg.bc_epochs, lr=cfg.bc_lr, batch_size=cfg.bc_batch,
                                 vf_coef=cfg.vf_coef, seed=cfg.seed, log=log, value_only=init is not None))
        stats["bc/train_s"] = time.perf_counter() - t0
    return policy, active, scale, stats


def train(cfg: TrainConfig, resume: str | None = None, argv: list[str] | None = None) -> dict:
    """Run (or resume) a training run; returns the summary (also ``run_dir/summary.json``)."""
    torch.set_num_threads(cfg.threads)
    device = resolve_device(cfg.device)  # ValueError before any file is written
    run_dir = Path(resume) if resume else Path(cfg.run_dir) if cfg.run_dir else default_run_dir(cfg)
    ckpt_path = run_dir / "checkpoints" / "last.pt"
    wall0, cpu0 = time.perf_counter(), time.process_time()
    command = ["spacemission", "train", *(sys.argv[1:] if argv is None else argv)]
    eval_opponents = [s.strip() for s in cfg.eval_opponents.split(",") if s.strip()]
    iteration_steps = cfg.num_envs * cfg.n_steps

    # --- 1-4: a fresh run, or the state of a killed one ------------------------------------
    if resume:
        blob = checkpoint.load(ckpt_path)  # ResumeError naming the file: nothing is written before
        checkpoint.check_run(blob, ckpt_path, cfg.as_dict(), ignore=RESUME_OVERRIDES)
        done = finished_step(run_dir, int(blob["sb3"]["num_timesteps"]), cfg.steps)
        if done is not None:  # nothing to train: leave the run's files as they are
            return {"run_dir": str(run_dir), "finished": done}
        world, loop = blob["world"], blob["loop"]
        venv, pool = world["venv"], world["pool"]
        model = build_model(cfg, venv, np.array(loop["active"]), np.array(loop["scale"], dtype=np.float32))
        checkpoint.restore_model(model, blob)
        saved = json.loads((run_dir / "config.json").read_text())
        saved["config"] = cfg.as_dict()
        record_resume(saved, cfg.game, command=command, step=int(model.num_timesteps), device=str(device))
        (run_dir / "config.json").write_text(json.dumps(saved, indent=2))
        # a run killed in its end (after its final/ rows, before summary.json) ends again from its
        # last checkpoint, at the same step: its final/ rows there go, not to be logged twice
        runlog = RunLog(run_dir, resume_step=int(model.num_timesteps), tensorboard=cfg.tensorboard,
                        drop_at_resume_step=("final/",) if model.num_timesteps >= cfg.steps else ())
    else:
        refuse_existing_run(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.json").write_text(json.dumps(
            {"config": cfg.as_dict(), "env_id": env_id(cfg.game), "command": command, "versions": versions(),
             "device": str(device),
             "started": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=2))
        runlog = RunLog(run_dir, tensorboard=cfg.tensorboard)
        set_random_seed(cfg.seed)
        # (weights: the option's text, which OpponentPool parses: parse_weights)
        pool = OpponentPool(cfg.opponents, num_players=cfg.players, max_snapshots=cfg.max_snapshots,  # type: ignore[arg-type]
                            priority=cfg.priority, seed=cfg.seed, game=cfg.game)
        policy, active, scale, bc_stats = warm_start(cfg, lambda v: runlog.log(0, v, time.perf_counter() - wall0))
        if pool.weights.get(SELF, 0) > 0:
            pool.add_snapshot(export(policy, cfg, temperature=cfg.snapshot_temperature, name="self@0"), 0)
            pool.entries[-1].policy.seed(snapshot_seed(cfg, 0))
        venv = make_env(cfg, pool)
        model = build_model(cfg, venv, active, scale)
        model.policy.load_state_dict(policy.state_dict())
        # SB3's loop state, set as its learn() would: SB3 has no public API for a loop written
        # out, so these private members are used within the versions pyproject's sb3 extra
        # allows (tests/training/test_sb3_version_bound.py checks the bound and the members)
        model._last_obs = venv.reset()
        model._last_episode_starts = np.ones(cfg.num_envs, dtype=np.bool_)
        world = {"venv": venv, "pool": pool, "lengths": np.zeros(cfg.num_envs, dtype=np.int64)}
        loop = {"active": active.tolist(), "scale": scale.tolist(), "next_snapshot": cfg.snapshot_every,
                "next_eval": cfg.eval_every if cfg.eval_every else None, "next_checkpoint": cfg.checkpoint_every,
                "wall_s": 0.0, "cpu_s": 0.0, "evals": []}
        if cfg.eval_every:  # the warm-started policy's strength: the curves' first point
            e = evaluate(export(model, cfg), eval_opponents, num_players=cfg.players, rules=cfg.rules,
                         max_rounds=cfg.max_rounds, game=cfg.game, games=cfg.eval_games, seed=cfg.eval_seed)
            loop["evals"].append({"step": 0, **e})
            runlog.log(0, e, time.perf_counter() - wall0)
    wall_before, cpu_before = loop["wall_s"], loop["cpu_s"]

    def elapsed() -> tuple[float, float]:
        return wall_before + time.perf_counter() - wall0, cpu_before + time.process_time() - cpu0

    tracker = GameTracker(pool, world["lengths"])
    tracker.init_callback(model)
    progress = Progress(planned_end(int(model.num_timesteps), cfg.steps, iteration_steps), int(model.num_timesteps),
                        enabled={"auto": None, "bar": True, "lines": False}[cfg.progress])

    # --- 5: the PPO loop ---------------------------------------------------------------------
    stopped = False
    interrupt = Interrupt(run_dir, lambda: int(model.num_timesteps))
    try:
        while model.num_timesteps < cfg.steps:
            t0 = time.perf_counter()
            tracker.clear()
            model.collect_rollouts(venv, tracker, model.rollout_buffer, cfg.n_steps, use_masking=True)
            t1 = time.perf_counter()
            model._update_current_progress_remaining(model.num_timesteps, cfg.steps)  # SB3 private, bounded
            model.train()
            t2 = time.perf_counter()
            step = int(model.num_timesteps)
            values = {k: v for k, v in model.logger.name_to_value.items()}
            model.logger.dump(step)  # clears the recorded values (no output formats)
            values.update(tracker.values())
            values.update({"time/steps_per_s": iteration_steps / (t2 - t0), "time/rollout_s": t1 - t0,
                           "time/update_s": t2 - t1, "train/lr": model.policy.optimizer.param_groups[0]["lr"]})
            values.update({f"pool/{metric_name(e['name'])}/p": e["probability"] for e in pool.summary()})
            runlog.log(step, values, elapsed()[0])

            if step >= loop["next_snapshot"] and pool.weights.get(SELF, 0) > 0:  # without 'self': no snapshots
                snap = export(model, cfg, temperature=cfg.snapshot_temperature, name=f"self@{step}")
                snap.seed(snapshot_seed(cfg, step))
                pool.add_snapshot(snap, step, in_progress=venv.opponent_assignment)
                venv.set_opponent_pool(pool.policies)
                loop["next_snapshot"] += cfg.snapshot_every * (1 + (step - loop["next_snapshot"]) // cfg.snapshot_every)
            if loop["next_eval"] is not None and step >= loop["next_eval"] and step < cfg.steps:
                e = evaluate(export(model, cfg), eval_opponents, num_players=cfg.players, rules=cfg.rules,
                             max_rounds=cfg.max_rounds, game=cfg.game, games=cfg.eval_games, seed=cfg.eval_seed)
                loop["evals"].append({"step": step, **e})
                runlog.log(step, e, elapsed()[0])
                loop["next_eval"] += cfg.eval_every * (1 + (step - loop["next_eval"]) // cfg.eval_every)
            stop_now = (bool(cfg.stop_after_steps) and step >= cfg.stop_after_steps or interrupt.requested) \
                and step < cfg.steps
            if step >= loop["next_checkpoint"] or stop_now:
                loop["wall_s"], loop["cpu_s"] = elapsed()
                loop["config"] = cfg.as_dict()  # resume checks that the checkpoint is this run's
                runlog.flush()  # everything logged up to the checkpoint's step is on disk before it
                checkpoint.save(ckpt_path, model, world, loop)
                if cfg.checkpoint_models:  # with how it was made, as final.npz: a checkpoint may be the one shipped
                    record = _training_record(run_dir, command, step, cfg, loop["wall_s"], loop["cpu_s"])
                    export(model, cfg, training=record, name=f"ppo@{step}").save(ckpt_path.parent / f"step_{step}.npz")
                if step >= loop["next_checkpoint"]:
                    loop["next_checkpoint"] += cfg.checkpoint_every * (
                        1 + (step - loop["next_checkpoint"]) // cfg.checkpoint_every)
            runlog.flush()
            progress.update(step, _progress_text(runlog.latest))
            if stop_now:
                stopped = True
                break
    finally:
        interrupt.restore()
        progress.close()

    if stopped:
        runlog.close()
        out = {"run_dir": str(run_dir), "stopped_at": int(model.num_timesteps)}
        if interrupt.requested:
            out["interrupted"] = True
            out["exit_status"] = interrupt.exit_status  # 130: Ctrl-C, 143: SIGTERM
        return out

    # --- 6: the end --------------------------------------------------------------------------
    step = int(model.num_timesteps)
    loop["wall_s"], loop["cpu_s"] = elapsed()
    loop["config"] = cfg.as_dict()
    runlog.flush()
    checkpoint.save(ckpt_path, model, world, loop)
    wall_s, cpu_s = elapsed()
    agent = export(model, cfg, training=_training_record(run_dir, command, step, cfg, wall_s, cpu_s))
    final_path = agent.save(run_dir / "final.npz")
    final_eval = {}
    if cfg.final_eval_games > 0 and eval_opponents:
        final_eval = evaluate(agent, eval_opponents, num_players=cfg.players, rules=cfg.rules,
                              max_rounds=cfg.max_rounds, game=cfg.game, games=cfg.final_eval_games, seed=cfg.eval_seed + 1)
        runlog.log(step, {k.replace("eval/", "final/"): v for k, v in final_eval.items()}, wall_s)
    runlog.close()
    curve = plot_curves(run_dir)
    summary = {"run_dir": str(run_dir), "game": cfg.game, "players": cfg.players, "steps": step,
               "model": str(final_path), "learning_curve": str(curve),
               "wall_s": round(wall_s, 1), "process_cpu_s": round(cpu_s, 1), "final_eval": final_eval,
               "final_eval_games": cfg.final_eval_games, "evals": loop["evals"], "pool": pool.summary()}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def planned_end(step: int, steps: int, iteration_steps: int) -> int:
    """The step a run from ``step`` stops at: PPO runs whole rollouts of ``iteration_steps``
    (num_envs x n_steps), so ``steps`` is rounded up to the next rollout's end."""
    return step + max(0, -(-(steps - step) // iteration_steps)) * iteration_steps


def _progress_text(latest: dict) -> str:
    parts = [f"{k.split('/')[1]} {latest[k]:.0%}" for k in sorted(latest) if k.startswith("eval/")
             and k.endswith("/win_rate")]
    games = [f"{k.split('/')[1]} {latest[k]:.2f}" for k in sorted(latest) if k.startswith("games/")
             and k.endswith("/score")]
    return ("eval " + " ".join(parts) if parts else "") + (" | games " + " ".join(games) if games else "")


def main(argv: list[str] | None = None) -> int:
    """``spacemission train``: 0 when the run ends (or stops at --stop-after-steps, or was
    already finished), 130 when Ctrl-C stopped it and 143 when SIGTERM did (with a checkpoint,
    or at once on a second signal), 2 for a usage error or a run that cannot be resumed (nothing written)."""
    cfg, resume = parse_args(argv)
    run_dir = Path(resume) if resume else Path(cfg.run_dir) if cfg.run_dir else default_run_dir(cfg)
    try:  # a usage error before any work, not a traceback from train()
        resolve_device(cfg.device)
        if not resume:
            refuse_existing_run(run_dir)
        check_run_dir_writable(run_dir)  # a resume rewrites its config.json
        if not resume and cfg.bc_cache and not Path(cfg.bc_cache).is_file():  # written after the teacher's games
            problem = folder_write_problem(Path(cfg.bc_cache).parent)
            if problem:
                raise ValueError(f"option bc_cache: cannot write {shown_path(cfg.bc_cache)} ({problem})")
    except ValueError as exc:
        build_parser().error(str(exc))
    rollout = cfg.num_envs * cfg.n_steps
    if cfg.batch_size > rollout:  # MaskablePPO cuts it to the rollout without a word
        print(f"note: --batch-size {cfg.batch_size:,} is more than a rollout's {rollout:,} decisions (--num-envs * "
              f"--n-steps): each epoch is one minibatch of {rollout:,}", file=sys.stderr)
    try:
        with sigterm_stops_at_once():  # in the warm start as Ctrl-C does; the loop's Interrupt takes over
            summary = train(cfg, resume=resume, argv=argv)
    except checkpoint.ResumeError as exc:
        print(cut_long_words(f"spacemission train: error: --resume {resume}: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # a second signal, or Ctrl-C before the loop
        last = run_dir / "checkpoints" / "last.pt"
        how = (f"continue from its last checkpoint ({last}) with: spacemission train --resume {run_dir}"
               if last.is_file() else f"it has no checkpoint yet: start it afresh after removing {run_dir}")
        print(f"\ninterrupted; the run in {run_dir} was not finished: {how}", file=sys.stderr, flush=True)
        return exit_status(exc)
    if "finished" in summary:
        print(f"the run in {summary['run_dir']} already finished at step {summary['finished']:,} (summary.json, "
              f"final.npz): nothing to do, nothing changed. To train it further: spacemission train --resume "
              f"{summary['run_dir']} --steps N (N > {summary['finished']:,})")
        return 0
    if "stopped_at" in summary:
        print(f"{'interrupted: ' if summary.get('interrupted') else ''}stopped at step {summary['stopped_at']:,} "
              f"(checkpoint: {summary['run_dir']}/checkpoints/last.pt); "
              f"continue with: spacemission train --resume {summary['run_dir']}", flush=True)
        return summary.get("exit_status", 0)
    print(f"done: {summary['steps']:,} steps in {summary['wall_s']:.0f} s wall ({summary['process_cpu_s']:.0f} s CPU); "
          f"model {summary['model']}; curve {summary['learning_curve']}")
    for k in sorted(summary["final_eval"]):
        if k.endswith("/win_rate"):
            opp = k.split("/")[1]
            lo, hi = summary["final_eval"][f"eval/{opp}/ci_low"], summary["final_eval"][f"eval/{opp}/ci_high"]
            print(f"  vs {opp:12s} win rate {summary['final_eval'][k]:.1%}  (95% CI {lo:.1%}-{hi:.1%}, "
                  f"--final-eval-games {summary['final_eval_games']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
