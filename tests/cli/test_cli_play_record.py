"""``spacemission play --record FILE`` and play's quit/save answers, for both games: a file
that cannot take a recorded game is refused before the game starts; a failed write prints
the record rather than losing it; Red Planet asks and answers as Space Mission does."""
import io
import json
import sys

import pytest

from spacemission_cli import play
from spacemission_cli._games import append_record, check_record_file, read_records, record_finished_game, ReplayError

ONES = "1\n" * 3000
GAMES = {"spacemission": ["--opponents", "greedy"], "red_planet": ["--game", "red_planet", "--opponents", "random,random"]}


def run(argv, text, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = play.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(argv, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(ONES))
    with pytest.raises(SystemExit) as exc:
        play.main([str(a) for a in argv])
    assert exc.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("content, why", [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "cannot read"),                     # a picture: not UTF-8
    (b'{"format": "spacemission-arena-results", "agents": []}\n', "line 1"),  # results.json: not a record
    (b"hello\n", "line 1"),
])
def test_a_file_that_cannot_take_a_record_is_refused_before_the_game(game, content, why, tmp_path, monkeypatch,
                                                                      capsys):
    path = tmp_path / "target"
    path.write_bytes(content)
    err = refused([*GAMES[game], "--seed", 3, "--record", path], monkeypatch, capsys)
    assert "argument --record" in err and why in err and str(path) in err
    assert path.read_bytes() == content  # untouched


def test_a_saved_game_is_no_file_of_records(tmp_path, monkeypatch, capsys):
    saved = tmp_path / "saved.json"
    code, out, _ = run(["--opponents", "greedy", "--seed", 3], f"save {saved}\nquit\ny\n", monkeypatch, capsys)
    assert code == 0 and saved.exists()
    before = saved.read_text()
    err = refused(["--opponents", "greedy", "--seed", 3, "--record", saved], monkeypatch, capsys)
    assert "saved by play's 'save FILE'" in err and saved.read_text() == before


@pytest.mark.parametrize("game", list(GAMES))
def test_a_file_of_records_takes_one_more(game, tmp_path, monkeypatch, capsys):
    """Recording twice into one file: two games that replay; the second record is game 1."""
    path = tmp_path / "games.jsonl"
    for seed in (3, 4):
        code, out, err = run([*GAMES[game], "--seed", seed, "--record", path], ONES, monkeypatch, capsys)
        assert code == 0, err
    assert "recorded as game 1" in out
    assert [rec["seed"] for _, rec in read_records(path)] == [3, 4]


def test_a_last_line_without_its_newline_is_not_joined(tmp_path):
    path = tmp_path / "games.jsonl"
    append_record(path, {"seed": 1, "actions": []})
    path.write_text(path.read_text().rstrip("\n"))  # an editor dropped the final newline
    assert append_record(path, {"seed": 2, "actions": []}) == 1
    assert [json.loads(line)["seed"] for line in path.read_text().splitlines()] == [1, 2]


def test_a_failed_write_prints_the_record(tmp_path, capsys):
    """The file changed during the game (here: now a directory): the record is printed, one
    JSON line, instead of being lost."""
    from rich.console import Console

    path = tmp_path / "gone"
    path.mkdir()
    record_finished_game(Console(), path, {"seed": 7, "actions": [[1, 2]]})
    out = capsys.readouterr().out
    assert f"cannot record the game in {path}" in out
    assert json.loads(out.strip().splitlines()[-1]) == {"seed": 7, "actions": [[1, 2]]}


def test_an_absent_or_empty_file_may_take_a_record(tmp_path):
    check_record_file(tmp_path / "new.jsonl")
    (tmp_path / "empty.jsonl").write_text("")
    check_record_file(tmp_path / "empty.jsonl")
    (tmp_path / "blank.jsonl").write_text("\n \n")  # a review: refused, though append_record takes it
    check_record_file(tmp_path / "blank.jsonl")
    (tmp_path / "bad.jsonl").write_text("[1, 2]\n")
    with pytest.raises(ReplayError, match="line 1"):
        check_record_file(tmp_path / "bad.jsonl")


@pytest.mark.parametrize("game", list(GAMES))
def test_quit_says_whether_saved_and_that_nothing_was_recorded(game, tmp_path, monkeypatch, capsys):
    rec = tmp_path / "games.jsonl"
    code, out, _ = run([*GAMES[game], "--seed", 3, "--record", rec], "quit\nn\nquit\ny\n", monkeypatch, capsys)
    assert code == 0
    assert out.count("Leave the game? It is not saved ('save FILE' keeps it). [y/N]") == 2
    assert "going on" in out and "left the game in round 1" in out
    assert f"not recorded in {rec}: only finished games are" in out and not rec.exists()


@pytest.mark.parametrize("game", list(GAMES))
def test_save_to_a_directory_is_refused_without_asking(game, tmp_path, monkeypatch, capsys):
    code, out, _ = run([*GAMES[game], "--seed", 3], f"save {tmp_path}\nquit\ny\n", monkeypatch, capsys)
    assert code == 0 and f"not saved: {tmp_path} is a directory" in out and "Overwrite it?" not in out


def test_red_planet_names_one_winner_in_the_singular(monkeypatch, capsys):
    code, out, _ = run(["--game", "red_planet", "--opponents", "random,random", "--seed", 5, "--seat", 1], ONES,
                       monkeypatch, capsys)
    line = next(x for x in out.splitlines() if x.startswith(("Winner", "You win")))
    assert line == "You win!" or (line.startswith("Winner: ") and "(shared)" not in line) or \
        (line.startswith("Winners: ") and line.endswith("(shared)"))


def test_red_planet_help_sums_up_the_rules(monkeypatch, capsys):
    """play's --help says help "also sums up the rules": it did for Space Mission only."""
    code, out, _ = run(["--game", "red_planet", "--opponents", "random", "--seed", 3], "help\nquit\ny\n",
                       monkeypatch, capsys)
    assert code == 0 and "The rules in short (M-R1" in out and "Recruiter" in out and "ten rounds" in out
