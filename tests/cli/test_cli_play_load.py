"""``play --load``: a saved game is data (found by a third-party client review).

Before: an opponent the file named by an import path (``MODULE:CLASS``) was imported, and its
code run, as the file loaded; Space Mission's loader dropped each action's seat and label
unchecked (``--record`` then wrote a game ``replay`` refused); a save without ``state`` was a
bare ``KeyError: 'state'``."""
from __future__ import annotations

import io
import json
import sys

import pytest

from spacemission_cli import play, replay

GAMES = ("spacemission", "red_planet")
BOT_CLASS = {"spacemission": "spacemission_agents.random_agents import RandomAgent as Bot",
             "red_planet": "spacemission_agents.red_planet.random_bot import RandomBot as Bot"}


def _save(game, tmp_path, monkeypatch) -> tuple:
    """A game saved after the person's first moves (option 1 each time)."""
    saved = tmp_path / "save.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3 + f"save {saved}\nquit\ny\n"))
    assert play.main(["--game", game, "--seed", "1", "--opponents", "random"]) == 0
    return saved, json.loads(saved.read_text())


def _names(game, data) -> list:
    return data["specs"] if game == "spacemission" else data["agents"]


def _load(argv, monkeypatch, capsys, stdin="quit\ny\n"):
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exc:
        play.main(argv)
    return exc.value.code, capsys.readouterr().err


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_import_path_runs_no_code_unless_trusted(game, tmp_path, monkeypatch, capsys):
    saved, data = _save(game, tmp_path, monkeypatch)
    marker = tmp_path / "ran"
    module = f"saved_bot_module_{game}"  # a module name per test: sys.modules keeps an imported one
    (tmp_path / f"{module}.py").write_text(
        f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\nfrom {BOT_CLASS[game]}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = _names(game, data)
    bot = next(q for q, name in enumerate(names) if name not in (None, "human"))
    names[bot] = f"{module}:Bot"
    saved.write_text(json.dumps(data) + "\n")
    code, err = _load(["--load", str(saved)], monkeypatch, capsys)
    assert code == 2 and "argument --load: " in err and f"'{module}:Bot' by an import path" in err
    assert "--trust-load" in err and not marker.exists()  # nothing imported
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\ny\n"))
    assert play.main(["--load", str(saved), "--trust-load"]) == 0  # the person's word: built and played
    assert marker.read_text() == "ran"


def test_trust_load_needs_load(capsys):
    with pytest.raises(SystemExit) as exc:
        play.main(["--trust-load", "--seed", "1"])
    assert exc.value.code == 2 and "argument --trust-load: only with --load" in capsys.readouterr().err


@pytest.mark.parametrize("field", ["state", "seat", "actions"])
def test_a_save_missing_a_field_names_it(field, tmp_path, monkeypatch, capsys):
    """In JSON's words, as replay and serve's upload name it (before: Python's 'state')."""
    saved, data = _save("spacemission", tmp_path, monkeypatch)
    del data[field]
    saved.write_text(json.dumps(data))
    code, err = _load(["--load", str(saved)], monkeypatch, capsys)
    assert code == 2 and f'missing field "{field}" of a saved game' in err and "KeyError" not in err


@pytest.mark.parametrize("edit, words", [
    (lambda a: a[0].__setitem__(2, "xyz"), "the saved game: action 1 of"),
    (lambda a: a[0].__setitem__(2, "xyz"), 'recorded label "xyz", but the rebuilt game says'),
    (lambda a: a[1].__setitem__(0, (a[1][0] + 1) % 2), "action 2 of"),
    (lambda a: a[0].__setitem__(0, "0"), "actions must be a list of [seat, action id, label]"),
])
def test_space_mission_load_checks_each_actions_seat_and_label(edit, words, tmp_path, monkeypatch, capsys):
    """The saved actions are the game's record: a finished game is recorded from them, so each
    must be the seat that was to act and the label of its action, as replay checks."""
    saved, data = _save("spacemission", tmp_path, monkeypatch)
    assert len(data["actions"]) >= 2
    edit(data["actions"])
    saved.write_text(json.dumps(data))
    code, err = _load(["--load", str(saved)], monkeypatch, capsys)
    assert code == 2 and "argument --load: " in err and words in err


def test_a_loaded_game_played_to_its_end_is_recorded_and_replays(tmp_path, monkeypatch, capsys):
    """What the checks keep true: a loaded game, finished with --record, replays."""
    saved, record = tmp_path / "save.json", tmp_path / "games.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 4 + f"save {saved}\nquit\ny\n"))
    assert play.main(["--opponents", "random", "--seed", "3", "--max-rounds", "6"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    assert play.main(["--load", str(saved), "--record", str(record)]) == 0
    assert record.exists()
    assert replay.main([str(record)]) == 0 and "matches the record" in capsys.readouterr().out


def _unknown_bot(game, data):
    names = _names(game, data)
    names[next(q for q, name in enumerate(names) if name not in (None, "human"))] = "nosuchbot"


@pytest.mark.parametrize("game, edit, words", [
    ("spacemission", _unknown_bot, "unknown agent 'nosuchbot'"),
    ("red_planet", _unknown_bot, "unknown agent 'nosuchbot'"),
    ("red_planet", lambda game, data: data.pop("unfinished"), "not a saved unfinished game"),
    ("red_planet", lambda game, data: data["agents"].__setitem__(data["agents"].index("human"), "random"),
     "its agents must name exactly one 'human' seat"),
    ("spacemission", lambda game, data: data.__setitem__("seat", False), "seat and specs do not fit the game"),
])
def test_a_save_that_does_not_load_is_named(game, edit, words, tmp_path, monkeypatch, capsys):
    """Before: these errors named no file (argument --load: unknown agent ...), and Space
    Mission's loader took a seat of false for seat 0."""
    saved, data = _save(game, tmp_path, monkeypatch)
    edit(game, data)
    saved.write_text(json.dumps(data) + "\n")
    code, err = _load(["--load", str(saved)], monkeypatch, capsys)
    assert code == 2 and f"argument --load: {saved}: " in err and words in err, err


@pytest.mark.parametrize("game", GAMES)
def test_the_saved_game_is_parsed_once(game, tmp_path, monkeypatch, capsys):
    """Before: play parsed the file to tell the games apart, then its game's loader parsed
    it again (Space Mission: twice in all; a protocol game's record: three times, the whole
    text and then its line), for a save that may be large."""
    saved, _ = _save(game, tmp_path, monkeypatch)
    text = saved.read_text().strip()
    parses = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda s, *a, **k: (parses.append(len(s) >= len(text)), real(s, *a, **k))[1])
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\ny\n"))
    assert play.main(["--load", str(saved)]) == 0
    assert parses.count(True) == 1


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("given", [False, True])
def test_a_saved_game_wrapped_in_a_json_list_names_its_games_format(game, given, tmp_path, monkeypatch, capsys):
    """A save wrapped in a JSON list (``[record]``) is refused naming the format of the game
    it is loaded as: the list's record's game, or ``--game``. Before: a Red Planet save in a
    list, loaded without --game, was refused as "not a saved game (expected format
    'spacemission-play-save' ...)", Space Mission's format; with --game red_planet as "line 1:
    a recorded game is a JSON object", naming no format."""
    saved, data = _save(game, tmp_path, monkeypatch)
    saved.write_text(json.dumps([data]) + "\n")
    code, err = _load(["--load", str(saved)] + (["--game", game] if given else []), monkeypatch, capsys)
    assert code == 2 and f"argument --load: {saved}: not a saved game" in err, err
    if game == "red_planet":
        assert ("Mission: Red Planet's 'save FILE' writes one record line, a JSON object (format "
                "\"spacemission-arena-game\" with \"unfinished\": true), not a JSON list") in err, err
        assert "spacemission-play-save" not in err
    else:
        assert "expected Space Mission's format 'spacemission-play-save' version 1" in err, err


@pytest.mark.parametrize("content, words", [
    ("[1, 2]", "not a JSON list"), ("[]", "not a JSON list"), ("5", "not the JSON value 5"),
    ('"text"', 'not the JSON value "text"')])
def test_red_planet_names_its_format_for_any_document_that_is_no_record(content, words, tmp_path, monkeypatch,
                                                                       capsys):
    """``--game red_planet --load`` of a JSON document that is no object names Red Planet's save."""
    saved = tmp_path / "save.json"
    saved.write_text(content)
    code, err = _load(["--load", str(saved), "--game", "red_planet"], monkeypatch, capsys)
    assert code == 2 and f"{saved}: not a saved game: Mission: Red Planet's 'save FILE' writes one record line" in err
    assert words in err and "spacemission-play-save" not in err, err
