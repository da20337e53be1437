"""A review of ``spacemission serve`` (the sixth sweep): the defects found, each with its test.
A new game on a full server is refused before its bots are built and play; a move's
malformed ``version`` is a 400 naming it, a stale one a 409; a query parameter given twice
is a 400 naming it; the page says which bots see the whole state (``serve --allow-seer``);
uploaded recorded games are held within a memory budget, checked one at a time, and a game
too long to step through is listed with the reason; the Red Planet page follows back and
forward between games."""
from __future__ import annotations

import pytest

from tests.helpers.web import post_json, refused, web_client


def _new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_a_full_server_refuses_a_new_game_before_building_its_bots(monkeypatch):
    """Before: the bots were built and played up to the person's first decision, then the
    store found it full and refused with 503: a burst of new games all did the work."""
    from spacemission_cli.web import app as app_module

    client = web_client(("random",), max_games=1, idle_seconds=1000)
    _new(client, seed=1)
    built = []
    real = app_module.make_table
    monkeypatch.setattr(app_module, "make_table", lambda options: built.append(options) or real(options))
    refused(client.post("/api/games", json={"seed": 2}), 503, "the server is full")
    assert built == [] and len(client.app.state.store) == 1


def test_a_new_game_that_fails_gives_its_place_back(monkeypatch):
    """A game refused while being made (a bot refuses it) leaves nothing behind: its place
    is free for the next one."""
    from spacemission_cli.web import app as app_module
    from spacemission_cli.web.games import ApiError

    client = web_client(("random",), max_games=1, idle_seconds=1000)

    def refuse(options):
        raise ApiError(400, "agent 'x' refuses this game")

    with monkeypatch.context() as m:
        m.setattr(app_module, "make_table", refuse)
        for _ in range(3):
            refused(client.post("/api/games", json={}), 400, "refuses this game")
    store = client.app.state.store
    assert len(store) == 0 and store._reserved == 0
    _new(client, seed=1)
    assert len(store) == 1 and store._reserved == 0


@pytest.mark.parametrize("version", [-1, -10**6, 99])
def test_a_malformed_version_is_a_400_naming_it(version):
    """Before: a negative version, or one the game never had, got 409 "the game changed"
    (as a stale page's): a client bug read as a race. Nothing is played."""
    client = web_client(("random",))
    g = _new(client, seed=3)
    message = refused(client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"],
                                                                         "version": version}), 400, "version")
    assert str(version) in message
    assert client.get(f"/api/games/{g['id']}?since=0").json() == g


def test_a_stale_version_is_still_a_409():
    client = web_client(("random",))
    g = _new(client, seed=3)
    after = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"], "version": 0}).json()
    assert after["version"] == 1
    refused(client.post(f"/api/games/{g['id']}/move", json={"action": after["moves"][0]["action"], "version": 0}),
            409, "the game changed", "version 0 there, 1 now")


@pytest.mark.parametrize("query", ["since=0&since=1", "since=1&since=1"])
def test_a_repeated_query_parameter_is_refused(query):
    """Before: ``?since=0&since=1`` took the last value without a word."""
    client = web_client(("random",))
    g = _new(client, seed=3)
    refused(client.get(f"/api/games/{g['id']}?{query}"), 400, "query parameter since", "2 times")


def test_repeated_replay_parameters_are_refused(tmp_path):
    import json

    from tests.helpers.web import first_moves_record

    client = web_client(("random",))
    text = json.dumps(first_moves_record(5, 2)) + "\n"
    up = client.post("/api/replays?name=a", content=text.encode())
    assert up.status_code == 201, up.text
    rid = up.json()["id"]
    refused(client.get(f"/api/replays/{rid}/0?step=1&step=2"), 400, "query parameter step")
    refused(client.get(f"/api/replays/{rid}/0?seat=0&seat=1"), 400, "query parameter seat")
    refused(client.post("/api/replays?name=a&name=b", content=text.encode()), 400, "query parameter name")
    assert client.get(f"/api/replays/{rid}/0?step=1&seat=0").status_code == 200


# --- seer bots (serve --allow-seer): the game's JSON names them and both pages say so ---------

SEER = "tests.helpers.external_agents:Seer"
SEER_GAMES = [({"seed": 1}, 1), ({"game": "red_planet", "players": 3, "seed": 1}, 2)]


def _seer_client():
    return web_client(["random", SEER], game_opponents={"red_planet": ["random", SEER]}, allow_seer=True)


