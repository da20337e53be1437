"""Malformed files and requests found by a robustness sweep of the CLI and the web
server: a one-line argument error (exit 2) or a 4xx JSON error naming the problem, never a
traceback or a 500, and the server keeps working."""
import json
import os

import pytest

from spacemission_cli import play, replay
from tests.helpers.web import first_moves_record, refused, unfinished_save, web_client

DEEP = "[" * 5000 + "]" * 5000  # past the json parser's nesting limit up to Python 3.12, under the server's body limit
DEEPER = "[" * 100_000 + "]" * 100_000  # past it on Python 3.13 too (9,998 there): for files, which have no size limit


def _too_deep(text: str) -> bool:
    try:
        json.loads(text)
    except RecursionError:
        return True
    return False


# Python 3.13 reads DEEP (a list of lists): the server refuses it as a body that is not an object
DEEP_WORDS = ("not valid JSON: nested too deeply",) if _too_deep(DEEP) else ()
DIGITS = '{"seed": ' + "9" * 5000 + "}"  # an integer Python refuses to convert
RECORD = {"format": "spacemission-arena-game", "version": 1, "seed": 1, "actions": [], "scores": [],
          "config": {"num_players": 2, "rules": "yucata", "max_rounds": 5}}
RP_RECORD = dict(RECORD, config={"game": "red_planet", "num_players": 3})


def argument_error(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


# --- replay, play --load -------------------------------------------------------------------------
@pytest.mark.parametrize("content, message", [
    (DEEPER, "line 1: not valid JSON: nested too deeply"),
    (DIGITS, "line 1: not valid JSON: an integer of 5000 digits (at most"),
    (json.dumps(dict(RECORD, seed=2**64)), "line 1: seed must be an integer in [0, 2**64), got 18446744073709551616"),
    (json.dumps(dict(RP_RECORD, seed=2**64)), "line 1: seed must be an integer in [0, 2**64), got 18446744073709551616"),
])
def test_replay_refuses_malformed_records_as_argument_errors(content, message, tmp_path, capsys):
    """Before the fix: RecursionError / ValueError tracebacks (the seed from new_game)."""
    path = tmp_path / "g.jsonl"
    path.write_text(content + "\n")
    err = argument_error(replay.main, [path], capsys)
    assert "argument FILE" in err and message in err


@pytest.mark.parametrize("argv", [[], ["--game", "red_planet"]])
def test_play_load_refuses_deeply_nested_json(argv, tmp_path, capsys):
    path = tmp_path / "save.json"
    path.write_text(DEEPER)
    err = argument_error(play.main, argv + ["--load", path], capsys)
    assert "argument --load" in err and "not valid JSON: nested too deeply" in err


# --- train --config -------------------------------------------------------------------------------
@pytest.mark.parametrize("name, content, message", [
    ("c.json", "[1, 2]", "expected an object of options, got list"),
    ("c.json", '"x"', "expected an object of options, got str"),
    ("c.json", '{"config": 5}', '"config" must be an object of options, got int'),
    ("c.json", DEEPER, "nested too deeply"),
    ("c.json", "{not json", "not valid JSON: Expecting property name"),
    ("c.toml", "x = [", "not valid TOML"),
])
def test_train_config_file_errors_name_the_file(name, content, message, tmp_path, capsys):
    """Before the fix a JSON list or string was an AttributeError traceback."""
    pytest.importorskip("sb3_contrib")  # spacemission_training needs the train extra (an ImportError pytest 9 does not skip)
    config = pytest.importorskip("spacemission_training.config")
    path = tmp_path / name
    path.write_text(content)
    err = argument_error(config.parse_args, ["--config", path], capsys)
    assert f"config file {str(path)!r}" in err and message in err



@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir(), "is a directory, not a file"),
    (lambda p: os.mkfifo(p), "is not a regular file"),
    (lambda p: None, "does not exist"),
])
def test_train_config_that_is_not_a_file_says_what_it_is(make, message, tmp_path, capsys):
    """Before the fix a directory (or a FIFO) given to --config was said not to exist."""
    pytest.importorskip("sb3_contrib")
    config = pytest.importorskip("spacemission_training.config")
    path = tmp_path / "c.toml"
    make(path)
    err = argument_error(config.parse_args, ["--config", str(path)], capsys)
    assert f"config file {str(path)!r} {message}" in err

