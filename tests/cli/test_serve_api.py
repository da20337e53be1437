"""The JSON API of ``spacemission serve`` through Starlette's test client: whole games, only
the seat's own view in every response (checked against the seer view and by changing what
the seat cannot see), and every refused request (a 4xx JSON error naming the problem, the
game left as it was)."""
from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (dev extra) is needed by Starlette's test client")
from starlette.testclient import TestClient  # noqa: E402

from spacemission_cli._games import append_record, game_record  # noqa: E402
from spacemission_cli.web.app import create_app  # noqa: E402
from spacemission_cli.web.intake import MAX_BODY  # noqa: E402
from spacemission_env.space_mission import encoding  # noqa: E402
from spacemission_env.space_mission.components import CARD_LABELS  # noqa: E402
from tests.helpers.web import JSON_HEADERS, first_moves_record, refused, unfinished_save  # noqa: E402


@pytest.fixture
def app():
    return create_app(["random", "kind-random", "heuristic"], max_games=50)


@pytest.fixture
def client(app):
    return TestClient(app, headers=JSON_HEADERS)


def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def table_of(app, game_id):
    return app.state.store._games[game_id].table




def check_own_view_only(g: dict, table) -> None:
    """Nothing in the response that the seat may not see: other hands, other collections,
    unseen piles, reservations (others' always, own under schmidt)."""
    me, view = g["seat"], g["view"]
    assert view["observer"] == me
    seer = encoding.decode(encoding.observe(table.state, 0, "seer"), "seer")
    for sv in view["seats"]:
        if sv["seat"] != me:
            assert sv["hand"] is None and sv["collection"] is None and sv["score"] is None
            assert sv["hand_size"] == len(table.state.players[sv["seat"]].hand)  # the count is public (R-I1)
    for pv in view["planets"]:
        assert pv["pile"] is None and pv["pile_text"] is None
        assert all(q == me for q, _ in pv["reservations"])
        if g["rules"] == "schmidt":
            assert pv["reservations"] == [] and pv["last_look"] is None  # R-A4c
    assert seer["seer_piles"].any()  # the seer sees piles that the response does not hold
    own = [CARD_LABELS[c] for c in table.state.players[me].hand]
    assert next(sv for sv in view["seats"] if sv["seat"] == me)["hand"] == own


def hide_differently(table, rng) -> None:
    """Change what the person cannot see: other seats' hands (swapped with draw-pile cards)
    and the types of their collected tiles."""
    s = table.state
    for q, pl in enumerate(s.players):
        if q == table.seat:
            continue
        for i in range(len(pl.hand)):
            if s.draw_pile:
                j = int(rng.integers(len(s.draw_pile)))
                pl.hand[i], s.draw_pile[j] = s.draw_pile[j], pl.hand[i]
        pl.hand.sort()
        pl.collection[:] = list(rng.permutation(pl.collection))


def comparable(g: dict) -> dict:
    return {k: v for k, v in g.items() if k not in ("log", "log_from", "version")}  # version: counts changes


@pytest.mark.parametrize("players,rules,opponents,seat", [(2, "yucata", "heuristic", 1), (3, "schmidt", "random", 0)])
def test_whole_games_show_only_the_seats_own_view(players, rules, opponents, seat, app, client):
    rng = np.random.default_rng(players)
    g = new(client, players=players, rules=rules, opponents=opponents, seat=seat, seed=11, max_rounds=30)
    gid = g["id"]
    table = table_of(app, gid)
    moves = 0
    while not g["over"]:
        check_own_view_only(g, table)
        if moves % 5 == 0:  # the response cannot change when only hidden things change
            before = comparable(client.get(f"/api/games/{gid}").json())
            hide_differently(table, rng)
            assert comparable(client.get(f"/api/games/{gid}").json()) == before
        assert g["your_turn"] and g["moves"]
        move = g["moves"][int(rng.integers(len(g["moves"])))]
        r = client.post(f"/api/games/{gid}/move", json={"action": move["action"]})
        assert r.status_code == 200, r.text
        g = r.json()
        assert g["log"][0]["seat"] == seat and all(e["seat"] != seat for e in g["log"][1:])  # the bots' moves since
        moves += 1
    assert moves > 10
    final = g["final"]
    assert [sc["total"] for sc in final["scores"]] == [sc["total"] for sc in table.result()["scores"]]
    assert all(sv["hand"] is not None for sv in final["view"]["seats"])  # at the end, everything face up
    refused(client.post(f"/api/games/{gid}/move", json={"action": g["view"] and 0}), 409, "over")


