"""Multi-agent PPO self-play on Ray RLlib (new API stack), on the PettingZoo env of any game.

    spacemission train --backend rllib --steps 200000 --num-env-runners 2            # a local Ray
    spacemission train --backend rllib --game red_planet --steps 200000               # Mission: Red Planet
    spacemission train --backend rllib --address auto --num-env-runners 8 ...         # join a cluster
    python -m spacemission_training.rllib --resume runs/rllib-2p-s0                    # after a kill

Needs the ``ray`` extra (``pip install -e '.[ray]'``; RLlib pins its own Gymnasium, so it
lives in its own virtualenv: ``make install-ray``). docs/training.md, "Training on Ray".

The run, top to bottom (``train``):

1. configuration (``RLlibConfig``: defaults < the game's defaults (``--game``, the SB3
   trainer's GAME_DEFAULTS) < ``--config`` file < flags), saved as ``run_dir/config.json``;
   Ray is started locally, or joined at ``--address``;
2. the env: ``spacemission_env.pettingzoo_env.env`` (the AEC env of ``--game``, unchanged)
   in RLlib's ``PettingZooEnv`` wrapper, one game per env runner; the modules read its
   observation dict themselves (rllib_module.py), so no observation adapter is needed;
3. the modules (one ``MultiRLModule``): ``learner`` (MaskedPPOModule, the only one
   trained), ``max_snapshots`` frozen copies ``self_0..`` of it, and one ``BotModule`` per
   bot of the opponent mix;
4. self-play through the policy-mapping function (``SeatMapper``): in every game one
   seat, drawn at random, is the learner's; every other seat draws an opponent group
   from the ``--opponents`` weights (the SB3 trainer's groups and default weights), a
   ``self`` seat one of the snapshot slots uniformly. The slots start as copies of the
   initial network (the SB3 trainer's snapshot at step 0); every ``snapshot_every``
   steps the learner's weights replace the oldest slot. Unlike the SB3 trainer there
   is no prioritized (PFSP) reweighting, no heuristic prior and no behaviour-cloning
   warm start: the learner starts from scratch;
5. the loop: ``algo.train()`` per iteration, logged to TensorBoard and ``metrics.csv``
   (logs.py) with RLlib's timers (sampling, learner update); every ``eval_every`` steps
   the exported numpy agent plays the local arena; every ``checkpoint_every`` steps
   ``algo.save_to_path`` with the loop state (``run_dir/checkpoints/rllib``, replaced
   atomically: ``save_checkpoint_dir``); ``--resume RUN_DIR`` restores both and goes on
   (``read_checkpoint`` checks the checkpoint before Ray starts);
6. at the end: the final evaluation, a checkpoint that holds it, ``final.npz`` in the
   shipped numpy agent format (agents/spacemission_agents/ppo.py; ``ppo:run_dir/final.npz``
   plays anywhere, no Ray) and ``summary.json``.

Ctrl-C or SIGTERM (to this process) stops at the end of the iteration in progress with a
checkpoint (exit status 130 or 143; a second one stops at once), Ray shut down either way; resuming a finished run changes
nothing (lifecycle.py: ``Interrupt``, ``finished_step``; docs/training.md, "Stopping and resuming an
RLlib run").
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

from spacemission_env.checks import cut_long_words, shown_path

from .lifecycle import Stopped, env_id, exit_status, record_resume, run_commands
from .rllib_checkpoint import (CKPT, Interrupt, find_checkpoint, finished_step, read_checkpoint, save_checkpoint_dir,
                               write_atomic)
from .rllib_config import RLlibConfig, build_parser, game_defaults, parse_args
from .run_paths import check_run_dir_writable, refuse_existing_run

__all__ = ["RLlibConfig", "SeatMapper", "build_algorithm", "export_agent", "find_checkpoint", "game_defaults", "main",
           "parse_args", "read_checkpoint", "stop_algorithm", "train"]

LEARNER = "learner"
SEAT_KEY = "seat_key"  # episode.custom_data: what SeatMapper draws the seats from
ENV_NAME = "spacemission_pettingzoo"


# --- the env and the seat mapping -------------------------------------------------------------
def make_env(env_config: dict):
    """RLlib's PettingZooEnv around the project's AEC env (``env_config``: its keyword
    arguments, ``game`` among them)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from spacemission_env.pettingzoo_env import env

    return PettingZooEnv(env(**env_config))


