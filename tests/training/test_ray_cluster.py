"""Ray on a real two-node cluster on this machine: RLlib self-play that learns, and the
distributed arena equal to the local one.

The cluster is what a user starts by hand: ``ray start --head --num-cpus 1`` and a second
``ray start --address HEAD --num-cpus 1`` (two raylets, each with one CPU), on loopback,
with a token of its own and its files under pytest's tmp; the drivers are the commands a
user types (``spacemission arena --ray ADDRESS``, ``spacemission train --backend rllib
--address ADDRESS``), run as subprocesses. Teardown ends exactly the
processes those two commands started (each runs in a session of its own); ``ray stop``
is not used, since it ends every Ray on the machine. Each env runner needs one CPU, so
the two env runners of the training run on different nodes.

Needs ray[rllib] (``make test-ray``); skipped where Ray is not importable.
"""
from __future__ import annotations

import json
import os
import re
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
    """SIGTERM, then SIGKILL after 3 s, to every process of session ``sid``."""
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
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


def _driver(cluster, *args: str, timeout: float = 400) -> str:
    """Run ``python ARGS`` as a driver of the cluster (its token in the environment, which
    Ray reads when it is imported); its output, or a failure with the output's tail."""
    address, env = cluster
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(args)} failed ({proc.returncode}):\n{(proc.stdout + proc.stderr)[-4000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(address, environment) of a running two-node cluster; drivers run as subprocesses
    with that environment (the cluster's token)."""
    tmp = tmp_path_factory.mktemp("ray")
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16),
           "RAY_USAGE_STATS_ENABLED": "0"}
    port = _free_port()
    address = f"127.0.0.1:{port}"
    sessions = []
    try:
        sessions.append(_ray_start(["--head", "--port", str(port), "--ray-client-server-port", str(_free_port()),
                                    "--temp-dir", str(tmp), "--include-dashboard=false"], env, tmp / "head.log"))
        sessions.append(_ray_start(["--address", address], env, tmp / "worker.log"))
        yield address, env
    finally:
        for sid in sessions:
            _end_session(sid)


def test_the_cluster_has_two_nodes_of_one_cpu(cluster):
    out = _driver(cluster, "-c", "import json, ray; ray.init(address=%r, log_to_driver=False); "
                                 "print(json.dumps([n['Resources'].get('CPU') for n in ray.nodes() if n['Alive']]))"
                  % cluster[0], timeout=120)
    assert json.loads(out.strip().splitlines()[-1]) == [1.0, 1.0]


def test_distributed_arena_equals_local_arena(cluster, tmp_path):
    agents = ["random", "greedy", "heuristic"]
    local = run_arena(agents, num_players=2, games=24, seed=5, chunk_size=8, progress=False, out=tmp_path / "local")
    out = _driver(cluster, "-m", "spacemission_cli.main", "arena", "--agents", ",".join(agents), "--games", "24",
                  "--seed", "5", "--chunk-size", "8", "--no-progress", "--out", str(tmp_path / "ray"),
                  "--ray", cluster[0])
    assert f"Ray at {cluster[0]}" in out
    assert local.num_games == 72
    local_games = (tmp_path / "local" / "games.jsonl").read_text().splitlines()
    assert (tmp_path / "ray" / "games.jsonl").read_text().splitlines() == local_games
    assert len(local_games) == 72
    summaries = [json.loads((tmp_path / d / "results.json").read_text()) for d in ("local", "ray")]
    for s in summaries:
        assert s.pop("timing")["elapsed_s"] > 0  # wall-clock: the one part that differs
    assert summaries[0] == summaries[1]
    for f in ("pairs.csv", "agents.csv"):
        assert (tmp_path / "ray" / f).read_text() == (tmp_path / "local" / f).read_text()


@pytest.mark.parametrize("code", [7, -9])
def test_a_chunk_whose_worker_process_ends_stops_the_distributed_arena_with_an_error(cluster, code):
    """Before: a Ray task whose worker process an agent ended (os._exit; SIGKILL, as the system's
    out-of-memory killer) was retried twice, then ray.get's WorkerCrashedError left the command
    as a traceback through Ray's internals (status 1). Now the error line and status of a local
    pool's worker that ends, naming the chunk (its games, deals and lineup) and Ray's error."""
    spec = f"tests.helpers.external_agents:Ends:code={code}"
    proc = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "arena", "--agents", f"{spec},random",
                           "--games", "4", "--chunk-size", "2", "--no-progress", "--ray", cluster[0]],
                          env=cluster[1], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert re.search(r"spacemission arena: error: the arena stopped: a worker process ended \(Ray's WorkerCrashedError, "
                     r"after its retries\) in the middle of chunk ([01]) \(games (0\.\.1|2\.\.3), deals ([01])\.\.\3 of "
                     + re.escape(f"{spec} vs random") + r"\): an agent ended it", proc.stderr), proc.stderr[-3000:]