# --- the web server ---------------------------------------------------------------------------------
@pytest.fixture
def client():
    return web_client(max_games=10)


def test_unparsable_bodies_are_400_on_every_post(client):
    """Before the fix: 500 (RecursionError, or the ValueError of a too-long integer)."""
    g = client.post("/api/games", json={"seed": 4}).json()
    before = client.get(f"/api/games/{g['id']}").json()
    for url, words in (("/api/games", "seed must be an integer, got a number of 5000 digits"),
                       (f"/api/games/{g['id']}/move", 'a move is a JSON object {"action": id}'),
                       (f"/api/games/{g['id']}/undo", "undo takes no fields")):
        refused(client.post(url, content=DEEP.encode()), 400, *DEEP_WORDS)
        # a request's integer of too many digits is named by its field's check, not Python's conversion limit
        assert "Exceeds the limit" not in refused(client.post(url, content=DIGITS.encode()), 400, words)
    for content, words in ((DEEP, DEEP_WORDS), (DIGITS, ("not valid JSON: an integer of 5000 digits (at most",))):
        refused(client.post("/api/replays", content=content.encode()), 400, *words)
    assert client.get(f"/api/games/{g['id']}").json() == before


@pytest.mark.parametrize("body", [{"players": None}, {"seat": None}, {"game": "red_planet", "players": None},
                                  {"game": "red_planet", "seat": None}])
def test_a_null_option_of_a_new_game_takes_its_default(body, client):
    """As ``"seed": null`` does (docs/play.md); before the fix: 500."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["seat"] == 0 and r.json()["players"] == (3 if "game" in body else 2)


@pytest.mark.parametrize("body, key, default", [({"game": None}, "game", "spacemission"),
                                                 ({"rules": None}, "rules", "yucata"),
                                                 ({"opponents": None}, "opponents", "the server's first, random"),
                                                 ({"game": "red_planet", "opponents": None}, "opponents",
                                                  "the server's first, random")])
def test_a_null_name_of_a_new_game_is_refused_saying_why(body, key, default, client):
    """A null number takes its default (above); a name (game, rules, opponents) is given or left
    out. Before: {"game": null} was refused as "game must be one of spacemission, red_planet, got
    None" (None, Python's word, and no hint that leaving it out means spacemission), rules and
    opponents alike. Now the message says it is null, names nothing, and what leaving it out
    means; no game is made."""
    r = client.post("/api/games", json=body)
    refused(r, 400, f"{key} is null, which names nothing: leave {key} out for {default} (only a number field")
    assert "None" not in r.json()["error"]
    assert len(client.app.state.store) == 0


@pytest.mark.parametrize("seat", [0.0, True, "0"])
def test_a_move_names_a_seat_that_is_not_an_integer(seat, client):
    """Before the fix 0.0 (and True for seat 1) passed as the person's seat. (null is a
    number's default: the next test.)"""
    g = client.post("/api/games", json={"seed": 4}).json()
    r = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"], "seat": seat})
    refused(r, 400, f"seat must be an integer, got {json.dumps(seat)}")
    assert client.get(f"/api/games/{g['id']}").json()["log_size"] == g["log_size"]


@pytest.mark.parametrize("fields", [{"seat": None}, {"version": None}, {"seat": None, "version": None}])
def test_a_null_number_of_a_move_takes_its_default(fields, client):
    """A move's seat and version are numbers: null takes the default, as if left out (your
    seat; no version check), as a new game's number fields do (docs/play.md). Before:
    "version": null was played while "seat": null was refused ("seat must be an integer, got
    None")."""
    g = client.post("/api/games", json={"seed": 4}).json()
    left_out = client.post("/api/games", json={"seed": 4}).json()
    action = g["moves"][0]["action"]
    r = client.post(f"/api/games/{g['id']}/move", json={"action": action, **fields})
    assert r.status_code == 200, r.text
    plain = client.post(f"/api/games/{left_out['id']}/move", json={"action": action}).json()
    assert r.json()["log"] == plain["log"] and r.json()["version"] == plain["version"] == g["version"] + 1