def test_moves_are_named_by_card_face_and_destination(client):
    g = new(client, opponents="random", seed=3)
    labels = [m["label"] for m in g["moves"]]
    hand = next(sv for sv in g["view"]["seats"] if sv["seat"] == 0)["hand"]
    jumps = [m for m in g["moves"] if m["kind"] == "jump"]
    assert jumps and all(m["cards"][0] in hand and m["label"].startswith(f"jump with {m['cards'][0]} to ") for m in jumps)
    assert not any("card " in label for label in labels)  # no hand slots
    ups = [m for m in g["moves"] if m["kind"] == "top_up"]
    assert len(ups) == 2 ** len(hand) and "top up, keeping every card" in labels


def test_undo_takes_back_a_move_that_showed_nothing(app, client):
    g = new(client, opponents="random", seed=3)
    gid = g["id"]
    before = comparable(client.get(f"/api/games/{gid}").json())
    refused(client.post(f"/api/games/{gid}/undo"), 409, "nothing to undo")
    jump = next(m for m in g["moves"] if m["kind"] == "jump")
    g = client.post(f"/api/games/{gid}/move", json={"action": jump["action"]}).json()
    assert g["can_undo"] and g["your_turn"]
    g = client.post(f"/api/games/{gid}/undo").json()
    assert comparable(client.get(f"/api/games/{gid}").json()) == before
    assert table_of(app, gid).actions == []
    up = next(m for m in g["moves"] if m["kind"] == "top_up" and m["cards"])  # draws cards: no undo
    g = client.post(f"/api/games/{gid}/move", json={"action": up["action"]}).json()
    assert not g["can_undo"]


def test_resign_and_bot_failure_end_the_game(app, client):
    g = new(client, opponents="random", seed=4)
    g = client.post(f"/api/games/{g['id']}/resign").json()
    assert g["over"] and g["final"]["resigned"] and g["moves"] == []
    g = new(client, opponents="random", seed=4)
    table = table_of(app, g["id"])

    def broken(obs, mask):
        raise ZeroDivisionError("oops")

    table.opponents[1].agent.act = broken
    for _ in range(2):  # the person's turn (two actions), then the bot's
        move = next(m for m in g["moves"] if m["kind"] == "top_up" and not m["cards"])
        r = client.post(f"/api/games/{g['id']}/move", json={"action": move["action"]})
        assert r.status_code == 200
        g = r.json()
    assert g["over"]
    assert "'random' (seat 1) failed: ZeroDivisionError: oops" in g["final"]["failure"]


def test_undo_after_the_end_says_why_the_game_is_over(app, client):
    """Before: undo after a resignation (or a bot's failure) answered "nothing to undo: only
    your own moves of this turn that showed you nothing new ... can be taken back", as if the
    game went on."""
    g = new(client, opponents="random", seed=4)
    jump = next(m for m in g["moves"] if m["kind"] == "jump")  # undoable, until the resignation
    client.post(f"/api/games/{g['id']}/move", json={"action": jump["action"]})
    client.post(f"/api/games/{g['id']}/resign")
    before = client.get(f"/api/games/{g['id']}").json()
    message = refused(client.post(f"/api/games/{g['id']}/undo"), 409, "the game is over: you resigned")
    assert "nothing to undo" not in message and client.get(f"/api/games/{g['id']}").json() == before
    refused(client.post(f"/api/games/{g['id']}/resign"), 409, "the game is over: you resigned")
    refused(client.post(f"/api/games/{g['id']}/move", json={"action": 0}), 409, "the game is over: you resigned")
    g = new(client, opponents="random", seed=4)
    table_of(app, g["id"]).failure = "'random' (seat 1) failed: ZeroDivisionError: oops"
    refused(client.post(f"/api/games/{g['id']}/undo"), 409, "the game is over: a bot's failure stopped it")


@pytest.mark.parametrize("body, field", [
    ({"rules": "x" * 15000}, "rules must be one of"),
    ({"opponents": ["y" * 15000]}, "opponent "),
    ({"z" * 15000: 1}, "unknown field "),
    ({"players": "9" * 15000}, "players must be an integer"),
    ({"opponents": {"a": "b" * 15000}}, "opponents must be a spec or a list of specs"),
    ({"game": "g" * 15000}, "game must be one of"),
    ({"game": "red_planet", "q" * 15000: 1}, "unknown field "),
])
def test_a_new_game_error_shows_a_rejected_value_shortened(client, body, field):
    """Before: the rejected value was repeated in full, up to the 16 KiB body limit."""
    r = client.post("/api/games", content=json.dumps(body).encode())
    message = refused(r, 400, field)
    assert len(message) < 250 and "..." in message, message  # the value's repr cut at 80 characters

