"""A bot whose constructor calls sys.exit() or raises KeyboardInterrupt (no Ctrl-C pressed) in
`spacemission play` and `spacemission serve`. Before: play ended with the bot's status and no
word (sys.exit(3): status 3) or as the user's Ctrl-C (a KeyboardInterrupt traceback), serve
likewise at its start, and a new game's request on a server ended in its worker thread
unanswered as a refusal. The arena already made either a usage error naming the spec
(test_arena_cli); now play and serve do the same (``_bots.make_bot``), and a server's new
game with such a bot is a 400 naming it."""
from __future__ import annotations

import io
import os
import signal
import sys

import pytest

from spacemission_cli.main import main
from tests.helpers.external_agents import First

AGENT = "tests.helpers.external_agents:Interrupts"
CASES = [("init", "KeyboardInterrupt"), ("exit", "SystemExit: 3")]


@pytest.fixture
def default_sigint():
    """Python's own SIGINT handler for the test (a suite run in the background has SIGINT ignored)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def _usage_error(argv, capsys, monkeypatch) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\ny\n"))
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    return err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("where, raised", CASES)
def test_play_names_a_bot_that_exits_or_interrupts_as_it_is_built(game, where, raised, default_sigint, capsys,
                                                                  monkeypatch):
    spec = f"{AGENT}:where={where}"
    err = _usage_error(["play", "--game", game, "--opponents", spec, "--seed", "1"], capsys, monkeypatch)
    assert f"argument --opponents: agent spec '{spec}' failed as it was built: {raised}" in err, err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


@pytest.mark.parametrize("where, raised", CASES)
def test_serve_names_a_bot_that_exits_or_interrupts_as_it_is_built(where, raised, default_sigint, capsys,
                                                                   monkeypatch):
    spec = f"{AGENT}:where={where}"
    err = _usage_error(["serve", "--port", "0", "--opponents", f"random,{spec}"], capsys, monkeypatch)
    assert f"argument --opponents: agent spec '{spec}' failed as it was built: {raised}" in err, err


class InterruptedWhileBuilt(First):
    """Its constructor sends its own process a real SIGINT, as Ctrl-C on a terminal would."""

    def __init__(self):
        os.kill(os.getpid(), signal.SIGINT)


def test_a_real_ctrl_c_while_play_builds_its_bots_stops_with_130(default_sigint, capsys, monkeypatch):
    """The other side: a real Ctrl-C while the bots are built is the user's stop (130 and a
    line), not a bot's failure."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["play", "--opponents", f"{__name__}:InterruptedWhileBuilt", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 130, err
    assert "interrupted: the game was not started" in err and "failed as it was built" not in err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("where, raised", CASES)
def test_a_new_game_on_the_server_names_a_bot_that_exits_or_interrupts(game, where, raised):
    """A server offering such a spec (create_app does not build the specs it is given): the new
    game is refused with 400 naming the spec, and the server goes on (the next game starts)."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx2", reason="httpx2 (dev extra) is needed by Starlette's test client")
    from starlette.testclient import TestClient

    from spacemission_cli.web.app import create_app
    from tests.helpers.web import JSON_HEADERS

    spec = f"{AGENT}:where={where}"
    app = create_app(["random", spec], game_opponents={"red_planet": ["random", spec]})
    client = TestClient(app, headers=JSON_HEADERS)
    players = 2 if game == "spacemission" else 3
    r = client.post("/api/games", json={"game": game, "players": players, "opponents": spec, "seed": 1})
    assert r.status_code == 400, r.text
    assert f"agent spec '{spec}' failed as it was built: {raised}" in r.json()["error"]
    r = client.post("/api/games", json={"game": game, "players": players, "opponents": "random", "seed": 1})
    assert r.status_code == 201, r.text
    assert len(app.state.store) == 1
