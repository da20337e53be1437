"""The RLlib trainer's (``spacemission train --backend rllib``) run life cycle, swept as the SB3
trainer's was (test_training_lifecycle_sweep.py): Ctrl-C and resume, Ray shut down with no
stray process, resuming a finished, interrupted, corrupted, foreign or hand-edited run, a
kill while a checkpoint is written or between the final evaluation and summary.json, the
logs at each checkpoint. Every test here failed on the code before its fix.

Needs ray[rllib] (``make test-ray``); skipped where Ray is not importable. The drivers that
get signals run as subprocesses in their own session, signalled as a terminal's Ctrl-C
signals its foreground job: the whole process group (Ray's GCS and raylet included)."""
from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_env.checks import cut, shown_path  # noqa: E402
from spacemission_training.rllib import RLlibConfig, main, train  # noqa: E402

pytestmark = [pytest.mark.ray, pytest.mark.usefixtures("keep_torch_threads")]

# tiny runs: 200 env steps an iteration, a checkpoint every 2 iterations
TINY = dict(train_batch=200, minibatch=100, epochs=1, trunk="32", pi="16", vf="16", opponents="random=0.6,self=0.4",
            max_snapshots=1, snapshot_every=400, eval_games=2, eval_opponents="random", checkpoint_every=400,
            tensorboard=False, progress="lines")


def _flags(**over) -> list[str]:
    return [f"--{k.replace('_', '-')}={v}" for k, v in {**TINY, **over}.items()]


def _start(run_dir: Path, marker: str, *args: str) -> subprocess.Popen:
    """The trainer in a subprocess of its own session, its environment tagged with ``marker``
    (every Ray process it starts inherits it: ``_stray`` finds them), Python's own SIGINT
    handler in place."""
    env = {**os.environ, "SM_RLLIB_TEST_MARKER": marker}
    return subprocess.Popen([sys.executable, "-m", "spacemission_cli.main", "train", "--backend", "rllib", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _stray(marker: str) -> list[str]:
    """The processes still alive whose environment holds ``marker``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if f"SM_RLLIB_TEST_MARKER={marker}".encode() in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                found.append(f"{pid} {Path(f'/proc/{pid}/cmdline').read_bytes()[:120]!r}")
        except OSError:
            pass
    return found


def _no_stray(marker: str, timeout: float = 20.0) -> None:
    deadline = time.time() + timeout
    while _stray(marker) and time.time() < deadline:
        time.sleep(0.25)
    assert not _stray(marker), _stray(marker)


def _wait_for_checkpoint(run_dir: Path, proc, timeout=180) -> None:
    loop = run_dir / "checkpoints" / "loop.json"
    deadline = time.time() + timeout
    while not loop.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert loop.exists(), proc.communicate()


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def _loop(run_dir) -> dict:
    return json.loads((Path(run_dir) / "checkpoints" / "loop.json").read_text())


def _rows(run_dir) -> list[list[str]]:
    with open(Path(run_dir) / "metrics.csv", newline="") as f:
        return list(csv.reader(f))[1:]


def _twice(run_dir) -> set:
    return {k for k, n in Counter((r[0], r[2]) for r in _rows(run_dir)).items() if n > 1}


def _files(run_dir) -> dict:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(Path(run_dir).rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run stopped by Ctrl-C (the whole process group signalled) after its first
    checkpoint, then resumed to its end: {"dir", "stop": (rc, out, err), "step",
    "resume": (rc, out, err), "marker"}."""
    run_dir = tmp_path_factory.mktemp("rllib") / "run"
    marker = uuid.uuid4().hex
    proc = _start(run_dir, marker, *_flags(steps=20000, num_env_runners=1), "--run-dir", str(run_dir))
    _wait_for_checkpoint(run_dir, proc)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    stop = (proc.returncode, out, err)
    step = _loop(run_dir)["step"] if (run_dir / "checkpoints" / "loop.json").exists() else None
    logged = max(int(r[0]) for r in _rows(run_dir))
    stopped_files = sorted(p.name for p in run_dir.iterdir())
    time.sleep(1.0)
    stray = _stray(marker)
    end = (step or 0) + 200
    res = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "train", "--backend", "rllib", "--resume",
                          str(run_dir), "--steps", str(end), "--num-env-runners", "0", "--device", "auto"],
                         capture_output=True, text=True, timeout=180)
    return {"dir": run_dir, "stop": stop, "step": step, "stray": stray, "marker": marker, "logged": logged,
            "stopped_files": stopped_files, "resume": (res.returncode, res.stdout, res.stderr), "end": end}


