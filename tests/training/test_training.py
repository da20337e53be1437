"""Training runs end to end at tiny sizes: logs (TensorBoard events + metrics.csv), the
checkpoint, the saved model, reproducibility with a seed, and exact resume after a stop
(the final weights equal an unbroken run's). Kind-random is the teacher and the bots are
the random ones, so these runs need nothing but the environment."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402

from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_env.games import get_game  # noqa: E402
from spacemission_env.space_mission import engine  # noqa: E402
from spacemission_training.config import TrainConfig, parse_args  # noqa: E402
from spacemission_training.logs import read_metrics  # noqa: E402
from spacemission_training.train_ppo import main, train  # noqa: E402

TINY = dict(num_envs=16, n_steps=32, batch_size=256, epochs=2, trunk="32", pi="16", vf="16", bc_teacher="kind-random",
            bc_samples=600, bc_epochs=1, opponents="random=0.5,kind-random=0.2,self=0.3", snapshot_every=512,
            eval_every=0, final_eval_games=0, checkpoint_every=512, steps=1536, threads=1, progress="lines",
            priority=1.0)


pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py


def _weights(run_dir) -> dict:
    with np.load(Path(run_dir) / "final.npz") as z:
        return {k: z[k] for k in z.files if k != "metadata"}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def unbroken(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("unbroken")
    # with evaluations; the runs compared with it have none: evaluating must not change training
    summary = train(TrainConfig(**{**TINY, "eval_every": 1024, "eval_games": 8, "eval_opponents": "random",
                                   "final_eval_games": 8}, run_dir=str(run_dir)), argv=["--tiny"])
    return run_dir, summary


def test_a_tiny_run_writes_logs_checkpoint_model_and_curve(unbroken):
    run_dir, summary = unbroken
    assert summary["steps"] == 1536
    # the game and the player count (before: neither; a summary did not say which game it was of)
    on_disk = json.loads((run_dir / "summary.json").read_text())
    assert on_disk["game"] == summary["game"] == "spacemission" and on_disk["players"] == summary["players"] == 2
    for name in ("config.json", "metrics.csv", "final.npz", "learning_curve.png", "summary.json",
                 "checkpoints/last.pt"):
        assert (run_dir / name).is_file(), name
    assert list((run_dir / "tb").glob("events.out.tfevents.*"))
    saved = json.loads((run_dir / "config.json").read_text())
    assert saved["config"]["seed"] == 0 and saved["config"]["num_envs"] == 16
    assert saved["versions"]["torch"] and saved["versions"]["sb3_contrib"] and saved["command"][-1] == "--tiny"
    # the float kernels torch chose: runs from one seed give other weights on another CPU
    assert saved["versions"]["torch_cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    # the environment version it trained on, as the game description names it (before: not recorded, so a run
    # started on SpaceMission-v2 resumed on v3 without a word); the model's metadata says it too
    env_id = get_game("spacemission").description.env_id
    assert saved["env_id"] == env_id == "SpaceMission-v3"
    assert PPOAgent.load(run_dir / "final.npz").metadata["env_id"] == env_id
    m = read_metrics(run_dir)
    for key in ("train/value_loss", "train/approx_kl", "time/steps_per_s", "bc/accuracy", "eval/random/win_rate",
                "final/random/win_rate", "pool/random/p", "pool/self@0/p"):
        assert key in m, key
    assert list(m["eval/random/win_rate"][0]) == [0, 1024]  # after the warm start, then every eval_every
    assert list(m["train/value_loss"][0]) == [512, 1024, 1536]
    # the TensorBoard file holds the same scalars
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(run_dir / "tb"))
    acc.Reload()
    tb = [(e.step, e.value) for e in acc.Scalars("train/value_loss")]
    assert [s for s, _ in tb] == [512, 1024, 1536]
    assert np.allclose([v for _, v in tb], m["train/value_loss"][1])


def test_the_saved_model_loads_and_plays_legal_moves(unbroken):
    run_dir, _ = unbroken
    agent = PPOAgent.load(run_dir / "final.npz")
    meta = agent.metadata
    assert meta["num_players"] == 2 and meta["observation_type"] == "recall" and meta["training"]["steps"] == 1536
    st = engine.init(32, 2, seeds=5)
    for _ in range(60):
        mask = engine.legal_action_mask(st)
        a = agent.act_batch(engine.observe(st, observation_type=agent.observation_type), mask)
        assert mask[np.arange(32), a].all()
        engine.step(st, a, select=~st.terminated)


def test_the_default_run_has_the_heuristic_prior(unbroken):
    run_dir, _ = unbroken
    agent = PPOAgent.load(run_dir / "final.npz")
    assert agent.prior is not None and agent.metadata["prior"]["kind"] == "heuristic"
    assert agent.params["w0"].shape[1] == agent.params["active"].size + 100  # the codes are inputs too


def test_a_run_without_prior_trains_and_resumes(tmp_path):
    plain = {**TINY, "prior": "", "steps": 1024}
    train(TrainConfig(**plain, run_dir=str(tmp_path / "a")))
    agent = PPOAgent.load(tmp_path / "a" / "final.npz")
    assert agent.prior is None and "prior_beta" not in agent.params
    assert agent.params["w0"].shape[1] == agent.params["active"].size
    train(TrainConfig(**{**plain, "stop_after_steps": 512}, run_dir=str(tmp_path / "b")))
    cfg, resume = parse_args(["--resume", str(tmp_path / "b")])
    train(cfg, resume=resume)
    assert _same(_weights(tmp_path / "a"), _weights(tmp_path / "b"))
    with pytest.raises(ValueError, match="recall"):
        TrainConfig(**{**TINY, "observation_type": "info"})
    assert TrainConfig(**{**TINY, "observation_type": "info", "prior": ""}).prior == ""


def test_a_pool_without_self_trains_and_checkpoint_models_are_kept(tmp_path):
    # a best response against fixed bots: no snapshots are taken (the pool refuses them)
    cfg = TrainConfig(**{**TINY, "opponents": "random=1.0", "steps": 1024, "checkpoint_models": True},
                      run_dir=str(tmp_path))
    summary = train(cfg)
    assert summary["steps"] >= 1024 and [e["name"] for e in summary["pool"]] == ["random"]
    saved = sorted(p.name for p in (tmp_path / "checkpoints").glob("step_*.npz"))
    assert saved == ["step_1024.npz", "step_512.npz"]
    assert _same(_weights(tmp_path), {k: v for k, v in PPOAgent.load(tmp_path / "checkpoints" / "step_1024.npz")
                                      .params.items()})
    # a checkpoint's model says how it was made, as final.npz does (it had an empty record: a
    # checkpoint chosen to ship could not name its command)
    first, final = (PPOAgent.load(tmp_path / p).metadata["training"] for p in ("checkpoints/step_512.npz", "final.npz"))
    assert first["steps"] == 512 and final["steps"] == summary["steps"]
    assert first["command"] == final["command"] and first["command"].startswith("spacemission train")
    assert first["config"] == final["config"] == cfg.as_dict() and first["seed"] == cfg.seed
    assert 0 < first["wall_s"] <= final["wall_s"] and 0 < first["process_cpu_s"] <= final["process_cpu_s"]


def test_same_seed_same_weights(unbroken, tmp_path):
    run_dir, _ = unbroken
    train(TrainConfig(**TINY, run_dir=str(tmp_path / "again")))
    assert _same(_weights(run_dir), _weights(tmp_path / "again"))
    train(TrainConfig(**{**TINY, "seed": 1}, run_dir=str(tmp_path / "other")))
    assert not _same(_weights(run_dir), _weights(tmp_path / "other"))


def test_stop_and_resume_gives_the_unbroken_run(unbroken, tmp_path):
    run_dir, _ = unbroken
    broken = tmp_path / "broken"
    out = train(TrainConfig(**{**TINY, "checkpoint_every": 10**6, "stop_after_steps": 1024}, run_dir=str(broken)))
    assert out == {"run_dir": str(broken), "stopped_at": 1024}
    assert (broken / "checkpoints" / "last.pt").is_file() and not (broken / "final.npz").exists()
    cfg, resume = parse_args(["--resume", str(broken)])
    assert resume == str(broken) and cfg.stop_after_steps == 0
    train(cfg, resume=resume)
    assert _same(_weights(run_dir), _weights(broken))
    # the logs read like the unbroken run's: each update logged once, with the same values
    a, b = read_metrics(run_dir), read_metrics(broken)
    for key in ("train/value_loss", "train/policy_gradient_loss", "games/ended"):
        assert list(a[key][0]) == list(b[key][0]) and np.array_equal(a[key][1], b[key][1]), key
    saved = json.loads((broken / "config.json").read_text())
    assert len(saved["resumed"]) == 1 and saved["resumed"][0]["env_id"] == saved["env_id"] == "SpaceMission-v3"
    assert "previous_env_id" not in saved["resumed"][0]  # the same version: no change to record


def test_resume_accepts_only_budget_changes(unbroken, capsys):
    run_dir, _ = unbroken
    with pytest.raises(SystemExit):
        parse_args(["--resume", str(run_dir), "--lr", "0.1"])
    assert "only steps" in capsys.readouterr().err
    cfg, _ = parse_args(["--resume", str(run_dir), "--steps", "4096"])
    assert cfg.steps == 4096 and cfg.num_envs == 16


def test_config_file_and_flags(tmp_path):
    (tmp_path / "c.toml").write_text('seed = 5\nnum_envs = 32\nopponents = "random=1"\n')
    cfg, _ = parse_args(["--config", str(tmp_path / "c.toml"), "--num-envs", "8"])
    assert (cfg.seed, cfg.num_envs, cfg.opponents) == (5, 8, "random=1")
    (tmp_path / "c.json").write_text(json.dumps({"sed": 5}))
    with pytest.raises(SystemExit):
        parse_args(["--config", str(tmp_path / "c.json")])
    for bad in (["--players", "6"], ["--gamma", "0"], ["--trunk", "a,b"], ["--shaping", "maybe"]):
        with pytest.raises(SystemExit):
            parse_args(bad)
    assert TrainConfig(gamma=0.99).env_gamma == 0.99  # shaping follows the learner's discount by default
    assert TrainConfig(gamma=0.99, shaping_gamma=0.9).env_gamma == 0.9


def test_the_command_line_reports_a_stop(tmp_path, capsys):
    args = [f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]
    assert main([*args, "--run-dir", str(tmp_path / "r"), "--stop-after-steps", "512"]) == 0
    assert "--resume" in capsys.readouterr().out


@pytest.mark.slow
def test_a_killed_process_resumes_exactly(tmp_path):
    """SIGKILL a training process after its first checkpoint; --resume then ends with the
    unbroken run's weights. (A constant learning rate: the killed run is given a longer
    budget so that it cannot finish before the kill, and the budget sets the annealing.)"""
    run_dir, killed = tmp_path / "unbroken", tmp_path / "killed"
    train(TrainConfig(**{**TINY, "lr_final": 1.0}, run_dir=str(run_dir)))
    args = [f"--{k.replace('_', '-')}={v}" for k, v in {**TINY, "lr_final": 1.0}.items()]
    proc = subprocess.Popen([sys.executable, "-m", "spacemission_training.train_ppo", *args, "--run-dir", str(killed),
                             "--steps", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ckpt = killed / "checkpoints" / "last.pt"
    deadline = time.time() + 300
    while not ckpt.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert ckpt.exists()
    subprocess.run([sys.executable, "-m", "spacemission_training.train_ppo", "--resume", str(killed), "--steps", "1536"],
                   check=True, capture_output=True, timeout=600)
    step = torch.load(ckpt, weights_only=False)["sb3"]["num_timesteps"]
    assert step == 1536
    assert _same(_weights(run_dir), _weights(killed))


def test_progress_counts_to_the_step_the_run_stops_at(tmp_path, capsys):
    """PPO runs whole rollouts (16 x 32 = 512 steps here): 1,000 steps asked run 1,024, and
    the progress line counts to 1,024 (it said 1,024/1,000)."""
    summary = train(TrainConfig(**{**TINY, "steps": 1000, "snapshot_every": 100_000, "checkpoint_every": 100_000},
                                run_dir=str(tmp_path / "run")), argv=["--tiny"])
    assert summary["steps"] == 1024
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("step ")]
    assert lines and lines[-1].startswith("step 1,024/1,024 ")
    assert all(ln.split()[1].endswith("/1,024") for ln in lines)


def test_planned_end_rounds_up_to_whole_rollouts():
    from spacemission_training.train_ppo import planned_end

    assert planned_end(0, 1000, 512) == 1024
    assert planned_end(0, 1024, 512) == 1024
    assert planned_end(512, 1025, 512) == 1536  # a resumed run from its step
    assert planned_end(2048, 1024, 512) == 2048  # nothing left to run


def test_a_fresh_run_gives_the_opponent_pool_its_options(tmp_path, monkeypatch):
    """train() builds the PPO pool with the run's options: --max-snapshots, --priority, the seed,
    the game and the player count reach OpponentPool (a keyword lost from its call leaves the
    pool's default, 10 snapshots, and every other training test passing). The pool's arguments
    are recorded, then the run stops before any model is built."""
    from spacemission_training import train_ppo

    class Built(Exception):
        pass

    seen = {}

    def pool(weights, **kwargs):
        seen.update(kwargs, weights=weights)
        raise Built

    monkeypatch.setattr(train_ppo, "OpponentPool", pool)
    cfg = TrainConfig(run_dir=str(tmp_path / "run"), players=3, max_snapshots=3, priority=2.5, seed=11,
                      opponents="random=0.5,self=0.5")
    with pytest.raises(Built):
        train(cfg, argv=[])
    assert seen == {"weights": "random=0.5,self=0.5", "num_players": 3, "max_snapshots": 3, "priority": 2.5,
                    "seed": 11, "game": "spacemission"}