@pytest.mark.parametrize("rec, status, words", [
    (dict(RECORD, seed=2**64), 400, "seed must be an integer in [0, 2**64)"),
    (dict(RP_RECORD, seed=2**64), 400, "seed must be an integer in [0, 2**64)"),
    (dict(RECORD, scores=[1, {"total": 3}]), 201, None),
    (RP_RECORD, 201, None),  # a record without config.rules (the game's default)
])
def test_uploaded_records_with_odd_fields_are_refused_or_listed(rec, status, words, client):
    """Before the fix: 500 for each (the seed from new_game, ``.get`` on a score that is
    not an object, ``config["rules"]`` of a record without it)."""
    r = client.post("/api/replays", content=json.dumps(rec).encode())
    if words:
        refused(r, status, words)
    else:
        assert r.status_code == status, r.text
        assert len(r.json()["games"]) == 1 and r.json()["games"][0]["error"]  # listed, with why it does not replay
    assert client.get("/api/meta").status_code == 200


@pytest.mark.parametrize("text, message", [
    ('{"steps": "x"}', "option steps must be an integer, got 'x'"),
    ('{"steps": 2.5}', "option steps must be an integer, got 2.5"),
    ('{"lr": "0.1"}', "option lr must be a finite number, got '0.1'"),
    ('{"tensorboard": "yes"}', "option tensorboard must be true or false, got 'yes'"),
    ('{"rules": 3}', "option rules must be a string, got 3"),
])
def test_train_config_file_values_of_the_wrong_type_are_named(tmp_path, capsys, text, message):
    """Before: a string where a number belongs failed inside a comparison ("'>' not
    supported between instances of 'str' and 'int'") or was kept as given."""
    pytest.importorskip("sb3_contrib")  # spacemission_training needs the train extra
    from spacemission_training.config import TrainConfig, parse_args

    f = tmp_path / "c.json"
    f.write_text(text)
    with pytest.raises(SystemExit):
        parse_args(["--config", str(f)])
    assert message in capsys.readouterr().err
    assert TrainConfig(steps=1e6).steps == 1_000_000  # a whole number written as a float is an int


# a value of each JSON type a client may send where another belongs; HUGE: an integer of 5000 digits
HUGE = "<5000 digits>"  # written as 5000 nines (_body)
JSON_VALUES = [None, True, False, {"a": 1}, [1, 2], "3", 1.5, HUGE]


def _body(fields: dict) -> bytes:
    return json.dumps(fields).replace(json.dumps(HUGE), "9" * 5000).encode()


def _speaks_json(message: str, value) -> None:
    """The message names ``value`` as JSON wrote it (a 5000-digit integer by its length), not as Python does."""
    if value == HUGE:
        assert "a number of 5000 digits" in message and "9999" not in message, message
        return
    assert json.dumps(value) in message, message
    assert repr(value) == json.dumps(value) or repr(value) not in message, message


def _json_cases(endpoint: str, fields: list[str], defaults: tuple = ()) -> list:
    return [pytest.param(endpoint, f, v, id=f"{endpoint}-{f}-{'huge' if v == HUGE else json.dumps(v)}")
            for f in fields for v in JSON_VALUES if not (v is None and f in defaults)]


@pytest.mark.parametrize("endpoint, field, value", [
    # null is a number field's default (the tests above); a name's null is refused, naming it null
    *_json_cases("new", ["game", "players", "opponents", "rules", "seat", "seed", "max_rounds"],
                 defaults=("players", "seat", "seed", "max_rounds")),
    *_json_cases("new red_planet", ["players", "opponents", "seat", "seed"], defaults=("players", "seat", "seed")),
    *_json_cases("move", ["action", "seat", "version"], defaults=("seat", "version")),
    *_json_cases("undo", ["body"]), *_json_cases("resign", ["body"]),
])
def test_every_message_names_a_rejected_value_as_json(endpoint, field, value, client):
    """A JSON client sends null, true, {"a": 1}, "3"; the messages said None, True, {'a': 1},
    '3' (Python's repr, checks.shown). Now each is written as JSON (json_input.json_shown),
    cut as before; the same requests are refused with the same status, and nothing changes."""
    g = client.post("/api/games", json={"seed": 4}).json()
    if endpoint.startswith("new"):
        body = dict({"game": "red_planet"} if endpoint == "new red_planet" else {}, **{field: value})
        url = "/api/games"
    elif endpoint == "move":
        body, url = {"action": g["moves"][0]["action"], field: value}, f"/api/games/{g['id']}/move"
    else:
        body, url = value, f"/api/games/{g['id']}/{endpoint}"
    message = refused(client.post(url, content=_body(body)), 400)
    _speaks_json(message, value)
    if value is None and endpoint.startswith("new"):
        assert f"{field} is null, which names nothing" in message
    assert len(client.app.state.store) == 1 and client.get(f"/api/games/{g['id']}").json()["log_size"] == g["log_size"]