def test_every_refused_request_names_the_problem_and_changes_nothing(app, client):
    g = new(client, opponents="random", seed=8)
    gid = g["id"]
    before = comparable(client.get(f"/api/games/{gid}").json())
    actions = [list(a) for a in table_of(app, gid).actions]
    illegal = next(a for a in range(100) if a not in {m["action"] for m in g["moves"]})
    cases = [
        (client.post(f"/api/games/{gid}/move", json={"action": illegal}), 400, "not one of your legal moves"),
        (client.post(f"/api/games/{gid}/move", json={"action": 500}), 400, "out of range"),
        (client.post(f"/api/games/{gid}/move", json={"action": "3"}), 400, "action must be an integer"),
        (client.post(f"/api/games/{gid}/move", json={"action": True}), 400, "action must be an integer"),
        (client.post(f"/api/games/{gid}/move", json={}), 400, '{"action": id}'),
        (client.post(f"/api/games/{gid}/move", json=[1]), 400, '{"action": id}'),
        (client.post(f"/api/games/{gid}/move", json={"action": 0, "colour": 1}), 400, 'unknown field "colour"'),
        (client.post(f"/api/games/{gid}/move", json={"action": g["moves"][0]["action"], "seat": 1}), 403, "seat 0"),
        (client.post(f"/api/games/{gid}/move", content=b'{"action": '), 400, "not valid JSON"),
        (client.post(f"/api/games/{gid}/move", content=b"\xff\xfe"), 400, "not valid JSON"),
        (client.post(f"/api/games/{gid}/move", content=b" " * (MAX_BODY + 1)), 413, "over the limit"),
        (client.post("/api/games/not-a-game/move", json={"action": 0}), 404, "no game with this id"),
        (client.get("/api/games/not-a-game"), 404, "no game with this id"),
        (client.post("/api/games/not-a-game/undo"), 404, "no game with this id"),
        (client.get(f"/api/games/{gid}?since=x"), 400, "since must be an integer"),
        (client.get(f"/api/games/{gid}?since=99"), 400, "since must be in"),
        (client.get("/api/nothing"), 404, "no such page"),
        (client.delete(f"/api/games/{gid}"), 405, "DELETE is not allowed"),
    ]
    for response, status, words in cases:
        refused(response, status, words)
    assert comparable(client.get(f"/api/games/{gid}").json()) == before
    assert table_of(app, gid).actions == actions


# what a page of another site can send without the browser asking this server first (a CORS
# "simple request"): text/plain, a form, or no type at all
SIMPLE_TYPES = ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", None]


@pytest.mark.parametrize("ctype", SIMPLE_TYPES)
def test_a_post_without_a_json_type_is_refused_and_changes_nothing(ctype, app):
    """Before: every POST endpoint read its body as JSON whatever its Content-Type, so a page
    of another site could start games on a local server (filling it: 503 for its person) and
    play, undo or resign in one, with text/plain bodies the browser sends without asking."""
    typed = TestClient(app, headers=JSON_HEADERS)
    g = new(typed, opponents="random", seed=8)
    before = comparable(typed.get(f"/api/games/{g['id']}").json())
    bare = TestClient(app)  # sends only the headers of each request
    headers = {} if ctype is None else {"Content-Type": ctype}
    move = json.dumps({"action": g["moves"][0]["action"]}).encode()
    for path, body in (("/api/games", b'{"seed": 1}'), ("/api/games", b""), (f"/api/games/{g['id']}/move", move),
                       (f"/api/games/{g['id']}/undo", b""), (f"/api/games/{g['id']}/resign", b"{}"),
                       ("/api/replays?name=x", b"")):
        message = refused(bare.post(path, content=body, headers=headers), 415, "Content-Type: application/json",
                          "no Content-Type" if ctype is None else repr(ctype))
        assert path.split("?")[0] in message, message
    assert len(app.state.store) == 1 and len(app.state.library._files) == 0
    assert comparable(typed.get(f"/api/games/{g['id']}").json()) == before


def _asgi_post(app, path: str, ctype: str, size: int, chunk: int = 65536):
    """POST ``size`` bytes to ``app`` in chunks of ``chunk`` with no Content-Length, straight
    through ASGI: the status answered and how many bytes of the body the app read."""
    import asyncio

    sent, answer = [0], {}

    async def receive():
        if sent[0] >= size:
            return {"type": "http.request", "body": b"", "more_body": False}
        sent[0] += chunk
        return {"type": "http.request", "body": b" " * chunk, "more_body": sent[0] < size}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"name=x" if "replays" in path else b"",
             "root_path": "", "headers": [(b"host", b"127.0.0.1"), (b"content-type", ctype.encode())],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))
    return answer["status"], sent[0]