# --- Ctrl-C ------------------------------------------------------------------------------

def test_ctrl_c_ends_the_iteration_with_a_checkpoint_and_exit_130(run):
    """Before: a KeyboardInterrupt traceback from inside ray.wait, exit status 1, and the
    iterations since the last checkpoint lost."""
    rc, out, err = run["stop"]
    assert rc == 130 and "Traceback" not in err, (rc, err[-3000:])
    assert "stopping at the end of this iteration with a checkpoint" in err
    assert f"interrupted: stopped at step {run['step']:,}" in out
    assert f"continue with: spacemission train --backend rllib --resume {run['dir']}" in out
    # the checkpoint is of the step it stopped at (after the one it was signalled after), and
    # its rows are in metrics.csv; no final.npz or summary.json: the run is not finished
    assert run["step"] > TINY["checkpoint_every"] and run["logged"] == run["step"]
    assert "summary.json" not in run["stopped_files"] and "final.npz" not in run["stopped_files"]


def test_ctrl_c_leaves_no_ray_process(run):
    assert run["stray"] == [], run["stray"]


def test_the_interrupted_run_resumes_to_its_end_without_rows_twice(run):
    rc, out, err = run["resume"]
    assert rc == 0 and "Traceback" not in err, err[-3000:]
    summary = json.loads((run["dir"] / "summary.json").read_text())
    assert summary["steps"] == run["end"] and run["step"] < run["end"]
    assert _twice(run["dir"]) == set()
    steps = [e["step"] for e in summary["evals"]]
    assert steps == sorted(set(steps)) and steps[0] == 0 and steps[-1] == run["end"]
    config = json.loads((run["dir"] / "config.json").read_text())
    assert config["resumed"][-1]["step"] == run["step"]
    # the environment version it trained on, recorded at the start and by the resume (before: neither), and in the
    # exported model's metadata; the resume of a run of the same version says nothing of it
    assert config["env_id"] == config["resumed"][-1]["env_id"] == "SpaceMission-v3"
    assert "previous_env_id" not in config["resumed"][-1] and "env_id" not in err
    assert PPOAgent.load(run["dir"] / "final.npz").metadata["env_id"] == "SpaceMission-v3"
    assert summary["game"] == config["config"]["game"] and summary["players"] == config["config"]["players"]
    assert config["config"]["steps"] == run["end"]  # the next resume continues the extended budget
    # a resume may change the device (RESUME_OVERRIDES); config.json records the one it resolved to
    assert config["config"]["device"] == "auto"
    assert config["device"] == ("cuda:0" if _cuda() else "cpu")


def test_resuming_a_finished_run_says_so_and_changes_nothing(run, capsys):
    """Before: it ran the end again (a second final evaluation in metrics.csv and
    summary.json, checkpoint and final.npz rewritten), after starting Ray."""
    assert run["resume"][0] == 0
    before = _files(run["dir"])
    assert main(["--resume", str(run["dir"])]) == 0
    out = capsys.readouterr().out
    assert f"already finished at step {run['end']:,}" in out and "--steps N" in out
    assert _files(run["dir"]) == before