class SeatMapper:
    """RLlib's ``policy_mapping_fn``: agent ``player_k`` of an episode -> module id (module
    doc, step 4). The draws are a function of (seed, the game's key), so every seat of a game
    is mapped consistently however often and in whatever order RLlib asks. The key is the
    env runner, env index and game count there (``on_episode_created`` of the results
    callback sets it), so one seed gives one run; RLlib's random episode id stands in only
    for an episode RLlib asks about before it is set up."""

    def __init__(self, num_players: int, weights: dict[str, float], bot_ids: dict[str, str], snapshots: int,
                 seed: int):
        self.num_players, self.seed = num_players, seed
        ids, probs = [], []
        total = sum(weights.values())
        for group, w in weights.items():
            if w <= 0:
                continue
            members = [f"self_{k}" for k in range(snapshots)] if group == "self" else [bot_ids[group]]
            ids += members
            probs += [w / total / len(members)] * len(members)
        self.ids, self.probs = ids, np.asarray(probs) / np.sum(probs)

    def seats(self, episode_id: str) -> list[str]:
        digest = hashlib.sha256(f"{self.seed}:{episode_id}".encode()).digest()
        rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
        out = [self.ids[i] for i in rng.choice(len(self.ids), size=self.num_players, p=self.probs)]
        out[int(rng.integers(self.num_players))] = LEARNER
        return out

    def __call__(self, agent_id, episode, **kwargs) -> str:
        try:  # set by GameResults.on_episode_created
            key = episode.custom_data[SEAT_KEY]
        except (AttributeError, KeyError):  # an episode RLlib is still building (cut() asks before its data)
            key = episode.id_
        return self.seats(str(key))[int(str(agent_id).rsplit("_", 1)[1])]


