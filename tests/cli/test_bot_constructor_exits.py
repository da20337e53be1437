"""A bot whose constructor (or bind, or act) calls sys.exit() or raises KeyboardInterrupt (no Ctrl-C pressed) in
`spacemission play` and `spacemission serve`. Before: play ended with the bot's status and no
word (sys.exit(3): status 3) or as the user's Ctrl-C (a KeyboardInterrupt traceback), serve
likewise at its start, and a new game's request on a server ended in its worker thread
unanswered as a refusal. The arena already made either a usage error naming the spec
(test_arena_cli); now play and serve do the same (``_bots.make_bot``), and a server's new
game with such a bot is a 400 naming it."""
from __future__ import annotations

import io
import os
import re
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


def _server_offering(spec: str):
    """The server's app offering ``spec`` beside random (to both games) and a test client."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx2", reason="httpx2 (dev extra) is needed by Starlette's test client")
    from starlette.testclient import TestClient

    from spacemission_cli.web.app import create_app
    from tests.helpers.web import JSON_HEADERS

    app = create_app(["random", spec], game_opponents={"red_planet": ["random", spec]})
    return app, TestClient(app, headers=JSON_HEADERS)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("where, raised", CASES)
def test_a_new_game_on_the_server_names_a_bot_that_exits_or_interrupts(game, where, raised):
    """A server offering such a spec (create_app does not build the specs it is given): the new
    game is refused with 400 naming the spec, and the server goes on (the next game starts)."""
    spec = f"{AGENT}:where={where}"
    app, client = _server_offering(spec)
    players = 2 if game == "spacemission" else 3
    r = client.post("/api/games", json={"game": game, "players": players, "opponents": spec, "seed": 1})
    assert r.status_code == 400, r.text
    assert f"agent spec '{spec}' failed as it was built: {raised}" in r.json()["error"]
    r = client.post("/api/games", json={"game": game, "players": players, "opponents": "random", "seed": 1})
    assert r.status_code == 201, r.text
    assert len(app.state.store) == 1


QUITS = f"{__name__}:Quits"


class Quits(First):
    """sys.exit(3) in ``where``: act or bind; ``where=interrupt`` raises KeyboardInterrupt in act."""

    def __init__(self, where: str = "act"):
        self.where = where

    def bind(self, config):
        if self.where == "bind":
            sys.exit(3)

    def act(self, observation, action_mask):
        if self.where == "act":
            sys.exit(3)
        if self.where == "interrupt":
            raise KeyboardInterrupt
        return super().act(observation, action_mask)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_play_ends_the_game_naming_a_bot_that_exits_in_act(game, monkeypatch, capsys):
    """Before: a bot calling sys.exit(3) in act ended play with status 3 and no word (play names
    only an Exception of act); now it ends the game as any bot's failure, naming it."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 50))
    code = main(["play", "--game", game, "--opponents", f"{QUITS}:where=act", "--seat", "1", "--seed", "1"])
    out = capsys.readouterr()
    assert code == 1, (out.out[-500:], out.err[-500:])
    assert re.search(rf"opponent '{QUITS}:where=act' \(seat [02]\) failed: SystemExit: 3", out.out), out.out[-500:]
    assert "Traceback" not in out.out + out.err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_play_names_a_bot_that_exits_in_bind(game, default_sigint, capsys, monkeypatch):
    spec = f"{QUITS}:where=bind"
    err = _usage_error(["play", "--game", game, "--opponents", spec, "--seed", "1"], capsys, monkeypatch)
    assert f"argument --opponents: agent {spec!r} failed to bind to this game: SystemExit: 3" in err, err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("where, raised", [("act", "SystemExit: 3"), ("interrupt", "KeyboardInterrupt")])
def test_a_server_bot_that_exits_or_interrupts_in_act_ends_its_game(game, where, raised):
    """Before: the request's thread passed the SystemExit (or KeyboardInterrupt) on to the
    server, which answered nothing (the test client's portal was cancelled). Now the game
    ends with the bot's failure named, as for any exception, and the server goes on."""
    spec = f"{QUITS}:where={where}"
    app, client = _server_offering(spec)
    players = 2 if game == "spacemission" else 3
    r = client.post("/api/games", json={"game": game, "players": players, "opponents": spec, "seat": 1, "seed": 1})
    assert r.status_code == 201, r.text
    g = r.json()
    for _ in range(50):  # the person's moves until a bot is to act (Red Planet: the person may choose first)
        if g["over"]:
            break
        r = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]})
        assert r.status_code == 200, r.text
        g = r.json()
    assert g["over"] and re.search(rf"'{spec}' \(seat [02]\) failed: {raised}", g["final"]["failure"]), g["final"]
    r = client.post("/api/games", json={"game": game, "players": players, "opponents": "random", "seed": 1})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("where, raised", CASES)
def test_bench_names_an_agent_that_exits_or_interrupts_as_it_is_built(game, where, raised, default_sigint, capsys,
                                                                      monkeypatch):
    """`spacemission bench --agents` builds its agents as play does (``_bots.make_bot``): before,
    sys.exit(3) in the constructor ended bench with status 3 and no word, a KeyboardInterrupt
    as the user's Ctrl-C."""
    spec = f"{AGENT}:where={where}"
    err = _usage_error(["bench", "--game", game, "--only", "agents", "--agents", f"random,{spec}",
                        "--seconds", "0.01"], capsys, monkeypatch)
    assert f"argument --agents: agent spec '{spec}' failed as it was built: {raised}" in err, err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_a_real_ctrl_c_while_bench_builds_its_agents_is_the_users_stop(default_sigint, capsys):
    """The other side: a real Ctrl-C while bench builds its agents passes as a KeyboardInterrupt
    (ArenaStopped), not a usage error naming the agent."""
    with pytest.raises(KeyboardInterrupt):
        main(["bench", "--only", "agents", "--agents", f"{__name__}:InterruptedWhileBuilt", "--seconds", "0.01"])
    assert "failed as it was built" not in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
