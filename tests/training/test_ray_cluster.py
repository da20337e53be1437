"""Ray on a real two-node cluster on this machine: RLlib self-play that learns, and the
distributed arena equal to the local one.

The cluster is what a user starts by hand: ``ray start --head --num-cpus 1`` and a second
``ray start --address HEAD --num-cpus 1`` (two raylets, each with one CPU), on loopback,
with a token of its own and its files under pytest's tmp. Teardown ends exactly the
processes those two commands started (each runs in a session of its own); ``ray stop``
is not used, since it ends every Ray on the machine. Each env runner needs one CPU, so
the two env runners of the training run on different nodes.

Needs ray[rllib] (``make test-ray``); skipped where Ray is not importable.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

from spacemission_agents.arena import run_arena  # noqa: E402
from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_training.rllib import RLlibConfig, train  # noqa: E402

pytestmark = pytest.mark.ray

RAY = str(Path(sys.executable).with_name("ray"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _session_pids(sid: int) -> list[int]:
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:  # field 6 of /proc/PID/stat: the session id
            pids.append(int(stat.parent.name))
    return pids


def _end_session(sid: int) -> None:
    """SIGTERM, then SIGKILL after 10 s, to every process of session ``sid``."""
    for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 2.0)):
        for pid in _session_pids(sid):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while _session_pids(sid) and time.monotonic() < deadline:
            time.sleep(0.2)


def _ray_start(args: list[str], env: dict, log: Path) -> int:
    """Run ``ray start ARGS`` in a new session; its id (the command's pid) once it returns."""
    with open(log, "w") as out:
        proc = subprocess.Popen([RAY, "start", *args, "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
                                 "--disable-usage-stats", "--dashboard-agent-listen-port", str(_free_port())],
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = proc.wait(timeout=180)
        except subprocess.TimeoutExpired:
            _end_session(proc.pid)
            raise
    if code != 0:
        _end_session(proc.pid)
        raise RuntimeError(f"ray start {' '.join(args)} failed ({code}):\n{log.read_text()[-3000:]}")
    return proc.pid


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The address of a running two-node cluster; the driver (this process) connected to it."""
    tmp = tmp_path_factory.mktemp("ray")
    token = secrets.token_hex(16)
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token, "RAY_USAGE_STATS_ENABLED": "0"}
    env = {**os.environ, **auth}
    port = _free_port()
    address = f"127.0.0.1:{port}"
    sessions = []
    saved = {k: os.environ.get(k) for k in auth}
    try:
        sessions.append(_ray_start(["--head", "--port", str(port), "--ray-client-server-port", str(_free_port()),
                                    "--temp-dir", str(tmp), "--include-dashboard=false"], env, tmp / "head.log"))
        sessions.append(_ray_start(["--address", address], env, tmp / "worker.log"))
        os.environ.update(auth)
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        yield address
    finally:
        ray.shutdown()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        for sid in sessions:
            _end_session(sid)


def test_the_cluster_has_two_nodes_of_one_cpu(cluster):
    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert len(nodes) == 2
    assert [n["Resources"]["CPU"] for n in nodes] == [1.0, 1.0]


def test_distributed_arena_equals_local_arena(cluster, tmp_path):
    kwargs = dict(num_players=2, games=24, seed=5, chunk_size=8, progress=False)
    agents = ["random", "greedy", "heuristic"]
    local = run_arena(agents, out=tmp_path / "local", **kwargs)
    remote = run_arena(agents, out=tmp_path / "ray", ray=cluster, **kwargs)
    assert remote.num_games == local.num_games == 72
    assert remote.to_dict(timing=False) == local.to_dict(timing=False)
    local_games = (tmp_path / "local" / "games.jsonl").read_text().splitlines()
    assert (tmp_path / "ray" / "games.jsonl").read_text().splitlines() == local_games
    assert len(local_games) == 72
    summaries = [json.loads((tmp_path / d / "results.json").read_text()) for d in ("local", "ray")]
    assert [{k: v for k, v in s.items() if k != "timing"} for s in summaries][0] == \
        [{k: v for k, v in s.items() if k != "timing"} for s in summaries][1]
    for f in ("pairs.csv", "agents.csv"):
        assert (tmp_path / "ray" / f).read_text() == (tmp_path / "local" / f).read_text()


def test_rllib_self_play_learns_on_two_nodes_and_resumes(cluster, tmp_path):
    run = tmp_path / "run"
    cfg = RLlibConfig(steps=4000, train_batch=1000, minibatch=250, epochs=4, lr=1e-3, num_env_runners=2,
                      address=cluster, opponents="random=0.8,self=0.2", max_snapshots=1, snapshot_every=2000,
                      eval_games=60, eval_opponents="random", checkpoint_every=2000, run_dir=str(run),
                      progress="lines")
    summary = train(cfg)
    start, end = summary["evals"][0]["eval/random/win_rate"], summary["final_eval"]["eval/random/win_rate"]
    assert summary["steps"] >= 4000
    assert summary["final_eval"]["eval/random/ci_low"] > start, (start, summary["final_eval"])
    assert end > start
    # the exported model is the shipped numpy format and plays without Ray
    agent = PPOAgent.load(run / "final.npz")
    assert agent.metadata["training"]["backend"] == "rllib" and agent.metadata["num_players"] == 2
    assert list(run.glob("tb/events.out.tfevents.*")), "TensorBoard event file"
    assert (run / "checkpoints" / "rllib").is_dir()
    assert not (Path.home() / "ray_results" / run.name).exists()
    # resume: the saved configuration, more steps, on from the checkpoint
    cfg_more = RLlibConfig(**{**cfg.as_dict(), "steps": 5000, "eval_games": 20})
    more = train(cfg_more, resume=str(run))
    assert 5000 <= more["steps"] <= 6000 and more["iterations"] == summary["iterations"] + 1