@pytest.mark.parametrize("path", ["/api/games", "/api/replays"])
def test_a_body_of_another_type_is_refused_before_it_is_read(path, app):
    """Before: the body was read (kept, up to 8 MiB for a recorded file; read, up to 32 MiB)
    and only then its Content-Type checked: a POST of any type made the server read and hold
    it. Now the 415 comes from the headers, with at most DRAIN_FACTOR x MAX_BODY read and dropped."""
    from spacemission_cli.web.app import MAX_UPLOAD
    from spacemission_cli.web.intake import DRAIN_FACTOR

    status, read = _asgi_post(app, path, "text/plain", MAX_UPLOAD)
    assert status == 415
    assert read <= DRAIN_FACTOR * MAX_BODY + 65536, read
    status, read = _asgi_post(app, path, "text/plain", 1000, chunk=100)  # a small body: read to its end
    assert status == 415 and read == 1000


@pytest.mark.parametrize("ctype", ["application/json", "application/json; charset=utf-8", "Application/JSON"])
def test_a_post_with_a_json_type_is_taken(ctype, app):
    bare = TestClient(app)
    r = bare.post("/api/games", content=b'{"opponents": "random", "seed": 3}', headers={"Content-Type": ctype})
    assert r.status_code == 201, r.text
    r = bare.post(f"/api/games/{r.json()['id']}/resign", headers={"Content-Type": ctype})
    assert r.status_code == 200 and r.json()["over"], r.text


@pytest.mark.parametrize("ctype", ["application/x-ndjson", "application/jsonl", "application/json"])
def test_a_recorded_file_is_taken_as_json_lines(ctype, app):
    text = json.dumps(first_moves_record(seed=3, max_rounds=2)) + "\n"
    r = TestClient(app).post("/api/replays?name=g.jsonl", content=text.encode(), headers={"Content-Type": ctype})
    assert r.status_code == 201 and r.json()["games"][0]["error"] is None, r.text


@pytest.mark.parametrize("host, status", [("127.0.0.1:8000", 200), ("localhost", 200), ("[::1]:8000", 200),
                                          ("LocalHost:80", 200), ("evil.example:8000", 403),
                                          ("127.0.0.1.evil.example", 403), ("localhost.:8000", 403), ("", 403),
                                          ("[::1", 403), ("user@127.0.0.1", 403)])
def test_a_local_server_answers_only_requests_addressed_to_this_machine(host, status):
    """Before: a server on 127.0.0.1 answered any Host, so a page of another site whose name
    it made resolve to 127.0.0.1 (DNS rebinding) could send it same-origin JSON requests:
    start games, play, and read the --replay file. Now 403 naming the Host; serve turns this
    on when it listens on this machine only (the default)."""
    app = create_app(["random"], loopback_only=True)
    c = TestClient(app, headers=dict(JSON_HEADERS, host=host))
    for r in (c.get("/api/meta"), c.post("/api/games", json={}), c.get("/")):
        assert r.status_code == status or (status, r.status_code) == (200, 201), r.text[:300]
    if status == 403:
        refused(r, 403, "addressed to this machine", repr(host), "DNS rebinding", "serve --allow-host NAME")
        assert len(app.state.store) == 0


@pytest.mark.parametrize("argv, loopback_only, names", [
    (["--host", "127.0.0.1"], True, ()), (["--host", "localhost"], True, ()), (["--host", "0.0.0.0"], False, ()),
    (["--allow-host", "games.example.org", "--allow-host", "[fe80::1]"], True, ("games.example.org", "[fe80::1]"))])
def test_serve_checks_the_host_when_it_listens_on_this_machine_only(argv, loopback_only, names, monkeypatch):
    import uvicorn

    from spacemission_cli import serve
    from spacemission_cli.web import app as web_app

    made = []
    monkeypatch.setattr(web_app, "create_app", lambda *a, **kw: made.append(kw) or create_app(*a, **kw))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: [s.close() for s in sockets])
    assert serve.main(argv + ["--port", "0"]) == 0
    assert made[0]["loopback_only"] is loopback_only and made[0]["allowed_hosts"] == names


