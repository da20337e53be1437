"""serve's shutdown with a request whose bots are still moving: uvicorn cancels the request
after its graceful shutdown, but the thread running the bots went on playing them, past
the server's end (and the process, whose thread pool is not a daemon, waited for all of
them), and the cancelled request was answered 500 with a CancelledError traceback. Now the
request's stop signal is set: the bots stop before their next decision, the request is
answered 503, and the app's shutdown waits for the decision under way (web.app.ThreadWork)."""
from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from tests.helpers.web import served

pytest.importorskip("uvicorn", reason="uvicorn is not installed (web extra)")
pytest.importorskip("starlette", reason="the web extra is not installed")

from spacemission_cli.web.app import create_app  # noqa: E402

SPEC = "tests.cli.test_serve_shutdown:Blocking"


class Blocking:
    """The first legal id; while BLOCK is set, each decision waits for RELEASE first."""
    BLOCK, RELEASE = threading.Event(), threading.Event()
    entered, left = [], []

    def act(self, observation, action_mask):
        if Blocking.BLOCK.is_set():
            Blocking.entered.append(threading.current_thread().name)
            try:
                assert Blocking.RELEASE.wait(60), "never released"
            finally:
                Blocking.left.append(threading.current_thread().name)
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations, action_masks):
        return np.array([self.act(o, m) for o, m in zip(observations, action_masks)], dtype=np.int64)


def _post(url, body):
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        text = exc.read()
        try:
            return exc.code, json.loads(text)
        except ValueError:  # uvicorn's own 500: plain text
            return exc.code, {"error": text.decode(errors="replace")}


def _wait(condition, what):
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"not after 30 s: {what}"
        time.sleep(0.02)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_a_shutdown_stops_the_bots_of_a_cut_off_request(game):
    Blocking.BLOCK.clear(), Blocking.RELEASE.clear(), Blocking.entered.clear(), Blocking.left.clear()
    app = create_app([SPEC], game_opponents={"red_planet": [SPEC]})
    answers = []
    with served(app, timeout_graceful_shutdown=0.2) as url:
        status, g = _post(f"{url}/api/games", {"game": game, "players": 3, "seat": 0, "seed": 5})
        assert status == 201, g
        Blocking.BLOCK.set()

        def client():  # the person's moves (each the last listed) until the bots are to move
            nonlocal g
            while not Blocking.entered:
                status, g = _post(f"{url}/api/games/{g['id']}/move", {"action": g["moves"][-1]["action"]})
                answers.append((status, g))
                if status != 200:
                    return

        mover = threading.Thread(target=client)
        mover.start()
        _wait(lambda: Blocking.entered, "a bot deciding")
        # leaving the with block stops the server: uvicorn cancels the request after 0.2 s, which
        # is answered; only then the bot's decision ends, while the server stops
        release = threading.Thread(target=lambda: (mover.join(60), Blocking.RELEASE.set()))
        release.start()
    release.join()
    mover.join(30)
    assert not mover.is_alive()
    status, body = answers[-1]
    assert status == 503 and "the server is stopping" in body["error"], answers[-1]
    # the server stopped once the decision under way ended; no other bot decided after it
    assert Blocking.entered == Blocking.left and len(Blocking.entered) == 1, (Blocking.entered, Blocking.left)
    assert len(app.state.work) == 0
    assert not [t for t in threading.enumerate() if t.name == Blocking.entered[0] and t.is_alive()
                and getattr(t, "_target", None) is not None]


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_the_bots_stop_before_their_next_decision_once_the_stop_is_set(game):
    """The tables' loop, without a server: a set stop plays no bot move; an unset one plays to the person."""
    from spacemission_cli.web.games import game_options, make_table
    from spacemission_cli.web.protocol_games import make_protocol_table, protocol_options

    if game == "spacemission":
        make = lambda: make_table(game_options({"players": 3, "seat": 2, "seed": 3}, ["random"], 5))  # noqa: E731
    else:
        make = lambda: make_protocol_table(protocol_options({"game": game, "players": 3, "seat": 2, "seed": 3},  # noqa: E731
                                                            ["random"], 5))
    stop = threading.Event()
    stop.set()
    table = make()  # seed 3, seat 2: a bot starts
    table.bots_until_person(stop)
    assert table.actions == [] and not table.person_to_act
    table.bots_until_person(threading.Event())
    assert table.actions and table.person_to_act


THINKING = "tests.cli.test_serve_shutdown:Thinking"


class Thinking:
    """The first legal id; while HOLD is set, each decision waits for GO first; counts the
    decisions begun and the most under way at once."""
    HOLD, GO, lock = threading.Event(), threading.Event(), threading.Lock()
    begun = now = most = 0

    def act(self, observation, action_mask):
        with Thinking.lock:
            Thinking.begun, Thinking.now = Thinking.begun + 1, Thinking.now + 1
            Thinking.most = max(Thinking.most, Thinking.now)
        try:
            if Thinking.HOLD.is_set():
                assert Thinking.GO.wait(60), "never let go"
        finally:
            with Thinking.lock:
                Thinking.now -= 1
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations, action_masks):
        return np.array([self.act(o, m) for o, m in zip(observations, action_masks)], dtype=np.int64)


def test_a_cut_off_request_holds_its_thread_slot_until_its_bot_has_decided():
    """A request cancelled while its bot decided gave its slot of the thread limiter back at
    once, though its thread went on until the decision ended: with a limit of 2, two requests
    cut off mid-decision and a third one had 3 bots deciding at once. Now the slot is held
    until the thread ends: the third request waits for it (the app in-process, over ASGI)."""
    import asyncio

    from anyio.to_thread import current_default_thread_limiter

    Thinking.HOLD.set(), Thinking.GO.clear()
    Thinking.begun = Thinking.now = Thinking.most = 0
    app = create_app([THINKING])
    answers = []

    async def new_game(seed):  # seat 1: the bot in seat 0 decides first, within the request
        body = json.dumps({"players": 2, "seat": 1, "seed": seed}).encode()
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive():
            if messages:
                return messages.pop(0)
            await asyncio.Event().wait()  # the client stays: nothing else comes

        async def send(message):
            if message["type"] == "http.response.start":
                answers.append((seed, message["status"]))

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/api/games", "raw_path": b"/api/games", "query_string": b"",
                 "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
                 "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(body)).encode())]}
        await app(scope, receive, send)

    async def until(condition, what):
        deadline = time.monotonic() + 30
        while not condition():
            assert time.monotonic() < deadline, f"not after 30 s: {what}"
            await asyncio.sleep(0.01)

    async def main():
        limiter = current_default_thread_limiter()
        limiter.total_tokens = 2
        cut = [asyncio.create_task(new_game(seed)) for seed in (1, 2)]
        await until(lambda: Thinking.begun == 2, "two bots deciding")
        for task in cut:
            task.cancel()
        await asyncio.gather(*cut)
        assert sorted(answers) == [(1, 503), (2, 503)], answers
        later = asyncio.create_task(new_game(3))
        try:
            await until(lambda: limiter.statistics().tasks_waiting or Thinking.begun > 2, "the third request")
            assert Thinking.begun == 2 and limiter.borrowed_tokens == 2, (Thinking.begun, limiter.borrowed_tokens)
        finally:
            Thinking.HOLD.clear(), Thinking.GO.set()  # the two decisions end: their threads, and slots, too
        await later
        await until(lambda: len(app.state.work) == 0 and limiter.borrowed_tokens == 0, "the threads ending")

    asyncio.run(main())
    assert answers[-1] == (3, 201), answers
    assert Thinking.most == 2, Thinking.most
