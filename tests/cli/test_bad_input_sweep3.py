"""Third robustness sweep of the CLI and the web server, both games: records whose optional
fields have the wrong shape, numbers typed at play's prompt that ``int`` refuses, seeds and
times out of range, request bodies left unread, pages of games the server does not offer.
Each case is a clean argument error (exit 2), an ``error:`` line (exit 1) or a 4xx JSON
error naming the problem, the game left as it was; each test failed before its fix."""
from __future__ import annotations

import io
import json
import sys

import pytest

from spacemission_cli import bench, play, replay
from spacemission_cli import _protocol_games as PG
from spacemission_env.games import GameConfig, get_game
from tests.helpers.web import JSON_HEADERS, first_moves_record, refused, web_client


def _space_mission_record() -> dict:
    return first_moves_record(9, max_rounds=2)


def _red_planet_record() -> dict:
    g, config = get_game("red_planet"), GameConfig(3, game="red_planet")
    s = g.new_reference_game(config, 5)
    actions = []
    while not g.rules.is_over(s):
        a = int(g.rules.legal_actions(s)[0])
        actions.append([g.rules.current_player(s), a, g.action_label(a, s)])
        g.rules.apply(s, a)
    return PG.game_record(g, config, s, 5, ["random"] * 3, actions)


RECORDS = {"spacemission": _space_mission_record(), "red_planet": _red_planet_record()}
GAMES = sorted(RECORDS)

# optional fields of the wrong shape: before, tracebacks in replay (TypeError, IndexError,
# AttributeError) or silently misread ("unfinished": "no" replayed as a saved game); each value
# named as the file wrote it, in JSON (json_input.json_shown)
BAD_FIELDS = [
    ("agents", 5, "agents must be a list of {n} agent names (one per seat), got 5"),
    ("agents", ["x"], 'agents must be a list of {n} agent names (one per seat), got ["x"]'),
    ("forfeit", "x", 'forfeit must be null or an object, got "x"'),
    ("winners", [9], "winners must be a list of seats in 0..{last}, got [9]"),
    ("ranks", "x", 'ranks must be a list of {n} integers (one per seat), got "x"'),
    ("unfinished", "no", 'unfinished must be true or false, got "no"'),
    # before: any value; the page listed "game [object Object]" and replay --game found none
    ("game", "x", "game must be the record's number, an integer >= 0, got \"x\""),
    ("game", -1, "game must be the record's number, an integer >= 0, got -1"),
    ("game", True, "game must be the record's number, an integer >= 0, got true"),
]


def _write(tmp_path, rec: dict):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    return path


def _replay(argv, capsys):
    old = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        code = replay.main([str(a) for a in argv])
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


# --- replay ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("key, value, message", BAD_FIELDS)
def test_replay_refuses_optional_fields_of_the_wrong_shape(game, key, value, message, tmp_path, capsys):
    rec = dict(RECORDS[game], **{key: value})
    n = rec["config"]["num_players"]
    with pytest.raises(SystemExit) as exc:
        _replay([_write(tmp_path, rec)], capsys)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument FILE" in err and message.format(n=n, last=n - 1) in err and "Traceback" not in err


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("scores", [[1, 2], 7, None])
def test_replay_names_recorded_scores_that_are_not_score_objects(game, scores, tmp_path, capsys):
    """Before: AttributeError ('int' object has no attribute 'get') or TypeError tracebacks."""
    code, _, err = _replay([_write(tmp_path, dict(RECORDS[game], scores=scores))], capsys)
    assert code == 1 and f"recorded scores {json.dumps(scores)} but the rebuilt game scores" in err


def test_valid_records_still_replay(tmp_path, capsys):
    for game in GAMES:
        code, out, _ = _replay([_write(tmp_path, RECORDS[game]), "--boards", "end"], capsys)
        assert code == 0 and "The rebuilt game matches the record" in out