def _results_callback(mapper_groups: dict[str, str]):
    """An RLlibCallback class that logs, per opponent group, the learner's result in the
    games that ended (1 ahead on points, 0.5 level, 0 behind; R-P8's tie-break on points is not
    read here): ``score/<group>``."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class GameResults(RLlibCallback):
        def __init__(self):
            super().__init__()
            self.started = {}  # env index -> episodes started there by this env runner

        def on_episode_created(self, *, episode, env_runner, env_index, **kwargs):
            # the seats' key: this env runner's n-th game at that env index, not RLlib's
            # random episode id, so that one seed gives one run
            n = self.started[env_index] = self.started.get(env_index, -1) + 1
            episode.custom_data[SEAT_KEY] = f"{getattr(env_runner, 'worker_index', 0)}:{env_index}:{n}"

        def on_episode_end(self, *, episode, metrics_logger, **kwargs):
            infos = episode.get_infos(-1, env_steps=False)  # each agent's own last info (the final scores)
            modules = {a: episode.module_for(a) for a in infos}
            mine = [a for a, m in modules.items() if m == LEARNER]
            if not mine or any("scores" not in infos[a] for a in infos):
                return
            me = infos[mine[0]]["scores"]["total"]
            for a, m in modules.items():
                if a != mine[0]:
                    them = infos[a]["scores"]["total"]
                    metrics_logger.log_value(f"score/{mapper_groups.get(m, m)}", 1.0 if me > them else 0.5 if me == them
                                             else 0.0, reduce="mean", window=200)
            metrics_logger.log_value("game_length", episode.env_steps(), reduce="mean", window=200)

    return GameResults


# --- the algorithm ------------------------------------------------------------------------------
def architecture(cfg: RLlibConfig, active, scale) -> dict:
    return {"active": [int(x) for x in active], "scale": [float(x) for x in scale], "trunk": cfg.layers("trunk"),
            "pi": cfg.layers("pi"), "vf": cfg.layers("vf")}


def build_algorithm(cfg: RLlibConfig, arch: dict):
    """The PPO Algorithm (new API stack) with the learner, snapshot slots and bot modules."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from .pool import SELF, parse_weights
    from .rllib_module import BotModule, MaskedPPOModule

    register_env(ENV_NAME, make_env)
    weights = parse_weights(cfg.opponents)
    bots = [g for g in weights if g != SELF and weights[g] > 0]
    bot_ids = {spec: f"bot_{i}" for i, spec in enumerate(bots)}
    game = dict(game=cfg.game, num_players=cfg.players, rules=cfg.rules, max_rounds=cfg.max_rounds)
    specs = {LEARNER: RLModuleSpec(module_class=MaskedPPOModule, model_config=arch)}
    specs.update({f"self_{k}": RLModuleSpec(module_class=MaskedPPOModule, model_config=arch)
                  for k in range(cfg.max_snapshots)})
    specs.update({mid: RLModuleSpec(module_class=BotModule, model_config=dict(
        spec=spec, seed=cfg.seed + i, runner_seeded=True, observation_type=cfg.observation_type, **game))
        for i, (spec, mid) in enumerate(bot_ids.items())})
    mapper = SeatMapper(cfg.players, weights, bot_ids, cfg.max_snapshots, cfg.seed)
    groups = {mid: spec.split(":")[0] for spec, mid in bot_ids.items()}
    groups.update({f"self_{k}": SELF for k in range(cfg.max_snapshots)})
    config = (
        PPOConfig()
        .environment(ENV_NAME, env_config=dict(observation_type=cfg.observation_type, reward=cfg.reward,
                                               shaping=cfg.shaping, gamma=cfg.gamma, **game))
        .env_runners(num_env_runners=cfg.num_env_runners, num_envs_per_env_runner=1, num_cpus_per_env_runner=1)
        .learners(num_learners=0, **learner_resources(cfg.device))
        .multi_agent(policies=list(specs), policy_mapping_fn=mapper, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(lr=cfg.lr, gamma=cfg.gamma, lambda_=cfg.gae_lambda, clip_param=cfg.clip,
                  entropy_coeff=cfg.ent_coef, vf_loss_coeff=cfg.vf_coef, grad_clip=cfg.max_grad_norm,
                  train_batch_size_per_learner=cfg.train_batch, minibatch_size=cfg.minibatch, num_epochs=cfg.epochs)
        .callbacks(_results_callback(groups))
        .debugging(seed=cfg.seed)
    )
    # RLlib seeds its env runners, not this driver, where the learner's network is built: with
    # remote env runners its first weights came from whatever torch's generator held
    import torch

    torch.manual_seed(cfg.seed)
    return config.build_algo()


def learner_resources(device: str) -> dict:
    """RLlib's resources for the learner in the driver (``num_learners=0``) on the torch device
    ``device`` names (--device; ValueError when torch cannot use it): a GPU and its index, or none."""
    from .device import resolve_device

    d = resolve_device(device)
    return {"num_gpus_per_learner": 0} if d.type == "cpu" else {"num_gpus_per_learner": 1,
                                                                 "local_gpu_idx": d.index or 0}


def stop_algorithm(algo) -> None:
    """Stop the Algorithm and remove the empty log folder it made under ~/ray_results
    (this trainer logs into its run directory)."""
    algo.stop()
    logdir = getattr(algo, "logdir", None)
    if logdir and Path(logdir).is_dir() and not any(Path(logdir).iterdir()):
        Path(logdir).rmdir()


def learner_module(algo):
    return algo.get_module(LEARNER)


def copy_learner_to(algo, module_id: str) -> None:
    """Put the learner's current weights into a snapshot slot, on the learner and every env runner."""
    state = learner_module(algo).get_state()
    algo.set_state({"learner_group": {"learner": {"rl_module": {module_id: state}}}})
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, inference_only=True)


