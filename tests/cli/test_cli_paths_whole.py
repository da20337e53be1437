"""The commands name the files they write and read whole, on one line. ``spacemission play``: piped, its
console wraps at 110 columns and broke a longer path (a macOS temporary folder's, a deep
project's) across lines, so "continue with: spacemission play --load PATH" could not be
copied as it stood; and the loaded game's path was read as rich markup in Space Mission's
"Continuing the game saved in ..." line, so "[x]" in it was dropped."""
from __future__ import annotations

import pytest

from tests.helpers.cli_play import run_play

QUITS = "quit\ny\n"


def _new_game(game: str) -> list[str]:
    """play's arguments for a new game against random bots (Red Planet: 3 players)."""
    return ["--game", game, "--opponents", "random" if game == "spacemission" else "random,random", "--seed", "3"]


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_a_long_save_path_with_brackets_is_named_whole_on_one_line(game, tmp_path, monkeypatch, capsys):
    folder = tmp_path.joinpath("games [old]", *["a deep project folder"] * 5)
    folder.mkdir(parents=True)
    save = folder / "save [1].json"
    assert len(str(save)) > 150  # past the 110 columns of piped output
    code, out, _ = run_play(_new_game(game), monkeypatch, capsys, f"1\nsave {save}\n" + QUITS)
    assert code == 0 and f"saved to {save}; continue with: spacemission play --load {save}\n" in out
    code, out, _ = run_play(["--load", str(save)], monkeypatch, capsys, QUITS)
    assert code == 0 and f"Continuing the game saved in {save} (" in out


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_the_questions_about_a_long_path_keep_it_on_one_line(game, tmp_path, monkeypatch, capsys):
    folder = tmp_path.joinpath(*["a deep project folder"] * 6)
    folder.mkdir(parents=True)
    other = folder / "notes.txt"
    other.write_text("mine")
    code, out, _ = run_play(_new_game(game), monkeypatch, capsys, f"save {other}\nn\nsave {folder}\n" + QUITS)
    assert code == 0 and other.read_text() == "mine"
    assert f"{other} exists. Overwrite it? [y/N] " in out and f"not saved: {folder} is a directory" in out


@pytest.mark.parametrize("game, players", [("spacemission", "2"), ("red_planet", "3")])
def test_arena_and_replay_name_long_bracketed_paths_whole(game, players, tmp_path, capsys):
    """`arena --out "runs/[x]"` printed "written to runs/: ..." (rich read "[x]" as markup);
    replay's "Game N of FILE" and "wrote N pictures to DIR/" lines broke a long path."""
    from spacemission_cli.main import main

    out = tmp_path.joinpath("runs [old]", *["a deep project folder"] * 5)
    assert main(["arena", "--game", game, "--agents", "random,greedy", "--players", players, "--games", "1",
                 "--seed", "2", "--out", str(out), "--no-progress"]) == 0
    assert f"written to {out}: results.json" in capsys.readouterr().out
    record, frames = out / "games.jsonl", out / "frames [1]"
    assert main(["replay", str(record), "--to-png", str(frames), "--boards", "end"]) == 0
    text = capsys.readouterr().out
    assert f"Game 0 of {record} (line 1): " in text and f" pictures to {frames}/ (turn_0000.png" in text