def test_an_allowed_host_is_answered_as_well():
    """A reverse proxy on this machine that passes its public name in Host (docs/play.md)."""
    c = TestClient(create_app(["random"], loopback_only=True, allowed_hosts=("Games.example.org",)),
                   headers=dict(JSON_HEADERS, host="games.example.org"))
    assert c.post("/api/games", json={}).status_code == 201
    c.headers["host"] = "other.example.org"
    refused(c.get("/api/meta"), 403, "serve --allow-host NAME")


@pytest.mark.parametrize("argv, words", [
    (["--allow-host", "a.example:443"], "no port"), (["--allow-host", "a b"], "got 'a b'"),
    (["--host", "0.0.0.0", "--allow-host", "a.example"], "only with a --host of this machine")])
def test_serve_refuses_a_bad_allow_host(argv, words, capsys):
    from spacemission_cli import serve

    with pytest.raises(SystemExit) as exc:
        serve.main(argv)
    assert exc.value.code == 2 and "argument --allow-host" in capsys.readouterr().err


@pytest.mark.parametrize("query, name", [("", "upload"), ("?name=", "upload"), ("?name=%20%0A", "upload"),
                                         ("?name=a%0Ab%09c", "a b c"), ("?name=" + "n" * 300, "n" * 100)])
def test_an_uploads_name_is_one_line_and_never_empty(query, name, client):
    """Before: an empty name (``?name=``) gave the listing no name and every message began
    " line 1: ...", and a name's line breaks went into the messages and the page as sent."""
    r = client.post(f"/api/replays{query}", content=b'{"format": "x"}')
    assert r.status_code == 400 and r.json()["error"].startswith(f"{name} line 1: not a recorded game"), r.text
    r = client.post(f"/api/replays{query}", content=(json.dumps(first_moves_record(seed=3, max_rounds=2)) + "\n").encode())
    assert r.status_code == 201 and r.json()["name"] == name, r.text


@pytest.mark.parametrize("body,words", [
    ({"players": 9}, "players must be in 2..5"),
    ({"players": "2"}, "players must be an integer"),
    ({"opponents": "search"}, "not offered by this server; choose from random, kind-random, heuristic"),
    ({"opponents": "mypkg.bots:Bot"}, "not offered"),
    ({"opponents": ["random", "random"]}, "2 players have 1 opponent: give one spec for all or 1, got 2"),
    ({"rules": "house"}, "rules must be one of yucata, schmidt"),
    ({"seat": 2}, "seat must be in 0..1"),
    ({"seat": "first"}, "seat must be an integer"),
    ({"seed": -1}, "seed must be in 0.."),
    ({"max_rounds": 0}, "max_rounds must be in 1.."),
    ({"colour": "red"}, 'unknown field "colour"'),
    ([2], "a new game is a JSON object"),
])
def test_bad_new_games_are_refused(body, words, app, client):
    refused(client.post("/api/games", json=body), 400, words)
    assert len(app.state.store) == 0


def test_a_full_server_says_so_and_drops_finished_games_first():
    client = TestClient(app := create_app(["random"], max_games=2, idle_seconds=1000), headers=JSON_HEADERS)
    a, b = new(client, seed=1), new(client, seed=2)
    refused(client.post("/api/games", json={}), 503, "the server is full: 2 games")
    client.post(f"/api/games/{a['id']}/resign")
    new(client, seed=3)  # takes the finished game's place
    refused(client.get(f"/api/games/{a['id']}"), 404, "no game with this id")
    assert client.get(f"/api/games/{b['id']}").status_code == 200 and len(app.state.store) == 2


def test_a_busy_game_refuses_a_second_request(app, client):
    g = new(client, opponents="random", seed=8)
    lock = app.state.store._games[g["id"]].lock
    with lock:  # as while the bots are thinking
        refused(client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]}), 409, "busy")
    assert client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]}).status_code == 200


def test_games_are_apart(app, client):
    a, b = new(client, seed=5), new(client, seed=5)
    assert a["id"] != b["id"] and len(a["id"]) >= 20
    assert table_of(app, a["id"]).actions == table_of(app, b["id"]).actions  # the same deal, the bots' start
    start = len(table_of(app, b["id"]).actions)
    client.post(f"/api/games/{a['id']}/move", json={"action": a["moves"][0]["action"]})
    assert len(table_of(app, a["id"]).actions) > start and len(table_of(app, b["id"]).actions) == start


