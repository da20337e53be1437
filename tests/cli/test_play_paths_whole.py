"""``spacemission play`` names the files it saves to and loads whole, on one line: piped, its
console wraps at 110 columns and broke a longer path (a macOS temporary folder's, a deep
project's) across lines, so "continue with: spacemission play --load PATH" could not be
copied as it stood; and the loaded game's path was read as rich markup in Space Mission's
"Continuing the game saved in ..." line, so "[x]" in it was dropped."""
from __future__ import annotations

import pytest

from tests.helpers.cli_play import run_play

QUITS = "quit\ny\n"


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_a_long_save_path_with_brackets_is_named_whole_on_one_line(game, tmp_path, monkeypatch, capsys):
    folder = tmp_path.joinpath("games [old]", *["a deep project folder"] * 5)
    folder.mkdir(parents=True)
    save = folder / "save [1].json"
    assert len(str(save)) > 150  # past the 110 columns of piped output
    argv = ["--game", game, "--opponents", "random" if game == "spacemission" else "random,random", "--seed", "3"]
    code, out, _ = run_play(argv, monkeypatch, capsys, f"1\nsave {save}\n" + QUITS)
    assert code == 0 and f"saved to {save}; continue with: spacemission play --load {save}\n" in out
    code, out, _ = run_play(["--load", str(save)], monkeypatch, capsys, QUITS)
    assert code == 0 and f"Continuing the game saved in {save} (" in out


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_the_questions_about_a_long_path_keep_it_on_one_line(game, tmp_path, monkeypatch, capsys):
    folder = tmp_path.joinpath(*["a deep project folder"] * 6)
    folder.mkdir(parents=True)
    other = folder / "notes.txt"
    other.write_text("mine")
    argv = ["--game", game, "--opponents", "random" if game == "spacemission" else "random,random", "--seed", "3"]
    code, out, _ = run_play(argv, monkeypatch, capsys, f"save {other}\nn\nsave {folder}\n" + QUITS)
    assert code == 0 and other.read_text() == "mine"
    assert f"{other} exists. Overwrite it? [y/N] " in out and f"not saved: {folder} is a directory" in out