def test_sigterm_ends_the_iteration_with_a_checkpoint_and_exit_143(tmp_path):
    """SIGTERM to the whole process group, as a batch scheduler sends it (the driver and a
    local Ray's processes): before, ray.init's own handler exited from inside Ray's C++ core
    (SIGABRT, status -6), losing the iterations since the last checkpoint. Now as the first
    Ctrl-C, with exit status 143, and no Ray process left. The signal reaches the local Ray's
    raylet and GCS too: sent between iterations the run stops after the iteration in progress,
    sent while the env runner samples that iteration samples nothing and the run stops at the
    checkpoint's step (docs/training.md); the test sends it as the first checkpoint appears,
    which is either (a CI run on a fresh clone met the second), so it asks for a step at least
    the checkpoint's, with its checkpoint and message."""
    run_dir, marker = tmp_path / "run", uuid.uuid4().hex
    proc = _start(run_dir, marker, *_flags(steps=20000, num_env_runners=1), "--run-dir", str(run_dir))
    _wait_for_checkpoint(run_dir, proc)
    first = _loop(run_dir)["step"]
    os.killpg(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143 and "Traceback" not in err, (proc.returncode, err[-3000:])
    assert "interrupted (SIGTERM)" in err and f"interrupted: stopped at step {_loop(run_dir)['step']:,}" in out
    assert _loop(run_dir)["step"] >= first
    _no_stray(marker)


@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM])
def test_a_second_ctrl_c_stops_at_once_and_names_the_checkpoint(second, tmp_path):
    """Ctrl-C to the group, then a second Ctrl-C or a SIGTERM to the driver: it stops at once
    with status 130 or 143. Before (SIGTERM): 130, ray.wait having turned the handler's
    Stopped into a plain KeyboardInterrupt. The driver sees a signal when Ray checks for one
    (in ray.wait, about each second) and two that came before that count as one: the second
    is sent once the first was handled, in iterations of 3,000 env steps (seconds; with
    TINY's 200, 0.4 s, and 0.3 s between the signals, the first often ended the run)."""
    run_dir, marker = tmp_path / "run", uuid.uuid4().hex
    proc = _start(run_dir, marker, *_flags(steps=30000, train_batch=3000, num_env_runners=1), "--run-dir",
                  str(run_dir))
    _wait_for_checkpoint(run_dir, proc)
    first = _loop(run_dir)["step"]
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")), daemon=True)
    reader.start()
    os.killpg(proc.pid, signal.SIGINT)
    deadline = time.time() + 60
    while not any("stopping at the end of this iteration" in x for x in lines) and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(second)
    out = proc.stdout.read()
    proc.wait(timeout=120)
    reader.join(timeout=30)
    err = "".join(lines)
    assert proc.returncode == 128 + second and "Traceback" not in err, (proc.returncode, out[-1000:], err[-3000:])
    assert "the run in" in err and "was not finished: continue from its last checkpoint" in err
    assert f"spacemission train --backend rllib --resume {run_dir}" in err
    _no_stray(marker)
    from spacemission_training.rllib import read_checkpoint

    ckpt, loop = read_checkpoint(run_dir, RLlibConfig(**json.loads((run_dir / "config.json").read_text())["config"]))
    assert loop["step"] >= first and ckpt.name == "rllib"


# --- what cannot be resumed: exit 2, the file named, nothing written, before Ray starts ---------

def _copy(run, tmp_path) -> Path:
    d = tmp_path / "copy"
    shutil.copytree(run["dir"], d)
    (d / "summary.json").unlink()  # not finished: it would resume
    return d