@pytest.mark.parametrize("body, seat", SEER_GAMES)
def test_the_game_names_its_seer_bots(body, seat):
    """Before: only the bot's spec in ``names``; nothing said it sees the visitor's hand."""
    client = _seer_client()
    players = body.get("players", 2)
    opponents = ["random"] * (players - 2) + [SEER]  # the seer in the last seat
    g = _new(client, **body, opponents=opponents)
    assert g["seers"] == [seat]
    assert client.get(f"/api/games/{g['id']}").json()["seers"] == [seat]
    assert _new(client, **body, opponents="random")["seers"] == []


@pytest.fixture(scope="module")
def seer_server():
    from tests.helpers.web import playwright_or_skip, served

    playwright_or_skip()
    from spacemission_cli.web.app import create_app

    app = create_app(["random", SEER], game_opponents={"red_planet": ["random", SEER]}, allow_seer=True)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("body, path, ready", [({"seed": 2}, "/?delay=0", "#moves .move"),
                                               ({"game": "red_planet", "players": 3, "seed": 2}, "/play/red_planet",
                                                "#moves button")])
def test_the_page_says_a_bot_sees_everything(seer_server, browser, body, path, ready):
    """Before: the page showed the bot's name only."""
    players = body.get("players", 2)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    try:
        for opponents, seer in [(["random"] * (players - 2) + [SEER], True), ("random", False)]:
            g = post_json(f"{seer_server}/api/games", {**body, "opponents": opponents})
            page.goto("about:blank")  # a new document: a new hash alone is no reload
            page.goto(f"{seer_server}{path}#game={g['id']}")
            page.wait_for_selector(ready)
            if seer:
                page.wait_for_selector("#seer-note:not([hidden])")
                note = page.inner_text("#seer-note")
                assert "Seer" in note and "sees the whole state: your hand and every hidden card" in note, note
            else:
                assert page.locator("#seer-note").is_hidden()
        assert not errors, errors
    finally:
        page.close()


# --- uploads: their parsed size counted against a memory budget ------------------------------

def _record_text(seed=5):
    import json

    from tests.helpers.web import first_moves_record

    return json.dumps(first_moves_record(seed, 2)) + "\n"


def test_an_upload_whose_parsed_games_are_too_large_is_refused():
    """Before: an 8 MiB file of ``[]`` in an unknown field was kept, 181 MB of list objects
    (measured with tracemalloc), and 20 of them were: 3.6 GB for a client's 160 MiB."""
    client = web_client(("random",))
    line = _record_text()
    junk = "[" + ",".join(["[]"] * 2_000_000) + "]"
    text = line.rstrip()[:-1] + ', "junk": ' + junk + "}\n"
    assert len(text) < 8 * 1024 * 1024
    refused(client.post("/api/replays?name=big", content=text.encode()), 413, "big:", "MiB in memory",
            "over the limit of 64 MiB for one file")
    library = client.app.state.library
    assert library.held() == 0 and not library._files
    assert client.post("/api/replays?name=small", content=line.encode()).status_code == 201


def test_the_oldest_uploads_make_room_within_the_memory_budget():
    from spacemission_cli.web.games import ApiError
    from spacemission_cli.web.replays import ReplayLibrary, held_bytes

    one = held_bytes([__import__("json").loads(_record_text())])
    library = ReplayLibrary(memory_budget=int(2.5 * one))
    rids = [library.upload(_record_text(seed), f"f{seed}") for seed in (5, 6, 7)]
    assert list(library._files) == rids[1:] and library.held() <= library.memory_budget
    with pytest.raises(ApiError) as exc:
        library.listing(rids[0])
    assert exc.value.status == 404


def test_held_bytes_counts_the_objects_not_the_text():
    from spacemission_cli.web.replays import held_bytes

    assert held_bytes([[]] * 1) > 2 * len("[[]]")
    assert held_bytes([0, 1, 2]) == held_bytes([0, 0, 0])  # small integers are shared objects