# --- play -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("typed", ["\u00b2", "9" * 5000])
def test_play_reads_odd_numbers_at_the_prompt_as_no_move(game, typed, monkeypatch, capsys):
    """Before: ValueError tracebacks from int() ('²' passes str.isdigit; 5000 digits pass
    the integer string limit)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    code = play.main(["--game", game, "--seed", "1", "--opponents", "random"])
    out = capsys.readouterr()
    assert code == 0 and "Traceback" not in out.err
    flat = " ".join(out.out.split())  # the console folds long lines
    assert "is not a legal move now or a command" in flat and "end of input: leaving the game" in flat


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("typed", ["9" * 5000, "x" * 5000])
def test_play_names_a_long_answer_cut(game, typed, monkeypatch, capsys):
    """What the person typed is named cut to 80 characters in the reply (checks.shown), as the
    other errors are. Before: the reply repeated all 5000 characters (the piped answer's own
    echo after the prompt is the transcript, left whole)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    code = play.main(["--game", game, "--seed", "1", "--opponents", "random"])
    out = capsys.readouterr().out
    flat = " ".join(out.split())  # the console folds long lines
    assert code == 0 and repr(typed)[:77] + "... is not a legal move now or a command" in flat  # the reply, cut
    assert out.replace("\n", "").count(typed) == 1  # only the echo of the piped answer


@pytest.mark.parametrize("game", GAMES)
def test_play_refuses_a_seed_past_2_to_the_64(game, monkeypatch, capsys):
    """Before: a ValueError traceback (Space Mission) or an error blamed on --opponents (Red Planet)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exc:
        play.main(["--game", game, "--seed", str(2**64), "--opponents", "random"])
    assert exc.value.code == 2
    assert f"argument --seed: must be < 2**64, got {2**64}" in capsys.readouterr().err


# --- bench ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["--seconds", "nan"], "argument --seconds: must be > 0 and finite, got 'nan'"),  # before: ZeroDivisionError
    (["--game", "red_planet", "--rules", "schmidt"],  # before: ignored, the bench ran
     "argument --rules: 'schmidt' is not a rule set of --game red_planet (its rule sets: first_edition)"),
    (["--rules", "first_edition"], "argument --rules: 'first_edition' is not a rule set of Space Mission"),
])
def test_bench_refuses_times_and_rules_it_cannot_use(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--only", "engine", "--batch", "4", *argv])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_bench_refuses_an_endless_time():
    """Before: --seconds inf was taken, and the first measurement never ended."""
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="must be > 0 and finite, got 'inf'"):
        bench._positive(float)("inf")


# --- the web server -------------------------------------------------------------------------------
@pytest.fixture
def client():
    return web_client(max_games=10)


@pytest.mark.parametrize("scores", [[1, 2], 7, None])
def test_an_uploaded_finished_game_with_odd_scores_is_listed_not_a_500(scores, client):
    """Before: 500 (the message of the score check called .get on each recorded score)."""
    rec = dict(RECORDS["spacemission"], scores=scores)
    r = client.post("/api/replays", content=json.dumps(rec).encode())
    assert r.status_code == 201, r.text
    (game,) = r.json()["games"]
    assert f"recorded scores {json.dumps(scores)} but the rebuilt game scores" in game["error"]
    refused(client.get(f"/api/replays/{r.json()['id']}/0"), 422, "does not replay")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("key, value, message", BAD_FIELDS)
def test_an_uploaded_record_with_fields_of_the_wrong_shape_is_refused(game, key, value, message, client):
    """Before: accepted, and the page was sent agents 5 or 'ab' as the seats' names."""
    rec = dict(RECORDS[game], **{key: value})
    n = rec["config"]["num_players"]
    refused(client.post("/api/replays", content=json.dumps(rec).encode()), 400, message.format(n=n, last=n - 1))


