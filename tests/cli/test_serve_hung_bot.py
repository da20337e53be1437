"""`spacemission serve` stopped (Ctrl-C or SIGTERM) while a bot never returns from a decision.
Before: the request's work ran in Starlette's thread pool, whose threads are not daemons, so
after the shutdown (which waits a bounded time for a decision under way and said so on stderr)
the process waited for the hung bot for ever. Now the work runs on daemon threads
(web.app.ThreadWork): the process ends after the bounded wait, and stderr names the bot.
And Ctrl-C, hung bot or not, ended serve with a KeyboardInterrupt traceback (uvicorn raises
SIGINT again once it has stopped); now with status 130 and no traceback."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("uvicorn", reason="uvicorn is not installed (web extra)")
pytest.importorskip("starlette", reason="the web extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
SPEC = "tests.cli.test_serve_hung_bot:Hangs"
# serve with short waits (uvicorn's graceful shutdown and the app's wait for a decision under way), with
# SIGINT's handler Python's own, as a terminal's Ctrl-C finds it (a shell's background job has it ignored)
SERVE = """import signal
import sys
signal.signal(signal.SIGINT, signal.default_int_handler)
import spacemission_cli.serve as serve
import spacemission_cli.web.app as app
serve.TIMEOUT_GRACEFUL_SHUTDOWN = app.TIMEOUT_GRACEFUL_SHUTDOWN = 0.5
sys.exit(serve.main(sys.argv[1:]))
"""


class Hangs:
    """Never returns from a decision; creates the file $HANGS_MARK first (it is deciding)."""

    def act(self, observation, action_mask):
        Path(os.environ["HANGS_MARK"]).touch()
        threading.Event().wait()

    def act_batch(self, observations, action_masks):
        return np.array([self.act(o, m) for o, m in zip(observations, action_masks)], dtype=np.int64)


def _until(condition, what, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not after {seconds} s: {what}"
        time.sleep(0.05)


def _serve(mark: Path, opponents: str) -> tuple[subprocess.Popen, str]:
    """The server in a process of its own, and its address once it has said it."""
    env = dict(os.environ, HANGS_MARK=str(mark),
               PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in ("agents", "training", ".")))
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "--port", "0", "--opponents", opponents], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if " at http://127.0.0.1:" not in line:
        proc.kill()
        pytest.fail(f"serve did not start: {line!r} {proc.communicate()[1]}")
    return proc, line.split(" at ", 1)[1].split("/ ", 1)[0]


def _ended(proc: subprocess.Popen, sig) -> tuple[int, str]:
    """The status and stderr of the server once ``sig`` has stopped it."""
    try:
        code = proc.wait(timeout=60)  # a bound far past the short waits above, not a speed check
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server did not end within 60 s of {sig.name}")
    err = proc.stderr.read()
    assert "Traceback" not in err, err
    assert code == (130 if sig == signal.SIGINT else -sig), (code, err)  # SIGTERM: its own status, 143 in a shell
    return code, err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_ends_serve_without_a_traceback(sig, tmp_path):
    proc, url = _serve(tmp_path / "deciding", "random")
    try:
        _until(lambda: _status(f"{url}/api/meta") == 200, "the server answering")
        proc.send_signal(sig)
        _ended(proc, sig)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _status(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except OSError:  # refused: the port is bound before uvicorn listens on it
        return None


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_server_with_a_hung_bot_still_stops(sig, tmp_path):
    mark = tmp_path / "deciding"
    proc, url = _serve(mark, SPEC)
    try:
        answers = []

        def new_game():  # seat 1: the bot in seat 0 moves first, and never returns
            req = urllib.request.Request(f"{url}/api/games", json.dumps({"players": 2, "seat": 1, "seed": 1}).encode(),
                                         {"Content-Type": "application/json"})
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(req, timeout=120) as r:
                        answers.append((r.status, r.read()))
                except urllib.error.HTTPError as exc:
                    answers.append((exc.code, exc.read()))
                except OSError as exc:  # refused: the port is bound before uvicorn listens on it
                    if isinstance(getattr(exc, "reason", None), ConnectionRefusedError) and time.monotonic() < deadline:
                        time.sleep(0.05)
                        continue
                    answers.append((None, repr(exc)))
                return

        client = threading.Thread(target=new_game, daemon=True)
        client.start()
        _until(lambda: mark.exists() or answers, "the bot deciding")
        assert not answers, answers
        proc.send_signal(sig)
        _, err = _ended(proc, sig)
        assert f"1 request still running after 0.5 s more, in a decision of '{SPEC}' (seat 0); the process ends without waiting for it" in err, err
        client.join(60)
        assert answers and answers[0][0] == 503, answers
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
