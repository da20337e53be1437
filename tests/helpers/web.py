"""The web server's tests: Starlette's test client over ``create_app``, the check of a refused
request, a short recorded Space Mission game and an unfinished save to upload or replay, and a real server on a
free port for the browser tests."""
from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request

import pytest


# what the page sends with every POST: the server refuses a POST without a JSON type (415,
# intake.check_content_type), so the test clients send it by default, an empty body's too
JSON_HEADERS = {"Content-Type": "application/json"}


def web_client(opponents=("random",), **options):
    """A test client of ``create_app(opponents, **options)`` that answers server errors as
    500s (so a test sees them); skips where the web or dev extra is not installed."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx2", reason="httpx2 (dev extra) is needed by Starlette's test client")
    from starlette.testclient import TestClient

    from spacemission_cli.web.app import create_app
    return TestClient(create_app(list(opponents), **options), raise_server_exceptions=False, headers=JSON_HEADERS)


def refused(response, status: int, *words: str) -> str:
    """The error message of a refused request, checked: its status and the words it names."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    for w in words:
        assert w in message, message
    return message


def first_moves_record(seed: int, max_rounds: int) -> dict:
    """The record of a short 2-player Space Mission game, each seat playing its first legal action."""
    from spacemission_cli._games import game_record
    from spacemission_env.space_mission.rules import action_label, apply, legal_actions, new_game

    s = new_game(2, seed=seed, max_rounds=max_rounds)
    actions = []
    while not s.is_over:
        a = legal_actions(s)[0]
        actions.append([s.current_player, a, action_label(a, s)])
        apply(s, a)
    return game_record(s, seed, ["random", "random"], actions)


def unfinished_save(path):
    """A ``play`` save (``save FILE``) of a 3-player game in round 8, every seat holding
    collected tiles, so each total has a hidden part beyond the jump gate and stations."""
    import json
    import random

    from spacemission_cli._games import SAVE_FORMAT, SAVE_VERSION
    from spacemission_env.space_mission.rules import action_label, apply, legal_actions, new_game, scores
    from spacemission_env.space_mission.rules.state_json import state_to_dict

    s, rng, actions = new_game(3, seed=11, max_rounds=40), random.Random(0), []
    while not all(x["total"] > x["jump_gate"] + x["stations"] for x in scores(s)):
        legal = legal_actions(s)
        a = rng.choice([a for a in legal if action_label(a, s).startswith(("take tile", "develop", "discover", "scan"))]
                       or legal)
        actions.append([s.current_player, a, action_label(a, s)])
        apply(s, a)
    assert not s.is_over
    path.write_text(json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION, "seed": 11, "seat": 0,
                                "specs": [None, "random", "random"], "actions": actions, "state": state_to_dict(s)}))
    return path, scores(s)


@contextlib.contextmanager
def served(app, **config):
    """``app`` served by uvicorn on a free local port in a thread of this process; yields its
    base URL and stops it afterwards (the browser tests' server); ``config``: more of
    uvicorn.Config's options."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


def playwright_or_skip():
    """Playwright's sync API; skips where Playwright, uvicorn or Debian's chromium is missing."""
    api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (dev extra)")
    pytest.importorskip("uvicorn", reason="uvicorn is not installed (web extra)")
    from spacemission_cli.web.headless import CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (make browser installs it; CI does)")
    return api


@contextlib.contextmanager
def desktop_page(browser, timeout_ms: int, console_errors: bool = False):
    """A 1280x800 page in a browser context of its own (no cookies, storage or cache shared
    with other tests) and the list its uncaught exceptions (and, with ``console_errors``, its
    console errors) are appended to; the context is closed after."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    if console_errors:
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.set_default_timeout(timeout_ms)
    try:
        yield pg, errors
    finally:
        context.close()


def post_json(url: str, body) -> dict:
    """POST ``body`` as JSON to the served app (outside the page under test) and its answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())