def test_replays_upload_and_step_as_a_seat(app, client, tmp_path):
    g = new(client, opponents="random", seed=6, max_rounds=5)
    while not g["over"]:
        g = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][-1]["action"]}).json()
    table = table_of(app, g["id"])
    path = tmp_path / "g.jsonl"
    append_record(path, game_record(table.state, table.seed, ["human", "random"], table.actions))
    r = client.post("/api/replays?name=g.jsonl", content=path.read_bytes())
    assert r.status_code == 201, r.text
    listing = r.json()
    (game,) = listing["games"]
    assert game["error"] is None and game["steps"] == len(table.actions)
    rid = listing["id"]
    start = client.get(f"/api/replays/{rid}/0?step=0").json()
    assert start["view"]["observer"] is None and all(sv["hand"] for sv in start["view"]["seats"])  # everyone's view
    one = client.get(f"/api/replays/{rid}/0?step=3&seat=1").json()
    assert len(one["log"]) == 3 and one["view"]["observer"] == 1
    assert [sv["hand"] is None for sv in sorted(one["view"]["seats"], key=lambda s: s["seat"])] == [True, False]
    end = client.get(f"/api/replays/{rid}/0?step={game['steps']}").json()
    assert end["result"]["scores"] == json.loads(path.read_text())["scores"]
    # a finished game ends face up for a seat too, as the game itself ended on the page
    last = client.get(f"/api/replays/{rid}/0?step={game['steps']}&seat=1").json()
    before = client.get(f"/api/replays/{rid}/0?step={game['steps'] - 1}&seat=1").json()
    assert last["view"] == end["view"] and last["view"]["observer"] is None and before["view"]["observer"] == 1
    refused(client.get(f"/api/replays/{rid}/0?step={game['steps'] + 1}"), 400, "step must be in 0..")
    refused(client.get(f"/api/replays/{rid}/0?seat=2"), 400, "seat must be in 0..1")
    refused(client.get(f"/api/replays/{rid}/1"), 404, "no game 1")
    refused(client.get("/api/replays/file"), 404, "started without --replay")
    refused(client.post("/api/replays", content=b'{"format": "x"'), 400, "not valid JSON")
    bad = path.read_text().replace('"seed":6', '"seed":7')
    listing = client.post("/api/replays", content=bad.encode()).json()
    assert listing["games"][0]["error"] and listing["games"][0]["error_kind"] == "replay"  # listed with the reason
    refused(client.get(f"/api/replays/{listing['id']}/0"), 422, "does not replay")


@pytest.mark.parametrize("argv,words", [
    (["--opponents", "nosuchbot"], "argument --opponents: unknown agent 'nosuchbot'"),
    (["--players", "7"], "argument --players: must be 2-5"),
    (["--replay", "/nonexistent/games.jsonl"], "argument --replay: cannot read"),
    (["--port", "x"], "argument --port: expected an integer"),
    # found by a new-user review: the server started, and its page at / could start no game
    (["--game", "red_planet", "--players", "2"], "argument --players: the page at / plays Mission: Red Planet, "
                                                 "which needs 3-5 players; this server would offer at most 2"),
    (["--host", "no.such.host.invalid"], "argument --host: cannot listen on 'no.such.host.invalid'"),
    # found by a CLI review: the page at / offered random, unannounced
    (["--game", "red_planet", "--opponents", "search"], "argument --opponents: none of search plays Mission: Red "
                                                        "Planet, the page at / (--game red_planet)"),
])
def test_serve_refuses_bad_arguments_before_listening(argv, words, capsys, monkeypatch):
    import uvicorn

    from spacemission_cli import serve

    monkeypatch.setattr(uvicorn.Server, "run", lambda *a, **k: pytest.fail("the server went on to listen"))
    with pytest.raises(SystemExit) as exc:
        serve.main(argv)
    assert exc.value.code == 2 and words in " ".join(capsys.readouterr().err.split())


def test_serve_announces_the_port_it_listens_on(capsys, monkeypatch):
    """Found by a new-user review: --port 0 (a free port the system picks) announced port 0;
    a port in use was uvicorn's error after the announcement (exit 1); now a usage error."""
    import socket

    import uvicorn

    from spacemission_cli import serve

    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.extend(sockets))
    assert serve.main(["--port", "0"]) == 0
    (sock,) = served
    sock.listen()  # as uvicorn does with it
    port = sock.getsockname()[1]
    try:
        assert port != 0 and f"Space Mission at http://127.0.0.1:{port}/ " in capsys.readouterr().out
        with socket.socket() as probe:  # the announced port is this server's: bound, so another cannot take it
            with pytest.raises(OSError):
                probe.bind(("127.0.0.1", port))
        with pytest.raises(SystemExit) as exc:
            serve.main(["--port", str(port)])
        assert exc.value.code == 2 and "argument --port: cannot listen on 127.0.0.1 port" in capsys.readouterr().err
    finally:
        sock.close()