def export_agent(module, cfg: RLlibConfig, training: dict | None = None, name: str = "ppo"):
    """The learner's actor as a numpy :class:`~spacemission_agents.ppo.PPOAgent` (the shipped
    format: ``active``, ``scale``, ``w0, b0, ...``; no prior)."""
    from spacemission_agents.ppo import PPOAgent, make_metadata

    arch = {"trunk": cfg.layers("trunk"), "pi": cfg.layers("pi"), "vf": cfg.layers("vf"), "activation": "relu"}
    meta = make_metadata(game=cfg.game, observation_type=cfg.observation_type, num_players=cfg.players,
                         rules=cfg.rules, max_rounds=cfg.max_rounds, architecture=arch,
                         training={"backend": "rllib", **(training or {})}, prior=None)
    params = {"active": module.active.cpu().numpy().copy(), "scale": module.scale.cpu().numpy().copy()}
    for i, (w, b) in enumerate(module.actor_layers()):
        params[f"w{i}"], params[f"b{i}"] = w, b
    return PPOAgent(params, meta, name=name)


# --- the run --------------------------------------------------------------------------------------
def default_run_dir(cfg: RLlibConfig) -> Path:
    game = "" if cfg.game == "spacemission" else f"{cfg.game}-"
    return Path("runs") / f"rllib-{game}{cfg.players}p-s{cfg.seed}"


def init_ray(address: str) -> None:
    """Join the cluster at ``address`` ('auto', HOST:PORT), or start a local Ray ('').

    (A Ctrl-C in a terminal reaches a local Ray's GCS and raylet too, in the driver's process
    group: they outlive it, so ``Interrupt`` can end the iteration; tests/training/
    test_rllib_lifecycle_sweep.py signals the whole group.)"""
    import ray

    from spacemission_agents.arena_ray import reach_address

    if ray.is_initialized():
        return
    try:  # a malformed or silent address: a ValueError now, not minutes of ray.init retrying
        reach_address(address)
    except ValueError as exc:
        raise ValueError(f"option address: {exc}") from None
    kwargs = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    if address:
        ray.init(address=address, **kwargs)
    else:
        ray.init(**kwargs)