@pytest.mark.parametrize("what", ["undo", "resign"])
@pytest.mark.parametrize("body", [b'{"confirm": true}', b"[1]", b"null", b"0"])
def test_undo_and_resign_refuse_a_body_they_would_ignore(what, body, client):
    """Before: the body was read and ignored (a resign with {"confirm": false} resigned)."""
    g = client.post("/api/games", json={"seed": 4}).json()
    before = client.get(f"/api/games/{g['id']}").json()
    refused(client.post(f"/api/games/{g['id']}/{what}", content=body), 400, f"{what} takes no fields")
    assert client.get(f"/api/games/{g['id']}").json() == before
    for ok in (b"", b"{}"):  # the page sends no body
        assert client.post(f"/api/games/{g['id']}/undo", content=ok).status_code == 409  # nothing to undo


def test_the_page_of_a_game_that_is_not_offered_is_a_404(client):
    """Before: 200 and the page, whose new game the API then refused."""
    refused(client.get("/play/nosuch"), 404, "no page for game 'nosuch'; the pages are / (spacemission), "
                                              "/play/spacemission, /play/red_planet")
    assert client.get("/play/spacemission").text == client.get("/").text  # every game at /play/NAME (serve --help)
    assert "text/html" in client.get("/play/red_planet").headers["content-type"]


def test_a_game_the_servers_player_limit_cannot_seat_is_refused():
    """``serve --players 2``: before, a Red Planet game without "players" started with 3
    (past the limit) and one with "players": 3 was refused as "players must be in 3..2"."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx2", reason="httpx2 (dev extra) is needed by Starlette's test client")
    from starlette.testclient import TestClient

    from spacemission_cli.web.app import create_app
    app = create_app(["random"], max_players=2)
    client = TestClient(app, raise_server_exceptions=False, headers=JSON_HEADERS)
    for body in ({"game": "red_planet"}, {"game": "red_planet", "players": 3}):
        refused(client.post("/api/games", json=body), 400,
                "Mission: Red Planet needs 3..5 players, but this server offers games of at most 2 (serve --players)")
    assert len(app.state.store) == 0
    assert client.post("/api/games", json={"players": 2}).status_code == 201


@pytest.mark.parametrize("text, words", [(t, "must be an integer (decimal digits)")
                                         for t in (" 1", "+0", "0_0", "\u0663", "1.0")]
                         + [("9" * 5000, "is out of range: 5000 digits, at most 18"),  # a new-user review: it
                            ("-" + "9" * 19, "is out of range: 19 digits, at most 18")])  # said "not decimal digits"
def test_query_integers_are_plain_decimal_digits(text, words, client):
    """Before: int() read ' 1', '+0', '0_0' and the Arabic-Indic digit three as numbers, and 5000
    digits were a ValueError of its own; now each is a 400 naming the parameter."""
    g = client.post("/api/games", json={"seed": 4}).json()
    refused(client.get(f"/api/games/{g['id']}", params={"since": text}), 400, f"query parameter since {words}")
    assert client.get(f"/api/games/{g['id']}", params={"since": "0"}).status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_play_load_blames_a_saved_unknown_bot_on_load(game, tmp_path, monkeypatch, capsys):
    """Before: 'argument --opponents: unknown agent ...' although no --opponents was given."""
    saved = tmp_path / "save.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"save {saved}\nquit\ny\n"))
    assert play.main(["--game", game, "--seed", "1", "--opponents", "random"]) == 0
    data = json.loads(saved.read_text())
    names = data["specs"] if game == "spacemission" else data["agents"]
    bot = next(q for q, name in enumerate(names) if name not in (None, "human"))
    names[bot] = "nosuch"
    saved.write_text(json.dumps(data) + "\n")
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exc:
        play.main(["--load", str(saved)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "argument --load: " in err and "unknown agent 'nosuch'" in err
    assert "--opponents" not in err.split("error:")[1]


def test_bench_takes_red_planets_own_rule_set(capsys):
    """--rules listed Space Mission's rule sets only, so `bench --game red_planet --rules
    first_edition` (what play and arena accept) was refused."""
    assert bench.main(["--game", "red_planet", "--rules", "first_edition", "--only", "engine", "--batch", "4",
                       "--seconds", "0.05", "--json"]) == 0
    assert '"engine"' in capsys.readouterr().out