def test_the_replay_file_is_on_the_page(tmp_path):
    path = tmp_path / "games.jsonl"
    rec = first_moves_record(9, max_rounds=3)
    append_record(path, rec)
    client = TestClient(create_app(["random"], replay_file=path), headers=JSON_HEADERS)
    assert client.get("/api/meta").json()["replay"] == "file"
    listing = client.get("/api/replays/file").json()
    steps = len(rec["actions"])
    assert listing["games"][0]["steps"] == steps and listing["games"][0]["error"] is None
    assert client.get(f"/api/replays/file/0?step={steps}").json()["result"]["scores"] == rec["scores"]


def test_a_seat_frame_at_the_end_of_an_unfinished_save_holds_only_its_own_scores(client, tmp_path):
    """The last frame of a game saved unfinished, as seat Q saw it: ``result.scores`` holds Q's
    own breakdown and null for the others, whose totals count the types of their collected
    tiles, hidden from Q (R-I2, R-I4; the view's public points are what Q can count). Before:
    every seat's full scores. As everyone, all of them, as before."""
    path, sc = unfinished_save(tmp_path / "save.json")
    listing = client.post("/api/replays?name=save.json", content=path.read_bytes()).json()
    (game,) = listing["games"]
    assert game["error"] is None and game["unfinished"]
    url = f"/api/replays/{listing['id']}/0?step={game['steps']}"
    assert client.get(url).json()["result"]["scores"] == sc
    for seat in range(3):
        frame = client.get(f"{url}&seat={seat}").json()
        assert frame["result"]["scores"] == [x if q == seat else None for q, x in enumerate(sc)]
        assert frame["result"]["winners"] is None
        public = {sv["seat"]: sv["public_points"] for sv in frame["view"]["seats"]}
        assert public == {q: x["jump_gate"] + x["stations"] for q, x in enumerate(sc)}


def test_a_seat_frame_at_the_end_of_a_forfeited_game_holds_only_its_own_scores(client, tmp_path):
    """An arena game ended by a forfeit stopped before its final scoring, as a save does: as
    seat Q, the others' scores (which count their hidden tiles) are null, and the listing
    says "forfeited" rather than giving its totals as a result. Before: every seat's full
    scores, and "forfeited" was not said."""
    import json

    from spacemission_cli._games import final_ranks, game_record, read_records

    path, sc = unfinished_save(tmp_path / "save.json")
    (_, saved), = read_records(path)
    rebuilt = dict(game_record(_state_of(saved), saved["seed"], ["cheater", "random", "random"], saved["actions"]))
    to_act = _state_of(saved).current_player
    ranks = final_ranks(_state_of(saved), to_act)  # the arena's: the forfeiting seat last, the others by scores so far
    rebuilt.update(ranks=ranks, winners=[q for q in range(3) if ranks[q] == 1],
                   forfeit={"seat": to_act, "agent": "cheater", "round": rebuilt["rounds"], "action": 0,
                            "reason": "returned illegal action 0"})
    rec_file = tmp_path / "games.jsonl"
    rec_file.write_text(json.dumps(rebuilt) + "\n")
    listing = client.post("/api/replays?name=games.jsonl", content=rec_file.read_bytes()).json()
    (game,) = listing["games"]
    assert game["error"] is None and game["forfeited"] and not game["unfinished"]
    url = f"/api/replays/{listing['id']}/0?step={game['steps']}"
    assert client.get(url).json()["result"]["scores"] == sc
    for seat in range(3):
        frame = client.get(f"{url}&seat={seat}").json()
        assert frame["forfeited"] and frame["result"]["scores"] == [x if q == seat else None for q, x in enumerate(sc)]


def _state_of(rec):
    from spacemission_cli._games import Replayer

    replay = Replayer(rec, "rec")
    while not replay.done:
        replay.step()
    return replay.state


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_a_seed_takes_the_range_of_play_seed(app, client, game):
    """``seed`` takes 0..2**64-1, as ``play --seed`` and the engines (before: serve refused
    seeds from 2**63 on); the game is the one that seed deals. 2**64 is refused, naming the
    range, and no game is added."""
    import copy

    extra = {"game": game} if game != "spacemission" else {}
    top = 2**64 - 1
    g = new(client, seed=top, seat=1, **extra)
    table = table_of(app, g["id"])
    assert g["seed"] == top and table.seed == top
    if game == "spacemission":
        from spacemission_env.space_mission.rules import apply, new_game
        from spacemission_env.space_mission.rules.state_json import state_to_dict

        fresh = new_game(2, seed=top)
        for _, action, _ in table.actions:
            apply(fresh, action)
        assert state_to_dict(fresh) == state_to_dict(table.state)
    else:
        fresh = table.game.new_reference_game(table.config, top)
        for action in [a[1] for a in table.actions]:
            table.game.rules.apply(fresh, action)
        assert fresh == copy.deepcopy(table.state)
    before = len(app.state.store._games)
    refused(client.post("/api/games", json={"seed": 2**64, **extra}), 400,
            "seed must be in 0..18446744073709551615, got 18446744073709551616")
    assert len(app.state.store._games) == before