def _iteration_values(result: dict) -> dict:
    """The scalars of one ``algo.train()`` result that the logs keep."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, LEARNER_RESULTS, TIMERS

    from .logs import metric_name

    out = {}
    runners = result.get(ENV_RUNNER_RESULTS, {})
    for k, v in runners.items():
        if k.startswith("score/") or k in ("game_length", "episode_return_mean", "num_episodes"):
            out[f"games/{metric_name(k[6:])}/score" if k.startswith("score/") else f"games/{k}"] = v
    learner = result.get(LEARNER_RESULTS, {}).get(LEARNER, {})
    for k in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var"):
        if k in learner:
            out[f"train/{k}"] = learner[k]
    for k, v in result.get(TIMERS, {}).items():
        if isinstance(v, (int, float)):
            out[f"time/{k}_s"] = v
    return out


def _sampled(result: dict) -> int:
    from ray.rllib.utils.metrics import NUM_ENV_STEPS_SAMPLED_LIFETIME

    return int(result.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, result.get("env_runners", {}).get(
        NUM_ENV_STEPS_SAMPLED_LIFETIME, 0)))


def train(cfg: RLlibConfig, resume: str | None = None, argv: list[str] | None = None) -> dict:
    """Run (or resume) an RLlib training run; returns the summary (also ``run_dir/summary.json``),
    ``{"run_dir", "finished"}`` for a run that had already ended (nothing changed), or
    ``{"run_dir", "stopped_at", "interrupted", "exit_status"}`` after a Ctrl-C or SIGTERM (a
    checkpoint at that step).
    ResumeError (nothing written) for a run that cannot be resumed."""
    import torch

    from spacemission_training.policy import feature_stats

    from .config import versions
    from .device import resolve_device
    from .logs import Progress, RunLog, evaluate

    torch.set_num_threads(cfg.threads)
    run_dir = Path(resume) if resume else Path(cfg.run_dir) if cfg.run_dir else default_run_dir(cfg)
    command = ["spacemission", "train", "--backend", "rllib", *(sys.argv[1:] if argv is None else argv)]
    eval_opponents = [s.strip() for s in cfg.eval_opponents.split(",") if s.strip()]
    wall0 = time.perf_counter()
    if resume:  # every check before Ray starts and before anything is written
        ckpt, loop = read_checkpoint(run_dir, cfg)
        done = finished_step(run_dir, loop["step"], cfg.steps)
        if done is not None:
            return {"run_dir": str(run_dir), "finished": done}
    else:
        refuse_existing_run(run_dir)
    init_ray(cfg.address)

    def evaluation(step: int, games: int, seed: int) -> dict:
        return evaluate(export_agent(learner_module(algo), cfg), eval_opponents, num_players=cfg.players,
                        rules=cfg.rules, max_rounds=cfg.max_rounds, games=games, seed=seed,
                        game=cfg.game) if games else {}

    if resume:
        from .checkpoint import ResumeError

        algo = build_algorithm(cfg, loop["arch"])
        try:
            algo.restore_from_path(str(ckpt.resolve()))
        except Exception as exc:  # RLlib and pickle raise anything on a cut or overwritten file
            stop_algorithm(algo)
            raise ResumeError(f"checkpoint {shown_path(ckpt)} cannot be read, it is truncated or corrupted "
                              f"({type(exc).__name__}: {str(exc)[:200]}); nothing was changed") from None
        saved = json.loads((run_dir / "config.json").read_text())
        saved["config"] = cfg.as_dict()  # steps, progress, address, env runners, device as now
        saved["device"] = str(resolve_device(cfg.device))
        record_resume(saved, cfg.game, command=command, step=loop["step"])
        write_atomic(run_dir / "config.json", json.dumps(saved, indent=2))
        # what a killed run logged after its checkpoint goes (rows at a later step, a cut last row)
        runlog = RunLog(run_dir, resume_step=loop["step"], tensorboard=cfg.tensorboard)
    else:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.json").write_text(json.dumps(
            {"config": cfg.as_dict(), "env_id": env_id(cfg.game), "command": command,
             "versions": {**versions(), "ray": _ray_version()},
             "device": str(resolve_device(cfg.device)),
             "started": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=2))
        active, scale = feature_stats(cfg.players, cfg.rules, cfg.max_rounds, cfg.observation_type, seed=cfg.seed,
                                      game=cfg.game)
        arch = architecture(cfg, active, scale)
        algo = build_algorithm(cfg, arch)
        for k in range(cfg.max_snapshots):  # every slot starts as the initial network
            copy_learner_to(algo, f"self_{k}")
        loop = {"arch": arch, "step": 0, "iteration": 0, "snapshots": 0, "next_snapshot": cfg.snapshot_every,
                "next_eval": cfg.eval_every or None, "next_checkpoint": cfg.checkpoint_every, "wall_s": 0.0,
                "evals": []}
        runlog = RunLog(run_dir, tensorboard=cfg.tensorboard)
        e = evaluation(0, cfg.eval_games, cfg.eval_seed)
        loop["evals"].append({"step": 0, **e})
        runlog.log(0, e, 0.0)

    wall_before = loop["wall_s"]
    progress = Progress(cfg.steps, loop["step"], enabled={"auto": None, "bar": True, "lines": False}[cfg.progress])

    checkpoint_step = loop["step"] if resume else None  # the step of the checkpoint on disk

    def save_checkpoint() -> None:
        nonlocal checkpoint_step
        loop["wall_s"] = wall_before + time.perf_counter() - wall0
        loop["config"] = cfg.as_dict()  # resume checks that the checkpoint is this run's
        runlog.flush()  # every row up to the checkpoint's step is on disk before it
        save_checkpoint_dir(algo, run_dir, loop)
        checkpoint_step = loop["step"]

    def stopped_with_ray(exc: Exception) -> dict:
        """The signal went to the whole process group (a batch scheduler's stop, a terminal's
        Ctrl-C): a local Ray's raylet and GCS end with it, and the iteration in progress may
        fail (an object lost, an actor dead) instead of finishing. The run stops at its last
        checkpoint, as after a second signal."""
        print(f"Ray's processes ended with the signal before this iteration finished ({type(exc).__name__}: "
              f"{str(exc).splitlines()[0][:200] if str(exc) else ''})", file=sys.stderr, flush=True)
        if checkpoint_step is None:
            assert interrupt.signum is not None  # requested: the caller's check
            raise Stopped(interrupt.signum) from None  # main: no checkpoint yet
        runlog.close()
        return {"run_dir": str(run_dir), "stopped_at": checkpoint_step, "interrupted": True,
                "exit_status": interrupt.exit_status}

    interrupt = Interrupt(run_dir, lambda: loop["step"])
    try:
        try:
            while loop["step"] < cfg.steps:
                try:
                    t0 = time.perf_counter()
                    result = algo.train()
                    dt = time.perf_counter() - t0
                    before, loop["step"], loop["iteration"] = loop["step"], _sampled(result), loop["iteration"] + 1
                    step = loop["step"]
                    if step > before:  # one that sampled nothing (its env runners lost) would repeat the last rows
                        values = _iteration_values(result)
                        values["time/steps_per_s"] = (step - before) / dt if dt > 0 else float("nan")
                        runlog.log(step, values, wall_before + time.perf_counter() - wall0)
                    if step >= loop["next_snapshot"]:
                        copy_learner_to(algo, f"self_{loop['snapshots'] % cfg.max_snapshots}")
                        loop["snapshots"] += 1
                        loop["next_snapshot"] += cfg.snapshot_every * (
                            1 + (step - loop["next_snapshot"]) // cfg.snapshot_every)
                    if loop["next_eval"] is not None and step >= loop["next_eval"] and step < cfg.steps:
                        e = evaluation(step, cfg.eval_games, cfg.eval_seed)
                        loop["evals"].append({"step": step, **e})
                        runlog.log(step, e, wall_before + time.perf_counter() - wall0)
                        loop["next_eval"] += cfg.eval_every * (1 + (step - loop["next_eval"]) // cfg.eval_every)
                    stop_now = interrupt.requested and step < cfg.steps
                    if step >= loop["next_checkpoint"]:
                        loop["next_checkpoint"] += cfg.checkpoint_every * (
                            1 + (step - loop["next_checkpoint"]) // cfg.checkpoint_every)
                        if step < cfg.steps:  # the end writes its own, with the final evaluation
                            save_checkpoint()
                    elif stop_now:
                        save_checkpoint()
                    runlog.flush()
                    progress.update(step, " ".join(f"{k.split('/')[1]} {v:.2f}" for k, v in sorted(values.items())
                                                   if k.startswith("games/") and k.endswith("/score") and v == v))
                    if stop_now:
                        runlog.close()
                        return {"run_dir": str(run_dir), "stopped_at": step, "interrupted": True,
                                "exit_status": interrupt.exit_status}
                except Exception as exc:  # only Ray failing with the signal, which reached it too
                    if not interrupt.requested:
                        raise
                    return stopped_with_ray(exc)
        finally:
            progress.close()

        # the end: the final evaluation, logged, then one checkpoint that holds it, so that a run
        # killed before summary.json ends again from there without repeating those rows
        step = loop["step"]
        if loop.get("final_eval_step") != step:
            final_eval = evaluation(step, cfg.eval_games, cfg.eval_seed)
            loop["evals"].append({"step": step, **final_eval})
            runlog.log(step, final_eval, wall_before + time.perf_counter() - wall0)
            loop["final_eval_step"] = step
            save_checkpoint()
        else:  # resumed after a kill in the end: the evaluation is in the checkpoint and the logs
            final_eval = {k: v for k, v in loop["evals"][-1].items() if k != "step"}
        wall_s = loop["wall_s"]
        training = {**run_commands(run_dir, command), "steps": step, "seed": cfg.seed, "wall_s": round(wall_s, 1),
                    "config": cfg.as_dict()}
        agent = export_agent(learner_module(algo), cfg, training=training)
        final_path = agent.save(run_dir / "final.npz")
        runlog.close()
        summary = {"run_dir": str(run_dir), "game": cfg.game, "players": cfg.players, "steps": step,
                   "iterations": loop["iteration"], "model": str(final_path),
                   "wall_s": round(wall_s, 1), "evals": loop["evals"], "final_eval": final_eval,
                   "eval_games": cfg.eval_games}
        write_atomic(run_dir / "summary.json", json.dumps(summary, indent=2))
        return summary
    except KeyboardInterrupt as exc:  # ray.wait makes the second signal's Stopped a plain one
        interrupt.reraise_stopped(exc)
        raise
    finally:
        interrupt.restore()
        try:
            stop_algorithm(algo)  # the env runners' actors, on a cluster too
        except Exception:  # after a second Ctrl-C Ray may be half down: ray.shutdown in main ends it
            pass



def _ray_version() -> str:
    import ray

    return ray.__version__


def main(argv: list[str] | None = None) -> int:
    """``spacemission train --backend rllib``: 0 when the run ends (or had already ended),
    130 when Ctrl-C stopped it and 143 when SIGTERM did (with a checkpoint, or at once on a
    second signal), 2 for a
    usage error or a run that cannot be resumed (nothing written). The Ray it started or
    joined is shut down on the way out, whichever way that is (no stray Ray processes)."""
    import ray

    from .checkpoint import ResumeError

    from .device import resolve_device

    cfg, resume = parse_args(argv)
    try:  # a device torch cannot use: a usage error before Ray starts or anything is written
        resolve_device(cfg.device)
    except ValueError as exc:
        build_parser().error(str(exc))
    run_dir = Path(resume) if resume else Path(cfg.run_dir) if cfg.run_dir else default_run_dir(cfg)
    ours = not ray.is_initialized()  # a Ray this call starts (or joins) is shut down on the way out
    try:
        try:  # a run already there, then the cluster, before any file is written
            if resume:
                read_checkpoint(run_dir, cfg)  # before Ray starts: ResumeError below
            else:
                refuse_existing_run(run_dir)
            check_run_dir_writable(run_dir)  # a resume rewrites its config.json
        except ResumeError as exc:
            print(cut_long_words(f"spacemission train: error: --resume {resume}: {exc}"), file=sys.stderr)
            return 2
        except ValueError as exc:
            build_parser().error(str(exc))
        try:
            summary = train(cfg, resume=resume, argv=argv)
        except ResumeError as exc:
            print(cut_long_words(f"spacemission train: error: --resume {resume}: {exc}"), file=sys.stderr)
            return 2
        except ValueError as exc:
            if not str(exc).startswith("option address"):
                raise
            build_parser().error(str(exc))
    except KeyboardInterrupt as exc:  # a second signal, or Ctrl-C before the loop
        ckpt = find_checkpoint(run_dir)
        how = (f"continue from its last checkpoint ({ckpt}) with: spacemission train --backend rllib --resume "
               f"{run_dir}" if ckpt is not None else
               f"it has no checkpoint yet: start it afresh after removing {run_dir}")
        print(f"\ninterrupted; the run in {run_dir} was not finished: {how}", file=sys.stderr, flush=True)
        return exit_status(exc)
    finally:
        if ours and ray.is_initialized():
            ray.shutdown()  # a local Ray's processes and this driver's actors end with it
    if "finished" in summary:
        print(f"the run in {summary['run_dir']} already finished at step {summary['finished']:,} (summary.json, "
              f"final.npz): nothing to do, nothing changed. To train it further: spacemission train --backend rllib "
              f"--resume {summary['run_dir']} --steps N (N > {summary['finished']:,})")
        return 0
    if "stopped_at" in summary:
        print(f"interrupted: stopped at step {summary['stopped_at']:,} (checkpoint: {summary['run_dir']}/checkpoints/"
              f"{CKPT}); continue with: spacemission train --backend rllib --resume {summary['run_dir']}", flush=True)
        return summary["exit_status"]
    print(f"done: {summary['steps']:,} env steps in {summary['wall_s']:.0f} s ({summary['iterations']} iterations); "
          f"model {summary['model']}")
    first, last = summary["evals"][0], summary["final_eval"]
    for k in sorted(last):
        if k.endswith("/win_rate"):
            lo, hi = last[k.replace("win_rate", "ci_low")], last[k.replace("win_rate", "ci_high")]
            start = f"{first[k]:.1%} at the start -> " if k in first else ""
            print(f"  vs {k.split('/')[1]:12s} win rate {start}{last[k]:.1%} (95% CI {lo:.1%}-{hi:.1%}, "
                  f"{summary['eval_games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
