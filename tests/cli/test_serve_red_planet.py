"""Mission: Red Planet on the page of ``spacemission serve``: the same JSON API, a new game
with ``"game": "red_planet"``; every response holds only the person's seat's view (the text
board and picture drawn for that seat, the other seats' commits and keeps hidden in the log,
the person's own moves only on its turn) until the game is over."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="httpx2 (dev extra) is needed by Starlette's test client")
from starlette.testclient import TestClient  # noqa: E402

from spacemission_cli.web.app import create_app  # noqa: E402
from spacemission_env.red_planet.components import ROLE_NAMES  # noqa: E402
from tests.helpers.web import JSON_HEADERS  # noqa: E402


@pytest.fixture
def client():
    app = create_app(["random", "heuristic"], game_opponents={"red_planet": ["random", "greedy"]})
    return TestClient(app, headers=JSON_HEADERS)


def new(client, **body):
    r = client.post("/api/games", json=dict(body, game="red_planet"))
    assert r.status_code == 201, r.text
    return r.json()


def test_a_whole_game_shows_only_the_seats_view_until_the_end(client):
    g = new(client, players=3, opponents="random", seat=2, seed=5)
    assert g["game"] == "red_planet" and g["seat"] == 2 and g["your_turn"] and g["moves"]
    assert "yellow's view" in g["board"] and g["board"].count("bonus: 1 hidden") == 2
    texts = [e["text"] for e in g["log"]]
    while not g["over"]:
        assert g["your_turn"] and "yellow's view" in g["board"]
        if g["moves"][0]["label"].startswith("commit the"):
            # M-R3, M-I4: the seats before the person committed; nothing names their roles
            others = [ln for ln in g["board"].splitlines() if "| commit " in ln and "bonus: 1 hidden" in ln]
            assert others and all("commit chosen (hidden)" in ln or "commit -" in ln for ln in others)
        if len(texts) < 10:  # the picture, drawn for seat 2 (a few: drawing takes a while)
            picture = client.get(g["picture"])
            assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
        g = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]}).json()
        texts += [e["text"] for e in g["log"] if e["seat"] != 2]
        if len(texts) > 80:
            break
    others = [t for t in texts if t.startswith(("commit", "keep", "commits", "keeps"))]
    assert others and all("(hidden" in t for t in others)
    assert not any(role in t for t in others for role in ROLE_NAMES)


def test_the_end_shows_everything_with_the_scores(client):
    g = new(client, players=3, opponents=["random", "greedy"], seat=0, seed=11)
    while not g["over"]:
        g = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][-1]["action"]}).json()
    assert g["final"]["score_parts"][-1] == "total" and len(g["final"]["scores"]) == 3
    assert min(g["final"]["ranks"]) == 1 and "'s view" not in g["board"] and g["moves"] == []


def test_refused_requests_leave_the_game_as_it_was(client):
    g = new(client, players=4, opponents="random", seat=1, seed=2)
    gid, size = g["id"], g["log_size"]
    legal = {m["action"] for m in g["moves"]}
    illegal = next(a for a in range(243) if a not in legal)
    for body, status, text in (({"action": illegal}, 400, "not one of your legal moves"),
                               ({"action": "1"}, 400, "action must be an integer"),
                               ({"action": min(legal), "seat": 0}, 403, "you play seat 1")):
        r = client.post(f"/api/games/{gid}/move", json=body)
        assert r.status_code == status and text in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["log_size"] == size
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    for body, text in (({"players": 2}, "players must be in 3..5"), ({"opponents": "heuristic"}, "not offered"),
                       ({"rules": "yucata"}, 'unknown field "rules"'), ({"seat": 3, "players": 3}, "seat must be in")):
        r = client.post("/api/games", json=dict(body, game="red_planet"))
        assert r.status_code == 400 and text in r.json()["error"], r.text
    r = client.post("/api/games", json={"game": "tom_tube"})
    assert r.status_code == 400 and "game must be one of spacemission, red_planet" in r.json()["error"]


def test_the_page_and_meta(client):
    assert "text/html" in client.get("/play/red_planet").headers["content-type"]
    meta = client.get("/api/meta").json()
    assert meta["games"]["red_planet"]["opponents"] == ["random", "greedy"] and meta["start_page"] == "spacemission"


def _doc(path) -> str:
    from pathlib import Path

    return (Path(__file__).parents[2] / "docs" / path).read_text()


def test_the_docs_name_every_field_of_a_red_planet_game_and_its_replay_listing(client, tmp_path):
    """docs/red_planet/play.md lists the response's fields (it left out error, a bot's failure,
    and the replay listing's error_kind), and docs/play.md the error kinds the server sends."""
    import re

    from spacemission_cli.web.replays import ERROR_LEADS

    rp = _doc("red_planet/play.md")
    web = rp[rp.index("## The web page"):rp.index("## Speed")]
    g = new(client, players=3, opponents="random", seed=5)
    missing = [k for k in g if f"`{k}`" not in web]
    assert not missing, f"docs/red_planet/play.md does not name the fields {missing}"
    assert "`error_kind` `other_game`" in web
    play = _doc("play.md")
    row = next(line for line in play.splitlines() if line.startswith("| `GET /api/replays/{rid}` |"))
    documented = re.findall(r"`(\w+)` \(", row[row.index("with `error_kind`:"):])
    assert sorted(documented) == sorted(ERROR_LEADS), (documented, row)