def test_a_game_too_long_to_step_through_is_listed_with_the_reason(monkeypatch):
    """Before: every step of a game was rebuilt from its start and its answer held every move
    so far: a game of 113,553 moves (an 8 MiB upload) cost 1.4 s of CPU and 11 MB a step.
    Here the limit is lowered to a short game's length, as a long game's file is slow to make."""
    from spacemission_cli.web import replays

    text = _record_text()
    steps = len(__import__("json").loads(text)["actions"])
    monkeypatch.setattr(replays, "MAX_PAGE_STEPS", steps - 1, raising=False)
    client = web_client(("random",))
    up = client.post("/api/replays?name=long", content=text.encode())
    assert up.status_code == 201, up.text
    (game,) = up.json()["games"]
    assert f"{steps} moves" in game["error"] and f"at most {steps - 1}" in game["error"]
    # before: said "does not replay", as of a game the engine refuses; it replays in the terminal
    assert game["error_kind"] == "too_long"
    message = refused(client.get(f"/api/replays/{up.json()['id']}/0?step=1"), 422, "spacemission replay FILE",
                      "this game is too long to step through here: ")
    assert "does not replay" not in message
    monkeypatch.setattr(replays, "MAX_PAGE_STEPS", steps)
    up = client.post("/api/replays?name=long", content=text.encode()).json()
    assert up["games"][0]["error"] is None and up["games"][0]["error_kind"] is None


def test_an_upload_while_another_is_checked_is_refused_not_queued():
    """Uploads are parsed and checked one at a time (a parse's peak, a check's replays); one
    sent meanwhile is refused at once (503), not left waiting on a thread of the pool that
    the games' requests share. Before: no limit, every upload parsed at once."""
    client = web_client(("random",))
    library = client.app.state.library
    with library._checking:  # as while another file is checked
        refused(client.post("/api/replays?name=b", content=_record_text().encode()), 503, "b:", "being checked")
    assert not library._files
    assert client.post("/api/replays?name=b", content=_record_text().encode()).status_code == 201


def test_red_planet_page_follows_back_and_forward_between_games(seer_server, browser):
    """Before: the page read the game of its address once, at load: after back (or a new
    #game=ID) the address named one game and the page showed, and moved in, another."""
    a = post_json(f"{seer_server}/api/games", {"game": "red_planet", "players": 3, "seed": 4, "opponents": "random"})
    b = post_json(f"{seer_server}/api/games", {"game": "red_planet", "players": 3, "seed": 5, "opponents": "random"})
    assert a["board"] != b["board"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{seer_server}/play/red_planet#game={a['id']}")
        page.wait_for_function("b => document.getElementById('board').textContent === b", arg=a["board"])
        page.evaluate(f"location.hash = 'game={b['id']}'")
        page.wait_for_function("b => document.getElementById('board').textContent === b", arg=b["board"])
        page.go_back()
        page.wait_for_function("b => document.getElementById('board').textContent === b", arg=a["board"])
        assert not errors, errors
    finally:
        page.close()


@pytest.mark.parametrize("seat", ["", "&seat=1"])
def test_stepping_forward_plays_each_move_once(monkeypatch, seat):
    """Before: every step was rebuilt from the start: stepping through a game of n moves
    played n(n+1)/2 of them. Now forward from the last frame asked for, back from the state
    kept every MARK_EVERY moves; the frames are the same as rebuilt from the start."""
    from spacemission_cli._games import Replayer
    from spacemission_cli.web import replays

    text = _record_text()
    client, fresh = web_client(("random",)), web_client(("random",))
    rid = client.post("/api/replays?name=a", content=text.encode()).json()["id"]
    fresh_rid = fresh.post("/api/replays?name=a", content=text.encode()).json()["id"]
    played = []
    real = Replayer.step
    monkeypatch.setattr(Replayer, "step", lambda self: played.append(1) or real(self))
    monkeypatch.setattr(replays, "MARK_EVERY", 4, raising=False)
    first = client.get(f"/api/replays/{rid}/0?step=0{seat}").json()
    n = first["steps"]
    frames = [first] + [client.get(f"/api/replays/{rid}/0?step={k}{seat}").json() for k in range(1, n + 1)]
    assert len(played) == n
    played.clear()
    back = client.get(f"/api/replays/{rid}/0?step=2{seat}").json()  # back: from the state kept at 0
    assert len(played) == 2 and client.get(f"/api/replays/{rid}/0?step=4{seat}").json() == frames[4]
    assert len(played) == 4 and client.get(f"/api/replays/{rid}/0?step=3{seat}").json() == frames[3]
    assert len(played) == 7 and client.get(f"/api/replays/{rid}/0?step={n}{seat}").json() == frames[n]
    played.clear()
    assert client.get(f"/api/replays/{rid}/0?step={n - 1}{seat}").json() == frames[n - 1]
    assert len(played) == 3  # from the state kept at 4
    for k in (0, 2, n):
        fresh.app.state.library._cursors.clear()
        assert fresh.get(f"/api/replays/{fresh_rid}/0?step={k}{seat}").json() == frames[k]
    assert back == frames[2] and len(frames[n]["log"]) == n
