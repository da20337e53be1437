"""Findings of playing "another client" of serve's HTTP API for both games (hostile seats,
long values, a finished game), kept as regression tests: each refused request gets a 4xx
JSON error naming the problem, its value cut (checks.shown), and leaves the game as it was."""
from __future__ import annotations

import pytest

from tests.helpers.web import refused, web_client

RAISES = "tests.helpers.external_agents:Raises"


@pytest.fixture
def client():
    return web_client(("random",), game_opponents={"red_planet": ["random", RAISES]})


def new(client, game, **body):
    r = client.post("/api/games", json=dict(body, game=game, players=3))
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("seat", [-1, 3, 10**30])
def test_a_seat_that_is_no_seat_of_the_game_is_a_400(client, game, seat):
    """Before: 403 "you play seat 0 in this game, not -1", as if -1 were another player's seat."""
    g = new(client, game, seat=0, seed=3)
    move = {"action": g["moves"][0]["action"], "version": g["version"]}
    refused(client.post(f"/api/games/{g['id']}/move", json=dict(move, seat=seat)), 400,
            f"seat must be in 0..2, got {seat}")
    refused(client.post(f"/api/games/{g['id']}/move", json=dict(move, seat=1)), 403, "you play seat 0")
    assert client.get(f"/api/games/{g['id']}").json()["version"] == g["version"]  # nothing played
    assert client.post(f"/api/games/{g['id']}/move", json=dict(move, seat=0)).status_code == 200


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("field", ["action", "seat", "version"])
def test_a_long_value_in_a_move_is_cut_in_the_message(client, game, field):
    """Before: the message was the first 300 characters of one naming the whole value, cut
    inside it without a mark; now the value is cut to 80 characters with "..." (json_input.json_shown:
    written as JSON, a string in double quotes)."""
    g = new(client, game, seed=3)
    move = dict({"action": g["moves"][0]["action"]}, **{field: "é" * 1000})
    message = refused(client.post(f"/api/games/{g['id']}/move", json=move), 400, f"{field} must be an integer")
    assert f'got "{"é" * 76}...' in message and len(message) < 200, message


def test_a_long_body_of_undo_or_resign_is_cut_in_the_message(client):
    g = new(client, "spacemission", seed=3)
    for path in ("undo", "resign"):
        message = refused(client.post(f"/api/games/{g['id']}/{path}", json={"x": "y" * 1000}), 400,
                          f"{path} takes no fields")
        assert "yyy..." in message and len(message) < 200, message
    assert not client.get(f"/api/games/{g['id']}").json()["over"]


def test_a_move_in_a_red_planet_game_a_bot_stopped_says_why(client):
    """docs/play.md: a move after the end says why it ended. Red Planet's said only 'the game is over'."""
    g = new(client, "red_planet", seat=2, seed=3, opponents=RAISES)  # seed 3, seat 2: a bot starts, and fails
    assert g["over"] and "boom in act" in g["error"]
    refused(client.post(f"/api/games/{g['id']}/move", json={"action": 0}), 409,
            "the game is over: a bot's failure stopped it")


@pytest.mark.parametrize("value", [0, -1, 2**31])
def test_max_rounds_out_of_range_names_the_range(client, value):
    """Before: -1 and 0 got 'max_rounds must be in 1.., got -1' (no upper bound), 2**31 the engine's range."""
    refused(client.post("/api/games", json={"max_rounds": value}), 400,
            f"max_rounds must be in 1..2147483647, got {value}")


@pytest.mark.parametrize("headers", [[(b"content-type", b"application/json")],  # read as JSON
                                     [(b"content-type", b"text/plain")],  # drained before the 415
                                     [(b"content-type", b"application/json"), (b"content-length", b"20000")]])  # 413
def test_a_client_that_leaves_before_its_body_is_not_a_server_error(headers):
    """A client closing its connection halfway through its body made Starlette raise
    ClientDisconnect out of the app: a 500 and 'Exception in ASGI application' with a
    traceback in the server's log. The app now ends the request quietly."""
    import asyncio

    from spacemission_cli.web.app import create_app

    app = create_app(["random"])
    messages = [{"type": "http.request", "body": b'{"play', "more_body": True}, {"type": "http.disconnect"}]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/games", "raw_path": b"/api/games", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1")] + headers, "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))  # before: raised ClientDisconnect
    assert sent[0]["status"] == 400 and b"closed the connection" in sent[1]["body"]
    assert len(app.state.store) == 0


def test_a_long_path_or_method_is_cut_in_the_message(client):
    """404 and 405 named the whole path (up to the 16 KiB of a request's headers), and /play/NAME the whole name."""
    for r, status in ((client.get("/api/" + "p" * 3000), 404), (client.get("/play/" + "g" * 3000), 404),
                      (client.put("/api/games/" + "i" * 3000), 405)):
        assert r.status_code == status and len(r.json()["error"]) < 300 and "..." in r.json()["error"], r.text[:400]


@pytest.mark.parametrize("digits", [200, 5000])
def test_a_replay_game_number_of_many_digits_is_a_404_naming_it_cut(client, digits):
    """The route's {index:int} converted the path's digits with int(): 5000 of them passed
    Python's limit on converting digits, a ValueError and a 500; 200 were named whole."""
    import json

    from tests.helpers.web import first_moves_record

    up = client.post("/api/replays", content=json.dumps(first_moves_record(1, 3)).encode())
    assert up.status_code == 201, up.text
    message = refused(client.get(f"/api/replays/{up.json()['id']}/{'9' * digits}"), 404, "the file holds games 0..0")
    assert f"no game {'9' * 77}..." in message and len(message) < 200, message
    refused(client.get(f"/api/replays/nope/{'9' * digits}"), 404, "no recorded games with this id")
    refused(client.get(f"/api/replays/{up.json()['id']}/-1"), 404, "no such page or endpoint")