@pytest.mark.parametrize("body, kind", [("null", "null"), ("true", "boolean"), ("[1, 2]", "array"), ('"3"', "string"),
                                        ("1.5", "number"), ("9" * 5000, "number")])
def test_a_new_game_that_is_no_object_names_its_type_as_json_does(body, kind, client):
    """Before: "a new game is a JSON object, got NoneType" (bool, list, str, float, LongNumber):
    Python's names of the types. Now JSON's (json_input.json_kind)."""
    refused(client.post("/api/games", content=body.encode()), 400, f"a new game is a JSON object, got {kind}")
    assert len(client.app.state.store) == 0


def test_a_repeated_key_of_a_request_body_is_named_as_json():
    """Before: "the key 'seed' appears more than once" (Python's repr of the key)."""
    client = web_client()
    refused(client.post("/api/games", content=b'{"seed": 1, "seed": 2}'), 400,
            'the request body is not valid JSON: the key "seed" appears more than once')


# a record's fields x JSON values a field does not take (null is "absent" for the optional
# ones, true and false are what unfinished takes)
_TAKEN = [("agents", None), ("forfeit", None), ("start_player", None), ("game", None), ("unfinished", None),
          ("unfinished", True), ("unfinished", False)]


@pytest.mark.parametrize("field, value", [
    pytest.param(f, v, id=f"{f}-{json.dumps(v)}")
    for f in ("format", "version", "seed", "scores", "agents", "ranks", "winners", "forfeit", "unfinished",
              "start_player", "game")
    for v in JSON_VALUES[:-1] if not any(f == g and v is w for g, w in _TAKEN)])
def test_an_uploaded_records_messages_name_its_values_as_json(field, value, client):
    """The checks of a recorded game (replay FILE, play --load, serve's upload) named a field's
    value in Python's words: "seed must be an integer in [0, 2**64), got None", "unfinished
    must be true or false, got '3'", "not a recorded game (format None ...; expected
    'spacemission-arena-game' ...)", "recorded ranks None but ...". Now as the file wrote it."""
    r = client.post("/api/replays", content=json.dumps(dict(first_moves_record(3, 3), **{field: value})).encode())
    message = refused(r, 400) if r.status_code != 201 else r.json()["games"][0]["error"]  # listed: does not replay
    _speaks_json(message, value)
    assert "'spacemission-arena-game'" not in message


@pytest.mark.parametrize("game, field, value", [
    pytest.param(g, f, v, id=f"{g}-{f}-{json.dumps(v)}")
    for g in ("spacemission", "red_planet") for f in ("game", "num_players", "rules", "max_rounds")
    for v in JSON_VALUES[:-1] + [9, "x"]  # a record's 5000-digit number is refused as it is read
    if not (g == "red_planet" and f in ("rules", "max_rounds") and v is None)  # null: the game's default
    and not (g == "spacemission" and f == "max_rounds" and v == 9)])  # a limit Space Mission allows
def test_a_records_config_names_its_values_as_json(game, field, value, client, tmp_path, capsys):
    """A recorded game's config (replay FILE, play --load, serve's upload) was checked by the
    game configuration's Python checks: "num_players must be an integer in 2..5, got
    NoneType: None", "unknown rules 'x'", "unknown game 'x'". Now in JSON's words, as the web
    API's new game says them (_games.record_config_problem), the value as the file wrote it."""
    rec = first_moves_record(3, 3)
    cfg = dict(rec["config"]) if game == "spacemission" else {"game": "red_planet", "num_players": 3}
    cfg[field] = value
    text = json.dumps(dict(rec, config=cfg))
    message = refused(client.post("/api/replays", content=text.encode()), 400, "config: ")
    _speaks_json(message, value)
    assert "NoneType" not in message and "unknown" not in message
    expected = {"game": "one of red_planet, spacemission",
                "num_players": {"spacemission": "an integer in 2..5 for Space Mission",
                                "red_planet": "an integer in 3..5 for Mission: Red Planet"}[game],
                "rules": {"spacemission": "one of yucata, schmidt for Space Mission",
                          "red_planet": "one of first_edition for Mission: Red Planet"}[game],
                "max_rounds": {"spacemission": "an integer in 1..2147483647 for Space Mission",
                               "red_planet": "10 for Mission: Red Planet"}[game]}[field]
    assert f"config: {field} must be {expected}" in message, message
    path = tmp_path / "g.jsonl"
    path.write_text(text + "\n")
    assert message.split("config: ", 1)[1] in argument_error(replay.main, [path], capsys)