@pytest.mark.parametrize("damage, named", [
    ("truncated loop", "checkpoints/rllib/loop.json"),
    ("garbage loop", "checkpoints/rllib/loop.json"),
    ("not a loop", "checkpoints/rllib/loop.json"),
    ("missing learner state", "checkpoints/rllib/learner_group/state.pkl"),
    ("empty algorithm state", "checkpoints/rllib/algorithm_state.pkl"),
    ("no checkpoint", "no RLlib checkpoint"),
])
def test_a_checkpoint_that_cannot_be_read_is_named_and_nothing_is_written(run, tmp_path, capsys, damage, named):
    """Before: tracebacks from json or RLlib's restore, after Ray had started."""
    d = _copy(run, tmp_path)
    loop = d / "checkpoints" / "rllib" / "loop.json"
    if damage == "truncated loop":
        loop.write_text(loop.read_text()[:100])
    elif damage == "garbage loop":
        loop.write_text("garbage")
    elif damage == "not a loop":
        loop.write_text("[1, 2]")
    elif damage == "missing learner state":
        (d / "checkpoints" / "rllib" / "learner_group" / "state.pkl").unlink()
    elif damage == "empty algorithm state":
        (d / "checkpoints" / "rllib" / "algorithm_state.pkl").write_bytes(b"")
    else:
        shutil.rmtree(d / "checkpoints")
    before = _files(d)
    t0 = time.perf_counter()
    try:
        rc = main(["--resume", str(d)])
    except SystemExit as exc:
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 2 and named in err and "Traceback" not in err, err
    assert _files(d) == before
    assert time.perf_counter() - t0 < 10  # no Ray started


def test_a_checkpoint_of_another_run_or_an_edited_config_is_refused(run, tmp_path, capsys):
    """Before: the other run's checkpoint was restored under this run's configuration (or
    RLlib failed deep in its restore); a hand-edited config.json trained with the edit."""
    d = _copy(run, tmp_path)
    loop_path = d / "checkpoints" / "rllib" / "loop.json"
    loop = json.loads(loop_path.read_text())
    loop["config"] = {**loop["config"], "lr": 0.01, "seed": 5}  # a checkpoint of another run copied in
    loop_path.write_text(json.dumps(loop))
    before = _files(d)
    assert main(["--resume", str(d)]) == 2
    err = capsys.readouterr().err
    assert "is not of the run configured in its folder's config.json" in err
    assert "lr 0.01 in the checkpoint, 0.0003 in config.json" in err and "seed 5 in the checkpoint" in err
    assert _files(d) == before
    # the same from the other side: config.json edited by hand
    d2 = _copy(run, tmp_path / "2")
    config = json.loads((d2 / "config.json").read_text())
    config["config"]["trunk"] = "64"
    (d2 / "config.json").write_text(json.dumps(config))
    before = _files(d2)
    assert main(["--resume", str(d2)]) == 2
    assert "trunk '32' in the checkpoint, '64' in config.json" in capsys.readouterr().err
    assert _files(d2) == before


def test_a_truncated_rllib_state_is_named_after_restore_fails(run, tmp_path, capsys):
    """A checkpoint file cut short (not empty) passes the checks before Ray and fails in
    RLlib's restore: still exit 2 naming the checkpoint, no traceback, nothing written."""
    d = _copy(run, tmp_path)
    state = d / "checkpoints" / "rllib" / "learner_group" / "learner" / "rl_module" / "learner" / "module_state.pkl"
    if not state.is_file():
        state = d / "checkpoints" / "rllib" / "learner_group" / "state.pkl"
    state.write_bytes(state.read_bytes()[:50])
    before = _files(d)
    res = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "train", "--backend", "rllib", "--resume",
                          str(d), "--num-env-runners", "0"], capture_output=True, text=True, timeout=180)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr[-3000:]
    # the path cut to 80 characters (checks.shown): a temporary folder's length varies with pytest's run number
    assert f"checkpoint {shown_path(d / 'checkpoints' / 'rllib')} cannot be read" in res.stderr
    assert _files(d) == before