def test_an_oversized_body_gets_a_413_not_a_reset_connection():
    # Python's urllib sends the whole body before it reads the answer: a server that answered
    # 413 and closed with the body unread reset the connection, and urllib said only that
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    import urllib.error
    import urllib.request

    from spacemission_cli.web.app import MAX_UPLOAD
    from spacemission_cli.web.intake import DRAIN_FACTOR
    from tests.helpers.web import served

    def chunks(size):  # no Content-Length: urllib sends it chunked
        for _ in range(size // 65536):
            yield b" " * 65536

    with served(create_app(["random"])) as base:
        for path, data, text in (("/api/games", b" " * (MAX_BODY + 1), f"{MAX_BODY + 1} bytes is over the limit"),
                                 ("/api/replays?name=x", b" " * (MAX_UPLOAD + 1), "over the limit of 8388608 bytes"),
                                 ("/api/replays?name=x", chunks(MAX_UPLOAD + 65536), "over the limit of 8388608 bytes")):
            with pytest.raises(urllib.error.HTTPError) as exc:
                urllib.request.urlopen(urllib.request.Request(base + path, data=data, method="POST",
                                                              headers=JSON_HEADERS), timeout=30)
            assert exc.value.code == 413 and text in json.loads(exc.value.read())["error"]
    assert DRAIN_FACTOR * MAX_UPLOAD < 64 * 1024 * 1024  # what the server reads of a body it refuses stays bounded


def test_serve_announces_what_each_page_offers(capsys, monkeypatch):
    """Found by a CLI review: ``--game red_planet --opponents search,heuristic`` announced both,
    but the Red Planet page offers heuristic alone; now the banner lists the page's own
    opponents, and a note names what another game's page leaves out."""
    import uvicorn

    from spacemission_cli import serve

    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.extend(sockets))
    try:
        assert serve.main(["--port", "0", "--game", "red_planet", "--opponents", "search,heuristic"]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "Mission: Red Planet at http://127.0.0.1:" in out and "(opponents heuristic; Ctrl-C stops)" in out
        assert "note: Mission: Red Planet offers heuristic: search does not play it" in out
        assert serve.main(["--port", "0", "--opponents", "search,heuristic"]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "Space Mission at" in out and "(opponents search, heuristic; Ctrl-C stops)" in out
        assert "note: Mission: Red Planet offers heuristic: search does not play it" in out
    finally:
        for sock in served:
            sock.close()


def test_a_new_game_dropped_at_once_still_answers_its_creator(app, client, monkeypatch):
    """Before: ``start`` stored the game, then looked it up by its id: a game over at once (a
    bot's failure, a resignation) that another request's new game dropped to make room in
    between answered its creator 404. Here the drop is forced between the two."""
    store = app.state.store
    add = store.add

    def add_then_dropped(*args, **kwargs):
        stored = add(*args, **kwargs)
        game_id = stored[0] if isinstance(stored, tuple) else stored
        del store._games[game_id]  # what another request's reserve() does to a finished game
        return stored

    monkeypatch.setattr(store, "add", add_then_dropped)
    r = client.post("/api/games", json={"opponents": "random", "seed": 4})
    assert r.status_code == 201, r.text
    assert r.json()["moves"] and len(store) == 0


def test_serve_gives_uvicorn_its_limits(capsys, monkeypatch):
    """Before: uvicorn was started with its defaults: no limit on connections or requests at
    once, Ctrl-C waiting without end for requests in flight. The options passed are checked
    (not timed); docs/play.md ("Connections") names them and what a proxy must still do."""
    import uvicorn

    from spacemission_cli import serve

    configs = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: (configs.append(self.config),
                                                                           [s.close() for s in sockets]))
    assert serve.main(["--port", "0"]) == 0
    (config,) = configs
    assert (config.limit_concurrency, config.timeout_keep_alive, config.timeout_graceful_shutdown,
            config.h11_max_incomplete_event_size) == (1000, 5, 10, 16 * 1024)
    capsys.readouterr()