def test_a_json_document_over_several_lines_is_named_as_one(client, tmp_path, capsys):
    """A file that is one JSON document written over several lines (the arena's results.json,
    a record pretty-printed by a JSON tool) was read line by line and refused with "line 1:
    not valid JSON: Expecting property name", of a valid JSON file. Now a pretty-printed record
    replays as the one game it is, and any other document is named as what it is."""
    rec = first_moves_record(3, 3)
    pretty = json.dumps(rec, indent=2)
    path = tmp_path / "game.json"
    path.write_text(pretty)
    code = replay.main([str(path)])
    assert code == 0 and "The rebuilt game matches the record" in capsys.readouterr().out
    r = client.post("/api/replays?name=game.json", content=pretty.encode())
    assert r.status_code == 201 and r.json()["games"][0]["error"] is None, r.text

    summary = json.dumps({"games": 2, "agents": ["random", "greedy"]}, indent=2)
    path.write_text(summary)
    err = argument_error(replay.main, [path], capsys)
    assert f"{path} is one JSON object over 7 lines, not recorded games" in err and "not valid JSON" not in err
    refused(client.post("/api/replays?name=results.json", content=summary.encode()), 400,
            "results.json is one JSON object over 7 lines, not recorded games")
    path.write_text(json.dumps([rec, rec], indent=1))
    assert "is one JSON array over" in argument_error(replay.main, [path], capsys)


@pytest.mark.parametrize("version", [True, 1.0])
def test_a_format_version_is_the_whole_number_written(version, client, tmp_path, capsys):
    """A recorded game's and a play save's "version" true or 1.0 equal 1 in Python and were
    taken as version 1 (replay, play --load, serve's upload); no file of ours writes them."""
    record = dict(first_moves_record(3, 3), version=version)
    message = refused(client.post("/api/replays", content=json.dumps(record).encode()), 400, "not a recorded game")
    assert f"version {json.dumps(version)};" in message
    rec_path = tmp_path / "g.jsonl"
    rec_path.write_text(json.dumps(record) + "\n")
    assert "not a recorded game" in argument_error(replay.main, [rec_path], capsys)

    path, _ = unfinished_save(tmp_path / "save.json")
    save = dict(json.loads(path.read_text()), version=version)
    path.write_text(json.dumps(save))
    refused(client.post("/api/replays?name=save.json", content=json.dumps(save).encode()), 400,
            f"save.json: saved game version {json.dumps(version)}; expected 1")
    assert "not a saved game" in argument_error(play.main, ["--load", path], capsys)


@pytest.mark.parametrize("field", ["state", "seat", "specs", "seed", "actions"])
def test_a_saved_game_without_a_field_names_it(field, client, tmp_path):
    """Before: "not a readable saved game (KeyError: 'seed')", Python's exception and repr."""
    path, _ = unfinished_save(tmp_path / "save.json")
    data = {k: v for k, v in json.loads(path.read_text()).items() if k != field}
    message = refused(client.post("/api/replays?name=save.json", content=json.dumps(data).encode()), 400,
                      f'save.json: missing field "{field}" of a saved game')
    assert "KeyError" not in message


@pytest.mark.parametrize("field, value", [
    pytest.param(f, v, id=f"{f}-{json.dumps(v)}")
    for f in ("version", "rules", "num_players", "round", "is_over", "phase") for v in JSON_VALUES[:-1]
    if not (f == "is_over" and isinstance(v, bool))])  # is_over's type: then the state's own checks speak
def test_an_uploaded_saves_state_names_its_values_as_json(field, value, client, tmp_path):
    """The state of a play save (uploaded, replayed, loaded) was checked with messages in
    Python's words ("num_players must be an integer in [2, 5], got None", "unknown rules
    '3'", "got True"). Now as the file wrote it (state_json uses json_shown)."""
    path, _ = unfinished_save(tmp_path / "save.json")
    data = json.loads(path.read_text())
    data["state"][field] = value
    message = refused(client.post("/api/replays?name=save.json", content=json.dumps(data).encode()), 400,
                      "save.json: not a readable saved game")
    _speaks_json(message, value)