def test_a_bots_failure_is_named_in_final_failure_as_in_space_mission():
    """Before: a Red Planet game ended by a bot's failure gave the message in the top-level
    `error` only and `final` null, where Space Mission gives `final.failure`. Now `final` is given
    in Space Mission's shape as well (the failure, the scores and ranks so far, no winners, no
    record); `error` keeps the message, as documented; a game played out has `final.failure` null."""
    app = create_app(["random"], game_opponents={"red_planet": ["random"]})
    client = TestClient(app, headers=JSON_HEADERS)
    g = new(client, players=3, opponents="random", seat=0, seed=5)
    table = app.state.store._games[g["id"]].table

    def broken(obs, mask):
        raise ZeroDivisionError("oops")

    for bot in table.bots.values():
        bot.agent.act = broken
    while not g["over"]:
        r = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]})
        assert r.status_code == 200, r.text
        g = r.json()
    message = g["error"]
    assert "(seat 1) failed: ZeroDivisionError: oops" in message or "(seat 2) failed: ZeroDivisionError: oops" in message
    final = g["final"]
    assert final["failure"] == message and final["winners"] == [] and final["record"] is None
    assert len(final["scores"]) == len(final["ranks"]) == 3 and all(1 <= r <= 3 for r in final["ranks"])
    assert set(final["score_parts"]) <= set(final["scores"][0])
    assert client.get(f"/api/games/{g['id']}").json()["final"] == final


def test_a_game_played_out_has_no_failure(client):
    g = new(client, players=3, opponents="random", seat=0, seed=5)
    while not g["over"]:
        g = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]}).json()
    assert g["error"] is None and g["final"]["failure"] is None and g["final"]["winners"]


def test_the_page_names_every_seat_by_its_colour_as_terminal_play(client):
    """The JSON names a seat, its board and its moves in one way, as terminal play does: by colour
    ("red (you)", "blue (random)", the board's "red's view", "kill a green astronaut"); the page
    named the same seat "seat 1 (random)", "player_1" on the board and "player 3" in a Soldier's
    target. The record keeps the game's own labels (replay checks them)."""
    g = new(client, players=4, opponents="random", seat=0, seed=1)
    assert g["names"] == ["red (you)", "blue (random)", "yellow (random)", "green (random)"]
    shown = []
    while not g["over"]:
        shown += [g["board"], *(m["label"] for m in g["moves"]), *(e["text"] for e in g["log"])]
        g = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][-1]["action"]}).json()
    shown += [g["board"], *(e["text"] for e in g["log"])]
    other_names = [m.group(0) for t in shown for m in re.finditer(r"player[ _]\d|\bseat \d|\bP\d\b", t)]
    assert not other_names, other_names[:5]
    kills = [t for t in shown if re.search(r"kill a (red|blue|yellow|green) astronaut", t)]
    assert kills, "seed 1: a Soldier's target in the game"
    recorded = [label for _, _, label in g["final"]["record"]["actions"]]
    assert any(re.search(r"kill a player \d astronaut", label) for label in recorded)