def test_a_chunk_that_fails_as_a_whole_on_ray_is_its_error_line(cluster):
    """Before: a chunk's RuntimeError (here an agent's seed() failing in a later chunk: each worker
    process builds the agent once and reseeds it per chunk) came back as Ray's RayTaskError, whose
    text the command printed: Ray's task line and the remote traceback. Now the chunk's own
    message, as a local pool gives it."""
    proc = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "arena", "--agents",
                           "tests.helpers.external_agents:Raises:where=seed_later,random", "--games", "8",
                           "--chunk-size", "2", "--no-progress", "--ray", cluster[0]],
                          env=cluster[1], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr[-3000:]
    line = ("spacemission arena: error: the arena stopped: agent 'tests.helpers.external_agents:Raises:where=seed_later' "
            "failed in seed(): LookupError: boom in seed\n")
    assert line in proc.stderr and "Traceback" not in proc.stderr and "ray::" not in proc.stderr, proc.stderr[-3000:]


def test_an_agents_keyboard_interrupt_on_ray_is_its_forfeit_as_locally(cluster, tmp_path):
    """Before: an agent raising KeyboardInterrupt in a Ray task was taken for the task's
    cancellation (a TaskCancelledError traceback, status 1); a local worker forfeits its game.
    Now the same forfeits and results as the local arena."""
    agents = ["tests.helpers.external_agents:Interrupts", "random"]
    local = run_arena(agents, games=4, seed=2, chunk_size=2, max_rounds=3, progress=False, log=lambda m: None,
                      out=tmp_path / "local")
    assert len(local.forfeits) == 4
    _driver(cluster, "-m", "spacemission_cli.main", "arena", "--agents", ",".join(agents), "--games", "4", "--seed", "2",
            "--chunk-size", "2", "--max-rounds", "3", "--no-progress", "--out", str(tmp_path / "ray"), "--ray", cluster[0])
    summaries = [json.loads((tmp_path / d / "results.json").read_text()) for d in ("local", "ray")]
    for s in summaries:
        s.pop("timing")
    assert summaries[0] == summaries[1]


TRAIN = ["-m", "spacemission_cli.main", "train", "--backend", "rllib"]


def test_rllib_self_play_on_two_nodes_exports(cluster, tmp_path):
    run = tmp_path / "run"
    out = _driver(cluster, *TRAIN, "--address", cluster[0], "--num-env-runners", "2", "--steps", "2000",
                  "--train-batch", "1000", "--minibatch", "500", "--opponents", "random=0.5,greedy=0.2,self=0.3",
                  "--max-snapshots", "1", "--snapshot-every", "1000", "--eval-games", "10", "--eval-opponents", "random",
                  "--checkpoint-every", "1000", "--run-dir", str(run), "--progress", "lines")
    assert "win rate" in out
    summary = json.loads((run / "summary.json").read_text())
    assert summary["steps"] >= 2000 and summary["iterations"] == 2
    # games against the mix ended and were scored per group (which groups met is a draw per game)
    groups = {line.split(",")[2].split("/")[1] for line in (run / "metrics.csv").read_text().splitlines()
              if line.split(",")[2].startswith("games/") and line.split(",")[2].endswith("/score")}
    assert groups and groups <= {"random", "greedy", "self"}, groups
    # the exported model is the shipped numpy format and plays without Ray
    agent = PPOAgent.load(run / "final.npz")
    assert agent.metadata["training"]["backend"] == "rllib" and agent.metadata["num_players"] == 2
    assert list(run.glob("tb/events.out.tfevents.*")), "TensorBoard event file"
    assert (run / "checkpoints" / "rllib").is_dir()


@pytest.mark.slow
def test_rllib_self_play_learns_on_two_nodes_and_resumes(cluster, tmp_path):
    """A short run against the random bot raises the exported agent's win rate against
    random beyond its start (the final 95% interval's low end above the start's rate);
    resumed, it goes on from its checkpoint for one more iteration."""
    run = tmp_path / "run"
    _driver(cluster, *TRAIN, "--address", cluster[0], "--num-env-runners", "2", "--steps", "20000",
            "--train-batch", "2000", "--minibatch", "500", "--lr", "0.001", "--opponents", "random=1",
            "--eval-games", "100", "--eval-opponents", "random", "--run-dir", str(run), "--progress", "lines",
            "--tensorboard", "false", timeout=580)
    summary = json.loads((run / "summary.json").read_text())
    start, final = summary["evals"][0]["eval/random/win_rate"], summary["final_eval"]
    assert final["eval/random/ci_low"] > start, (start, final)
    _driver(cluster, *TRAIN, "--resume", str(run), "--steps", "21000", "--address", cluster[0],
            "--progress", "lines")
    more = json.loads((run / "summary.json").read_text())
    assert 21000 <= more["steps"] < 23000 and more["iterations"] == summary["iterations"] + 1