def test_each_trainer_refuses_the_others_run_by_name(run, tmp_path, capsys):
    """Before: the RLlib trainer said 'no RLlib checkpoint' for an SB3 run without naming
    the trainer that resumes it."""
    from spacemission_training.config import parse_args as sb3_parse_args

    with pytest.raises(SystemExit) as exc:
        sb3_parse_args(["--resume", str(run["dir"])])
    assert exc.value.code == 2
    assert "is an RLlib run" in capsys.readouterr().err
    sb3 = tmp_path / "sb3"
    (sb3 / "checkpoints").mkdir(parents=True)
    (sb3 / "config.json").write_text(json.dumps({"config": {"num_envs": 16, "steps": 1000}}))
    (sb3 / "checkpoints" / "last.pt").write_bytes(b"x")
    with pytest.raises(SystemExit) as exc:
        main(["--resume", str(sb3)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "is a run of the SB3 trainer (checkpoints/last.pt)" in err
    assert f"spacemission train --resume {cut(str(sb3))}" in err


# --- a kill while the checkpoint is written, or in the end -------------------------------------

def test_a_kill_while_a_checkpoint_is_written_keeps_a_whole_one(run, tmp_path):
    """Before: save_to_path wrote into the one checkpoint folder in place and loop.json after
    it: a kill in between left a checkpoint cut short, or RLlib's state of one step with the
    loop of another."""
    from spacemission_training.rllib import find_checkpoint

    d = _copy(run, tmp_path)
    root = d / "checkpoints"
    # killed while the next one was written: rllib.new without its loop.json
    shutil.copytree(root / "rllib", root / "rllib.new")
    (root / "rllib.new" / "loop.json").unlink()
    (root / "rllib.new" / "algorithm_state.pkl").write_bytes(b"cut")
    assert find_checkpoint(d) == root / "rllib"
    # killed after it was whole, before it was moved into place: the newer one is taken
    shutil.rmtree(root / "rllib.new")
    os.replace(root / "rllib", root / "rllib.new")
    assert find_checkpoint(d) == root / "rllib.new"
    cfg = RLlibConfig(**json.loads((d / "config.json").read_text())["config"])
    from spacemission_training.rllib import read_checkpoint

    assert read_checkpoint(d, cfg)[0] == root / "rllib.new"


@pytest.fixture
def local_ray():
    import ray

    from spacemission_training.rllib import init_ray

    init_ray("")
    yield
    ray.shutdown()


def test_the_end_logs_its_evaluation_once_and_the_logs_reach_each_checkpoint(tmp_path, monkeypatch, local_ray):
    """A run killed after its final evaluation but before summary.json (here: final.npz fails
    to be written) ends again on resume without a second final evaluation in metrics.csv or
    summary.json; and every checkpoint finds its step's rows on disk. Before: the final
    evaluation came after the last checkpoint and was logged again by the resumed end."""
    from spacemission_training import rllib

    run_dir = tmp_path / "run"
    seen = []
    save = rllib.save_checkpoint_dir

    def spy(algo, run_dir_, loop):
        seen.append((loop["step"], max(int(r[0]) for r in _rows(run_dir_))))
        return save(algo, run_dir_, loop)

    class Killed(Exception):
        pass

    export = rllib.export_agent

    def kill_at_the_end(module, cfg, training=None, name="ppo"):
        if training is not None:  # the final model, after the final evaluation
            raise Killed
        return export(module, cfg, training, name)

    monkeypatch.setattr(rllib, "save_checkpoint_dir", spy)
    monkeypatch.setattr(rllib, "export_agent", kill_at_the_end)
    cfg = RLlibConfig(**{**TINY, "steps": 600, "num_env_runners": 0, "run_dir": str(run_dir)})
    with pytest.raises(Killed):
        train(cfg, argv=["--tiny"])
    assert seen and all(step == logged for step, logged in seen), seen
    monkeypatch.setattr(rllib, "export_agent", export)
    assert main(["--resume", str(run_dir)]) == 0
    summary = json.loads((run_dir / "summary.json").read_text())
    assert _twice(run_dir) == set()
    assert [e["step"] for e in summary["evals"]] == [0, 600] and summary["final_eval"]
    assert (run_dir / "final.npz").is_file()


@pytest.mark.parametrize("fail_at", [3, 1])
def test_ray_failing_with_the_signal_stops_at_the_checkpoint_with_exit_143(tmp_path, monkeypatch, capsys, local_ray,
                                                                           fail_at):
    """SIGTERM to the process group reaches a local Ray's raylet and GCS too, and the iteration
    in progress can fail (an object lost with them) instead of finishing: a CI run on a fresh
    clone met it, exit status 1 with Ray's traceback. Now the run stops at its last checkpoint
    (step 400 here, after iteration 2), exit status 143, as the test above asks; with no
    checkpoint yet (the first iteration fails) it says so. Ray's failure is played here: the
    signal, then the error, from the algorithm's ``train``."""
    import ray

    from spacemission_training import rllib

    build, calls = rllib.build_algorithm, []

    def build_failing(cfg, arch):
        algo = build(cfg, arch)
        train_once = algo.train

        def train_or_fail():
            calls.append(1)
            if len(calls) == fail_at:
                signal.raise_signal(signal.SIGTERM)
                raise ray.exceptions.RayError("an object was lost with the raylet")
            return train_once()

        algo.train = train_or_fail
        return algo

    monkeypatch.setattr(rllib, "build_algorithm", build_failing)
    run_dir = tmp_path / "run"
    status = main([*_flags(steps=2000, num_env_runners=0), "--run-dir", str(run_dir)])
    out, err = capsys.readouterr()
    assert status == 143 and "Traceback" not in err, (status, err[-3000:])
    assert "Ray's processes ended with the signal before this iteration finished (RayError: an object was lost" in err
    if fail_at == 3:
        assert _loop(run_dir)["step"] == 400 and "interrupted: stopped at step 400" in out
    else:
        assert "it has no checkpoint yet" in err and not (run_dir / "checkpoints" / "loop.json").exists()


def test_one_seed_gives_one_run(tmp_path):
    """Two unbroken runs with one seed, in processes with other hash seeds, end with the same
    weights and log the same figures. Before: the seats were drawn from RLlib's random episode
    ids, the modules were built in the order of a set of their names (which PYTHONHASHSEED
    changes), and with remote env runners the learner's first weights came from the driver's
    unseeded torch generator: two 800-step runs ended up to 0.49 apart."""
    import numpy as np

    runs = []
    for k, hash_seed in (("a", "1"), ("b", "2")):
        res = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "train", "--backend", "rllib",
                              *_flags(steps=600, num_env_runners=1, seed=3), "--run-dir", str(tmp_path / k)],
                             capture_output=True, text=True, timeout=240, env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert res.returncode == 0, res.stderr[-3000:]
        runs.append(tmp_path / k)
    a, b = (np.load(r / "final.npz") for r in runs)
    assert [k for k in a.files if k != "metadata" and not np.array_equal(a[k], b[k])] == []
    rows = [{(r[0], r[2]): r[3] for r in _rows(run) if not r[2].startswith("time/")} for run in runs]
    assert rows[0] == rows[1] and len(rows[0]) > 20


def test_each_env_runner_seeds_its_bots_apart(local_ray):
    """RLlib builds every env runner's bot modules from one model_config. Before, a random
    bot drew the same stream on every runner; now each runner mixes in its own seed (RLlib's
    seed + worker_index), and two runners' random bots play apart."""
    import numpy as np

    from spacemission_env.space_mission.actions import NUM_ACTIONS
    from spacemission_training.policy import feature_stats
    from spacemission_training.rllib import architecture, build_algorithm, stop_algorithm

    cfg = RLlibConfig(**{**TINY, "num_env_runners": 2})
    active, scale = feature_stats(2, "yucata", 100, "recall", games=4)
    algo = build_algorithm(cfg, architecture(cfg, active, scale))
    try:
        def draws(runner):
            x, mask = np.zeros((64, 1), np.int8), np.ones((64, NUM_ACTIONS), bool)
            return runner.worker_index, runner.module["bot_0"].agent.act_batch(x, mask).tolist()

        out = dict(algo.env_runner_group.foreach_env_runner(draws, local_env_runner=False))
    finally:
        stop_algorithm(algo)
    assert sorted(out) == [1, 2]
    assert out[1] != out[2]
